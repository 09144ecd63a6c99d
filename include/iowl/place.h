/* SPDX-License-Identifier: MIT */
/* CPU and memory placement of a job's threads: affinity, NUMA, nice, IO priority (fio's options). */
#ifndef IOWL_PLACE_H
#define IOWL_PLACE_H

#include <stdbool.h>
#include <stdint.h>

#include "iowl/err.h"

#define PLACE_CPUS_MAX 1024 /* CPUs (and NUMA nodes) a set can name */

/* A set of CPUs or NUMA nodes, plain bits so job options copy by value. */
struct place_set {
	uint64_t bits[PLACE_CPUS_MAX / 64];
};

/* numa_mem_policy modes, fio's names. */
enum place_mem_mode {
	PLACE_MEM_UNSET = 0,
	PLACE_MEM_DEFAULT,
	PLACE_MEM_PREFER,
	PLACE_MEM_BIND,
	PLACE_MEM_INTERLEAVE,
	PLACE_MEM_LOCAL,
};

/* What a job asks of its threads' placement; part of struct job_opts. */
struct place_opts {
	struct place_set cpus;	    /* cpus_allowed / cpumask; empty: any CPU */
	unsigned cpus_policy;	    /* 0 shared, 1 split: clone k gets the set's (k mod n)th CPU */
	struct place_set cpu_nodes; /* numa_cpu_nodes; empty: not set */
	struct place_set node_cpus; /* the CPUs of cpu_nodes (found when parsed) */
	unsigned mem_mode;	    /* enum place_mem_mode */
	struct place_set mem_nodes; /* numa_mem_policy's node list */
	int nice;		    /* added to the thread's nice value, as nice(2) */
	unsigned prio;		    /* IO priority level 0 (highest) .. 7 */
	unsigned prioclass;	    /* IO priority class: 0 none, 1 RT, 2 BE, 3 idle */
	bool prio_set;		    /* prio or prioclass was given: ioprio_set(2) */
};

/*
 * The option parsers behind the option table's OPT_FUNC entries: a CPU list (cpus_allowed,
 * verify_async_cpus) or mask (cpumask) into s; numa_cpu_nodes, numa_mem_policy, nice, prio and
 * prioclass into p.  Return 0 or -EINVAL with why set (VAL_WHY_LEN).
 */
int place_parse_cpus(struct place_set *s, const char *v, char *why);
int place_parse_cpumask(struct place_set *s, const char *v, char *why);
int place_parse_cpu_nodes(struct place_opts *p, const char *v, char *why);
int place_parse_mem_policy(struct place_opts *p, const char *v, char *why);
int place_parse_nice(struct place_opts *p, const char *v, char *why);
int place_parse_prio(struct place_opts *p, const char *v, char *why);
int place_parse_prioclass(struct place_opts *p, const char *v, char *why);

/* The ioprio value prio and prioclass give the thread (0: neither was set). */
uint16_t place_ioprio(const struct place_opts *p);

/*
 * Applies p to the calling thread, clone number `number` of the run (cpus_allowed_policy=split
 * picks its CPU from it, as fio's thread number).  name is the job's, for messages.
 * Returns 0 or -errno with err set.
 */
int place_apply(const struct place_opts *p, unsigned number, const char *name,
		struct iowl_err *err);

#endif
