// SPDX-License-Identifier: MIT
/* The null engine: moves no data and completes every IO at once, to measure iowl's own cost. */
#include <errno.h>
#include <stdlib.h>

#include "engines/engines_int.h"

/*
 * At depth > 1 the engine acts as an async one, as fio's null does: queued IOs sit in a ring of
 * depth slots, commit() makes them reapable and getevents() hands them out in order.
 */
struct null_priv {
	unsigned depth;
	unsigned head;		/* oldest committed IO */
	unsigned ncommitted;	/* committed, not yet reaped */
	unsigned nqueued;	/* queued after them, not yet committed */
	struct io_u **ring;	/* depth slots */
	struct io_u **done;	/* what the last getevents() returned */
};

static int null_init(struct engine *e, struct iowl_err *err)
{
	struct null_priv *p;

	e->priv = NULL;
	if (!e->depth)
		return err_set(err, "null: iodepth must be at least 1");
	p = calloc(1, sizeof(*p));
	if (!p)
		goto out_nomem;
	p->depth = e->depth;
	p->ring = calloc(e->depth, sizeof(*p->ring));
	if (!p->ring)
		goto out_free_priv;
	p->done = calloc(e->depth, sizeof(*p->done));
	if (!p->done)
		goto out_free_ring;
	e->priv = p;
	return 0;

out_free_ring:
	free(p->ring);
out_free_priv:
	free(p);
out_nomem:
	err_nomem(err, "null: out of memory");
	return -ENOMEM;
}

static int null_queue(struct engine *e, struct io_u *io)
{
	struct null_priv *p = e->priv;
	unsigned used = p->ncommitted + p->nqueued;
	unsigned slot;

	if (p->depth == 1) {
		io->res = (int32_t)io->len;
		return ENGINE_COMPLETED;
	}
	if (used == p->depth)
		return ENGINE_BUSY;
	slot = p->head + used;
	if (slot >= p->depth)
		slot -= p->depth;
	p->ring[slot] = io;
	p->nqueued++;
	io->res = (int32_t)io->len;
	return ENGINE_QUEUED;
}

static int null_commit(struct engine *e)
{
	struct null_priv *p = e->priv;

	p->ncommitted += p->nqueued;
	p->nqueued = 0;
	return 0;
}

/* Everything committed is complete, so min never makes it wait. */
static int null_getevents(struct engine *e, unsigned min, unsigned max, uint64_t timeout_ns)
{
	struct null_priv *p = e->priv;
	unsigned n = p->ncommitted < max ? p->ncommitted : max;
	unsigned i, slot = p->head;

	for (i = 0; i < n; i++) {
		p->done[i] = p->ring[slot];
		if (++slot == p->depth)
			slot = 0;
	}
	p->head = slot;
	p->ncommitted -= n;
	return (int)n;
}

static struct io_u *null_event(struct engine *e, unsigned i)
{
	struct null_priv *p = e->priv;

	return p->done[i];
}

static void null_cleanup(struct engine *e)
{
	struct null_priv *p = e->priv;

	if (!p)
		return;
	free(p->done);
	free(p->ring);
	free(p);
	e->priv = NULL;
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.flags = ENGINE_F_NODATA | ENGINE_F_INSTANT,
	.help = "moves no data and completes at once (measures iowl's own overhead)",
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.event = null_event,
	.cleanup = null_cleanup,
};
