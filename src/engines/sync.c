// SPDX-License-Identifier: MIT
/* The sync engine: lseek then read or write, completed inside queue(). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engines/engines_int.h"

#define SYNC_POS_UNKNOWN UINT64_MAX

/* Where each file's descriptor is positioned, so sequential IO skips the lseek (as fio does). */
struct sync_priv {
	uint64_t *pos;
};

static int sync_init(struct engine *e, struct iowl_err *err)
{
	struct sync_priv *p;
	unsigned i;

	e->priv = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		goto out_nomem;
	p->pos = calloc(e->nfiles ? e->nfiles : 1, sizeof(*p->pos));
	if (!p->pos)
		goto out_free_priv;
	for (i = 0; i < e->nfiles; i++)
		p->pos[i] = SYNC_POS_UNKNOWN;
	e->priv = p;
	return 0;

out_free_priv:
	free(p);
out_nomem:
	err_nomem(err, "sync: out of memory");
	return -ENOMEM;
}

static int sync_queue(struct engine *e, struct io_u *io)
{
	struct sync_priv *p = e->priv;
	const struct target_file *f = &e->files[io->file];
	uint64_t *pos = &p->pos[io->file];
	ssize_t r;

	if (io->op > DDIR_WRITE) {
		io->res = sync_nondata(f, io);
		return ENGINE_COMPLETED;
	}
	if (*pos != io->offset && lseek(f->fd, (off_t)io->offset, SEEK_SET) < 0) {
		r = -1;
	} else if (io->op == DDIR_READ) {
		r = read(f->fd, io->buf, io->len);
	} else {
		r = write(f->fd, io->buf, io->len);
	}
	if (r < 0) {
		io->res = -errno;
		*pos = SYNC_POS_UNKNOWN;
	} else {
		io->res = (int32_t)r;
		*pos = io->offset + (uint64_t)r;
	}
	return ENGINE_COMPLETED;
}

/* openfiles: a descriptor opened anew is at offset 0, which the next IO finds out for itself. */
static int sync_file_changed(struct engine *e, unsigned f, struct iowl_err *err)
{
	struct sync_priv *p = e->priv;

	(void)err;
	p->pos[f] = SYNC_POS_UNKNOWN;
	return 0;
}

static void sync_cleanup(struct engine *e)
{
	struct sync_priv *p = e->priv;

	if (!p)
		return;
	free(p->pos);
	free(p);
	e->priv = NULL;
}

const struct engine_ops engine_sync_ops = {
	.name = "sync",
	.flags = ENGINE_F_SYNC,
	.help = "lseek then read/write, one IO at a time",
	.init = sync_init,
	.queue = sync_queue,
	.cleanup = sync_cleanup,
	.file_changed = sync_file_changed,
};
