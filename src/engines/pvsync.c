// SPDX-License-Identifier: MIT
/* The pvsync engine: one preadv/pwritev of a single vector per IO, completed inside queue(). */
#include <errno.h>
#include <stddef.h>
#include <sys/uio.h>

#include "engines/engines_int.h"

static int pvsync_init(struct engine *e, struct iowl_err *err)
{
	(void)err;
	e->priv = NULL;
	return 0;
}

static int pvsync_queue(struct engine *e, struct io_u *io)
{
	const struct target_file *f = &e->files[io->file];
	struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
	ssize_t r;

	if (io->op == DDIR_READ)
		r = preadv(f->fd, &iov, 1, (off_t)io->offset);
	else if (io->op == DDIR_WRITE)
		r = pwritev(f->fd, &iov, 1, (off_t)io->offset);
	else {
		io->res = sync_nondata(f, io);
		return ENGINE_COMPLETED;
	}
	io->res = r < 0 ? -errno : (int32_t)r;
	return ENGINE_COMPLETED;
}

static void pvsync_cleanup(struct engine *e)
{
	(void)e;
}

const struct engine_ops engine_pvsync_ops = {
	.name = "pvsync",
	.flags = ENGINE_F_SYNC,
	.help = "preadv/pwritev of one vector, one system call per IO",
	.init = pvsync_init,
	.queue = pvsync_queue,
	.cleanup = pvsync_cleanup,
};
