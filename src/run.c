// SPDX-License-Identifier: MIT
/* Runs the jobs: prepares them (plans, guard), runs the phases one after another (run_phase.c), gathers the results and prints the reports (run_report.c). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <jansson.h>

#include "iowl/act.h"
#include "iowl/blktrace.h"
#include "iowl/analyze.h"
#include "iowl/bwlog.h"
#include "iowl/clock.h"
#include "iowl/diskstats.h"
#include "iowl/iosched.h"
#include "iowl/engine.h"
#include "iowl/interval.h"
#include "iowl/options.h"
#include "iowl/outfile.h"
#include "iowl/preflight.h"
#include "iowl/progress.h"
#include "iowl/ranks.h"
#include "iowl/report.h"
#include "iowl/cgroup.h"
#include "iowl/cachefill.h"
#include "iowl/profile.h"
#include "iowl/run.h"
#include "iowl/target.h"

#include "run_int.h"

/*
 * True when the results can no longer be written: a write to them failed, or the reader of the
 * pipe they go to has gone (iowl ... | head): the run then ends, as fio's does on EPIPE, instead
 * of dying of SIGPIPE (ignored, see main()).  Sets run->out_errno.
 */
bool run_output_gone(struct iowl_run *run)
{
	FILE *f = run->out ? run->out : stdout;
	struct pollfd pfd = { .fd = fileno(f) };
	struct stat st;
	bool is_pipe;

	if (run->out_errno)
		return true;
	is_pipe = !fstat(pfd.fd, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	if (is_pipe && ((poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR)) || ferror(f)))
		run->out_errno = EPIPE;
	else if (ferror(f))
		run->out_errno = EIO;
	return run->out_errno != 0;
}

FILE *run_info(const struct iowl_run *run)
{
	if (!(run->opts.formats & OUT_NORMAL))
		return NULL;
	return run->out ? run->out : stdout;
}

void run_init(struct iowl_run *run)
{
	memset(run, 0, sizeof(*run));
	ini_doc_init(&run->doc);
	guard_set_init(&run->guard);
	run->opts.formats = OUT_NORMAL;
	run->opts.rank_timeout = RANK_TIMEOUT_DEFAULT_NS;
}

void run_ranks_quiet(struct iowl_run *run)
{
	if (!ranks_quiet(&run->ctl, run->opts.rank_timeout))
		return;
	free(run->opts.output);
	run->opts.output = NULL;
	free(run->opts.report);
	run->opts.report = NULL;
	run->opts.nasserts = 0;
	run->opts.eta = ETA_NEVER;
	/* One endpoint per run (ranks on one host would compete for the port): rank 0's. */
	run->opts.metrics.port = 0;
	free(run->opts.metrics.textfile_dir);
	run->opts.metrics.textfile_dir = NULL;
}

/* What the ranks act on of the run (ranks.h): its stop, why it ended, its jobs, its intervals. */
struct ranks_run run_ranks(struct iowl_run *run)
{
	return (struct ranks_run){ .ctl = &run->ctl,
				   .ended_by = run->ended_by,
				   .jobs = run->jobs,
				   .njobs = run->njobs,
				   .signal = run->signal,
				   .ivl_out = run->ivl.out,
				   .ivl_json = run->ivl.json };
}

/* Drops the plans run_prepare() kept that the run did not take. */
static void run_plans_release(struct iowl_run *run)
{
	for (unsigned i = 0; i < run->nplans; i++)
		target_plan_release(&run->plans[i]);
	free(run->plans);
	run->plans = NULL;
	run->nplans = 0;
}

/*
 * Clone number's plan as run_prepare() made it, or NULL.  A later phase plans again: a file an
 * earlier phase created or grew has another size now.
 */
struct target_plan *run_plan(const struct iowl_run *run, const struct job *job, unsigned clone)
{
	unsigned i = clone;

	for (unsigned j = 0; j < job->index && j < run->njobs; j++)
		i += run->jobs[j].o.numjobs;
	return i < run->nplans && run->plans[i].nfiles ? &run->plans[i] : NULL;
}

void run_release(struct iowl_run *run)
{
	iosched_restore(); /* ioscheduler: the devices' schedulers as the run found them */
	run_plans_release(run);
	jobfile_free(run->jobs, run->njobs);
	ini_doc_release(&run->doc);
	guard_set_release(&run->guard);
	free(run->ctl.job_done);
	memset(run, 0, sizeof(*run));
}

/* file_append means nothing on a block device (fio ignores it there): said, not silent. */
static void warn_append(const struct job *job, const struct target_plan *plan)
{
	for (unsigned i = 0; job->o.file_append && i < plan->nfiles; i++)
		if (plan->files[i].is_bdev)
			iowl_warn("job '%s': file_append is ignored on block device '%s' (a device has no end to append at; its region starts at offset=)",
				  job->o.name, plan->files[i].path);
}

int run_prepare(struct iowl_run *run, struct iowl_err *err)
{
	struct jobfile_input in = {
		.doc = &run->doc, .sets = run->opts.sets, .nsets = run->opts.nsets,
		.sections = run->opts.sections, .nsections = run->opts.nsections,
	};
	struct preflight pf;
	struct iowl_err why = { "" };
	unsigned number = 0, nclones = 0;
	int ret = jobfile_build(&in, &run->jobs, &run->njobs, err);
	bool keep = !run->opts.parse_only && !run->opts.analyze;

	run_plans_release(run);
	for (unsigned j = 0; !ret && j < run->njobs; j++)
		nclones += run->jobs[j].o.numjobs;
	if (!ret && keep && nclones && !(run->plans = calloc(nclones, sizeof(*run->plans))))
		ret = err_nomem(err, "out of memory for the plans of %u job clones", nclones);
	run->nplans = run->plans ? nclones : 0;

	if (!ret)
		ret = ranks_filter(&(struct ranks_run){ .jobs = run->jobs, .njobs = run->njobs },
				   run->opts.rank_jobs, run->opts.nrank_jobs, err);

	/* Devices stay held from the first check to the end of the process (sweep points included). */
	preflight_init(&pf, &run->guard, !run->opts.parse_only && !run->opts.analyze);
	/*
	 * Every target is resolved and every path the run writes checked now, so a missing size, a
	 * misaligned region or a file that cannot be created stops the run before any IO.
	 */
	for (unsigned j = 0; !ret && j < run->njobs; j++) {
		for (unsigned c = 0; !ret && c < run->jobs[j].o.numjobs; c++, number++) {
			struct target_plan plan;

			if (run->jobs[j].off_rank) /* another rank's: its targets are not here */
				continue;

			ret = target_plan(&run->jobs[j], c, &plan, err);
			for (unsigned k = 0;
			     !ret && !c && run->jobs[j].o.ioscheduler &&
			     !(run->jobs[j].engine->flags & ENGINE_F_NODATA) && k < plan.nfiles;
			     k++)
				if (iosched_check(plan.files[k].path, run->jobs[j].o.ioscheduler,
						  &why))
					ret = job_opt_err(&run->jobs[j], OPT_ID_ioscheduler, err,
							  "%s", why.text);
			/* A run says it with its results (phase_create()); --parse-only says it here. */
			if (!ret && !c && run->opts.parse_only)
				run_report_notes(run_info(run), &run->jobs[j], &plan);
			if (!ret && !c)
				warn_append(&run->jobs[j], &plan);
			if (!ret && !c && keep && run->jobs[j].merged)
				ret = bt_merge_write(&run->jobs[j], err);
			if (!ret && !c && run->jobs[j].o.cgroup &&
			    cgroup_check(run->jobs[j].o.cgroup, why.text, sizeof(why.text)))
				ret = job_opt_err(&run->jobs[j], OPT_ID_cgroup, err, "%s",
						  why.text);
			if (!ret)
				ret = preflight_clone(&pf, &run->jobs[j], c, number, &plan, err);
			if (!ret && number < run->nplans)
				run->plans[number] = plan; /* the run takes it from here */
			else
				target_plan_release(&plan);
		}
	}
	if (!ret)
		ret = preflight_finish(&pf, run->opts.output, run->jobs, run->njobs, err);
	if (!ret && run->opts.report)	/* --report=FILE.html: the same checks as --output */
		ret = preflight_finish(&pf, run->opts.report, run->jobs, run->njobs, err);
	preflight_release(&pf);
	return ret;
}

int run_rebuild(struct iowl_run *run, struct iowl_err *err)
{
	jobfile_free(run->jobs, run->njobs);
	run->jobs = NULL;
	run->njobs = 0;
	return run_prepare(run, err);
}

/*
 * Finds the block devices behind every target that moves data; a target without a device
 * (tmpfs, overlay) simply adds none.  The first sample is taken when the first phase starts.
 */
static void disks_begin(const struct iowl_run *run, struct disk_set *disks)
{
	struct iowl_err err = { "" };

	disk_set_init(disks, NULL);
	for (unsigned j = 0; j < run->njobs; j++) {
		const struct job *job = &run->jobs[j];

		if (!job->o.disk_util) /* disk_util=0: its devices are not sampled */
			continue;
		for (unsigned c = 0; c < job->o.numjobs; c++) {
			const struct target_plan *kept = run_plan(run, job, c);
			struct target_plan plan;

			if ((job->engine->flags & ENGINE_F_NODATA) || job->off_rank)
				continue;
			if (!kept && target_plan(job, c, &plan, &err))
				continue;
			for (unsigned i = 0; i < (kept ? kept : &plan)->nfiles; i++) {
				int dev;

				disk_set_add_target(disks, (kept ? kept : &plan)->files[i].path,
						    &dev, &err);
			}
			if (!kept)
				target_plan_release(&plan);
		}
	}
}

/* The interval settings of the run: one period for the series, --status-interval and --iostat. */
static void ivl_setup(struct iowl_run *run)
{
	const struct run_opts *ro = &run->opts;
	struct ivl_opts *o = &run->ivl;

	memset(o, 0, sizeof(*o));
	o->period_ns = ro->watch_period ? ro->watch_period : INTERVAL_DEFAULT_NS;
	if (ro->iostat && ro->iostat != IOSTAT_DEFAULT)
		o->period_ns = ro->iostat;
	if (ro->status_interval)
		o->period_ns = ro->status_interval;
	o->status = ro->status_interval != 0;
	o->iostat = ro->iostat != 0;
	o->json = !(ro->formats & OUT_NORMAL);
	/* Each interval's histograms: the ranks' add up exactly (ranks.h), json+ prints them. */
	o->keep_hists = ranks_on() || (ro->formats & OUT_JSONPLUS);
	if (ranks_on() && o->status) /* rank 0 prints the ranks' sum of each interval */
		o->emit = ranks_live_emit;
	o->out = run->out ? run->out : stdout;
	o->print = report_interval;
	o->watch = ro->watch;
	o->watch_ctx = ro->watch_ctx;
	if (ro->mx) {	/* the metrics see every interval first, then pass it on */
		metrics_chain(ro->mx, o->watch, o->watch_ctx);
		o->watch = metrics_watch;
		o->watch_ctx = ro->mx;
		o->watch_disks = true;
	}
}

/* The write guard's probes of the run's devices, for the reports. */
static int own_io_build(const struct guard_set *g, struct run_outcome *o)
{
	o->own_io = calloc(g->n ? g->n : 1, sizeof(*o->own_io));
	if (!o->own_io)
		return -ENOMEM;
	for (unsigned i = 0; i < g->n; i++)
		if (g->v[i].probes)
			o->own_io[o->r.nown_io++] = (struct own_io){ g->v[i].path, g->v[i].reads,
								     g->v[i].read_bytes };
	o->r.own_io = o->own_io;
	return 0;
}

/* Why the jobs no phase reached were not run, into buf (room for why and a sentence). */
static const char *not_run_why(const struct iowl_run *run, int ret, const struct iowl_err *why,
			       char *buf, size_t len)
{
	if (ret)
		snprintf(buf, len, "the run stopped before this job started: %s",
			 why->text[0] ? why->text : strerror(-ret));
	else if (run->signal)
		snprintf(buf, len, "the run was interrupted by %s before this job started",
			 run->signal == SIGTERM ? "SIGTERM" : "SIGINT");
	else if (run->ended_by[0])
		snprintf(buf, len, "%s, before this job started", run->ended_by);
	else
		snprintf(buf, len,
			 "a worker of an earlier phase did not stop or is stuck (io_timeout), so the run ended before this job started");
	return buf;
}

int run_collect(struct iowl_run *run, struct run_outcome *o)
{
	unsigned nphases = run->njobs ? run->jobs[run->njobs - 1].phase + 1 : 0;
	struct iowl_err why = { "" };
	struct idleprof *ip = NULL;
	char reason[2 * IOWL_ERR_LEN];
	struct ranks_run rr;
	unsigned number = 0;
	struct timeval tv;
	int ret = 0;

	memset(o, 0, sizeof(*o));
	act_table_reset(profile_act_slices());
	ivl_setup(run);
	run->ctl.fill_exact = !run->opts.cfill ? 0 :
			      run->opts.fill_exact ? run->opts.fill_exact : CFILL_EXACT_DEFAULT;
	if (run->ivl.iostat && !run->opts.watch) {	/* --iostat's figures for the JSON and the report */
		if (run->opts.mx)	/* after the metrics */
			metrics_chain(run->opts.mx, report_iostat_record, &o->iostat_log);
		else
			run->ivl.watch = report_iostat_record;
		run->ivl.watch_ctx = run->opts.mx ? run->ivl.watch_ctx : &o->iostat_log;
	}
	run_signals_install(&run->ctl.stop);
	disks_begin(run, &o->disks);
	if (o->disks.n)
		o->phase_disk = calloc((size_t)nphases * 2 * o->disks.n, sizeof(*o->phase_disk));
	gettimeofday(&tv, NULL);
	o->res.collected = calloc(run->njobs ? run->njobs : 1, sizeof(*o->res.collected));
	free(run->ctl.job_done); /* a sweep's points run one after another */
	run->ctl.job_done = calloc(run->njobs ? run->njobs : 1, sizeof(*run->ctl.job_done));
	if (!o->res.collected || !run->ctl.job_done)
		ret = -ENOMEM;
	if (!ret && run->opts.bandwidth_log && !run->opts.parse_only)
		ret = bwlog_open(&run->bwlog, run->jobs, run->njobs, clock_ns(), &why);
	if (!ret && run->opts.idle_prof && !run->opts.parse_only)
		ret = idleprof_start(&ip, run->opts.idle_prof, &why);
	idleprof_go(ip);
	ranks_begin(nphases);
	for (unsigned ph = 0; ph < nphases && !ret && !run->abandoned; ph++) {
		if (run_signal_seen() || run_output_gone(run) || run->ended_by[0]) {
			rr = run_ranks(run);
			ranks_phase_skip(&rr, ph); /* the other ranks stop at this barrier too */
			break;
		}
		run->ctl.stop = 0;
		ret = run_phase(run, ph, &number, &o->res, &o->io_error, &o->disks,
				o->phase_disk ? o->phase_disk + (size_t)ph * 2 * o->disks.n : NULL, &why);
	}
	run_signals_release();
	bwlog_close(run->bwlog);
	run->bwlog = NULL;
	idleprof_stop(ip, &o->idle);
	o->r.idle = ip ? &o->idle : NULL;
	o->r.act = act_table();
	run->signal = run_signal_seen();
	not_run_why(run, ret, &why, reason, sizeof(reason));
	if (o->res.collected && run_add_not_run(run, &o->res, reason))
		ret = ret ? ret : -ENOMEM;
	o->ret = ret;
	rr = run_ranks(run); /* with the signal that stopped the run */
	if (ranks_reduce(&rr, o)) /* rank 0 gathers every rank's results */
		ret = ret ? ret : -ENOMEM;
	if (o->disks.nsamples)
		disk_set_sample(&o->disks, clock_ns(), &(struct iowl_err){ "" });
	o->r.disks = &o->disks;
	o->r.phase_disk = o->disks.n ? o->phase_disk : NULL;
	o->r.nphases = nphases;
	o->r.units = o->res.units;
	o->r.nunits = run_units_shown(&o->res);
	/* unified_rw_reporting=mixed: each unit's directions summed into one, as fio accounts them */
	for (unsigned i = 0; i < o->r.nunits && !ret; i++)
		if (o->r.units[i].job && o->r.units[i].job->o.unified_rw == UNIFIED_MIXED &&
		    stats_fold_mixed(&o->r.units[i].st))
			ret = -ENOMEM;
	o->r.start = tv.tv_sec;
	o->r.start_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	o->r.interrupted = run_signal_seen();
	o->r.compact = run->opts.status_interval || run->opts.iostat;
	o->r.no_disk_util = true;
	for (unsigned j = 0; j < run->njobs; j++)
		o->r.no_disk_util = o->r.no_disk_util && !run->jobs[j].o.disk_util;
	o->r.command = run->opts.command;
	o->r.iostat_log = o->iostat_log;
	o->gkv = run_global_kv(run, &o->r.nglobal_kv);
	o->r.global_kv = o->gkv;
	if (run_build_groups(run, &o->r) || own_io_build(&run->guard, o))
		ret = ret ? ret : -ENOMEM;
	diagnose(&o->r, run->jobs, run->njobs, &o->diags);
	o->r.diags = &o->diags;
	if (run->signal)
		fprintf(stderr, "iowl: terminating on signal %d\n", run->signal);
	o->ret = ret;
	return ret;
}

int run_status(const struct iowl_run *run, const struct run_outcome *o)
{
	if (run->signal)
		return run->signal == SIGTERM ? IOWL_EXIT_SIGTERM : IOWL_EXIT_SIGINT;
	if (o->ret || o->io_error)
		return IOWL_EXIT_IO;
	if (assert_check(run->opts.asserts, run->opts.nasserts, &o->r, stderr))
		return IOWL_EXIT_ASSERT;
	return IOWL_EXIT_OK;
}

int run_report_html(const struct iowl_run *run, struct json_t *doc, bool analysis)
{
	const struct run_opts *o = &run->opts;

	if (!o->report) {
		json_decref(doc);
		return 0;
	}
	/* A run's page shows where its jobs' IOs land too, as --analyze sees them. */
	return report_html_page(o->report, o->nfiles ? o->files[0] : "command-line jobs",
				o->command, doc,
				analysis ? analyze_json(run->jobs, run->njobs, ANALYZE_REPORT_IOS) :
					   NULL);
}

int run_exec(struct iowl_run *run)
{
	struct iowl_err err = { "" };
	struct run_outcome o;
	struct outfile out;
	int status, ret;

	/* The results file is opened before any IO, so a bad path costs nothing. */
	if (outfile_open(&out, run->opts.output, &err)) {
		iowl_warn("%s", err.text);
		return IOWL_EXIT_USAGE;
	}
	run->out = out.f;
	run_collect(run, &o);
	if (!run->out_errno && (ret = run_print_reports(run, out.f, &o.r))) {
		/* A reader that went away as the results were printed is EPIPE, not EIO. */
		out.err = ret < 0 ? -ret : EIO;
		if (run_output_gone(run) && run->out_errno == EPIPE)
			out.err = EPIPE;
		run->out_errno = 0;	/* outfile_close() says what went wrong */
		o.ret = o.ret ? o.ret : -EIO;
	}
	if (run->opts.report && run_report_html(run, report_json_tree(&o.r, true), true) && !o.ret)
		o.ret = -EIO;
	run->out = NULL;
	if (run->out_errno && !out.err)	/* what the run saw (EPIPE), not a later ferror()'s EIO */
		out.err = run->out_errno;
	/* A results file that cannot be completed is an error of the run, said on stderr. */
	ret = outfile_close(&out, &err);
	if (!ret && run->out_errno) {
		err_set(&err, "writing the results to %s: %s",
			run->opts.output ? run->opts.output : "standard output",
			strerror(run->out_errno));
		ret = -run->out_errno;
	}
	if (ret) {
		iowl_warn("%s", err.text);
		o.ret = o.ret ? o.ret : ret;
	}
	status = run_status(run, &o);
	run_outcome_release(&o);
	return status;
}
