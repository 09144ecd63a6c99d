/* SPDX-License-Identifier: MIT */
/* Turning parsed job files into validated jobs: globals, --set overrides, sections, groups. */
#ifndef IOWL_JOBFILE_H
#define IOWL_JOBFILE_H

#include <stdbool.h>

#include "iowl/err.h"
#include "iowl/ini.h"
#include "iowl/job.h"

/* A --set KEY=VALUE override: applied to every job as if written last in its section. */
struct job_set {
	char *key;
	char *value;
};

struct jobfile_input {
	const struct ini_doc *doc;
	const struct job_set *sets;
	unsigned nsets;
	char *const *sections;	/* --section filters, or NULL for every job */
	unsigned nsections;
};

/*
 * Builds the jobs of doc: each non-global section becomes a job with the globals above it in
 * the same file, its own entries and the --set overrides applied in that order, then every
 * option and cross-option check runs.  On success *jobs is a calloc'd array of *njobs
 * jobs (caller frees with jobfile_free()).  Returns 0 or -errno with err set (FILE:LINE:).
 */
int jobfile_build(const struct jobfile_input *in, struct job **jobs, unsigned *njobs,
		  struct iowl_err *err);

/* Releases every job and the array. */
void jobfile_free(struct job *jobs, unsigned njobs);

#endif
