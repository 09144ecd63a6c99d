// SPDX-License-Identifier: MIT
/*
 * The vsync engine: readv/writev after lseek, as fio's vsync.  IOs queued while a batch is open
 * join it when they continue it (same file, same direction, the next offset): commit() moves the
 * whole batch with one system call and completes every IO in it.  An IO that does not continue
 * the batch waits (ENGINE_BUSY) until it has been committed, so the worker's iodepth and
 * iodepth_batch_submit decide how much is coalesced, as fio's do.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/engines_int.h"

#define VSYNC_POS_UNKNOWN UINT64_MAX

struct vsync_priv {
	struct iovec *iov;	/* the open batch's vectors */
	struct io_u **batch;	/* its IOs, in offset order */
	struct io_u **done;	/* committed IOs not yet reaped: [head, ndone) */
	unsigned n, max;	/* IOs in the open batch, and its limit */
	unsigned head, ndone, first; /* first: where the last getevents() started */
	uint64_t next;		/* offset the next IO must have to join the batch */
	uint64_t *pos;		/* each file descriptor's position, to skip needless lseeks */
};

static void vsync_cleanup(struct engine *e)
{
	struct vsync_priv *p = e->priv;

	if (!p)
		return;
	free(p->iov);
	free(p->batch);
	free(p->done);
	free(p->pos);
	free(p);
	e->priv = NULL;
}

static int vsync_init(struct engine *e, struct iowl_err *err)
{
	struct vsync_priv *p = calloc(1, sizeof(*p));

	e->priv = p;
	if (!p)
		goto nomem;
	p->max = e->depth < IOV_MAX ? e->depth : IOV_MAX;
	p->iov = calloc(p->max, sizeof(*p->iov));
	p->batch = calloc(p->max, sizeof(*p->batch));
	p->done = calloc(e->depth ? e->depth : 1, sizeof(*p->done));
	p->pos = calloc(e->nfiles ? e->nfiles : 1, sizeof(*p->pos));
	if (!p->iov || !p->batch || !p->done || !p->pos)
		goto nomem;
	for (unsigned i = 0; i < e->nfiles; i++)
		p->pos[i] = VSYNC_POS_UNKNOWN;
	return 0;
nomem:
	vsync_cleanup(e);
	err_nomem(err, "vsync: out of memory");
	return -ENOMEM;
}

static bool vsync_joins(const struct vsync_priv *p, const struct io_u *io)
{
	const struct io_u *first = p->batch[0];

	return p->n < p->max && io->file == first->file && io->op == first->op &&
	       io->offset == p->next;
}

static int vsync_queue(struct engine *e, struct io_u *io)
{
	struct vsync_priv *p = e->priv;

	if (p->n && (io->op > DDIR_WRITE || !vsync_joins(p, io)))
		return ENGINE_BUSY;
	if (io->op > DDIR_WRITE) {
		io->res = sync_nondata(&e->files[io->file], io);
		return ENGINE_COMPLETED;
	}
	p->iov[p->n] = (struct iovec){ .iov_base = io->buf, .iov_len = io->len };
	p->batch[p->n++] = io;
	p->next = io->offset + io->len;
	return ENGINE_QUEUED;
}

/*
 * Hands the bytes moved to the batch's IOs in order (the first ones whole, then a short one) and
 * appends them to the completed ones, behind those not reaped yet.
 */
static void vsync_spread(struct vsync_priv *p, ssize_t r)
{
	int err = r < 0 ? -errno : 0;

	if (p->head) {
		memmove(p->done, p->done + p->head, (p->ndone - p->head) * sizeof(*p->done));
		p->ndone -= p->head;
		p->head = 0;
	}
	for (unsigned i = 0; i < p->n; i++) {
		struct io_u *io = p->batch[i];

		if (err) {
			io->res = err;
		} else {
			io->res = (int32_t)((uint64_t)r < io->len ? (uint64_t)r : io->len);
			r -= io->res;
		}
		p->done[p->ndone++] = io;
	}
	p->n = 0;
}

static int vsync_commit(struct engine *e)
{
	struct vsync_priv *p = e->priv;
	const struct io_u *first;
	uint64_t *pos;
	ssize_t r;

	if (!p->n)
		return 0;
	first = p->batch[0];
	pos = &p->pos[first->file];
	if (*pos != first->offset &&
	    lseek(e->files[first->file].fd, (off_t)first->offset, SEEK_SET) < 0)
		r = -1;
	else if (first->op == DDIR_READ)
		r = readv(e->files[first->file].fd, p->iov, (int)p->n);
	else
		r = writev(e->files[first->file].fd, p->iov, (int)p->n);
	*pos = r < 0 ? VSYNC_POS_UNKNOWN : first->offset + (uint64_t)r;
	vsync_spread(p, r);
	return 0;
}

static int vsync_getevents(struct engine *e, unsigned min, unsigned max, uint64_t timeout_ns)
{
	struct vsync_priv *p = e->priv;
	unsigned n = p->ndone - p->head;

	/*
	 * Everything a readv/writev moved is reaped at once, whatever max says, as fio's vsync
	 * does: with fio's default iodepth_batch_complete_max of 1 the queue would otherwise
	 * refill one IO at a time and nothing would coalesce.
	 */
	(void)min;
	(void)max;
	p->first = p->head;
	p->head += n;
	return (int)n;
}

/* openfiles: a descriptor opened anew is at offset 0, which the next IO finds out for itself. */
static int vsync_file_changed(struct engine *e, unsigned f, struct iowl_err *err)
{
	struct vsync_priv *p = e->priv;

	(void)err;
	p->pos[f] = VSYNC_POS_UNKNOWN;
	return 0;
}

static struct io_u *vsync_event(struct engine *e, unsigned i)
{
	struct vsync_priv *p = e->priv;

	return p->done[p->first + i];
}

const struct engine_ops engine_vsync_ops = {
	.name = "vsync",
	.flags = ENGINE_F_INSTANT,
	.help = "readv/writev, adjacent queued IOs coalesced into one system call",
	.init = vsync_init,
	.queue = vsync_queue,
	.commit = vsync_commit,
	.getevents = vsync_getevents,
	.event = vsync_event,
	.cleanup = vsync_cleanup,
	.file_changed = vsync_file_changed,
};
