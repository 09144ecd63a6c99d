/* SPDX-License-Identifier: MIT */
/* Shared by the JSON report's files: json.c (fio's layout) and json_iowl.c (a job's "iowl" object). */
#ifndef IOWL_REPORT_JSON_INT_H
#define IOWL_REPORT_JSON_INT_H

#include <stdbool.h>

#include <jansson.h>

#include "iowl/report.h"

#define JI(x) ((json_int_t)(x))

struct hist;
struct job;
struct lat_stat;

/* fio prints doubles with "%f": keep the same 6 decimals (and a short representation). */
double report_json_r6(double x);

/* A JSON string of s; bytes that are not UTF-8 become '?' rather than failing the report. */
json_t *report_json_str(const char *s);

/* slat_ns / clat_ns / lat_ns; "percentile" (and json+ "bins") when asked for and sampled. */
json_t *report_json_lat(const struct job *job, const struct lat_stat *s, bool pcts,
			const struct hist *h, bool plus);

/* json_iowl.c: the job's "steadystate" object (fio's), and its "iowl" object. */
json_t *report_json_ss(const struct job_result *u);
json_t *report_json_iowl(const struct run_result *r, const struct job_result *u, bool plus);

#endif
