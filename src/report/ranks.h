/* SPDX-License-Identifier: MIT */
/* A run over MPI in the reports (report_ranks_*): only when r->nranks. */
#ifndef IOWL_REPORT_RANKS_H
#define IOWL_REPORT_RANKS_H

#include <stdio.h>

#include "iowl/report.h"

struct json_t;

/* iowl.cluster: size, start spread, slowest and fastest rank, totals, ranks[]. */
struct json_t *report_ranks_json(const struct run_result *r);

/* The per-rank table after the groups' run status. */
void report_ranks_text(FILE *f, const struct run_result *r);

#endif
