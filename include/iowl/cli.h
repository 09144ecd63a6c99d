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

#endif
