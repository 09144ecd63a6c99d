// SPDX-License-Identifier: MIT
/*
 * --status-interval over MPI ranks (ranks.h): each rank's interval clock hands every interval
 * it closes to ranks_live_emit() instead of printing it; a rank other than 0 sends it to rank 0
 * (a message it does not wait for), and rank 0 keeps the ranks' figures of each interval until
 * every rank still in the phase has sent its own, then prints their sum: IOs, bytes and the
 * histograms add (the percentiles come from the merged histograms, exact), as the final report's
 * totals do.  Rank 0 looks for the messages from its run loop and its waits (ranks_live_poll()),
 * never from the workers, and never waits for them: a rank that is late only makes the line
 * late, and what is still incomplete when every rank has left the phase (a lost rank, a phase
 * cut short) is printed at the next barrier with the ranks that came.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/cluster.h"
#include "iowl/hist.h"
#include "iowl/interval.h"
#include "iowl/job.h"
#include "iowl/ranks.h"
#include "iowl/report.h"
#include "ranks_int.h"

/* The head of an interval's message; its rows, each followed by its bins, come after it. */
struct live_head {
	uint32_t phase, k, last, marker, nrows;
	uint64_t t_ns, ns;
};

struct live_row {
	uint32_t job, clone, group, nworkers;
	uint32_t nbins[DDIR_NR];
	struct ivl_point pt;
};

/* One unit's line of an interval being gathered on rank 0. */
struct live_unit {
	uint32_t job, clone, group, nworkers;
	struct ivl_point pt;
	struct hist *h[DDIR_NR];
	bool fresh;
};

/* An interval being gathered. */
struct live_ivl {
	unsigned phase, k;
	uint64_t t_ns, ns;
	bool *have;		/* per rank */
	unsigned nhave;
	struct live_unit *u;
	unsigned nu;
};

/* Per rank: the phase it last sent of, and the interval it ended that phase with. */
struct live_rank {
	unsigned phase;
	unsigned last_k;	/* UINT32_MAX: still in the phase */
	bool seen;
};

static struct {
	unsigned phase;		/* this rank's phase (ranks_live_phase()) */
	struct live_ivl *iv;	/* rank 0: gathering, in order */
	unsigned niv;
	struct live_rank *rk;
	struct ranks_run rr; /* the run whose phase this is (ranks_live_phase()) */
	bool have_rr;
} lv;

static void ivl_release(struct live_ivl *iv);

/* A new run (a sweep's point, a vdbench step): what an earlier one left is dropped. */
void ranks_live_begin(void)
{
	for (unsigned i = 0; i < lv.niv; i++)
		ivl_release(&lv.iv[i]);
	lv.niv = 0;
	if (lv.rk)
		memset(lv.rk, 0, cluster_size() * sizeof(*lv.rk));
	lv.phase = 0;
}

void ranks_live_phase(const struct ranks_run *rr, unsigned phase)
{
	lv.phase = phase;
	lv.rr = *rr;
	lv.have_rr = true;
}

/* The bins of h, into b (count first). */
static uint32_t nbins(const struct hist *h)
{
	uint32_t n = 0;

	for (unsigned i = 0; h && i < HIST_NR; i++)
		n += h->count[i] != 0;
	return n;
}

static void put_bins(struct wire *b, const struct hist *h)
{
	for (uint32_t i = 0; h && i < HIST_NR; i++) {
		struct ivl_bin x = { i, h->count[i] };

		if (x.count)
			wire_put(b, &x, sizeof(x));
	}
}

static struct live_ivl *ivl_find(unsigned phase, unsigned k)
{
	struct live_ivl *n;
	unsigned at = lv.niv;

	for (unsigned i = 0; i < lv.niv; i++) {
		if (lv.iv[i].phase == phase && lv.iv[i].k == k)
			return &lv.iv[i];
		if (at == lv.niv &&
		    (lv.iv[i].phase > phase || (lv.iv[i].phase == phase && lv.iv[i].k > k)))
			at = i;
	}
	if (!(n = realloc(lv.iv, (lv.niv + 1) * sizeof(*n))))
		return NULL;
	lv.iv = n;
	memmove(&lv.iv[at + 1], &lv.iv[at], (lv.niv - at) * sizeof(*n));
	lv.niv++;
	n = &lv.iv[at];
	memset(n, 0, sizeof(*n));
	n->phase = phase;
	n->k = k;
	if (!(n->have = calloc(cluster_size(), sizeof(*n->have)))) {
		memmove(&lv.iv[at], &lv.iv[at + 1], (lv.niv - at - 1) * sizeof(*n));
		lv.niv--;
		return NULL;
	}
	return n;
}

static struct live_unit *unit_find(struct live_ivl *iv, uint32_t job, uint32_t clone)
{
	struct live_unit *n;

	for (unsigned i = 0; i < iv->nu; i++)
		if (iv->u[i].job == job && iv->u[i].clone == clone)
			return &iv->u[i];
	if (!(n = realloc(iv->u, (iv->nu + 1) * sizeof(*n))))
		return NULL;
	iv->u = n;
	n = &iv->u[iv->nu++];
	memset(n, 0, sizeof(*n));
	n->job = job;
	n->clone = clone;
	n->fresh = true;
	return n;
}

/* Adds a rank's row (pt, and its bins per direction) to interval iv.  Returns 0 or -errno. */
static int add_row(struct live_ivl *iv, const struct live_row *row, const struct ivl_bin *bins)
{
	struct live_unit *u = unit_find(iv, row->job, row->clone);

	if (!u)
		return -ENOMEM;
	if (u->fresh) {
		u->pt = row->pt;
		u->group = row->group;
	} else {
		ivl_point_merge(&u->pt, &row->pt);
	}
	u->fresh = false;
	u->nworkers += row->nworkers;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		if (row->nbins[d] && !u->h[d] && !(u->h[d] = hist_alloc()))
			return -ENOMEM;
		for (uint32_t i = 0; i < row->nbins[d]; i++, bins++)
			if (bins->bin < HIST_NR)
				u->h[d]->count[bins->bin] += bins->count;
	}
	return 0;
}

static void ivl_release(struct live_ivl *iv)
{
	for (unsigned i = 0; i < iv->nu; i++)
		for (unsigned d = 0; d < DDIR_NR; d++)
			hist_free(iv->u[i].h[d]);
	free(iv->u);
	free(iv->have);
}

static int units_order(const void *a, const void *b)
{
	const struct live_unit *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->clone < y->clone ? -1 : x->clone > y->clone;
}

/* Prints interval iv, the sum of the ranks that sent it. */
static void print(struct live_ivl *iv)
{
	const struct ranks_run *rr = &lv.rr;
	struct ivl_row *rows = calloc(iv->nu ? iv->nu : 1, sizeof(*rows));
	FILE *out = rr->ivl_out ? rr->ivl_out : stdout;
	unsigned n = 0;

	if (!rows || !lv.have_rr)
		goto out;
	if (iv->nu > 1)
		qsort(iv->u, iv->nu, sizeof(*iv->u), units_order);
	for (unsigned i = 0; i < iv->nu; i++) {
		struct live_unit *u = &iv->u[i];

		if (u->job >= rr->njobs)
			continue;
		for (unsigned d = 0; d < DDIR_NR; d++)
			ivl_point_pcts(&u->pt, d, u->h[d]);
		rows[n++] = (struct ivl_row){ .job = &rr->jobs[u->job],
					      .group = u->group,
					      .clone = u->clone,
					      .nworkers = u->nworkers,
					      .pt = &u->pt,
					      .hist = { u->h[0], u->h[1], u->h[2] } };
	}
	report_interval(out,
			&(struct ivl_view){ .k = iv->k,
					    .rows = rows,
					    .nrows = n,
					    .t_ns = iv->t_ns,
					    .ns = iv->ns,
					    .nranks = iv->nhave },
			rr->ivl_json);
	fflush(out);
out:
	free(rows);
}

/* Every rank still in the phase has sent interval iv. */
static bool complete(const struct live_ivl *iv)
{
	for (unsigned r = 0; r < cluster_size(); r++) {
		const struct live_rank *x = &lv.rk[r];

		if (iv->have[r] || ranks_rank_lost(r))
			continue;
		if (!x->seen || x->phase < iv->phase)
			return false;
		if (x->phase == iv->phase && (x->last_k == UINT32_MAX || x->last_k >= iv->k))
			return false;
	}
	return true;
}

/* Prints the intervals that are complete, in order (all of the phases before phase: flush). */
static void print_ready(bool flush, unsigned phase)
{
	unsigned i = 0;

	while (i < lv.niv && (complete(&lv.iv[i]) || (flush && lv.iv[i].phase < phase))) {
		print(&lv.iv[i]);
		ivl_release(&lv.iv[i]);
		i++;
	}
	if (i) /* lv.iv may be NULL when none was kept */
		memmove(lv.iv, lv.iv + i, (lv.niv - i) * sizeof(*lv.iv));
	lv.niv -= i;
}

/* Takes in rank r's message of an interval.  Returns 0 or -errno. */
static int take(unsigned r, const char *p, size_t len)
{
	struct live_head h;
	struct live_ivl *iv;
	size_t off = sizeof(h);

	if (len < sizeof(h) || r >= cluster_size())
		return -EPROTO;
	memcpy(&h, p, sizeof(h));
	lv.rk[r].seen = true;
	lv.rk[r].phase = h.phase;
	lv.rk[r].last_k = h.last ? h.k : UINT32_MAX;
	if (h.marker)
		return 0;
	if (!(iv = ivl_find(h.phase, h.k)))
		return -ENOMEM;
	if (!iv->have[r]) {
		iv->have[r] = true;
		iv->nhave++;
	}
	if (h.t_ns > iv->t_ns)
		iv->t_ns = h.t_ns;
	if (h.ns > iv->ns)
		iv->ns = h.ns;
	for (uint32_t i = 0; i < h.nrows; i++) {
		struct live_row row;
		size_t nb = 0;
		int ret;

		if (len - off < sizeof(row))
			return -EPROTO;
		memcpy(&row, p + off, sizeof(row));
		off += sizeof(row);
		for (unsigned d = 0; d < DDIR_NR; d++)
			nb += row.nbins[d];
		if (nb > HIST_NR * DDIR_NR || (len - off) / sizeof(struct ivl_bin) < nb)
			return -EPROTO;
		{
			struct ivl_bin *bins = malloc((nb ? nb : 1) * sizeof(*bins));

			if (!bins)
				return -ENOMEM;
			memcpy(bins, p + off, nb * sizeof(*bins));
			ret = add_row(iv, &row, bins);
			free(bins);
		}
		if (ret)
			return ret;
		off += nb * sizeof(struct ivl_bin);
	}
	return 0;
}

static bool ready(void)
{
	if (!lv.rk && !(lv.rk = calloc(cluster_size(), sizeof(*lv.rk))))
		return false;
	return true;
}

void ranks_live_poll(void)
{
	unsigned from;
	void *buf = NULL;
	size_t len = 0;

	if (cluster_size() < 2 || cluster_rank() || !ready())
		return;
	while (cluster_poll(CLUSTER_LIVE, &from, &buf, &len) == 1) {
		if (take(from, buf, len))
			iowl_warn("rank %u: its --status-interval figures were garbled or too big",
				  from);
		free(buf);
		buf = NULL;
	}
	print_ready(false, 0);
}

void ranks_live_flush(unsigned phase)
{
	if (cluster_size() < 2 || cluster_rank() || !lv.niv)
		return;
	ranks_live_poll();
	print_ready(true, phase);
}

void ranks_live_emit(void *ctx, const struct ivl_view *v, bool last)
{
	struct live_head h = { .phase = lv.phase,
			       .k = v->k,
			       .last = last,
			       .marker = !v->rows,
			       .t_ns = v->t_ns,
			       .ns = v->ns };
	struct wire b = { 0 };

	(void)ctx;
	for (unsigned i = 0; v->rows && i < v->nrows; i++)
		h.nrows += v->rows[i].pt != NULL;
	wire_put(&b, &h, sizeof(h));
	for (unsigned i = 0; v->rows && i < v->nrows; i++) {
		const struct ivl_row *x = &v->rows[i];
		struct live_row row = { .job = x->job->index,
					.clone = x->clone,
					.group = x->group,
					.nworkers = x->nworkers };

		if (!x->pt)
			continue;
		row.pt = *x->pt;
		for (unsigned d = 0; d < DDIR_NR; d++)
			row.nbins[d] = x->pt->dir[d].ios ? nbins(x->hist[d]) : 0;
		wire_put(&b, &row, sizeof(row));
		for (unsigned d = 0; d < DDIR_NR; d++)
			if (row.nbins[d])
				put_bins(&b, x->hist[d]);
	}
	if (b.err) {
		iowl_warn("rank %u: out of memory for an interval's figures", cluster_rank());
	} else if (cluster_rank()) {
		if (!ranks_rank_lost(0))
			cluster_send(0, CLUSTER_LIVE, b.p, b.len);
	} else if (ready()) {
		if (take(0, b.p, b.len))
			iowl_warn("rank 0: out of memory for an interval's figures");
		ranks_live_poll();
	}
	free(b.p);
}
