// SPDX-License-Identifier: MIT
/* The psync engine: one pread or pwrite per IO, completed inside queue() (fio's default engine). */
#include <errno.h>
#include <unistd.h>

#include "engines/engines_int.h"

static int psync_init(struct engine *e, struct iowl_err *err)
{
	e->priv = NULL;
	return 0;
}

static int psync_queue(struct engine *e, struct io_u *io)
{
	const struct target_file *f = &e->files[io->file];
	ssize_t r;

	if (io->op == DDIR_READ)
		r = pread(f->fd, io->buf, io->len, (off_t)io->offset);
	else if (io->op == DDIR_WRITE)
		r = pwrite(f->fd, io->buf, io->len, (off_t)io->offset);
	else {
		io->res = sync_nondata(f, io);
		return ENGINE_COMPLETED;
	}
	io->res = r < 0 ? -errno : (int32_t)r;
	return ENGINE_COMPLETED;
}

static void psync_cleanup(struct engine *e)
{
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.flags = ENGINE_F_SYNC,
	.help = "pread/pwrite, one system call per IO (fio's default)",
	.init = psync_init,
	.queue = psync_queue,
	.cleanup = psync_cleanup,
};
