/* SPDX-License-Identifier: MIT */
/* vdbench parameter files run with vdbench's meaning: the command line's settings and the entry point. */
#ifndef IOWL_VDBENCH_H
#define IOWL_VDBENCH_H

#include <stdbool.h>

#include "iowl/err.h"
#include "iowl/vdbench_opts.h"

struct iowl_run;

/*
 * True when the file at path reads as a vdbench parameter file: no "[section]" line and at
 * least one line starting with sd=, wd=, rd=, hd=, fsd= or fwd=.  False for anything unreadable (the job-file
 * reader then reports it).
 */
bool vdbench_detect(const char *path);

/*
 * Adds NAME=VALUE (kv, as given to flag) to a list.  Returns 0 or -EINVAL / -ENOMEM with err
 * set.
 */
int vdbench_kv_add(struct vdbench_kv **list, unsigned *n, const char *flag, const char *kv,
		   struct iowl_err *err);

/*
 * Reads, checks and translates a parameter file held in memory (name for messages; include=
 * still reads files), then checks every step's jobs as iowl job options, without their
 * targets.  Returns 0 or -errno with err set.  For the fuzzer and the tests.
 */
int vdbench_check_text(const char *name, const char *text, size_t len, struct iowl_err *err);

/* Frees what o owns. */
void vdbench_opts_release(struct vdbench_opts *o);

/*
 * Reads run->opts.vdb.file, translates it into iowl jobs and runs them (or shows them, or only
 * checks them with --parse-only, or analyzes them with --analyze).  Every error names the
 * parameter file's line and vdbench's parameter.  Returns the exit status (enum iowl_exit).
 */
int vdbench_main(struct iowl_run *run);

#endif
