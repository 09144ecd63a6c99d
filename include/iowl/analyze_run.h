/* SPDX-License-Identifier: MIT */
/* iowl --analyze: the run's jobs described instead of run (analyze.h describes one job). */
#ifndef IOWL_ANALYZE_RUN_H
#define IOWL_ANALYZE_RUN_H

#include <stdint.h>

#include "iowl/run.h"

/*
 * Generates nios IOs of the first clone of every job of the run (streams included) without
 * doing any IO, and prints the share of IOs and bytes per stream, direction and block size,
 * and how concentrated the IOs are (the share on the hottest 1, 5, 10, 20 and 50 % of the
 * blocks, and the distinct blocks touched), as text or JSON.  write_iolog records the IOs.
 * Writes --report's page too.  Returns the exit status (enum iowl_exit).
 */
int analyze_run(struct iowl_run *run, uint64_t nios);

#endif
