// SPDX-License-Identifier: MIT
/*
 * The main thread's interval clock (include/iowl/interval.h).  Every interval it raises
 * run_ctl.snap_req, gives the workers a moment to answer, and takes the difference between
 * each worker's new snapshot and the one before: a worker that does not answer in time (a
 * long IO) keeps its old snapshot and its IOs count in the interval where it next answers, so
 * the series always adds up to the totals.  The last interval is closed from the workers'
 * final figures.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iowl/hist.h"
#include "iowl/clock.h"
#include "iowl/diskstats.h"
#include "iowl/interval.h"
#include "iowl/steady.h"
#include "iowl/worker.h"

#define ANSWER_WAIT_NS 20000000ULL	/* how long a request waits for the workers' answers */

/* What the main thread keeps per worker. */
struct ivl_track {
	struct snap cur;		/* the latest figures read */
	struct snap prev;		/* at the end of the last interval */
	struct snap_dir ss_prev[DDIR_NR];	/* at the last steady-state sample */
	bool final;			/* cur holds the worker's final figures */
	bool fresh;			/* cur answered the latest request (or is final) */
	bool borrowed; /* cur's histograms are the worker's own (final, never copied) */
};

/* A reported unit: a worker, or with group_reporting the workers of a group. */
struct ivl_unit {
	unsigned lead; /* its first worker; next_of[] links the others */
	unsigned last; /* its last worker */
	unsigned nworkers;
	struct ivl_series series;
	struct hist *scratch[DDIR_NR]; /* several workers: the interval's merged histograms */
	const struct hist *delta[DDIR_NR]; /* the interval's histogram per direction, NULL: no IO */
	/* steady state (ss_dur): one sample of the unit's IOPS, bandwidth, latency per ss_interval */
	struct steady ss;
	bool ss_on, ss_started;
	uint64_t ss_next, ss_last;	/* ns */
	uint64_t ss_attained_ns;	/* from the phase start; 0: not attained */
};

struct ivl {
	struct ivl_opts o;
	struct worker **w;
	unsigned n;
	struct ivl_track *t;
	struct ivl_unit *u;
	unsigned nu;
	unsigned *unit_of;		/* per worker */
	unsigned *next_of;		/* per worker: the next worker of its unit, UINT_MAX: none */
	int *dev_of;			/* per unit: the device of its lead's first target, -1: none */
	struct ivl_row *rows;		/* per unit, for the output */
	struct ivl_point *sliver;	/* per unit: the last sliver folded into the last point */
	struct disk_set *disks;
	struct run_ctl *ctl;
	uint64_t start_ns;
	uint64_t last_ns;		/* end of the last interval */
	uint64_t next_ns;
	unsigned k;			/* intervals closed */
	bool failed;			/* out of memory: no more points */
};

/*
 * A unit whose job has ss_dur samples every ss_interval, after ss_ramp and ramp_time; the
 * first tick only sets the baseline when either delays it.
 */
static int ss_setup(struct ivl *iv, struct ivl_unit *u, const struct job *job)
{
	const struct job_opts *o = &job->o;
	uint64_t wait = o->ss_ramp > o->ramp_time ? o->ss_ramp : o->ramp_time;

	if (!o->ss_dur)
		return 0;
	if (steady_init(&u->ss, &o->ss, (unsigned)(o->ss_dur / o->ss_interval)))
		return -ENOMEM;
	u->ss_on = true;
	u->ss_started = !wait;
	u->ss_last = iv->start_ns;
	u->ss_next = iv->start_ns + (wait ? wait : o->ss_interval);
	return 0;
}

static int units_build(struct ivl *iv)
{
	iv->unit_of = calloc(iv->n ? iv->n : 1, sizeof(*iv->unit_of));
	iv->next_of = calloc(iv->n ? iv->n : 1, sizeof(*iv->next_of));
	iv->u = calloc(iv->n ? iv->n : 1, sizeof(*iv->u));
	iv->rows = calloc(iv->n ? iv->n : 1, sizeof(*iv->rows));
	iv->sliver = calloc(iv->n ? iv->n : 1, sizeof(*iv->sliver));
	if (!iv->unit_of || !iv->next_of || !iv->u || !iv->rows || !iv->sliver)
		return -ENOMEM;
	for (unsigned i = 0; i < iv->n; i++) {
		const struct job *job = iv->w[i]->job;
		unsigned k = iv->nu;

		for (unsigned j = 0; job_group_merged(job) && j < iv->nu; j++)
			if (iv->w[iv->u[j].lead]->job->group == job->group)
				k = j;
		iv->next_of[i] = UINT_MAX;
		if (k == iv->nu) {
			iv->u[k].lead = i;
			iv->u[k].series.period_ns = iv->o.period_ns;
			if (ss_setup(iv, &iv->u[k], job))
				return -ENOMEM;
			iv->nu++;
		} else {
			iv->next_of[iv->u[k].last] = i;
		}
		iv->u[k].last = i;
		iv->u[k].nworkers++;
		iv->unit_of[i] = k;
	}
	return 0;
}

struct ivl *ivl_begin(const struct ivl_opts *o, struct worker **w, unsigned n,
		      struct disk_set *disks, uint64_t start_ns)
{
	struct ivl *iv = calloc(1, sizeof(*iv));

	if (!iv)
		return NULL;
	iv->o = *o;
	iv->w = w;
	iv->n = n;
	iv->disks = disks && disks->n && disks->nsamples ? disks : NULL;
	iv->ctl = n ? w[0]->ctl : NULL;
	iv->start_ns = iv->last_ns = start_ns;
	iv->next_ns = start_ns + o->period_ns;
	iv->t = calloc(n ? n : 1, sizeof(*iv->t));
	if (!iv->t || units_build(iv) || !(iv->dev_of = calloc(iv->nu ? iv->nu : 1, sizeof(int))))
		goto fail;
	for (unsigned k = 0; k < iv->nu; k++) {
		const struct worker *lw = w[iv->u[k].lead];

		iv->dev_of[k] = -1;
		if (iv->disks && lw->plan.nfiles)
			disk_set_add_target(iv->disks, lw->plan.files[0].path, &iv->dev_of[k],
					    &(struct iowl_err){ "" });
	}
	/* The snapshots' histograms come when first written (track_hists()): one for a short run. */
	return iv;
fail:
	ivl_free(iv);
	return NULL;
}

void ivl_rebase(struct ivl *iv, uint64_t start_ns)
{
	uint64_t delta;

	if (!iv || start_ns <= iv->start_ns)
		return;
	delta = start_ns - iv->start_ns;
	iv->start_ns += delta;
	iv->last_ns += delta;
	iv->next_ns += delta;
	for (unsigned k = 0; k < iv->nu; k++) {
		iv->u[k].ss_last += delta;
		iv->u[k].ss_next += delta;
	}
}

uint64_t ivl_next(const struct ivl *iv)
{
	uint64_t next;

	if (!iv)
		return UINT64_MAX;
	next = iv->next_ns;
	for (unsigned k = 0; k < iv->nu; k++)
		if (iv->u[k].ss_on && !iv->u[k].ss_attained_ns && iv->u[k].ss_next < next)
			next = iv->u[k].ss_next;
	return next;
}

/* A worker that has ended: its figures are final and no longer written. */
static bool worker_done(const struct worker *w)
{
	return __atomic_load_n(&w->state, __ATOMIC_ACQUIRE) == WORKER_DONE;
}

/* Gives snapshot s of worker i its histograms before it is first written. */
static void track_hists(struct ivl *iv, unsigned i, struct snap *s)
{
	if (snap_hists(s, &iv->w[i]->stats))
		iv->failed = true;
}

static void read_final(struct ivl *iv, unsigned i)
{
	struct ivl_track *t = &iv->t[i];
	const struct worker_stats *st = &iv->w[i]->stats;
	bool borrow = true;

	if (t->final)
		return;
	for (unsigned d = 0; d < DDIR_NR; d++)
		borrow &= !t->cur.clat_hist[d];
	/* Never copied before (a run shorter than an interval): the worker's own, read in place. */
	if (!borrow)
		track_hists(iv, i, &t->cur);
	snap_take(&t->cur, st, true);
	for (unsigned d = 0; borrow && d < DDIR_NR; d++)
		t->cur.clat_hist[d] = st->dir[d].clat_hist;
	t->borrowed = borrow;
	t->cur.inflight = 0;
	t->final = true;
}

/* Asks every worker for a snapshot and copies the answers that come within ANSWER_WAIT_NS. */
static void gather(struct ivl *iv)
{
	struct timespec pause = { 0, 100000 };
	unsigned req, left = iv->n;
	uint64_t until;
	bool *got = calloc(iv->n ? iv->n : 1, sizeof(*got));

	if (!got || !iv->ctl) {
		free(got);
		return;
	}
	req = __atomic_add_fetch(&iv->ctl->snap_req, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < iv->n; i++)
		iv->t[i].fresh = false;
	until = clock_ns() + ANSWER_WAIT_NS;
	for (;;) {
		for (unsigned i = 0; i < iv->n; i++) {
			struct worker *w = iv->w[i];

			if (got[i])
				continue;
			if (__atomic_load_n(&w->snap.seq, __ATOMIC_ACQUIRE) == req) {
				track_hists(iv, i, &iv->t[i].cur);
				snap_copy(&iv->t[i].cur, &w->snap);
			} else if (worker_done(w)) {
				read_final(iv, i);
			} else {
				continue;
			}
			got[i] = iv->t[i].fresh = true;
			left--;
		}
		if (!left || clock_ns() >= until)
			break;
		nanosleep(&pause, NULL);
	}
	free(got);
}

/* Appends p to s (with room for its histograms when keep: from the first point on). */
static int point_add(struct ivl_series *s, const struct ivl_point *p, bool keep)
{
	if (s->n == s->cap) {
		unsigned cap = s->cap ? 2 * s->cap : 64;
		struct ivl_point *np = realloc(s->p, cap * sizeof(*np));
		struct ivl_hist *nh;

		if (!np)
			return -ENOMEM;
		s->p = np;
		if (keep) {
			if (!(nh = realloc(s->h, (size_t)cap * DDIR_NR * sizeof(*nh))))
				return -ENOMEM;
			memset(nh + (size_t)s->cap * DDIR_NR, 0,
			       (size_t)(cap - s->cap) * DDIR_NR * sizeof(*nh));
			s->h = nh;
		}
		s->cap = cap;
	}
	s->p[s->n++] = *p;
	return 0;
}

/* The non-empty bins of h into dst (empty before).  Returns 0 or -ENOMEM. */
static int hist_keep(struct ivl_hist *dst, const struct hist *h)
{
	uint32_t n = 0;

	for (unsigned b = 0; b < HIST_NR; b++)
		n += h->count[b] != 0;
	if (!n)
		return 0;
	if (!(dst->b = malloc(n * sizeof(*dst->b))))
		return -ENOMEM;
	for (unsigned b = 0; b < HIST_NR; b++)
		if (h->count[b])
			dst->b[dst->n++] = (struct ivl_bin){ b, h->count[b] };
	return 0;
}

int ivl_hist_add(struct ivl_hist *dst, const struct ivl_hist *src)
{
	struct ivl_bin *m;
	uint32_t i = 0, j = 0, n = 0;

	if (!src->n)
		return 0;
	if (!(m = malloc(((size_t)dst->n + src->n) * sizeof(*m))))
		return -ENOMEM;
	while (i < dst->n || j < src->n) {
		if (j == src->n || (i < dst->n && dst->b[i].bin < src->b[j].bin))
			m[n++] = dst->b[i++];
		else if (i == dst->n || src->b[j].bin < dst->b[i].bin)
			m[n++] = src->b[j++];
		else {
			m[n] = dst->b[i++];
			m[n++].count += src->b[j++].count;
		}
	}
	free(dst->b);
	dst->b = m;
	dst->n = n;
	return 0;
}

void ivl_point_merge(struct ivl_point *x, const struct ivl_point *p)
{
	x->t_ns = p->t_ns > x->t_ns ? p->t_ns : x->t_ns;
	x->ns = p->ns > x->ns ? p->ns : x->ns;
	x->inflight += p->inflight;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		struct ivl_dir *a = &x->dir[d];
		const struct ivl_dir *b = &p->dir[d];

		a->ios += b->ios;
		a->bytes += b->bytes;
		a->errors += b->errors;
		lat_merge(&a->clat, &b->clat);
		a->clat_mean = a->clat.n ? lat_mean(&a->clat) : 0;
		if (b->clat_max > a->clat_max)
			a->clat_max = b->clat_max;
		a->clat_p50 = a->clat_p99 = a->clat_p999 = 0;
	}
	x->dev = -1;
	x->dev_read_bytes = 0;
	x->cache_hit = -1;
	memset(&x->cfill, 0, sizeof(x->cfill));
}

void ivl_point_pcts(struct ivl_point *p, unsigned d, const struct hist *h)
{
	static const double pct[4] = { 50.0, 99.0, 100.0, 99.9 };
	struct ivl_dir *x = &p->dir[d];
	uint64_t v[4] = { 0, 0, 0, 0 };

	if (h && x->clat.n)
		hist_percentiles(h, lat_min(&x->clat), x->clat.max, pct, 4, v);
	x->clat_p50 = v[0];
	x->clat_p99 = v[1];
	x->clat_max = v[2];
	x->clat_p999 = v[3];
}

/*
 * Adds up unit k's workers' differences per direction between their latest figures and a
 * previous set: the series' (ss false) or the steady state's (ss true).  With the series' set,
 * the histogram differences go into u->delta: a worker's own difference (its prev snapshot,
 * or cur while prev is all zeros), or for several workers their sum in the unit's scratch.
 */
static void unit_delta(struct ivl *iv, unsigned k, bool ss, struct snap_dir out[DDIR_NR])
{
	struct ivl_unit *u = &iv->u[k];
	bool many = u->nworkers > 1;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		memset(&out[d], 0, sizeof(out[d]));
		lat_init(&out[d].clat);
		if (ss)
			continue;
		if (many && !u->scratch[d] && iv->w[u->lead]->stats.dir[d].clat_hist &&
		    !(u->scratch[d] = hist_alloc()))
			iv->failed = true;
		else if (u->scratch[d])
			hist_clear(u->scratch[d]);
		u->delta[d] = u->scratch[d];
	}
	for (unsigned i = u->lead; i != UINT_MAX; i = iv->next_of[i]) {
		struct ivl_track *t = &iv->t[i];
		const struct snap_dir *prev = ss ? t->ss_prev : t->prev.dir;

		for (unsigned d = 0; d < DDIR_NR; d++) {
			struct lat_stat dl;

			out[d].ios += t->cur.dir[d].ios - prev[d].ios;
			out[d].bytes += t->cur.dir[d].bytes - prev[d].bytes;
			out[d].errors += t->cur.dir[d].errors - prev[d].errors;
			lat_sub(&dl, &t->cur.dir[d].clat, &prev[d].clat);
			lat_merge(&out[d].clat, &dl);
			/* No IO of d in the interval: no difference (thousands of clones make it count). */
			if (!ss && t->cur.clat_hist[d] && t->cur.dir[d].ios != prev[d].ios) {
				const struct hist *dh = t->cur.clat_hist[d];	/* prev all zeros */

				if (t->prev.clat_hist[d]) {
					/* prev becomes the difference here; it is overwritten after the point */
					hist_sub(t->prev.clat_hist[d], t->cur.clat_hist[d],
						 t->prev.clat_hist[d]);
					dh = t->prev.clat_hist[d];
				}
				if (!many)
					u->delta[d] = dh;
				else if (u->scratch[d])
					hist_merge(u->scratch[d], dh);
			}
		}
	}
}

/* Turns unit k's workers' differences (cur - prev) into one point. */
static void unit_point(struct ivl *iv, unsigned k, uint64_t t_ns, uint64_t ns,
		       struct ivl_point *p)
{
	struct ivl_unit *u = &iv->u[k];
	struct snap_dir x[DDIR_NR];

	memset(p, 0, sizeof(*p));
	p->dev = -1;
	p->cache_hit = -1;
	p->t_ns = t_ns;
	p->ns = ns;
	unit_delta(iv, k, false, x);
	for (unsigned i = u->lead; i != UINT_MAX; i = iv->next_of[i]) {
		p->inflight += iv->t[i].cur.inflight;
		stats_cfill_add(&p->cfill, &iv->t[i].cur.cfill);
	}
	for (unsigned d = 0; d < DDIR_NR; d++) {
		p->dir[d].ios = x[d].ios;
		p->dir[d].bytes = x[d].bytes;
		p->dir[d].errors = x[d].errors;
		p->dir[d].clat = x[d].clat;
		p->dir[d].clat_mean = lat_mean(&x[d].clat);
		ivl_point_pcts(p, d, u->delta[d]);
	}
}

/*
 * With --iostat, the page cache's share of the reads of the buffered units in the interval
 * just closed: per device, 1 - what it read / what the units on it read (bytes), each unit
 * on the device getting the device's figure.
 */
static void cache_hits(struct ivl *iv)
{
	for (unsigned k = 0; k < iv->nu && iv->o.iostat && !iv->failed; k++) {
		struct ivl_point *p = &iv->u[k].series.p[iv->u[k].series.n - 1];
		const struct disk_dev *dv;
		uint64_t reads = 0;

		p->dev = iv->dev_of[k];
		p->cache_hit = -1;
		if (p->dev < 0 || (unsigned)p->dev >= iv->disks->n ||
		    iv->w[iv->u[k].lead]->job->o.direct)
			continue;
		dv = &iv->disks->devs[p->dev];
		if (!dv->last.nfields || !dv->prev.nfields)
			continue;
		for (unsigned j = 0; j < iv->nu; j++)
			if (iv->dev_of[j] == p->dev)
				reads += iv->u[j].series.p[iv->u[j].series.n - 1].dir[0].bytes;
		p->dev_read_bytes = (dv->last.f[DISK_RD_SECTORS] - dv->prev.f[DISK_RD_SECTORS]) * 512;
		if (reads)
			p->cache_hit = p->dev_read_bytes >= reads ? 0 :
				       1 - (double)p->dev_read_bytes / (double)reads;
	}
}

/* Closes the interval ending at now: points, output, then (unless it is the last) prev = cur. */
static void close_interval(struct ivl *iv, uint64_t now, bool last)
{
	uint64_t t_ns = now - iv->start_ns, ns = now - iv->last_ns;
	struct ivl_view v;
	bool emitted;

	iv->k++;
	for (unsigned k = 0; k < iv->nu && !iv->failed; k++) {
		struct ivl_point p;

		unit_point(iv, k, t_ns, ns, &p);
		if (point_add(&iv->u[k].series, &p, iv->o.keep_hists))
			iv->failed = true;
		for (unsigned d = 0; iv->o.keep_hists && !iv->failed && d < DDIR_NR; d++)
			if (iv->u[k].delta[d] && p.dir[d].clat.n &&
			    hist_keep(&iv->u[k].series.h[(iv->u[k].series.n - 1) * DDIR_NR + d],
				      iv->u[k].delta[d]))
				iv->failed = true;
		iv->rows[k] = (struct ivl_row){
			.job = iv->w[iv->u[k].lead]->job,
			.group = iv->w[iv->u[k].lead]->job->group,
			.clone = job_group_merged(iv->w[iv->u[k].lead]->job) ?
					 0 :
					 iv->w[iv->u[k].lead]->clone,
			.nworkers = iv->u[k].nworkers,
			.pt = iv->failed ? NULL : &iv->u[k].series.p[iv->u[k].series.n - 1],
			.hist = { iv->u[k].delta[0], iv->u[k].delta[1], iv->u[k].delta[2] },
		};
	}
	if (iv->disks && (iv->o.iostat || iv->o.status || iv->o.watch_disks))
		disk_set_sample(iv->disks, now, &(struct iowl_err){ "" });
	if (iv->disks)
		cache_hits(iv);
	iv->last_ns = now;
	if (iv->o.watch && !iv->failed)
		iv->o.watch(iv->o.watch_ctx, &(struct ivl_view){ .k = iv->k, .rows = iv->rows,
								 .nrows = iv->nu, .t_ns = t_ns,
								 .ns = ns, .disks = iv->disks }, false);
	/* Under MPI the rows go to rank 0's sum over the ranks (emit); the device view is this host's. */
	emitted = iv->o.emit && iv->o.status && !iv->failed;
	if (emitted)
		iv->o.emit(iv->o.emit_ctx,
			   &(struct ivl_view){ .k = iv->k,
					       .rows = iv->rows,
					       .nrows = iv->nu,
					       .t_ns = t_ns,
					       .ns = ns },
			   last);
	if ((iv->o.status || iv->o.iostat) && iv->o.out && iv->o.print && !iv->failed &&
	    (!emitted || (iv->o.iostat && iv->disks))) {
		v = (struct ivl_view){
			.k = iv->k,
			.rows = iv->o.status && !emitted ? iv->rows : NULL,
			.nrows = iv->o.status && !emitted ? iv->nu : 0,
			.disks = iv->o.iostat ? iv->disks : NULL,
			.t_ns = t_ns,
			.ns = ns,
		};
		iv->o.print(iv->o.out, &v, iv->o.json);
		fflush(iv->o.out);
	}
	/* After the output: a unit of one worker's rows show its prev, the interval's difference. */
	for (unsigned i = 0; !last && i < iv->n; i++) {
		track_hists(iv, i, &iv->t[i].prev);
		snap_copy(&iv->t[i].prev, &iv->t[i].cur);
	}
}

/* Ends unit k's workers as their runtime would: what is in flight completes, nothing new starts. */
static void halt_unit(struct ivl *iv, unsigned k)
{
	for (unsigned i = iv->u[k].lead; i != UINT_MAX; i = iv->next_of[i])
		__atomic_store_n(&iv->w[i]->halt, 1, __ATOMIC_RELAXED);
	/* The workers look at halt when they answer a request: make one. */
	__atomic_add_fetch(&iv->ctl->snap_req, 1, __ATOMIC_RELEASE);
}

/*
 * Whether every worker of unit k answered the last request: a worker that did not (it was not
 * scheduled in time, or sits in a long IO) still shows the figures of its previous answer, so a
 * steady-state sample would miss its IOs since then and the next one would count them over its
 * own shorter time (a sample of 0, then one of twice the rate).  Such a sample waits.
 */
static bool unit_fresh(const struct ivl *iv, unsigned k)
{
	for (unsigned i = iv->u[k].lead; i != UINT_MAX; i = iv->next_of[i])
		if (!iv->t[i].fresh)
			return false;
	return true;
}

/* One steady-state sample of unit k at t: the unit's rates since the last sample. */
static void ss_sample(struct ivl *iv, unsigned k, uint64_t t)
{
	struct ivl_unit *u = &iv->u[k];
	const struct job_opts *o = &iv->w[u->lead]->job->o;
	uint64_t ios = 0, bytes = 0, dt = t - u->ss_last;
	struct snap_dir x[DDIR_NR];
	struct lat_stat clat;

	unit_delta(iv, k, true, x);
	lat_init(&clat);
	for (unsigned d = 0; d < DDIR_NR; d++) {
		ios += x[d].ios;
		bytes += x[d].bytes;
		lat_merge(&clat, &x[d].clat);
	}
	for (unsigned i = u->lead; i != UINT_MAX; i = iv->next_of[i])
		memcpy(iv->t[i].ss_prev, iv->t[i].cur.dir, sizeof(iv->t[i].ss_prev));
	u->ss_last = t;
	while (u->ss_next <= t)
		u->ss_next += o->ss_interval;
	if (!u->ss_started) {	/* the end of the ramp: the baseline */
		u->ss_started = true;
		return;
	}
	if (!dt)
		return;
	if (steady_add(&u->ss, (uint64_t)((unsigned __int128)ios * NSEC_PER_SEC / dt),
		       (uint64_t)((unsigned __int128)bytes * NSEC_PER_SEC / dt),
		       (uint64_t)lat_mean(&clat))) {
		u->ss_attained_ns = t - iv->start_ns;
		halt_unit(iv, k);
	}
}

void ivl_poll(struct ivl *iv, uint64_t now)
{
	uint64_t t;

	if (!iv || now < ivl_next(iv))
		return;
	gather(iv);
	t = clock_ns();
	for (unsigned k = 0; k < iv->nu; k++)
		if (iv->u[k].ss_on && !iv->u[k].ss_attained_ns && now >= iv->u[k].ss_next &&
		    unit_fresh(iv, k))
			ss_sample(iv, k, t);
	if (now < iv->next_ns)
		return;
	close_interval(iv, t, false);
	/* On schedule: a late poll does not shift the intervals that follow. */
	while (iv->next_ns <= now)
		iv->next_ns += iv->o.period_ns;
}

/* Adds what came after the last interval (under a tenth of one) to each unit's last point. */
static void fold_sliver(struct ivl *iv, uint64_t now)
{
	for (unsigned k = 0; k < iv->nu && !iv->failed; k++) {
		struct ivl_series *s = &iv->u[k].series;
		struct ivl_point p, *last;

		unit_point(iv, k, now - iv->start_ns, now - iv->last_ns, &p);
		iv->rows[k].pt = NULL;
		if (!s->n)
			continue;
		last = &s->p[s->n - 1];
		last->t_ns = p.t_ns;
		last->ns += p.ns;
		last->cfill = p.cfill;
		for (unsigned d = 0; d < DDIR_NR; d++) {
			last->dir[d].ios += p.dir[d].ios;
			last->dir[d].bytes += p.dir[d].bytes;
			last->dir[d].errors += p.dir[d].errors;
			lat_merge(&last->dir[d].clat, &p.dir[d].clat);
			last->dir[d].clat_mean = lat_mean(&last->dir[d].clat);
			if (p.dir[d].clat_max > last->dir[d].clat_max)
				last->dir[d].clat_max = p.dir[d].clat_max;
			if (s->h && iv->u[k].delta[d] && p.dir[d].clat.n) {
				struct ivl_hist x = { 0 };

				if (hist_keep(&x, iv->u[k].delta[d]) ||
				    ivl_hist_add(&s->h[(s->n - 1) * DDIR_NR + d], &x))
					iv->failed = true;
				free(x.b);
			}
		}
		iv->sliver[k] = p;
		iv->rows[k].pt = &iv->sliver[k];
		memcpy(iv->rows[k].hist, iv->u[k].delta, sizeof(iv->rows[k].hist));
	}
	if (iv->o.watch && !iv->failed)
		iv->o.watch(iv->o.watch_ctx, &(struct ivl_view){ .k = iv->k, .rows = iv->rows,
								 .nrows = iv->nu,
								 .t_ns = now - iv->start_ns,
								 .ns = now - iv->last_ns }, true);
	/* The sliver is in the last interval, already out: the phase ended with it. */
	if (iv->o.emit && iv->o.status)
		iv->o.emit(iv->o.emit_ctx, &(struct ivl_view){ .k = iv->k }, true);
}

void ivl_finish(struct ivl *iv, uint64_t now, bool joined)
{
	uint64_t end = 0;

	if (!iv)
		return;
	for (unsigned i = 0; i < iv->n; i++) {
		if (joined || worker_done(iv->w[i]))
			read_final(iv, i);
		if (iv->t[i].final && iv->w[i]->end_ns > end)
			end = iv->w[i]->end_ns;
	}
	/* The last interval ends when the last worker did, not when the main thread noticed. */
	if (joined && end > iv->last_ns && end < now)
		now = end;
	/* A last sliver under a tenth of the interval would show rates of a few IOs: fold it in. */
	if (now - iv->last_ns >= iv->o.period_ns / 10 || !iv->k) {
		close_interval(iv, now, true);
		if (iv->o.watch)
			iv->o.watch(iv->o.watch_ctx, NULL, true);
	} else {
		fold_sliver(iv, now);
	}
	iv->next_ns = UINT64_MAX;
}

bool ivl_hand_over(struct ivl *iv, unsigned i, struct ivl_series *series, struct steady *ss,
		   uint64_t *ss_attained_ns)
{
	struct ivl_unit *un;

	if (!iv || i >= iv->n || iv->u[iv->unit_of[i]].lead != i)
		return false;
	un = &iv->u[iv->unit_of[i]];
	if (iv->failed) {
		ivl_series_release(&un->series);
		return false;
	}
	*series = un->series;
	memset(&un->series, 0, sizeof(un->series));
	if (!un->ss_on)
		return false;
	*ss = un->ss;
	*ss_attained_ns = un->ss_attained_ns;
	memset(&un->ss, 0, sizeof(un->ss));
	un->ss_on = false;
	return true;
}

void ivl_series_release(struct ivl_series *s)
{
	for (size_t i = 0; s->h && i < (size_t)s->n * DDIR_NR; i++)
		free(s->h[i].b);
	free(s->h);
	free(s->p);
	memset(s, 0, sizeof(*s));
}

void ivl_free(struct ivl *iv)
{
	if (!iv)
		return;
	for (unsigned i = 0; iv->t && i < iv->n; i++) {
		if (iv->t[i].borrowed)	/* the worker's (or by now its unit's) own */
			memset(iv->t[i].cur.clat_hist, 0, sizeof(iv->t[i].cur.clat_hist));
		snap_release(&iv->t[i].cur);
		snap_release(&iv->t[i].prev);
	}
	for (unsigned k = 0; iv->u && k < iv->nu; k++) {
		ivl_series_release(&iv->u[k].series);
		steady_release(&iv->u[k].ss);
		for (unsigned d = 0; d < DDIR_NR; d++)
			hist_free(iv->u[k].scratch[d]);
	}
	free(iv->t);
	free(iv->u);
	free(iv->unit_of);
	free(iv->next_of);
	free(iv->dev_of);
	free(iv->rows);
	free(iv->sliver);
	free(iv);
}
