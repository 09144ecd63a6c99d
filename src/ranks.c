// SPDX-License-Identifier: MIT
/*
 * One run over several ranks (ranks.h) on the messages of cluster.h.  Rank 0 is the hub: at a
 * barrier every rank sends it a "meet" message (its arrival and whether it stops), and rank 0
 * answers each with the outcome once all have come, so the phases start within a message's
 * time of each other.  Results go up the same way.  Every wait gives up RANKS_GRACE_NS after a
 * signal (mpirun sends SIGTERM to the survivors when a rank dies, then SIGKILL a second later):
 * a rank that did not answer by then is lost, and every survivor ends with status 2 naming it.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iowl/clock.h"
#include "iowl/cluster.h"
#include "iowl/interval.h"
#include "iowl/job.h"
#include "iowl/ranks.h"
#include "iowl/result.h"
#include "iowl/signals.h"
#include "iowl/worker.h"
#include "ranks_int.h"

/* After a signal, how long rank 0 waits for a rank, and the others for rank 0 (which answers first). */
#define RANKS_GRACE_NS 300000000ULL
#define RANKS_GRACE_ROOT_NS 600000000ULL

/* How often a rank tells it is alive (rank 0 to every rank, every rank to rank 0). */
#define BEAT_NS 250000000ULL

#define WHY_LEN 2048

enum meet_kind {
	MEET_AGREE = 1, /* the jobs are prepared */
	MEET_PHASE,	/* a phase's barrier */
	MEET_RESULTS,	/* the results (up) */
	MEET_VERDICT,	/* the exit status (down) */
};

enum meet_stop {
	STOP_NONE = 0,
	STOP_QUIET, /* the run ends without an error (a signal, exitall) */
	STOP_ERROR, /* a rank failed */
};

/* A notice: rank failed (its own, or rank 0 telling the others of a hung rank). */
struct notice {
	uint32_t rank;
	char why[WHY_LEN];
};

#define LOST_WHY_LEN 240

/* A barrier message, up and down. */
struct meet {
	uint32_t kind, seq;
	int32_t stop;  /* enum meet_stop */
	int32_t ret;   /* -errno of the failure */
	uint32_t rank; /* who stopped (down) */
	char why[WHY_LEN];
};

/* The head of a rank's results: its phase starts, its --iostat view (JSON text), then its units follow. */
struct wire_head {
	uint32_t kind, nunits, nstarts, iostat_len;
	int32_t status;
	char host[64];
	char why[WHY_LEN];
	uint64_t ios[DDIR_NR], bytes[DDIR_NR], runtime_ns[DDIR_NR];
};

/*
 * The state of the run across ranks.  Process-wide like the cluster itself: one run at a time,
 * reset by ranks_begin().
 */
static struct {
	uint64_t *starts; /* this rank's phase starts (wall clock, ns) */
	unsigned nphases;
	bool notified;	       /* the others were told of this rank's failure */
	char own_why[WHY_LEN]; /* what was told */
	int failed_rank;       /* the first other rank that failed, -1: none */
	char failed_why[WHY_LEN];
	bool *lost; /* rank 0: per rank, it did not answer; others: [0] */
	bool lost_any;
	struct rank_result *res; /* rank 0: every rank's figures, after ranks_reduce() */
	uint64_t *res_starts;
	/* The heartbeat (ranks_tick()): rank 0 watches every rank, the others rank 0. */
	struct run_ctl *ctl;	    /* stops the workers when a rank hangs */
	pthread_t main;		    /* the thread that calls MPI */
	bool main_set;
	uint64_t timeout;	    /* --rank-timeout, ns; 0: never */
	uint64_t beat_next;	    /* when this rank next beats */
	uint64_t *heard;	    /* per rank: when it was last heard of; 0: not yet watched */
	char (*lost_why)[LOST_WHY_LEN]; /* per rank: why it was lost; "": it died */
	unsigned waiting;	    /* the rank a wait is for; UINT_MAX: none */
	bool beats_off;		    /* the verdict: no more heartbeats */
} rs = { .failed_rank = -1, .waiting = UINT_MAX };

bool ranks_on(void)
{
	return cluster_size() > 1;
}

bool ranks_lost(void)
{
	return rs.lost_any;
}

static bool *lost_table(void)
{
	if (!rs.lost)
		rs.lost = calloc(cluster_size(), sizeof(*rs.lost));
	if (!rs.lost_why)
		rs.lost_why = calloc(cluster_size(), sizeof(*rs.lost_why));
	return rs.lost;
}

static void mark_lost(unsigned r)
{
	bool *l = lost_table();

	if (l)
		l[r] = true;
	rs.lost_any = true;
}

static bool is_lost(unsigned r)
{
	return rs.lost && rs.lost[r];
}

bool ranks_rank_lost(unsigned r)
{
	return is_lost(r);
}

/* Why rank r was lost, for "rank R ...". */
static const char *lost_why(unsigned r)
{
	return rs.lost_why && rs.lost_why[r][0] ? rs.lost_why[r] : "died or was killed";
}

/*
 * Rank r sent no heartbeat for silent ns: it is lost (never waited for again), this rank's
 * workers stop, and rank 0 tells the other ranks, which stop theirs.
 */
static void hung(unsigned r, uint64_t silent)
{
	struct notice n = { .rank = r };

	mark_lost(r);
	snprintf(n.why, sizeof(n.why),
		 "hangs: it sent no heartbeat for %.1f s (--rank-timeout=%gs); it is stopped, frozen or cut off",
		 (double)silent / 1e9, (double)rs.timeout / 1e9);
	if (rs.lost_why)
		snprintf(rs.lost_why[r], sizeof(rs.lost_why[r]), "%.200s", n.why);
	iowl_warn("rank %u %s: stopping rank %u", r, n.why, cluster_rank());
	if (rs.failed_rank < 0) {
		rs.failed_rank = (int)r;
		snprintf(rs.failed_why, sizeof(rs.failed_why), "%s", n.why);
	}
	if (rs.ctl)
		__atomic_store_n(&rs.ctl->stop, 1, __ATOMIC_RELAXED);
	for (unsigned q = 1; !cluster_rank() && q < cluster_size(); q++)
		if (!is_lost(q))
			cluster_send(q, CLUSTER_NOTICE, &n, sizeof(n));
}

void ranks_tick(void)
{
	unsigned me = cluster_rank(), size = cluster_size(), from;
	void *buf = NULL;
	size_t len = 0;
	uint64_t now;

	if (size < 2 || rs.beats_off || !rs.main_set || !pthread_equal(pthread_self(), rs.main))
		return;
	now = clock_gettime_ns();
	if (now < rs.beat_next || (!rs.heard && !(rs.heard = calloc(size, sizeof(*rs.heard)))))
		return;
	rs.beat_next = now + BEAT_NS;
	for (unsigned r = 0; r < size; r++) {
		if (r == me || (me && r) || is_lost(r))
			continue;
		cluster_send(r, CLUSTER_BEAT, &now, sizeof(now));
		if (!rs.heard[r]) /* the watch starts with this rank's first beat */
			rs.heard[r] = now;
	}
	while (cluster_poll(CLUSTER_BEAT, &from, &buf, &len) == 1) {
		if (from < size)
			rs.heard[from] = now;
		free(buf);
		buf = NULL;
	}
	for (unsigned r = 0; rs.timeout && r < size; r++)
		if (r != me && rs.heard[r] && !is_lost(r) && now - rs.heard[r] > rs.timeout)
			hung(r, now - rs.heard[r]);
}

/* Rank 0's waits for rank rs.waiting: given up when it hangs, or after a signal. */
static bool give_up(void)
{
	uint64_t s = run_signal_ns();

	ranks_tick();
	ranks_live_poll();
	if (rs.waiting != UINT_MAX && is_lost(rs.waiting))
		return true;
	return s && clock_gettime_ns() - s > RANKS_GRACE_NS;
}

/* The other ranks' waits for rank 0. */
static bool give_up_root(void)
{
	uint64_t s = run_signal_ns();

	ranks_tick();
	if (is_lost(0))
		return true;
	return s && clock_gettime_ns() - s > RANKS_GRACE_ROOT_NS;
}

bool ranks_quiet(struct run_ctl *ctl, uint64_t timeout)
{
	rs.ctl = ctl;
	rs.main = pthread_self();
	rs.main_set = true;
	rs.timeout = timeout;
	run_busy_set(ranks_tick);
	if (!cluster_rank())
		return false;
	if (!freopen("/dev/null", "w", stdout))
		iowl_warn("rank %u: cannot silence standard output", cluster_rank());
	return true;
}

/*
 * A barrier: every rank brings mine; every rank gets back the first (lowest) rank's stop of the
 * highest kind.  A rank that does not come before the wait is given up is lost.
 */
static void meet(struct meet *mine, struct meet *out)
{
	unsigned me = cluster_rank(), size = cluster_size();

	*out = *mine;
	if (size < 2)
		return;
	if (me) {
		void *buf = NULL;
		size_t len = 0;

		if (is_lost(0) || cluster_send(0, CLUSTER_UP, mine, sizeof(*mine)) ||
		    cluster_recv(0, CLUSTER_DOWN, &buf, &len, give_up_root) ||
		    len != sizeof(*out)) {
			if (!is_lost(0))
				mark_lost(0);
			out->stop = STOP_ERROR;
			out->ret = -EIO;
			out->rank = 0;
			snprintf(out->why, sizeof(out->why), "rank 0 did not answer (it %s)",
				 lost_why(0));
		} else {
			memcpy(out, buf, sizeof(*out));
		}
		free(buf);
		return;
	}
	for (unsigned r = 1; r < size; r++) {
		struct meet m;
		void *buf = NULL;
		size_t len = 0;

		if (is_lost(r))
			continue;
		rs.waiting = r;
		if (cluster_recv(r, CLUSTER_UP, &buf, &len, give_up) || len != sizeof(m)) {
			mark_lost(r);
			memset(&m, 0, sizeof(m));
			m.stop = STOP_ERROR;
			m.ret = -EIO;
			m.rank = r;
			snprintf(m.why, sizeof(m.why), "rank %u did not answer (it %s)", r,
				 lost_why(r));
		} else {
			memcpy(&m, buf, sizeof(m));
			if (m.kind != mine->kind || m.seq != mine->seq) {
				mark_lost(r);
				m.stop = STOP_ERROR;
				m.ret = -EPROTO;
				snprintf(m.why, sizeof(m.why), "rank %u is out of step", r);
			}
		}
		free(buf);
		if (m.stop > out->stop)
			*out = m;
	}
	rs.waiting = UINT_MAX;
	out->kind = mine->kind;
	out->seq = mine->seq;
	for (unsigned r = 1; r < size; r++)
		if (!is_lost(r))
			cluster_send(r, CLUSTER_DOWN, out, sizeof(*out));
}

int ranks_agree(int ret, struct iowl_err *err)
{
	struct meet m = { .kind = MEET_AGREE,
			  .stop = ret ? STOP_ERROR : STOP_NONE,
			  .ret = ret,
			  .rank = cluster_rank() };
	struct meet out;

	if (!ranks_on())
		return ret;
	if (ret)
		snprintf(m.why, sizeof(m.why), "%s", err->text);
	meet(&m, &out);
	if (ret || out.stop == STOP_NONE)
		return ret;
	err_set(err, "rank %u (of %u): %s", out.rank, cluster_size(), out.why);
	return out.ret ? out.ret : -EINVAL;
}

void ranks_begin(unsigned nphases)
{
	free(rs.starts);
	rs.starts = calloc(nphases ? nphases : 1, sizeof(*rs.starts));
	rs.nphases = rs.starts ? nphases : 0;
	rs.notified = false;
	rs.failed_rank = -1;
	rs.failed_why[0] = '\0';
	ranks_live_begin(); /* a sweep's or a vdbench step's next run counts its phases from 0 */
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int ranks_phase_sync(const struct ranks_run *rr, unsigned phase, int ret, struct iowl_err *err)
{
	struct meet m = { .kind = MEET_PHASE, .seq = phase, .ret = ret, .rank = cluster_rank() };
	struct meet out;

	rs.ctl = rr->ctl;
	ranks_live_phase(rr, phase);
	if (ranks_on()) {
		m.stop = ret || rs.notified || rs.failed_rank >= 0 ? STOP_ERROR :
			 run_signal_seen()			   ? STOP_QUIET :
								     STOP_NONE;
		if (ret)
			snprintf(m.why, sizeof(m.why), "%s", err->text);
		else if (rs.notified)
			snprintf(m.why, sizeof(m.why), "%s", rs.own_why);
		else if (rs.failed_rank >= 0) /* in the name of the rank that failed */
			snprintf(m.why, sizeof(m.why), "rank %d failed: %.200s",
				 (int)(m.rank = (uint32_t)rs.failed_rank), rs.failed_why);
		else if (m.stop)
			snprintf(m.why, sizeof(m.why), "interrupted by a signal");
		meet(&m, &out);
		ranks_live_flush(phase); /* every rank is done with the phases before */
		if (!ret && out.stop != STOP_NONE &&
		    (out.rank != cluster_rank() || m.stop == STOP_ERROR)) {
			__atomic_store_n(&rr->ctl->stop, 1, __ATOMIC_RELAXED);
			if (out.stop == STOP_QUIET) {
				snprintf(rr->ended_by, IOWL_ERR_LEN, "rank %u was %.900s", out.rank,
					 out.why);
			} else {
				err_set(err, "rank %u (of %u) stopped the run: %s", out.rank,
					cluster_size(), out.why);
				ret = out.ret ? out.ret : -ECANCELED;
			}
		}
	}
	if (phase < rs.nphases)
		rs.starts[phase] = wall_ns();
	return ret;
}

void ranks_phase_skip(const struct ranks_run *rr, unsigned phase)
{
	struct meet m = {
		.kind = MEET_PHASE, .seq = phase, .stop = STOP_QUIET, .rank = cluster_rank()
	};
	struct meet out;

	if (!ranks_on())
		return;
	snprintf(m.why, sizeof(m.why), "%s", rr->ended_by[0] ? rr->ended_by : "stopped");
	meet(&m, &out);
}

/* Tells every other rank that this one failed. */
static void notify(const char *why)
{
	struct notice n = { .rank = cluster_rank() };

	snprintf(n.why, sizeof(n.why), "%s", why);
	snprintf(rs.own_why, sizeof(rs.own_why), "%s", why);
	for (unsigned r = 0; r < cluster_size(); r++)
		if (r != cluster_rank() && !is_lost(r))
			cluster_send(r, CLUSTER_NOTICE, &n, sizeof(n));
	rs.notified = true;
}

void ranks_watch(const struct ranks_run *rr, struct worker *const *w, unsigned n)
{
	unsigned from;
	void *buf = NULL;
	size_t len = 0;

	if (!ranks_on())
		return;
	rs.ctl = rr->ctl;
	ranks_tick();
	ranks_live_poll();
	for (unsigned i = 0; !rs.notified && i < n; i++) {
		const struct worker *x = w[i];
		char why[WHY_LEN];

		if (__atomic_load_n(&x->state, __ATOMIC_ACQUIRE) != WORKER_DONE ||
		    (!x->status && !x->stats.first_error.err))
			continue;
		if (x->status)
			snprintf(why, sizeof(why), "job '%s': %s", x->job->o.name, x->err.text);
		else
			snprintf(why, sizeof(why), "job '%s': io error on '%s': %s", x->job->o.name,
				 x->stats.first_error.path, strerror(x->stats.first_error.err));
		notify(why);
	}
	while (cluster_poll(CLUSTER_NOTICE, &from, &buf, &len) == 1) {
		const struct notice *x = buf;

		if (rs.failed_rank < 0 && len == sizeof(*x) && x->rank < cluster_size()) {
			rs.failed_rank = (int)x->rank;
			snprintf(rs.failed_why, sizeof(rs.failed_why), "%.*s",
				 (int)strnlen(x->why, sizeof(x->why)), x->why);
			iowl_warn("rank %u failed (%s): stopping rank %u", x->rank, rs.failed_why,
				  cluster_rank());
			__atomic_store_n(&rr->ctl->stop, 1, __ATOMIC_RELAXED);
		}
		free(buf);
		buf = NULL;
	}
}

/* This rank's own figures, from its units. */
static void own_figures(const struct run_outcome *o, struct wire_head *h)
{
	for (unsigned i = 0; i < o->res.n; i++) {
		const struct job_result *u = &o->res.units[i];

		for (unsigned d = 0; d < DDIR_NR; d++) {
			uint64_t rt = stats_dir_runtime(&u->st, d);

			h->ios[d] += u->st.dir[d].ios;
			h->bytes[d] += u->st.dir[d].bytes;
			if (u->st.dir[d].ios && rt > h->runtime_ns[d])
				h->runtime_ns[d] = rt;
		}
	}
}

/* This rank's status and failure as far as the results go (--assert is rank 0's, on the totals). */
static int own_status(const struct ranks_run *rr, const struct run_outcome *o, char *why,
		      size_t len)
{
	why[0] = '\0';
	for (unsigned i = 0; i < o->res.n && !why[0]; i++)
		if (o->res.units[i].why && !o->res.units[i].not_run)
			snprintf(why, len, "job '%s': %s", o->res.units[i].job->o.name,
				 o->res.units[i].why);
	for (unsigned i = 0; i < o->res.n && !why[0]; i++) {
		const struct io_error *e = &o->res.units[i].st.first_error;

		if (e->err)
			snprintf(why, len, "job '%s': io error on '%s': %s",
				 o->res.units[i].job->o.name, e->path, strerror(e->err));
	}
	if (rr->signal)
		return rr->signal == SIGTERM ? IOWL_EXIT_SIGTERM : IOWL_EXIT_SIGINT;
	if (o->ret || o->io_error) {
		if (!why[0])
			snprintf(why, len, "%s", o->ret ? strerror(-o->ret) : "an IO error");
		return IOWL_EXIT_IO;
	}
	return IOWL_EXIT_OK;
}

static int send_results(const struct ranks_run *rr, const struct run_outcome *o)
{
	struct wire w = { 0 };
	struct wire_head h;
	char *iostat;
	int ret;

	memset(&h, 0, sizeof(h));
	h.kind = MEET_RESULTS;
	h.nunits = o->res.n;
	h.nstarts = rs.nphases;
	snprintf(h.host, sizeof(h.host), "%s", cluster_host());
	h.status = own_status(rr, o, h.why, sizeof(h.why));
	own_figures(o, &h);
	iostat = o->iostat_log ? json_dumps(o->iostat_log, JSON_COMPACT) : NULL;
	h.iostat_len = iostat ? (uint32_t)strlen(iostat) : 0;
	wire_put(&w, &h, sizeof(h));
	wire_put(&w, rs.starts, rs.nphases * sizeof(*rs.starts));
	wire_put(&w, iostat, h.iostat_len);
	free(iostat);
	for (unsigned i = 0; i < o->res.n; i++)
		wire_put_unit(&w, &o->res.units[i]);
	ret = w.err ? -ENOMEM : cluster_send(0, CLUSTER_UP, w.p, w.len);
	free(w.p);
	return ret;
}

/* Rank r's figures into rs.res[r], from its head (rank 0: its own). */
static void rank_set(unsigned r, const struct wire_head *h, const uint64_t *starts)
{
	struct rank_result *x = &rs.res[r];

	x->rank = r;
	x->answered = true;
	snprintf(x->host, sizeof(x->host), "%s", h->host);
	snprintf(x->why, sizeof(x->why), "%.255s", h->why);
	x->status = h->status;
	memcpy(x->ios, h->ios, sizeof(x->ios));
	memcpy(x->bytes, h->bytes, sizeof(x->bytes));
	memcpy(x->runtime_ns, h->runtime_ns, sizeof(x->runtime_ns));
	x->starts = rs.res_starts + (size_t)r * rs.nphases;
	x->nstarts = rs.nphases;
	for (unsigned p = 0; starts && p < rs.nphases && p < h->nstarts; p++)
		rs.res_starts[(size_t)r * rs.nphases + p] = starts[p];
}

static int units_order(const void *a, const void *b)
{
	const struct job_result *x = a, *y = b;

	if (x->job->index != y->job->index)
		return x->job->index < y->job->index ? -1 : 1;
	return x->clone < y->clone ? -1 : x->clone > y->clone;
}

int ranks_reduce(const struct ranks_run *rr, struct run_outcome *o)
{
	unsigned size = cluster_size();
	struct wire_head h;
	int ret = 0;

	if (size < 2)
		return 0;
	if (cluster_rank())
		return is_lost(0) ? 0 : send_results(rr, o);
	for (unsigned r = 0; rs.res && r < size; r++)
		json_decref(rs.res[r].iostat);
	free(rs.res);
	free(rs.res_starts);
	rs.res = calloc(size, sizeof(*rs.res));
	rs.res_starts =
		calloc((size_t)size * (rs.nphases ? rs.nphases : 1), sizeof(*rs.res_starts));
	if (!rs.res || !rs.res_starts)
		return -ENOMEM;
	memset(&h, 0, sizeof(h));
	snprintf(h.host, sizeof(h.host), "%s", cluster_host());
	h.status = own_status(rr, o, h.why, sizeof(h.why));
	own_figures(o, &h);
	h.nstarts = rs.nphases;
	rank_set(0, &h, rs.starts);
	rs.res[0].iostat = json_incref(o->iostat_log);
	for (unsigned r = 1; r < size; r++) {
		struct wire_rd rd = { 0 };
		void *buf = NULL;
		size_t len = 0;
		uint64_t *starts = NULL;

		rs.res[r].rank = r;
		rs.waiting = r;
		if (is_lost(r) || cluster_recv(r, CLUSTER_UP, &buf, &len, give_up)) {
			if (!is_lost(r))
				mark_lost(r);
			snprintf(rs.res[r].why, sizeof(rs.res[r].why), "sent no results: it %s",
				 lost_why(r));
			rs.res[r].status = IOWL_EXIT_IO;
			continue;
		}
		rd.p = buf;
		rd.len = len;
		wire_get(&rd, &h, sizeof(h));
		if (!rd.bad && h.kind != MEET_RESULTS)
			rd.bad = true;
		if (!rd.bad && h.nstarts && (starts = calloc(h.nstarts, sizeof(*starts))))
			wire_get(&rd, starts, h.nstarts * sizeof(*starts));
		if (!rd.bad)
			rank_set(r, &h, starts);
		if (!rd.bad && h.iostat_len) { /* its host's device view */
			if (rd.len - rd.off < h.iostat_len)
				rd.bad = true;
			else
				rs.res[r].iostat = json_loadb(rd.p + rd.off, h.iostat_len, 0, NULL);
			rd.off += rd.bad ? 0 : h.iostat_len;
		}
		for (unsigned i = 0; !rd.bad && i < h.nunits && !ret; i++)
			ret = ranks_merge_unit(rr, o, &rd);
		if (rd.bad) {
			mark_lost(r);
			rs.res[r].answered = false;
			snprintf(rs.res[r].why, sizeof(rs.res[r].why), "its results were garbled");
			rs.res[r].status = IOWL_EXIT_IO;
		}
		free(starts);
		free(buf);
	}
	rs.waiting = UINT_MAX;
	ranks_live_flush(UINT_MAX); /* the intervals of every rank came before its results */
	for (unsigned i = 0; i < o->res.n && !ret; i++)
		ret = ranks_series_pcts(&o->res.units[i].series);
	if (o->res.n > 1)
		qsort(o->res.units, o->res.n, sizeof(*o->res.units), units_order);
	o->r.units = o->res.units;
	o->r.nunits = o->res.n;
	o->r.ranks = rs.res;
	o->r.nranks = size;
	o->r.mpi = cluster_library();
	for (unsigned r = 0; r < size; r++)
		if (rs.res[r].status == IOWL_EXIT_IO || !rs.res[r].answered)
			o->io_error = true;
	return ret;
}

int ranks_verdict(int status)
{
	struct meet m = { .kind = MEET_VERDICT, .ret = status };
	unsigned size = cluster_size();
	void *buf = NULL;
	size_t len = 0;
	int worst = status;

	if (size < 2)
		return status;
	/*
	 * No heartbeat after this: a rank's last beat leaves before its status, and rank 0 reads
	 * them all before it answers, so none is left unread at MPI_Finalize.
	 */
	rs.beats_off = true;
	if (cluster_rank()) { /* up: this rank's status; down: the run's */
		if (!is_lost(0) && !cluster_send(0, CLUSTER_UP, &m, sizeof(m)) &&
		    !cluster_recv(0, CLUSTER_DOWN, &buf, &len, give_up_root) && len == sizeof(m)) {
			memcpy(&m, buf, sizeof(m));
			free(buf);
			if (m.kind == MEET_VERDICT) {
				if (m.stop)
					rs.lost_any = true;
				return m.ret;
			}
		}
		free(buf);
		if (!is_lost(0)) {
			mark_lost(0);
			iowl_warn("rank %u: rank 0 did not answer (it %s)", cluster_rank(),
				  lost_why(0));
		}
		return IOWL_EXIT_IO;
	}
	for (unsigned r = 1; r < size; r++) {
		struct meet x;

		if (rs.res)
			worst = run_status_worst(worst, rs.res[r].status);
		if (is_lost(r))
			continue;
		rs.waiting = r;
		if (cluster_recv(r, CLUSTER_UP, &buf, &len, give_up) || len != sizeof(x)) {
			mark_lost(r);
		} else {
			memcpy(&x, buf, sizeof(x));
			worst = run_status_worst(worst, x.ret);
		}
		free(buf);
		buf = NULL;
	}
	rs.waiting = UINT_MAX;
	for (unsigned from; cluster_poll(CLUSTER_BEAT, &from, &buf, &len) == 1; buf = NULL)
		free(buf);
	for (unsigned r = 1; r < size; r++)
		if (is_lost(r))
			iowl_warn("rank %u was lost: it %s", r, lost_why(r));
	/* A lost rank is an error of the run, even when the survivors were stopped by a signal. */
	if (rs.lost_any)
		worst = IOWL_EXIT_IO;
	m.ret = worst;
	m.stop = rs.lost_any ? STOP_ERROR : STOP_NONE;
	for (unsigned r = 1; r < size; r++)
		if (!is_lost(r))
			cluster_send(r, CLUSTER_DOWN, &m, sizeof(m));
	return worst;
}
