/* SPDX-License-Identifier: MIT */
/* The command line: iowl's own flags, job files, and fio-style command-line jobs (--name=...). */
#ifndef IOWL_CLI_H
#define IOWL_CLI_H

#include "iowl/err.h"
#include "iowl/run.h"

#include "iowl/version.h"

#include <stdio.h>

/* Returned by cli_parse() when it printed what was asked (--help, --version) and the run is over. */
#define CLI_DONE 1

/*
 * Reads argv into run: flags into run->opts, job files and command-line jobs into run->doc.
 * Returns 0 to go on, CLI_DONE, or -errno with err set.
 */
int cli_parse(int argc, char **argv, struct iowl_run *run, struct iowl_err *err);

/* Frees what cli_parse() put in the run's options; before run_release(), which clears them. */
void cli_release(struct run_opts *o);

/*
 * The checks of fio's flags that need the built jobs: --readonly (no job writes or trims),
 * --max-jobs (clones in the run) and --warnings-fatal (no warning so far); and the run's one
 * clock (clocksource), switched to clock_gettime() here when asked for.  Returns 0 or -EINVAL
 * with err set.
 */
int cli_check_jobs(const struct iowl_run *run, struct iowl_err *err);

/* What a flag takes: cli_flag_apply() checks it before the flag's set(). */
enum cli_arg {
	CLI_ARG_NONE,	  /* --flag alone */
	CLI_ARG_OPT,	  /* --flag or --flag=VALUE (set() checks what it needs) */
	CLI_ARG_NEED,	  /* --flag=VALUE */
	CLI_ARG_NEXT,	  /* --flag=VALUE or --flag VALUE */
	CLI_ARG_NEXT_OPT, /* --flag, --flag=VALUE or --flag VALUE */
};

/* One command-line flag: the parser, --help and the manual's check read the same entry. */
struct cli_flag {
	const char *name; /* without the dashes */
	enum cli_arg arg;
	/* Applies the flag.  Returns 0, CLI_DONE (--help, ...), or -errno with err set. */
	int (*set)(struct run_opts *o, const struct cli_flag *f, const char *value,
		   struct iowl_err *err);
	size_t off;	     /* the run_opts field of the generic set()s */
	const char *usage;   /* --help: the value's form, two blanks, the help ('\n': more lines) */
	bool fio;	     /* one of fio's flags, with fio's meaning */
	const char *refused; /* one of fio's flags iowl refuses: why; NULL otherwise */
};

/* The flag table, in --help's order; *n gets its length. */
const struct cli_flag *cli_flag_table(size_t *n);

/* The flag named name (without dashes), or NULL. */
const struct cli_flag *cli_flag_find(const char *name);

/*
 * Applies flag f with value (NULL: none); next is the argument after it, taken when the flag
 * may take its value from there (*used_next set).  Returns 0, CLI_DONE, or -errno with err set.
 */
int cli_flag_apply(struct run_opts *o, const struct cli_flag *f, const char *value,
		   const char *next, bool *used_next, struct iowl_err *err);

/* --help's text, from the flag table. */
void cli_usage(FILE *f);

/* Appends s to the array *v of *n strings.  Returns 0 or -ENOMEM. */
int cli_push(char ***v, unsigned *n, char *s, struct iowl_err *err);

#endif
