// SPDX-License-Identifier: MIT
/* Runs the jobs: phases separated by stonewall, one thread per clone, signals, progress, then the reports. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "iowl/blktrace.h"
#include "iowl/analyze.h"
#include "iowl/bwlog.h"
#include "iowl/clock.h"
#include "iowl/diskstats.h"
#include "iowl/flow.h"
#include "iowl/iosched.h"
#include "iowl/engine.h"
#include "iowl/interval.h"
#include "iowl/iolog.h"
#include "iowl/options.h"
#include "iowl/outfile.h"
#include "iowl/preflight.h"
#include "iowl/progress.h"
#include "iowl/ranks.h"
#include "iowl/report.h"
#include "iowl/cgroup.h"
#include "iowl/verify.h"
#include "iowl/cachefill.h"
#include "iowl/fill.h"
#include "iowl/run.h"
#include "iowl/target.h"

/*
 * True when the results can no longer be written: a write to them failed, or the reader of the
 * pipe they go to has gone (iowl ... | head): the run then ends, as fio's does on EPIPE, instead
 * of dying of SIGPIPE (ignored, see main()).  Sets run->out_errno.
 */
static bool output_gone(struct iowl_run *run)
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
static struct ranks_run run_ranks(struct iowl_run *run)
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
static struct target_plan *run_plan(const struct iowl_run *run, const struct job *job,
				    unsigned clone)
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

/* Says which block sizes bs_roundup changes, so the mix is never changed silently. */
static void report_roundup(FILE *info, const struct job *job, const struct target_plan *plan)
{
	unsigned ns = job->nstreams ? job->nstreams : 1;
	char sizes[256] = "";
	size_t n = 0;

	if (!job->o.direct || plan->lbs <= 1)
		return;
	for (unsigned s = 0; s < ns; s++) {
		const struct job_opts *o = job->nstreams ? &job->streams[s].o : &job->o;

		for (unsigned d = 0; o->bs_roundup && d < DDIR_NR; d++) {
			for (unsigned i = 0; i < o->bssplit[d].n; i++) {
				uint64_t bs = o->bssplit[d].e[i].bs;
				char one[32];

				snprintf(one, sizeof(one), " %llu,", (unsigned long long)bs);
				if (bs < plan->lbs && !strstr(sizes, one) && n + strlen(one) < sizeof(sizes))
					n += (size_t)snprintf(sizes + n, sizeof(sizes) - n, "%s", one);
			}
			if (!o->bssplit[d].n && o->bs[d] < plan->lbs && (o->rw & (1U << d)))
				n += (size_t)snprintf(sizes + n, sizeof(sizes) - n, " %llu,",
						      (unsigned long long)o->bs[d]);
		}
	}
	if (n && info)
		fprintf(info, "%s: bs_roundup: IOs of%.*s bytes go out as %u bytes, the logical block size of the target\n",
			job->o.name, (int)n - 1, sizes, plan->lbs);
}

/* What the plan of a job's first clone rounded: block sizes (bs_roundup) and stream ranges. */
static void report_notes(FILE *info, const struct job *job, const struct target_plan *plan)
{
	report_roundup(info, job, plan);
	target_report_ranges(info, job, plan);
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
				report_notes(run_info(run), &run->jobs[j], &plan);
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

/* The workers of one phase, in job order then clone order. */
struct phase {
	struct worker **w;
	unsigned n;
	struct flow *flows; /* flow=: the flows of the phase's jobs, by flow_id */
	unsigned nflows;
	unsigned started;	/* w[0..started) have threads */
};

/* Records a setup failure as the worker's own, so it is reported with its job.  Returns ret. */
static int worker_failed(struct worker *w, int ret, const struct iowl_err *err)
{
	w->status = ret;
	w->err = *err;
	return ret;
}

/*
 * invalidate=1: the clone's files start with a cold page cache (after their layout), as fio's
 * do.  A failure (BLKFLSBUF needs root) is a warning, once per job.  Returns true when it warned.
 */
static bool invalidate(const struct job *job, const struct target_plan *plan, bool warned)
{
	struct iowl_err why = { "" };

	if (!job->o.invalidate || !target_invalidate(plan, false, &why) || warned)
		return false;
	iowl_warn("job '%s': %s", job->o.name, why.text);
	return true;
}

/*
 * dedupe_global: the clones of the phase that set it share one working set, each contributing
 * its own (a share of its region) in turn; fill_share() applies it when the worker starts.
 */
static void dedupe_global_share(struct phase *p)
{
	uint64_t total = 0;

	for (unsigned pass = 0; pass < 2; pass++) {
		uint64_t base = 0;

		for (unsigned i = 0; i < p->n; i++) {
			struct worker *w = p->w[i];
			const struct job_opts *o = &w->job->o;
			uint64_t bytes = 0;

			if (!o->dedupe_global || !o->dedupe_percentage ||
			    o->dedupe_mode != DEDUPE_WORKING_SET)
				continue;
			for (unsigned f = 0; f < w->plan.nfiles; f++)
				bytes += w->plan.files[f].size;
			w->dedupe_base = base;
			w->dedupe_total = total;
			base += fill_ws_units(w->job, bytes);
		}
		total = base;
	}
}

static int phase_create(struct iowl_run *run, unsigned phase, unsigned *number, struct phase *p,
			struct iowl_err *err)
{
	unsigned n = 0;

	for (unsigned j = 0; j < run->njobs; j++)
		if (run->jobs[j].phase == phase && !run->jobs[j].off_rank)
			n += run->jobs[j].o.numjobs;
	p->w = calloc(n ? n : 1, sizeof(*p->w));
	p->flows = calloc(n ? n : 1, sizeof(*p->flows));
	p->n = 0;
	if (!p->w || !p->flows)
		return err_nomem(err, "out of memory");
	for (unsigned j = 0; j < run->njobs; j++) {
		struct job *job = &run->jobs[j];
		bool warned = false;

		for (unsigned c = 0; job->phase == phase && !job->off_rank && c < job->o.numjobs;
		     c++) {
			struct target_plan *kept;
			struct worker *w;
			int ret;

			if (run_signal_seen()) /* the phase does not start: its jobs are not run */
				return err_set(err, "the run was interrupted by %s",
					       run_signal_seen() == SIGTERM ? "SIGTERM" : "SIGINT"),
				       -EINTR;
			w = worker_new(job, c, (*number)++, &run->ctl);
			if (!w)
				return err_nomem(err, "out of memory");
			p->w[p->n++] = w;
			if (job->o.flow) /* fio's flow_init_job(): every clone adds its weight */
				w->flow = flow_join(p->flows, &p->nflows, job->o.flow_id,
						    job->o.flow);
			kept = phase ? NULL : run_plan(run, job, c);
			if (kept) {
				w->plan = *kept;
				memset(kept, 0, sizeof(*kept));
				ret = 0;
			} else {
				ret = target_plan(job, c, &w->plan, err);
			}
			if (!ret && !c)
				report_notes(run_info(run), job, &w->plan);
			/* The null engine moves no data: its targets are names and sizes only. */
			/* create_serialize=0: each clone lays out its own files, in parallel */
			w->layout_here = !job->o.create_serialize;
			w->layout_info = run_info(run);
			if (!ret && !w->layout_here && !(job->engine->flags & ENGINE_F_NODATA)) {
				ret = target_layout(job, &w->plan, run_info(run), err);
				if (!ret)
					warned |= invalidate(job, &w->plan, warned);
			}
			if (ret == -EINTR && run_signal_seen())	/* the layout was interrupted */
				return ret;
			if (ret)
				return worker_failed(w, ret, err);
		}
	}
	dedupe_global_share(p);
	return 0;
}

/* The first clone of a job creates its write_iolog; the others add their files. */
static int phase_iolog_begin(const struct phase *p, struct iowl_err *err)
{
	for (unsigned i = 0; i < p->n; i++) {
		struct worker *w = p->w[i];
		int ret;

		if (!w->job->o.write_iolog)
			continue;
		ret = iolog_begin(w->job->o.name, w->job->o.write_iolog, !w->clone, &w->plan, err);
		if (ret)
			return worker_failed(w, ret, err);
	}
	return 0;
}

static void phase_iolog_end(const struct phase *p)
{
	for (unsigned i = 0; i < p->n; i++) {
		const struct worker *w = p->w[i];
		struct iowl_err err = { "" };

		if (w->job->o.write_iolog &&
		    iolog_end(w->job->o.name, w->job->o.write_iolog, &w->plan, &err))
			iowl_warn("%s (the log lacks its close lines)", err.text);
	}
}

static int phase_start(struct iowl_run *run, struct phase *p, struct iowl_err *err)
{
	sigset_t all, old;
	int ret = 0;

	/* Workers never take signals: the main thread handles them and sets ctl.stop. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (unsigned i = 0; i < p->n && !ret; i++) {
		/* A signal: the clones not started are not run (add_not_run()). */
		ret = run_signal_seen() ?
			      -EINTR :
			      -pthread_create(&p->w[i]->tid, NULL, worker_main, p->w[i]);
		if (!ret)
			p->started = i + 1;
		if (ret) {
			if (ret != -EINTR)
				err_errno(err, -ret, "cannot start a thread");
			/* Threads already started must still be released and joined. */
			__atomic_store_n(&run->ctl.stop, 1, __ATOMIC_RELAXED);
			for (unsigned k = i; k < p->n; k++)
				worker_free(p->w[k]);
			p->n = i;
		}
	}
	if (ret == -EINTR)
		ret = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/*
 * Waits for every worker to finish setup; a setup failure stops the phase before any IO.  Sets
 * the phase's start: phase_release() then lets the workers go.
 */
static int phase_ready(struct iowl_run *run, struct phase *p, struct iowl_err *err)
{
	struct timespec ms = { 0, 1000000 };
	int ret = 0;

	while (__atomic_load_n(&run->ctl.ready, __ATOMIC_ACQUIRE) < p->n) {
		nanosleep(&ms, NULL);
		ranks_tick(); /* the workers lay out their files: the heartbeat goes on */
	}
	for (unsigned i = 0; i < p->n && !ret; i++) {
		if (p->w[i]->status) {
			*err = p->w[i]->err;
			ret = p->w[i]->status;
		}
	}
	if (ret)
		__atomic_store_n(&run->ctl.stop, 1, __ATOMIC_RELAXED);
	run->ctl.start_ns = clock_ns();
	return ret;
}

/* Starts the phase's IO: wakes every worker waiting in wait_start() at once. */
static void phase_release(struct iowl_run *run)
{
	__atomic_store_n(&run->ctl.go, 1, __ATOMIC_RELEASE);
	futex_wake(&run->ctl.go, FUTEX_WAKE_ALL);
}

static bool phase_done(const struct phase *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (__atomic_load_n(&p->w[i]->state, __ATOMIC_ACQUIRE) != WORKER_DONE)
			return false;
	return true;
}

#define STOP_GRACE_NS 800000000ULL	/* after a signal, how long workers get to stop */
#define STOP_LOST_NS 1000000000ULL	/* then how long one not blocked in a call may take */
#define PROGRESS_NS 50000000ULL		/* how often the main thread looks at the workers */

/* Ends the phase's workers (of one reporting group, or all for group < 0) as runtime would. */
static void phase_halt(struct iowl_run *run, const struct phase *p, long group)
{
	for (unsigned i = 0; i < p->n; i++)
		if (group < 0 || p->w[i]->job->group == (unsigned)group)
			__atomic_store_n(&p->w[i]->halt, 1, __ATOMIC_RELAXED);
	/* The workers look at halt when they answer a snapshot request: make one. */
	__atomic_add_fetch(&run->ctl.snap_req, 1, __ATOMIC_RELEASE);
}

/*
 * fio's exitall, exit_what and exitall_on_error: a clone that has finished ends the others of its
 * group, of the phase, or of the whole run.  seen marks the workers already looked at.
 */
static void phase_exits(struct iowl_run *run, const struct phase *p, bool *seen)
{
	for (unsigned i = 0; i < p->n; i++) {
		const struct worker *w = p->w[i];
		const struct job_opts *o = &w->job->o;
		bool failed;

		if (seen[i] || __atomic_load_n(&w->state, __ATOMIC_ACQUIRE) != WORKER_DONE)
			continue;
		seen[i] = true;
		failed = w->status || w->error_stop;
		if (o->exitall_on_error && failed) {
			phase_halt(run, p, -1);
			snprintf(run->ended_by, sizeof(run->ended_by),
				 "job '%s' ended in error and has exitall_on_error=1", o->name);
		} else if (o->exitall) {
			phase_halt(run, p, o->exit_what == EXIT_GROUP ? (long)w->job->group : -1);
			if (o->exit_what == EXIT_ALL)
				snprintf(run->ended_by, sizeof(run->ended_by),
					 "job '%s' finished and has exitall=1 exit_what=all", o->name);
		}
	}
}

/*
 * fio's --trigger-file and --trigger-timeout: once the file exists (looked for every 250 ms) or
 * the time from the run's start has passed, the run ends as at its runtime (no later phase
 * starts) and --trigger's command runs.
 */
static void trigger_poll(struct iowl_run *run, uint64_t now, uint64_t *next)
{
	const struct run_opts *o = &run->opts;
	struct stat st;
	int rc;

	if ((!o->trigger_file && !o->trigger_timeout) || run->ended_by[0] || now < *next)
		return;
	*next = now + 250 * NSEC_PER_MSEC;
	if (!run->trigger_t0)
		run->trigger_t0 = run->ctl.start_ns;
	if (o->trigger_timeout && now - run->trigger_t0 >= o->trigger_timeout)
		snprintf(run->ended_by, sizeof(run->ended_by), "--trigger-timeout passed");
	else if (o->trigger_file && !stat(o->trigger_file, &st))
		snprintf(run->ended_by, sizeof(run->ended_by), "the --trigger-file '%s' appeared",
			 o->trigger_file);
	else
		return;
	__atomic_store_n(&run->ctl.stop, 1, __ATOMIC_RELAXED);
	if (!o->trigger_cmd)
		return;
	fflush(NULL);
	rc = system(o->trigger_cmd);
	if (rc)
		iowl_warn("--trigger '%s': exited with status %d", o->trigger_cmd,
			  WIFEXITED(rc) ? WEXITSTATUS(rc) : rc);
}

/*
 * Takes the workers that have not stopped where they are blocked in a call (worker_seize()).
 * Returns true when every worker of the phase is done.
 */
static bool phase_seize(const struct phase *p, uint64_t now)
{
	bool all = true;

	for (unsigned i = 0; i < p->n; i++)
		if (__atomic_load_n(&p->w[i]->state, __ATOMIC_ACQUIRE) != WORKER_DONE)
			all &= worker_seize(p->w[i], now, 0);
	return all;
}

/* Worker i's figures can be read: its thread never started, ended, or was seized. */
static bool worker_readable(const struct phase *p, unsigned i)
{
	return i >= p->started || __atomic_load_n(&p->w[i]->state, __ATOMIC_ACQUIRE) == WORKER_DONE;
}

/*
 * Waits for the phase's workers.  A worker blocked in a call for longer than its io_timeout is
 * seized with that error (worker_watchdog()).  After a signal, workers that did not stop within
 * STOP_GRACE_NS (a system call that does not return, a hung device) are seized where they are
 * blocked, and one that is in none is waited for STOP_LOST_NS more, then left out (its
 * figures cannot be read while it runs).  Returns false when workers were left behind: the
 * run then reports what they counted and ends.
 */
static bool phase_wait(struct iowl_run *run, struct phase *p, struct ivl *iv)
{
	const struct ranks_run rr = run_ranks(run);
	uint64_t trigger_next = 0;
	struct progress prog;
	uint64_t now, stop_seen = 0, lost_at = 0;
	bool left = false;
	bool *seen = calloc(p->n ? p->n : 1, sizeof(*seen));

	progress_init(&prog, run->opts.eta, run->opts.eta_interval, run->opts.eta_newline,
		      run->jobs, run->njobs);
	for (;;) {
		unsigned done = __atomic_load_n(&run->ctl.done, __ATOMIC_ACQUIRE);

		if (phase_done(p))
			break;
		if (seen)
			phase_exits(run, p, seen);
		ranks_watch(&rr, p->w, p->n);
		uint64_t next = ivl_next(iv);

		now = clock_ns();
		uint64_t nap = next > now && next - now < PROGRESS_NS ? next - now : PROGRESS_NS;

		/* until then or until a worker ends (the last one's end is seen at once) */
		if (next > now)
			futex_wait(&run->ctl.done, done, nap);
		ivl_poll(iv, clock_ns());
		bwlog_poll(run->bwlog, (const struct worker *const *)p->w, p->n, clock_ns());
		if (!lost_at)
			progress_update(&prog, (const struct worker *const *)p->w, p->n,
					run->ctl.start_ns);
		trigger_poll(run, clock_ns(), &trigger_next);
		if (output_gone(run))
			__atomic_store_n(&run->ctl.stop, 1, __ATOMIC_RELAXED);
		now = clock_ns();
		for (unsigned i = 0; i < p->n; i++)
			left |= worker_watchdog(p->w[i], now);
		if (!run_signal_seen())
			continue;
		if (!stop_seen)
			stop_seen = now;
		if (!run_signal_again() && now - stop_seen <= STOP_GRACE_NS)
			continue;
		if (!lost_at) {
			progress_end(&prog);
			if (run_signal_again())
				iowl_warn(
					"a second signal: reporting what was counted without waiting for the workers");
			else
				iowl_warn("a worker did not stop within %llu ms of the signal; reporting what was counted",
					  STOP_GRACE_NS / 1000000);
			lost_at = now + (run_signal_again() ? PROGRESS_NS : STOP_LOST_NS);
		}
		left = true;
		if (phase_seize(p, now))
			break;
		if (now > lost_at) {
			for (unsigned i = 0; i < p->n; i++)
				if (!worker_readable(p, i))
					iowl_warn("job '%s': a worker did not stop; its figures are left out",
						  p->w[i]->job->o.name);
			break;
		}
	}
	progress_end(&prog);
	if (seen)	/* the last ones may have finished together */
		phase_exits(run, p, seen);
	ranks_watch(&rr, p->w, p->n); /* a failure as the last worker ended is told too */
	free(seen);
	/* Every thread that ended is joined; one seized or left out may never end. */
	for (unsigned i = 0; i < p->n; i++)
		if (!p->w[i]->seized && worker_readable(p, i))
			pthread_join(p->w[i]->tid, NULL);
	return !left;
}

/* A worker's unit: its merged group's, else a new one of its own. */
static struct job_result *unit_for(struct results *res, const struct worker *w)
{
	return job_group_merged(w->job) ? results_unit(res, w->job, w->clone) :
					  results_add(res, w->job, w->clone);
}

/* Says why the unit did no IO: its own setup failure (error), or why it was not run. */
static int unit_why(struct job_result *u, int error, bool not_run, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int unit_why(struct job_result *u, int error, bool not_run, const char *fmt, ...)
{
	va_list ap;
	char *why;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&why, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	free(u->why);
	u->why = why;
	u->error = error;
	u->not_run = not_run;
	return 0;
}

/*
 * Gathers the phase's workers into units.  stopped (NULL when the phase ran) says why the phase
 * stopped before its IO: workers without a failure of their own were then not run.
 */
static int collect(struct iowl_run *run, const struct phase *p, struct ivl *iv,
		   struct results *res, const char *stopped)
{
	for (unsigned i = 0; i < p->n; i++) {
		struct worker *w = p->w[i];
		/* stats=0: a unit of its own, merged into no group's, left out of the results */
		struct job_result *u =
			w->job->o.stats ? unit_for(res, w) : results_add(res, w->job, w->clone);
		uint64_t elapsed;
		int ret = 0;

		if (!u)
			return -ENOMEM;
		u->hidden = !w->job->o.stats;
		res->collected[w->job->index]++;
		if (!worker_readable(p, i)) { /* still running: left out (phase_wait()) */
			if (unit_why(u, ETIMEDOUT, false,
				     "a worker of this job did not stop; its figures are left out"))
				return -ENOMEM;
			continue;
		}
		elapsed = w->end_ns > w->start_ns ? w->end_ns - run->ctl.start_ns : 0;
		if (!u->error && w->stats.first_error.err)
			u->error = w->stats.first_error.err;
		/* The worker is done with its figures: a unit of one takes them whole. */
		if (!u->nworkers)
			stats_take(&u->st, &w->stats);
		else if (stats_merge(&u->st, &w->stats))
			return -ENOMEM;
		if (ivl_hand_over(iv, i, &u->series, &u->ss, &u->ss_attained_ns))
			u->has_ss = true;
		if (w->verify)
			verify_publish(w->verify, &u->verify);
		u->nworkers++;
		if (elapsed > u->elapsed_ns)
			u->elapsed_ns = elapsed;
		if (w->status && (!u->error || u->not_run))
			ret = unit_why(u, -w->status, false, "%s", w->err.text);
		else if (stopped && !u->error)
			ret = unit_why(u, ECANCELED, true, "the run stopped before this job started: %s",
				       stopped);
		if (ret)
			return ret;
	}
	return 0;
}

/* A unit for every clone (or merged group) that no phase collected: not run, and why. */
static int add_not_run(const struct iowl_run *run, struct results *res, const char *why)
{
	for (unsigned j = 0; j < run->njobs; j++) {
		const struct job *job = &run->jobs[j];
		bool merged = job_group_merged(job);

		for (unsigned c = res->collected[j];
		     !job->off_rank && job->o.stats && c < job->o.numjobs; c++) {
			struct job_result *u;

			if (merged && results_group(res, job->group))
				break;
			u = results_add(res, job, c);
			if (!u || unit_why(u, ECANCELED, true, "%s", why))
				return -ENOMEM;
		}
	}
	return 0;
}

/* The units of stats=0 jobs go last, out of the results' count; returns the count of the rest. */
static unsigned units_shown(struct results *res)
{
	unsigned n = 0;

	for (unsigned i = 0; i < res->n; i++) {
		struct job_result u = res->units[i];

		if (u.hidden)
			continue;
		memmove(&res->units[n + 1], &res->units[n], (i - n) * sizeof(u));
		res->units[n++] = u;
	}
	return n;
}

/* Adds one direction's figures to slot k of the group (k 3: every direction, as fio's mixed). */
static void group_slot(struct group_result *g, unsigned k, const struct dir_stats *ds, uint64_t rt)
{
	uint64_t bw = rt ? (uint64_t)((unsigned __int128)ds->bytes * NSEC_PER_SEC / rt) : 0;

	if (!g->ios[k] || bw < g->min_bw[k])
		g->min_bw[k] = bw;
	if (bw > g->max_bw[k])
		g->max_bw[k] = bw;
	if (!g->ios[k] || rt < g->min_runtime_ns[k])
		g->min_runtime_ns[k] = rt;
	if (rt > g->runtime_ns[k])
		g->runtime_ns[k] = rt;
	g->bytes[k] += ds->bytes;
	g->ios[k] += ds->ios;
}

static void group_add(struct group_result *g, const struct job_result *u)
{
	if (!g->lead)
		g->lead = u->job;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		if (!u->st.dir[d].ios)
			continue;
		group_slot(g, d, &u->st.dir[d], stats_dir_runtime(&u->st, d));
		group_slot(g, 3, &u->st.dir[d], stats_dir_runtime(&u->st, d));
	}
}

static int build_groups(const struct iowl_run *run, struct run_result *r)
{
	unsigned n = run->njobs ? run->jobs[run->njobs - 1].group + 1 : 0;

	r->groups = calloc(n ? n : 1, sizeof(*r->groups));
	if (!r->groups)
		return -ENOMEM;
	r->ngroups = n;
	for (unsigned g = 0; g < n; g++) {
		r->groups[g].id = g;
		r->groups[g].kb_base = 1024;
		r->groups[g].first_phase = UINT_MAX;
	}
	for (unsigned j = 0; j < run->njobs; j++) {
		struct group_result *g = &r->groups[run->jobs[j].group];

		g->first_phase = run->jobs[j].phase < g->first_phase ? run->jobs[j].phase : g->first_phase;
		g->last_phase = run->jobs[j].phase > g->last_phase ? run->jobs[j].phase : g->last_phase;
	}
	for (unsigned i = 0; i < r->nunits; i++) {
		struct group_result *g = &r->groups[r->units[i].group];

		g->kb_base = r->units[i].job->o.kb_base;
		group_add(g, &r->units[i]);
	}
	for (unsigned g = 0; g < n; g++)
		for (unsigned d = 0; d < 4; d++)
			if (r->groups[g].runtime_ns[d])
				r->groups[g].agg_bw[d] =
					(uint64_t)((unsigned __int128)r->groups[g].bytes[d] *
						   NSEC_PER_SEC / r->groups[g].runtime_ns[d]);
	return 0;
}

/* Options written in [global] sections, for the JSON "global options". */
static struct job_kv *global_kv(const struct iowl_run *run, unsigned *n)
{
	struct job_kv *kv = NULL;

	*n = 0;
	for (size_t s = 0; s < run->doc.nsections; s++) {
		const struct ini_section *sec = &run->doc.sections[s];

		for (size_t e = 0; sec->global && e < sec->nentries; e++) {
			struct job_kv *v = realloc(kv, (*n + 1) * sizeof(*kv));

			if (!v)
				return kv;
			kv = v;
			kv[*n].key = sec->entries[e].key;
			kv[*n].value = sec->entries[e].value;
			(*n)++;
		}
	}
	return kv;
}

static int print_reports(const struct iowl_run *run, FILE *f, struct run_result *r)
{
	int ret = 0;

	errno = 0;	/* a failed write leaves why (ENOSPC, EPIPE) where the reports say EIO */
	/* fio's order: terse, then JSON, then normal */
	if (run->opts.formats & OUT_TERSE)
		ret = report_terse(f, r, run->opts.terse_version ? run->opts.terse_version : 3);
	if (!ret && (run->opts.formats & (OUT_JSON | OUT_JSONPLUS)))
		ret = report_json(f, r, run->opts.formats & OUT_JSONPLUS);
	if (!ret && (run->opts.formats & OUT_NORMAL))
		ret = report_text(f, r);
	if (ret == -EIO && errno)
		ret = -errno;
	if (fflush(f) && !ret)
		ret = -errno;
	return ret;
}

static void report_errors(const struct phase *p)
{
	for (unsigned i = 0; i < p->n; i++) {
		const struct worker *w = p->w[i];
		const struct io_error *e = &w->stats.first_error;
		static const char *const ops[] = { "read", "write", "trim", "fsync", "fdatasync" };

		if (!worker_readable(p, i))	/* said by phase_wait() */
			continue;
		/* Engine and layout messages do not know the job: name it, once. */
		if (w->status && !strncmp(w->err.text, "job '", 5))
			iowl_warn("%s", w->err.text);
		else if (w->status)
			iowl_warn("job '%s': %s", w->job->o.name, w->err.text);
		if (e->err)
			iowl_warn("job '%s': io error on '%s': %s offset=%llu, length=%u: %s",
				  w->job->o.name, e->path, ops[e->op],
				  (unsigned long long)e->offset, e->len, strerror(e->err));
	}
}

static void phase_free(struct phase *p)
{
	for (unsigned i = 0; i < p->n; i++)
		worker_free(p->w[i]);
	free(p->w);
	free(p->flows);
	memset(p, 0, sizeof(*p));
}

/* The first worker of the phase that failed to set up, or NULL. */
static const struct worker *phase_failure(const struct phase *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->w[i]->status)
			return p->w[i];
	return NULL;
}

/*
 * Runs one phase; returns 0, or -errno for a failure that is not an IO error, with err saying
 * what stopped the phase before its IO (the failing worker's own error, printed once).
 */
/* Samples the devices into mark (disks->n samples; NULL: none kept), for the phase's own window. */
static void phase_mark(struct disk_set *disks, struct disk_sample *mark)
{
	if (!mark || !disks->n || disk_set_sample(disks, clock_ns(), &(struct iowl_err){ "" }))
		return;
	for (unsigned i = 0; i < disks->n; i++)
		mark[i] = disks->devs[i].last;
}

static int run_phase(struct iowl_run *run, unsigned phase, unsigned *number,
		     struct results *res, bool *io_error, struct disk_set *disks,
		     struct disk_sample *marks, struct iowl_err *why)
{
	const struct ranks_run rr = run_ranks(run);
	const struct worker *failed;
	struct phase p = { 0 };
	struct iowl_err err = { "" };
	struct ivl *iv = NULL;
	bool joined = true, synced = false;
	int ret;

	run->ctl.go = 0;
	run->ctl.ready = 0;
	run->ctl.done = 0;
	ret = phase_create(run, phase, number, &p, &err);

	if (!ret)
		ret = phase_iolog_begin(&p, &err);
	/* After the layout, so the device figures cover the workload only. */
	if (!ret && disks->n && !disks->nsamples &&
	    disk_set_sample(disks, clock_ns(), &(struct iowl_err){ "" }))
		disks->n = 0;
	if (!ret)
		phase_mark(disks, marks);
	if (!ret) {
		ret = phase_start(run, &p, &err);

		if (!ret || p.n) {
			int r = phase_ready(run, &p, ret ? &(struct iowl_err){ "" } : &err);

			ret = ret ? ret : r;
			/* Every rank's phase starts together (ranks.h): the barrier after the layout. */
			ret = ranks_phase_sync(&rr, phase, ret, &err);
			synced = true;
			/* Before the workers run: with thousands of them the main thread waits its turn. */
			if (!ret && !run_signal_seen()) {
				iv = ivl_begin(&run->ivl, p.w, p.n, disks, run->ctl.start_ns);
				run->ctl.start_ns = clock_ns();
				ivl_rebase(iv, run->ctl.start_ns);
			}
			phase_release(run);
			bwlog_phase(run->bwlog, run->ctl.start_ns);
			joined = phase_wait(run, &p, iv);


			ivl_finish(iv, clock_ns(), joined);
			phase_mark(disks, marks ? marks + disks->n : NULL);
		}
		phase_iolog_end(&p);
	}
	if (!synced) /* the other ranks wait for this one at the barrier: it stops them */
		ranks_phase_sync(&rr, phase, ret ? ret : -EIO,
				 ret ? &err : &(struct iowl_err){ "cannot start a thread" });
	if (joined) {
		guard_set_settle(&run->guard);
		cgroup_cleanup(); /* the groups the phase made, their threads ended */
	}
	failed = ret ? phase_failure(&p) : NULL;
	if (failed)
		err_set(why, "job '%s' failed to set up: %s", failed->job->o.name, failed->err.text);
	else if (ret)
		*why = err;
	if (ret && !failed && !(ret == -EINTR && run_signal_seen()))
		iowl_warn("%s", err.text);
	report_errors(&p);
	for (unsigned i = 0; i < p.n; i++)
		if (!worker_readable(&p, i) || p.w[i]->stats.first_error.err || p.w[i]->status)
			*io_error = true;
	if (collect(run, &p, iv, res, ret ? why->text : NULL))
		ret = ret ? ret : -ENOMEM;
	ivl_free(iv);
	/* Workers left running still use their memory: it is not freed (the process ends soon). */
	if (joined) {
		for (unsigned i = 0; i < p.n; i++)
			if (p.w[i]->job->o.unlink && /* the null engine made no files */
			    !(p.w[i]->job->engine->flags & ENGINE_F_NODATA))
				target_unlink(&p.w[i]->plan);
		phase_free(&p);
	}
	else
		run->abandoned = true;
	return ret;
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
		if (run_signal_seen() || output_gone(run) || run->ended_by[0]) {
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
	run->signal = run_signal_seen();
	not_run_why(run, ret, &why, reason, sizeof(reason));
	if (o->res.collected && add_not_run(run, &o->res, reason))
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
	o->r.nunits = units_shown(&o->res);
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
	o->gkv = global_kv(run, &o->r.nglobal_kv);
	o->r.global_kv = o->gkv;
	if (build_groups(run, &o->r) || own_io_build(&run->guard, o))
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
	if (!run->out_errno && (ret = print_reports(run, out.f, &o.r))) {
		/* A reader that went away as the results were printed is EPIPE, not EIO. */
		out.err = ret < 0 ? -ret : EIO;
		if (output_gone(run) && run->out_errno == EPIPE)
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
