// SPDX-License-Identifier: MIT
/*
 * The posixaio engine: aio_read(3), aio_write(3) and aio_fsync(3), one control block per io_u,
 * as fio's posixaio.  Each IO is submitted when it is queued (POSIX AIO has no batch submit);
 * getevents() collects finished ones with aio_error(3) and sleeps in aio_suspend(3) while fewer
 * than asked for are done.  glibc runs POSIX AIO on its own helper threads.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engines_int.h"
#include "iowl/clock.h"

struct posixaio_priv {
	struct aiocb *cbs;		/* one per io_u index */
	const struct aiocb **flight;	/* the control blocks in flight, for aio_suspend() */
	struct io_u **ready;		/* what the last getevents() found done */
	unsigned nflight;
};

static void posixaio_cleanup(struct engine *e)
{
	struct posixaio_priv *p = e->priv;

	if (!p)
		return;
	/* Nothing may still write into buffers about to be freed. */
	while (p->nflight && aio_suspend(p->flight, (int)p->nflight, NULL) >= 0) {
		for (unsigned i = 0; i < p->nflight;)
			if (aio_error(p->flight[i]) != EINPROGRESS)
				p->flight[i] = p->flight[--p->nflight];
			else
				i++;
	}
	free(p->cbs);
	free(p->flight);
	free(p->ready);
	free(p);
	e->priv = NULL;
}

static int posixaio_init(struct engine *e, struct iowl_err *err)
{
	struct posixaio_priv *p = calloc(1, sizeof(*p));
	unsigned n = e->depth ? e->depth : 1;

	e->priv = p;
	if (!p || !(p->cbs = calloc(n, sizeof(*p->cbs))) ||
	    !(p->flight = calloc(n, sizeof(*p->flight))) || !(p->ready = calloc(n, sizeof(*p->ready)))) {
		posixaio_cleanup(e);
		err_nomem(err, "posixaio: out of memory");
		return -ENOMEM;
	}
	return 0;
}

static int posixaio_queue(struct engine *e, struct io_u *io)
{
	struct posixaio_priv *p = e->priv;
	const struct target_file *f = &e->files[io->file];
	struct aiocb *cb = &p->cbs[io->index];
	int r;

	if (io->op == DDIR_TRIM) {
		io->res = sync_nondata(f, io);
		return ENGINE_COMPLETED;
	}
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = f->fd;
	cb->aio_buf = io->buf;
	cb->aio_nbytes = io->len;
	cb->aio_offset = (off_t)io->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	if (io->op == DDIR_READ)
		r = aio_read(cb);
	else if (io->op == DDIR_WRITE)
		r = aio_write(cb);
	else
		r = aio_fsync(io->op == DDIR_FSYNC ? O_SYNC : O_DSYNC, cb);
	if (r < 0) {
		if (errno == EAGAIN && p->nflight)
			return ENGINE_BUSY;
		io->res = -errno;
		return ENGINE_COMPLETED;
	}
	p->flight[p->nflight++] = cb;
	return ENGINE_QUEUED;
}

static int posixaio_commit(struct engine *e)
{
	(void)e;
	return 0;
}

/* Moves the finished control blocks out of the flight list into ready, up to max. */
static unsigned posixaio_collect(struct engine *e, unsigned have, unsigned max)
{
	struct posixaio_priv *p = e->priv;

	for (unsigned i = 0; i < p->nflight && have < max;) {
		const struct aiocb *cb = p->flight[i];
		int st = aio_error(cb);
		struct io_u *io;
		ssize_t r;

		if (st == EINPROGRESS) {
			i++;
			continue;
		}
		io = &e->ios[cb - p->cbs];
		r = aio_return((struct aiocb *)cb);
		io->res = st ? -st : (io->op > DDIR_TRIM ? 0 : (int32_t)r);
		p->ready[have++] = io;
		p->flight[i] = p->flight[--p->nflight];
	}
	return have;
}

static int posixaio_getevents(struct engine *e, unsigned min, unsigned max, uint64_t timeout_ns)
{
	struct posixaio_priv *p = e->priv;
	struct timespec ts = { (time_t)(timeout_ns / NSEC_PER_SEC),
			       (long)(timeout_ns % NSEC_PER_SEC) };
	unsigned have = posixaio_collect(e, 0, max);

	while (have < min && p->nflight) {
		if (aio_suspend(p->flight, (int)p->nflight,
				timeout_ns == ENGINE_WAIT_FOREVER ? NULL : &ts) < 0) {
			if (errno == EAGAIN)	/* the time ran out */
				break;
			if (errno != EINTR)
				return -errno;
			if (!have)
				return -EINTR;
			break;
		}
		have = posixaio_collect(e, have, max);
	}
	return (int)have;
}

static struct io_u *posixaio_event(struct engine *e, unsigned i)
{
	return ((struct posixaio_priv *)e->priv)->ready[i];
}

const struct engine_ops engine_posixaio_ops = {
	.name = "posixaio",
	.flags = 0,
	.help = "POSIX asynchronous IO: aio_read/aio_write, completions polled with aio_suspend",
	.init = posixaio_init,
	.queue = posixaio_queue,
	.commit = posixaio_commit,
	.getevents = posixaio_getevents,
	.event = posixaio_event,
	.cleanup = posixaio_cleanup,
};
