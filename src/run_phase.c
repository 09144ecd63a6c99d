// SPDX-License-Identifier: MIT
/* One phase of a run: its workers created, laid out, started together (also with the other ranks), watched until they end, and gathered into units. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "iowl/bwlog.h"
#include "iowl/clock.h"
#include "iowl/diskstats.h"
#include "iowl/flow.h"
#include "iowl/engine.h"
#include "iowl/interval.h"
#include "iowl/iolog.h"
#include "iowl/options.h"
#include "iowl/progress.h"
#include "iowl/ranks.h"
#include "iowl/cgroup.h"
#include "iowl/verify.h"
#include "iowl/fill.h"
#include "iowl/run.h"
#include "iowl/target.h"

#include "run_int.h"

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
				run_report_notes(run_info(run), job, &w->plan);
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
		/* A signal: the clones not started are not run (run_add_not_run()). */
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
					 "job '%s' finished and has exitall=1 exit_what=all",
					 o->name);
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
		if (run_output_gone(run))
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

int run_unit_why(struct job_result *u, int error, bool not_run, const char *fmt, ...)
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
static int collect(struct iowl_run *run, const struct phase *p, struct ivl *iv, struct results *res,
		   const char *stopped)
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
			if (run_unit_why(u, ETIMEDOUT, false,
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
			ret = run_unit_why(u, -w->status, false, "%s", w->err.text);
		else if (stopped && !u->error)
			ret = run_unit_why(u, ECANCELED, true,
					   "the run stopped before this job started: %s", stopped);
		if (ret)
			return ret;
	}
	return 0;
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

int run_phase(struct iowl_run *run, unsigned phase, unsigned *number, struct results *res,
	      bool *io_error, struct disk_set *disks, struct disk_sample *marks,
	      struct iowl_err *why)
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
		err_set(why, "job '%s' failed to set up: %s", failed->job->o.name,
			failed->err.text);
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
	} else
		run->abandoned = true;
	return ret;
}
