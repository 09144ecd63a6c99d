/* SPDX-License-Identifier: MIT */
/*
 * fio's built-in job profiles (--profile=NAME on the command line): a profile is a set of jobs
 * made from a few options of its own.  tiobench is fio 3.33's: four jobs (sequential write,
 * random write, sequential read, random read, each after the last) over four files; act is
 * fio 3.33's Aerospike Certification Tool workload (per device: rate-limited small random reads
 * and large-block writes, or with prep a sequential fill and a random salting), whose reads'
 * and writes' latency is counted per hour against ACT's limits (act.h).
 */
#ifndef IOWL_PROFILE_H
#define IOWL_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iowl/err.h"

/* The options given to a profile, and which profile. */
struct profile_args {
	const char *name;		/* "tiobench" or "act" */
	uint64_t size_mib;		/* size=, 0: 4 KiB per MiB of memory (fio's 4*1024*$mb_memory) */
	unsigned block;			/* block=, bytes (4096) */
	unsigned numruns;		/* numruns=, the jobs' loops (1) */
	char dir[4096];			/* dir=, the files' directory ("./") */
	unsigned threads;		/* threads=, numjobs of each job (1) */
	/* act's */
	char devices[4096];		/* device-names=, ','-separated; "" until given */
	unsigned load;			/* load=, the rates' multiplier (1) */
	uint64_t duration_s;		/* test-duration=, the read and write jobs' runtime (24 h) */
	unsigned read_threads;		/* threads-per-queue=, each device's read threads (8) */
	unsigned read_blocks;		/* read-req-num-512-blocks=, a read's 512-byte blocks (3) */
	unsigned write_size;		/* large-block-op-kbytes=, a write's bytes (131072, as fio) */
	bool prep;			/* prep: the prep jobs instead */
};

/* The number of act's hourly slices (act.h) of the command line's profile; 0: no act counting. */
unsigned profile_act_slices(void);

/* The command line's profile (name NULL: none). */
struct profile_args *profile_cur(void);

/*
 * Selects profile name into a (its defaults).  Returns 0, or -EINVAL with err set for a name
 * fio has no profile of.
 */
int profile_select(struct profile_args *a, const char *name, struct iowl_err *err);

/*
 * True when key is an option of a's profile (tiobench: size, block, numruns, dir, threads; act:
 * device-names, load, test-duration, threads-per-queue, read-req-num-512-blocks,
 * large-block-op-kbytes, prep).
 */
bool profile_has_option(const struct profile_args *a, const char *key);

/* Sets one of the profile's options.  Returns 0 or -EINVAL with err set. */
int profile_set(struct profile_args *a, const char *key, const char *value, struct iowl_err *err);

/*
 * The profile's jobs as fio's command line gives them, one option at a time (key "name" starts
 * a job; before the first, they are every job's): add returns 0 or -errno, which ends it.
 * Returns 0 or -errno (act without device-names: -EINVAL with err set).
 */
int profile_jobs(const struct profile_args *a,
		 int (*add)(void *ctx, const char *key, const char *value), void *ctx,
		 struct iowl_err *err);

/* Prints the profile's options and what each means (--profile=NAME --cmdhelp). */
void profile_help(const struct profile_args *a, FILE *out);

#endif
