// SPDX-License-Identifier: GPL-2.0-or-later
/* Machine description. */
#include "sweep_machine.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "emulation.h"
#include "sweep_proc.h"
#include "sweep_sysctl.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src && *src ? src : "unknown");
}

void sweep_machine_cpu_model(const char *cpuinfo, char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "Hardware", "cpu model",
					    "cpu", "Processor" };
	char line[512];
	FILE *f = fopen(cpuinfo, "re");

	copy(buf, len, NULL);
	if (!f)
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			size_t kl = strlen(keys[k]);
			char *v;

			if (strncmp(line, keys[k], kl) ||
			    (line[kl] != ' ' && line[kl] != '\t' && line[kl] != ':'))
				continue;
			v = strchr(line, ':');
			if (!v)
				continue;
			v += 1 + strspn(v + 1, " \t");
			v[strcspn(v, "\n")] = '\0';
			if (*v) {
				copy(buf, len, v);
				fclose(f);
				return;
			}
		}
	}
	fclose(f);
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	copy(buf, len, NULL);
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		copy(buf, len, NULL);
	fclose(f);
}

void sweep_machine_collect(struct sweep_machine *m)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;

	memset(m, 0, sizeof(*m));
	if (uname(&u) == 0) {
		copy(m->hostname, sizeof(m->hostname), u.nodename);
		copy(m->kernel, sizeof(m->kernel), u.release);
		copy(m->kernel_build, sizeof(m->kernel_build), u.version);
		copy(m->arch, sizeof(m->arch), u.machine);
	}
	sweep_machine_cpu_model("/proc/cpuinfo", m->cpu_model, sizeof(m->cpu_model));
	m->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	read_line("/sys/devices/system/cpu/possible", m->cpus_possible,
		  sizeof(m->cpus_possible));
	if (sweep_sysctl_read(&m->delayacct) < 0)
		m->delayacct = -1;
	copy(m->exitmon_version, sizeof(m->exitmon_version), NULL);
	copy(m->exitgen_version, sizeof(m->exitgen_version), NULL);
	/* one form for all three programs: what `NAME --version` prints */
	copy(m->exitsweep_version, sizeof(m->exitsweep_version), "exitsweep " EXITMON_VERSION);
	gmtime_r(&now, &tm);
	strftime(m->started, sizeof(m->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(m->emulated, sizeof(m->emulated), "%s",
		 emulation_name() ? emulation_name() : "");
}

void sweep_machine_prog_version(const char *path, char *buf, size_t len)
{
	char *argv[] = { (char *)path, (char *)"--version", NULL };

	if (sweep_proc_capture(argv, buf, len) < 0 || !buf[0])
		copy(buf, len, NULL);
}
