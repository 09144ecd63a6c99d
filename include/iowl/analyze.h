/* SPDX-License-Identifier: MIT */
/* See the pattern before running it: generate a job's IOs without issuing them and describe them. */
#ifndef IOWL_ANALYZE_H
#define IOWL_ANALYZE_H

#include <stdint.h>

#include "iowl/run.h"

#define ANALYZE_DEFAULT_IOS 1000000ULL

/*
 * Generates nios IOs of the first clone of every job of the run (streams included) without
 * doing any IO, and prints the share of IOs and bytes per stream, direction and block size,
 * and how concentrated the IOs are (the share on the hottest 1, 5, 10, 20 and 50 % of the
 * blocks, and the distinct blocks touched), as text or JSON.  write_iolog records the IOs.
 * Returns the exit status (enum iowl_exit).
 */
int analyze_run(struct iowl_run *run, uint64_t nios);

/*
 * The same analysis of every job as one JSON document (new reference; NULL when out of
 * memory), without writing any iolog: a job whose IOs cannot be generated is left out.
 */
#define ANALYZE_REPORT_IOS 200000ULL	/* the IOs --report analyses per job */
struct json_t *analyze_json(const struct iowl_run *run, uint64_t nios);

#endif
