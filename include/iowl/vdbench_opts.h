/* SPDX-License-Identifier: MIT */
/*
 * What the command line says about a vdbench parameter file: a type of its own, so that the
 * run's settings (run.h) hold it without the vdbench module (vdbench.h), which drives runs.
 */
#ifndef IOWL_VDBENCH_OPTS_H
#define IOWL_VDBENCH_OPTS_H

#include <stdbool.h>

/* One NAME=VALUE of --vdbench-var or --vdbench-lun. */
struct vdbench_kv {
	char *key;
	char *value;
};

/* What the command line says about a vdbench parameter file. */
struct vdbench_opts {
	char *file;			/* the parameter file; NULL: none */
	bool show;			/* --vdbench-show: print the equivalent iowl job file */
	bool output;			/* --vdbench-output: vdbench's interval lines on stdout */
	struct vdbench_kv *vars;	/* --vdbench-var: $NAME and !NAME substitutions */
	unsigned nvars;
	struct vdbench_kv *luns;	/* --vdbench-lun: lun= names mapped to Linux paths */
	unsigned nluns;
};

#endif
