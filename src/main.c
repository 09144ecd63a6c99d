// SPDX-License-Identifier: MIT
/* iowl: turns the command line into a run, runs it, and exits with its status. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iowl/analyze_run.h"
#include "iowl/cli.h"
#include "iowl/curve.h"
#include "iowl/debug.h"
#include "iowl/clock.h"
#include "iowl/cluster.h"
#include "iowl/metrics.h"
#include "iowl/ranks.h"
#include "iowl/report.h"
#include "iowl/run.h"
#include "iowl/sweep.h"
#include "iowl/vdbench.h"

/*
 * Leaves the run's processes (MPI), then returns status.  Not cleanly after a lost rank or a
 * signal: MPI_Finalize waits for every rank and for the launcher, which is taking the job down,
 * and so do the MPI library's exit handlers: the process then ends with _exit().
 */
static int leave(int status)
{
	bool clean = !ranks_lost() && !run_signal_seen();

	cluster_end(clean);
	if (!clean && ranks_on()) {
		fflush(NULL);
		_exit(status);
	}
	return status;
}

int main(int argc, char **argv)
{
	struct iowl_run run;
	struct iowl_err err = { "" };
	int ret, status;

	if (argc > 1 && !strcmp(argv[1], "report"))	/* iowl report RESULTS.json -o FILE.html */
		return report_html_main(argc - 1, argv + 1);
	/* A reader that goes away (iowl | head) ends the run with status 2, see run_exec(). */
	signal(SIGPIPE, SIG_IGN);
	clock_init();
	/* Before the job files are read: they may use ${IOWL_RANK}, ${IOWL_RANKS}, ${IOWL_HOST}. */
	if (cluster_init(&argc, &argv, &err)) {
		fprintf(stderr, "iowl: %s\n", err.text);
		return IOWL_EXIT_USAGE;
	}
	run_init(&run);
	ret = cli_parse(argc, argv, &run, &err);
	if (ret == CLI_DONE) {
		cli_release(&run.opts);
		run_release(&run);
		return leave(IOWL_EXIT_OK);
	}
	run_ranks_quiet(&run);
	if (!ret && !run.opts.parse_only && clock_ready()) /* before any thread, after parsing */
		dprint(DBG_TIME, "clock: the invariant TSC, %.6f GHz", iowl_clock.ghz);
	if (!ret && (run.opts.metrics.port || run.opts.metrics.textfile_dir) &&
	    !(run.opts.mx = metrics_start(&run.opts.metrics, &err)))
		ret = -EINVAL;
	if (!ret && run.opts.vdb.file) {
		status = vdbench_main(&run);
		goto out;
	}
	if (!ret)
		ret = run_prepare(&run, &err);
	if (!ret)
		ret = cli_check_jobs(&run, &err);
	if (!ret && run.opts.nsweeps)
		ret = sweep_prepare(&run, &err);
	if (!ret && run.opts.ncurve)
		ret = curve_prepare(&run, &err);
	ret = ranks_agree(ret, &err); /* no rank runs unless every rank could prepare */
	if (ret) {
		fprintf(stderr, "iowl: %s\n", err.text);
		cli_release(&run.opts);
		run_release(&run);
		return leave(IOWL_EXIT_USAGE);
	}
	if (run.opts.parse_only)
		status = IOWL_EXIT_OK;
	else if (run.opts.analyze)
		status = analyze_run(&run, run.opts.analyze);
	else if (run.opts.nsweeps)
		status = sweep_run(&run);
	else if (run.opts.ncurve)
		status = curve_run(&run);
	else
		status = run_exec(&run);
out:
	status = ranks_verdict(status); /* every rank ends with the run's status */
	metrics_end(run.opts.mx);
	run.opts.mx = NULL;
	if (run.abandoned) {
		/* Stuck workers still hold the run's memory: leave without freeing anything. */
		fflush(stdout);
		fflush(stderr);
		cluster_end(false);
		_exit(status);
	}
	cli_release(&run.opts);
	run_release(&run);
	return leave(status);
}
