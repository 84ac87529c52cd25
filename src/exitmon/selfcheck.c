#include "selfcheck.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

static void *check_thread(void *arg)
{
	*(pid_t *)arg = gettid();
	prctl(PR_SET_NAME, SELFCHECK_COMM);
	return NULL;
}

int selfcheck_spawn(int cpu, pid_t *tid)
{
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t set;
	int r;

	*tid = 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	r = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (r == 0)
		r = pthread_create(&t, &attr, check_thread, tid);
	pthread_attr_destroy(&attr);
	if (r)
		return -r;
	return -pthread_join(t, NULL);
}
