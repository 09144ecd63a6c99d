// SPDX-License-Identifier: MIT
/* The libaio engine: Linux native AIO, IOs batched into one io_submit() at commit(). */
#include <errno.h>
#include <linux/fs.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engines_int.h"
#include "iowl/clock.h"

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* linux/aio_abi.h: aio_reqprio holds an ioprio value */
#endif

/*
 * The completion ring the kernel maps at the context address.  With userspace_reap, a reap reads
 * it from user space first, and one that waits for nothing (min 0: iodepth_batch_complete_min=0)
 * never calls io_getevents(), as fio's userspace_reap; iowl also skips the call when the ring
 * already holds the min a reap waits for.  Without it every reap is an io_getevents(), as fio's.
 */
struct aio_ring {
	unsigned id;
	unsigned nr;
	unsigned head;
	unsigned tail;
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event events[];
};

#define AIO_RING_MAGIC 0xa10a10a1

struct aio_priv {
	io_context_t ctx;
	struct aio_ring *ring;		/* NULL when its layout is not the one we know */
	unsigned depth;
	unsigned outstanding;		/* queued and not yet reaped */
	unsigned inflight;		/* taken by io_submit() and not yet reaped */
	unsigned npending;		/* prepared, waiting for commit() */
	unsigned nfailed;		/* refused by io_submit(): completed with an error */
	struct iocb *iocbs;		/* one per io_u index */
	struct iocb **pending;
	struct io_u **failed;
	struct io_event *events;	/* what the last getevents() returned */
};

static int aio_alloc(struct aio_priv *p, unsigned depth)
{
	p->depth = depth;
	p->iocbs = calloc(depth, sizeof(*p->iocbs));
	p->pending = calloc(depth, sizeof(*p->pending));
	p->failed = calloc(depth, sizeof(*p->failed));
	p->events = calloc(depth, sizeof(*p->events));
	if (!p->iocbs || !p->pending || !p->failed || !p->events)
		return -ENOMEM;
	return 0;
}

static void aio_free(struct aio_priv *p)
{
	free(p->events);
	free(p->failed);
	free(p->pending);
	free(p->iocbs);
	free(p);
}

static int aio_setup_ctx(struct aio_priv *p, struct iowl_err *err)
{
	struct aio_ring *ring;
	int r;

	r = io_setup((int)p->depth, &p->ctx);
	if (r < 0) {
		err_set(err, "libaio: io_setup(%u) failed: %s%s", p->depth, strerror(-r),
			r == -EAGAIN ? " (the system-wide limit is reached: raise fs.aio-max-nr "
				       "with sysctl)" : "");
		return r;
	}
	ring = (struct aio_ring *)p->ctx;
	if (ring->magic == AIO_RING_MAGIC && !ring->incompat_features)
		p->ring = ring;
	return 0;
}

static int aio_init(struct engine *e, struct iowl_err *err)
{
	struct aio_priv *p;
	int r;

	e->priv = NULL;
	if (!e->depth)
		return err_set(err, "libaio: iodepth must be at least 1");
	p = calloc(1, sizeof(*p));
	if (!p)
		goto out_nomem;
	if (aio_alloc(p, e->depth) < 0)
		goto out_free_priv;
	r = aio_setup_ctx(p, err);
	if (r < 0) {
		aio_free(p);
		return r;
	}
	e->priv = p;
	return 0;

out_free_priv:
	aio_free(p);
out_nomem:
	err_nomem(err, "libaio: out of memory");
	return -ENOMEM;
}

static int aio_queue(struct engine *e, struct io_u *io)
{
	struct aio_priv *p = e->priv;
	const struct target_file *f = &e->files[io->file];
	struct iocb *cb = &p->iocbs[io->index];

	if (p->outstanding == p->depth)
		return ENGINE_BUSY;
	switch (io->op) {
	case DDIR_READ: io_prep_pread(cb, f->fd, io->buf, io->len, (long long)io->offset); break;
	case DDIR_WRITE: io_prep_pwrite(cb, f->fd, io->buf, io->len, (long long)io->offset); break;
	case DDIR_FSYNC: io_prep_fsync(cb, f->fd); break;
	case DDIR_FDATASYNC: io_prep_fdsync(cb, f->fd); break;
	default:
		/* AIO has no discard: trim synchronously, as fio does */
		io->res = sync_nondata(f, io);
		return ENGINE_COMPLETED;
	}
	if (io->op <= DDIR_WRITE && e->params.nowait)
		cb->aio_rw_flags = RWF_NOWAIT;
	if (io->ioprio) { /* cmdprio */
		cb->aio_reqprio = (short)io->ioprio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	cb->data = io;
	p->pending[p->npending++] = cb;
	p->outstanding++;
	return ENGINE_QUEUED;
}

/* io_submit() refused the IO itself (a bad descriptor, say): it completes with that error. */
static void aio_fail(struct aio_priv *p, struct iocb *cb, int res)
{
	struct io_u *io = cb->data;

	io->res = res;
	p->failed[p->nfailed++] = io;
}

static int aio_commit(struct engine *e)
{
	struct aio_priv *p = e->priv;
	unsigned done = 0;
	int r = 0;

	while (done < p->npending) {
		r = io_submit(p->ctx, (long)(p->npending - done), p->pending + done);
		if (r > 0) {
			done += (unsigned)r;
			p->inflight += (unsigned)r;
		} else if (r == -EAGAIN || r == -ENOMEM || r == 0) {
			break;
		} else if (r != -EINTR) {
			aio_fail(p, p->pending[done++], r);
		}
	}
	if (done < p->npending)
		memmove(p->pending, p->pending + done,
			(p->npending - done) * sizeof(*p->pending));
	p->npending -= done;
	/* with nothing in flight, reaping cannot make room: report why the kernel refused */
	if (p->npending && !p->inflight && !p->nfailed)
		return r < 0 ? r : -EAGAIN;
	return 0;
}

/* Hands out IOs that io_submit() refused, as events, before anything the kernel completed. */
static unsigned aio_take_failed(struct aio_priv *p, unsigned max)
{
	unsigned i, n = p->nfailed < max ? p->nfailed : max;

	for (i = 0; i < n; i++) {
		p->events[i].data = p->failed[i];
		p->events[i].res = (unsigned long)(long)p->failed[i]->res;
	}
	p->nfailed -= n;
	if (p->nfailed)
		memmove(p->failed, p->failed + n, p->nfailed * sizeof(*p->failed));
	return n;
}

/* Copies up to max completions out of the mapped ring without a system call. */
static unsigned aio_reap_ring(struct aio_ring *ring, struct io_event *ev, unsigned max)
{
	unsigned head = ring->head;
	unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	unsigned n = 0;

	while (head != tail && n < max) {
		ev[n++] = ring->events[head];
		if (++head == ring->nr)
			head = 0;
	}
	if (n)
		__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return n;
}

static int aio_getevents(struct engine *e, unsigned min, unsigned max, uint64_t timeout_ns)
{
	struct aio_priv *p = e->priv;
	struct timespec ts = { (time_t)(timeout_ns / NSEC_PER_SEC),
			       (long)(timeout_ns % NSEC_PER_SEC) };
	unsigned n, got;
	bool polled = false;
	int r;

	if (max > p->depth)
		max = p->depth;
	if (min > max)
		min = max;
	n = p->nfailed ? aio_take_failed(p, max) : 0;
	if (p->ring && e->params.userspace_reap && n < max) {
		got = aio_reap_ring(p->ring, p->events + n, max - n);
		p->inflight -= got;
		n += got;
		if (!min || n >= min) {
			p->outstanding -= n;
			return (int)n;
		}
	}
	if (min > n + p->inflight)
		min = n + p->inflight;
	/* fio's reap: io_getevents() even for min 0 (it returns at once with what is there) */
	while (n < min || (!min && !n && p->inflight && !polled)) {
		polled = true;
		r = io_getevents(p->ctx, min - n, max - n, p->events + n,
				 timeout_ns == ENGINE_WAIT_FOREVER ? NULL : &ts);
		if (r == -EINTR)
			continue;
		if (!r && timeout_ns != ENGINE_WAIT_FOREVER)
			break;	/* the time ran out (an EINTR starts a whole timeout again) */
		if (r < 0) {
			if (!n)
				return r;
			break;
		}
		p->inflight -= (unsigned)r;
		n += (unsigned)r;
	}
	p->outstanding -= n;
	return (int)n;
}

static struct io_u *aio_event(struct engine *e, unsigned i)
{
	struct aio_priv *p = e->priv;
	struct io_u *io = p->events[i].data;

	/* res is an unsigned long in the ABI: a negative errno comes back through long */
	io->res = (int32_t)(long)p->events[i].res;
	return io;
}

static void aio_cleanup(struct engine *e)
{
	struct aio_priv *p = e->priv;

	if (!p)
		return;
	/* io_destroy() waits for whatever is still in flight before it returns */
	if (p->ctx)
		io_destroy(p->ctx);
	aio_free(p);
	e->priv = NULL;
}

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.flags = 0,
	.help = "Linux native AIO (io_submit/io_getevents); only asynchronous with direct=1",
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.getevents = aio_getevents,
	.event = aio_event,
	.cleanup = aio_cleanup,
};
