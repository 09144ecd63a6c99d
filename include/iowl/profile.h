/* SPDX-License-Identifier: MIT */
/*
 * fio's built-in job profiles (--profile=NAME on the command line): a profile is a set of jobs
 * made from a few options of its own.  tiobench is fio 3.33's: four jobs (sequential write,
 * random write, sequential read, random read, each after the last) over four files; act (the
 * Aerospike Certification Tool) is refused with the reason.
 */
#ifndef IOWL_PROFILE_H
#define IOWL_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iowl/err.h"

/* The options given to a profile, and which profile. */
struct profile_args {
	const char *name;		/* "tiobench" */
	uint64_t size_mib;		/* size=, 0: 4 KiB per MiB of memory (fio's 4*1024*$mb_memory) */
	unsigned block;			/* block=, bytes (4096) */
	unsigned numruns;		/* numruns=, the jobs' loops (1) */
	char dir[4096];			/* dir=, the files' directory ("./") */
	unsigned threads;		/* threads=, numjobs of each job (1) */
};

/* The command line's profile (name NULL: none). */
struct profile_args *profile_cur(void);

/*
 * Selects profile name into a (its defaults).  Returns 0, or -EINVAL with err set for act
 * (refused, with the reason) or a name fio has no profile of.
 */
int profile_select(struct profile_args *a, const char *name, struct iowl_err *err);

/* True when key is an option of a's profile (tiobench: size, block, numruns, dir, threads). */
bool profile_has_option(const struct profile_args *a, const char *key);

/* Sets one of the profile's options.  Returns 0 or -EINVAL with err set. */
int profile_set(struct profile_args *a, const char *key, const char *value, struct iowl_err *err);

/*
 * The profile's jobs as fio's command line gives them, one option at a time (key "name" starts
 * a job; before the first, they are every job's): add returns 0 or -errno, which ends it.
 */
int profile_jobs(const struct profile_args *a,
		 int (*add)(void *ctx, const char *key, const char *value), void *ctx);

/* Prints the profile's options and what each means (--profile=NAME --cmdhelp). */
void profile_help(const struct profile_args *a, FILE *out);

#endif
