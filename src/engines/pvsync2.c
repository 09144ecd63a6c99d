// SPDX-License-Identifier: MIT
/*
 * The pvsync2 engine: preadv2/pwritev2 with per-IO flags, completed inside queue().  hipri sets
 * RWF_HIPRI on hipri_percentage of the IOs, spread evenly (an accumulator, not a random draw, so
 * the share is exact over any run); nowait sets RWF_NOWAIT, and an IO the kernel cannot start at
 * once completes with EAGAIN, as in fio.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engines/engines_int.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI 0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080	/* Linux 6.14 */
#endif

struct pvsync2_priv {
	int flags;		/* RWF_NOWAIT, and RWF_HIPRI when every IO is high priority */
	unsigned hipri_pct;	/* 1..99: share of IOs with RWF_HIPRI; 0 when flags says all or none */
	unsigned acc;		/* hipri accumulator, 0..99 */
};

static int pvsync2_init(struct engine *e, struct iowl_err *err)
{
	struct pvsync2_priv *p = calloc(1, sizeof(*p));

	e->priv = p;
	if (!p) {
		err_nomem(err, "pvsync2: out of memory");
		return -ENOMEM;
	}
	if (e->params.nowait)
		p->flags |= RWF_NOWAIT;
	if (e->params.uncached && !e->params.direct)
		p->flags |= RWF_DONTCACHE;
	if (e->params.hipri && e->params.hipri_percentage >= 100)
		p->flags |= RWF_HIPRI;
	else if (e->params.hipri)
		p->hipri_pct = e->params.hipri_percentage;
	return 0;
}

/* RWF_HIPRI on hipri_pct of every 100 IOs, as evenly spread as an accumulator makes them. */
static int pvsync2_flags(struct pvsync2_priv *p)
{
	if (!p->hipri_pct)
		return p->flags;
	p->acc += p->hipri_pct;
	if (p->acc < 100)
		return p->flags;
	p->acc -= 100;
	return p->flags | RWF_HIPRI;
}

static int pvsync2_queue(struct engine *e, struct io_u *io)
{
	const struct target_file *f = &e->files[io->file];
	struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
	ssize_t r;

	if (io->op > DDIR_WRITE) {
		io->res = sync_nondata(f, io);
		return ENGINE_COMPLETED;
	}
	if (io->op == DDIR_READ)
		r = preadv2(f->fd, &iov, 1, (off_t)io->offset, pvsync2_flags(e->priv));
	else
		r = pwritev2(f->fd, &iov, 1, (off_t)io->offset, pvsync2_flags(e->priv));
	io->res = r < 0 ? -errno : (int32_t)r;
	return ENGINE_COMPLETED;
}

static void pvsync2_cleanup(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct engine_ops engine_pvsync2_ops = {
	.name = "pvsync2",
	.flags = ENGINE_F_SYNC,
	.help = "preadv2/pwritev2 with per-IO flags (hipri, nowait)",
	.init = pvsync2_init,
	.queue = pvsync2_queue,
	.cleanup = pvsync2_cleanup,
};
