// SPDX-License-Identifier: GPL-2.0-or-later
#include "probe_btf.h"

#include <errno.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

static const struct btf_type *percpu_section(const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);

	return id < 0 ? NULL : btf__type_by_id(btf, (__u32)id);
}

/* Offset of variable `name` inside the section; -1 when absent. */
static int64_t var_offset(const struct btf *btf, const struct btf_type *sec,
			  const char *name)
{
	const struct btf_var_secinfo *vs = btf_var_secinfos(sec);

	for (unsigned i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);
		const char *n = v ? btf__name_by_offset(btf, v->name_off) : NULL;

		if (n && !strcmp(n, name))
			return vs->offset;
	}
	return -1;
}

/* From a parsed BTF: 0, or -ENOENT when a variable or the section is
 * missing. */
static int percpu_delta(const struct btf *btf, const char *from,
			const char *to, int64_t *delta)
{
	const struct btf_type *sec = percpu_section(btf);
	int64_t a, b;

	if (!sec)
		return -ENOENT;
	a = var_offset(btf, sec, from);
	b = var_offset(btf, sec, to);
	if (a < 0 || b < 0)
		return -ENOENT;
	*delta = b - a;
	return 0;
}

int probe_btf_listener_delta(int64_t *delta)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int r;

	if (!btf)
		return -errno;
	r = percpu_delta(btf, "runqueues", "listener_array", delta);
	btf__free(btf);
	return r;
}
