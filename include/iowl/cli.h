/* SPDX-License-Identifier: MIT */
/* The command line: iowl's own flags, job files, and fio-style command-line jobs (--name=...). */
#ifndef IOWL_CLI_H
#define IOWL_CLI_H

#include "iowl/err.h"
#include "iowl/run.h"

#include "iowl/version.h"

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

#endif
