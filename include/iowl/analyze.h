/* SPDX-License-Identifier: MIT */
/* See the pattern before running it: generate a job's IOs without issuing them and describe them. */
#ifndef IOWL_ANALYZE_H
#define IOWL_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "iowl/err.h"
#include "iowl/job.h"

#define ANALYZE_DEFAULT_IOS 1000000ULL

struct json_t;

/*
 * Generates nios IOs of the first clone of job (streams included) without doing any IO, and
 * describes them: the share of IOs and bytes per stream, direction and block size, and how
 * concentrated the IOs are (the share on the hottest 1, 5, 10, 20 and 50 % of the blocks, and
 * the distinct blocks touched).  Appends it to the JSON array arr and prints it as text to text
 * (each NULL: not).  With iolog, the job's write_iolog records the IOs.  Returns 0 or -errno with
 * err set.
 */
int analyze_job(const struct job *job, uint64_t nios, bool iolog, FILE *text, struct json_t *arr,
		struct iowl_err *err);

/*
 * The analysis of every job as one JSON document (new reference; NULL when out of
 * memory), without writing any iolog: a job whose IOs cannot be generated is left out.
 */
#define ANALYZE_REPORT_IOS 200000ULL	/* the IOs --report analyses per job */
struct json_t *analyze_json(const struct job *jobs, unsigned njobs, uint64_t nios);

#endif
