// SPDX-License-Identifier: MIT
/* CPU and memory placement of a job's threads (fio's cpus_allowed, numa_*, nice, prio*): parsed once, applied by each worker to itself. */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "iowl/place.h"
#include "iowl/value.h"

#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_BE 2

static void set_bit(struct place_set *s, unsigned i)
{
	s->bits[i / 64] |= 1ULL << (i % 64);
}

static bool has_bit(const struct place_set *s, unsigned i)
{
	return s->bits[i / 64] >> (i % 64) & 1;
}

static unsigned set_count(const struct place_set *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < PLACE_CPUS_MAX / 64; i++)
		n += (unsigned)__builtin_popcountll(s->bits[i]);
	return n;
}

static unsigned cpus_configured(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 && n <= PLACE_CPUS_MAX ? (unsigned)n : PLACE_CPUS_MAX;
}

/* One "N" or "A-B" of a CPU list into s.  Returns 0 or -EINVAL with why set. */
static int cpu_range(const char *tok, struct place_set *s, char *why)
{
	unsigned max = cpus_configured() - 1;
	char *end;
	unsigned long lo, hi;

	errno = 0;
	lo = strtoul(tok, &end, 10);
	hi = lo;
	if (end != tok && *end == '-') {
		const char *h = end + 1;

		hi = strtoul(h, &end, 10);
		if (end == h)
			end = (char *)tok;
	}
	if (end == tok || *end || errno || *tok == '-' || *tok == '+')
		return snprintf(why, VAL_WHY_LEN, "'%s' is not a CPU number or range A-B", tok),
		       -EINVAL;
	if (hi < lo)
		return snprintf(why, VAL_WHY_LEN, "range '%s' ends before it starts", tok), -EINVAL;
	if (hi > max)
		return snprintf(why, VAL_WHY_LEN,
				"CPU %lu is too large (this machine has CPUs 0-%u)", hi, max),
		       -EINVAL;
	for (unsigned long c = lo; c <= hi; c++)
		set_bit(s, (unsigned)c);
	return 0;
}

/* A CPU list (0,5,8-15) into *s. */
static int cpu_list(const char *v, struct place_set *s, char *why)
{
	char buf[512], *save = NULL;

	memset(s, 0, sizeof(*s));
	if (strlen(v) >= sizeof(buf))
		return snprintf(why, VAL_WHY_LEN, "the CPU list is too long"), -EINVAL;
	strcpy(buf, v);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int ret = cpu_range(tok, s, why);

		if (ret)
			return ret;
	}
	if (!set_count(s))
		return snprintf(why, VAL_WHY_LEN, "names no CPU (e.g. 0,5,8-15)"), -EINVAL;
	return 0;
}

int place_parse_cpus(struct place_set *s, const char *v, char *why)
{
	return cpu_list(v, s, why);
}

int place_parse_cpumask(struct place_set *out, const char *v, char *why)
{
	struct place_set s = { { 0 } };
	uint64_t mask;
	unsigned n = cpus_configured();

	if (val_parse_u64(v, &mask, why))
		return -EINVAL;
	if (!mask)
		return snprintf(why, VAL_WHY_LEN,
				"selects no CPU (bit N is CPU N: 34 is CPUs 1 and 5)"),
		       -EINVAL;
	for (unsigned i = 0; i < 64; i++) {
		if (!(mask >> i & 1))
			continue;
		if (i >= n)
			return snprintf(why, VAL_WHY_LEN,
					"CPU %u is too large (this machine has CPUs 0-%u)", i,
					n - 1),
			       -EINVAL;
		set_bit(&s, i);
	}
	*out = s;
	return 0;
}

/*
 * libnuma reports through these two (weak in libnuma, so ours replace them): it would print
 * "libnuma: Warning: node argument 1 out of range" on stderr before iowl's own FILE:LINE error.
 * Every libnuma call iowl makes checks its result and reports what was wrong itself.
 */
void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

void numa_error(char *where)
{
	(void)where;
}

/* A NUMA node list ("all", "0,2", "0-1") through libnuma, into s.  Returns 0 or -EINVAL. */
static int node_list(const char *v, struct place_set *s, char *why)
{
	struct bitmask *bm;

	if (numa_available() < 0)
		return snprintf(why, VAL_WHY_LEN, "this machine's kernel has no NUMA support"),
		       -EINVAL;
	bm = numa_parse_nodestring(v);
	if (!bm)
		return snprintf(why, VAL_WHY_LEN,
				"'%s' is not a list of this machine's NUMA nodes (0-%d, or all)", v,
				numa_max_node()),
		       -EINVAL;
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < PLACE_CPUS_MAX && i < bm->size; i++)
		if (numa_bitmask_isbitset(bm, i))
			set_bit(s, i);
	numa_bitmask_free(bm);
	return 0;
}

/*
 * numa_cpu_nodes: the nodes, and their CPUs found here, in the thread that parses: libnuma fills
 * its node-to-CPUs cache on first use without a lock, so workers asking at once raced in it
 * (ThreadSanitizer) and could read a half-made mask.
 */
int place_parse_cpu_nodes(struct place_opts *p, const char *v, char *why)
{
	struct bitmask *cpus;

	if (node_list(v, &p->cpu_nodes, why))
		return -EINVAL;
	memset(&p->node_cpus, 0, sizeof(p->node_cpus));
	cpus = numa_allocate_cpumask();
	if (!cpus)
		return snprintf(why, VAL_WHY_LEN, "out of memory"), -EINVAL;
	for (unsigned n = 0; n < PLACE_CPUS_MAX; n++) {
		if (!has_bit(&p->cpu_nodes, n))
			continue;
		if (numa_node_to_cpus((int)n, cpus) < 0) {
			numa_free_cpumask(cpus);
			return snprintf(why, VAL_WHY_LEN, "node %u: its CPUs are unknown", n),
			       -EINVAL;
		}
		for (unsigned c = 0; c < PLACE_CPUS_MAX && c < cpus->size; c++)
			if (numa_bitmask_isbitset(cpus, c))
				set_bit(&p->node_cpus, c);
	}
	numa_free_cpumask(cpus);
	return 0;
}

static const struct {
	const char *name;
	unsigned value;
} mem_modes[] = {
	{ "default", PLACE_MEM_DEFAULT }, { "prefer", PLACE_MEM_PREFER },
	{ "bind", PLACE_MEM_BIND },	  { "interleave", PLACE_MEM_INTERLEAVE },
	{ "local", PLACE_MEM_LOCAL },
};

int place_parse_mem_policy(struct place_opts *p, const char *v, char *why)
{
	const char *colon = strchr(v, ':');
	size_t len = colon ? (size_t)(colon - v) : strlen(v);
	unsigned mode = 0;

	for (size_t i = 0; i < sizeof(mem_modes) / sizeof(mem_modes[0]); i++) {
		const char *n = mem_modes[i].name;

		if (strlen(n) == len && !strncmp(n, v, len))
			mode = mem_modes[i].value;
	}
	if (!mode)
		return snprintf(why, VAL_WHY_LEN,
				"mode must be default, prefer, bind, interleave or local (then :NODES)"),
		       -EINVAL;
	memset(&p->mem_nodes, 0, sizeof(p->mem_nodes));
	p->mem_mode = mode;
	if (mode == PLACE_MEM_DEFAULT || mode == PLACE_MEM_LOCAL) {
		if (colon)
			return snprintf(why, VAL_WHY_LEN, "%.*s takes no node list", (int)len, v),
			       -EINVAL;
		return 0;
	}
	if (!colon || !colon[1])
		return snprintf(why, VAL_WHY_LEN, "%.*s needs a node list (%.*s:0)", (int)len, v,
				(int)len, v),
		       -EINVAL;
	if (node_list(colon + 1, &p->mem_nodes, why))
		return -EINVAL;
	if (mode == PLACE_MEM_PREFER && set_count(&p->mem_nodes) != 1)
		return snprintf(why, VAL_WHY_LEN, "prefer takes one node"), -EINVAL;
	return 0;
}

static int parse_int_in(const char *v, int lo, int hi, int *out, char *why)
{
	int64_t x;

	if (val_parse_s64(v, &x, why))
		return -EINVAL;
	if (x < lo || x > hi)
		return snprintf(why, VAL_WHY_LEN, "must be %d to %d", lo, hi), -EINVAL;
	*out = (int)x;
	return 0;
}

int place_parse_nice(struct place_opts *p, const char *v, char *why)
{
	return parse_int_in(v, -20, 19, &p->nice, why);
}

int place_parse_prio(struct place_opts *p, const char *v, char *why)
{
	int x;

	if (parse_int_in(v, 0, 7, &x, why))
		return -EINVAL;
	p->prio = (unsigned)x;
	p->prio_set = true;
	return 0;
}

int place_parse_prioclass(struct place_opts *p, const char *v, char *why)
{
	int x;

	if (parse_int_in(v, 0, 3, &x, why))
		return -EINVAL;
	p->prioclass = (unsigned)x;
	p->prio_set = true;
	return 0;
}

/* The CPUs the thread may run on: the set s, or with split its (number mod n)th CPU, as fio. */
static int apply_cpus(const struct place_set *s, bool split, unsigned number, const char *what,
		      const char *name, struct iowl_err *err)
{
	cpu_set_t *set = CPU_ALLOC(PLACE_CPUS_MAX);
	size_t sz = CPU_ALLOC_SIZE(PLACE_CPUS_MAX);
	unsigned n = set_count(s), pick = n ? number % n : 0, k = 0;
	int ret = 0;

	if (!set)
		return err_nomem(err, "out of memory");
	CPU_ZERO_S(sz, set);
	for (unsigned i = 0; i < PLACE_CPUS_MAX; i++) {
		if (!has_bit(s, i))
			continue;
		if (!split || k == pick)
			CPU_SET_S(i, sz, set);
		k++;
	}
	if (sched_setaffinity(0, sz, set))
		ret = err_errno(err, errno, "job '%s': %s: sched_setaffinity", name, what);
	CPU_FREE(set);
	return ret;
}

static struct bitmask *node_mask(const struct place_set *s)
{
	struct bitmask *bm = numa_allocate_nodemask();

	for (unsigned i = 0; bm && i < PLACE_CPUS_MAX && i < bm->size; i++)
		if (has_bit(s, i))
			numa_bitmask_setbit(bm, i);
	return bm;
}

/* numa_mem_policy: the thread's memory policy, set_mempolicy(2) with the nodes. */
static int apply_mem(const struct place_opts *p, const char *name, struct iowl_err *err)
{
	static const int modes[] = {
		[PLACE_MEM_PREFER] = MPOL_PREFERRED,
		[PLACE_MEM_BIND] = MPOL_BIND,
		[PLACE_MEM_INTERLEAVE] = MPOL_INTERLEAVE,
		[PLACE_MEM_LOCAL] = MPOL_LOCAL,
	};
	struct bitmask *bm;
	int ret = 0;

	if (p->mem_mode == PLACE_MEM_UNSET || p->mem_mode == PLACE_MEM_DEFAULT)
		return 0; /* as fio: default leaves the thread's policy alone */
	if (p->mem_mode == PLACE_MEM_LOCAL)
		bm = NULL;
	else if (!(bm = node_mask(&p->mem_nodes)))
		return err_nomem(err, "out of memory");
	if (set_mempolicy(modes[p->mem_mode], bm ? bm->maskp : NULL, bm ? bm->size + 1 : 0))
		ret = err_errno(err, errno, "job '%s': numa_mem_policy: set_mempolicy", name);
	if (bm)
		numa_bitmask_free(bm);
	return ret;
}

uint16_t place_ioprio(const struct place_opts *p)
{
	/* as fio: a level without a class is best-effort */
	unsigned cls = p->prioclass ? p->prioclass : IOPRIO_CLASS_BE;

	return p->prio_set ? (uint16_t)(cls << IOPRIO_CLASS_SHIFT | p->prio) : 0;
}

/* nice and prio/prioclass: both per thread on Linux. */
static int apply_prio(const struct place_opts *p, const char *name, struct iowl_err *err)
{
	if (p->nice) {
		errno = 0;
		if (nice(p->nice) == -1 && errno)
			return err_errno(err, errno, "job '%s': nice=%d", name, p->nice);
	}
	if (p->prio_set) {
		if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)place_ioprio(p)))
			return err_errno(err, errno, "job '%s': prio=%u prioclass=%u: ioprio_set",
					 name, p->prio, p->prioclass);
	}
	return 0;
}

int place_apply(const struct place_opts *p, unsigned number, const char *name, struct iowl_err *err)
{
	int ret = 0;

	if (set_count(&p->cpus))
		ret = apply_cpus(&p->cpus, p->cpus_policy, number, "cpus_allowed", name, err);
	/* numa_cpu_nodes: the CPUs of those nodes, as fio's numa_run_on_node_mask() */
	if (!ret && set_count(&p->cpu_nodes))
		ret = apply_cpus(&p->node_cpus, false, 0, "numa_cpu_nodes", name, err);
	if (!ret)
		ret = apply_mem(p, name, err);
	if (!ret)
		ret = apply_prio(p, name, err);
	return ret;
}
