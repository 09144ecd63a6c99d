// SPDX-License-Identifier: MIT
/*
 * The mmap engine: each file is mapped whole (MAP_SHARED) when the engine starts and data is
 * copied to or from the mapping, as fio's mmap engine does.  fsync and fdatasync are msync(2) of
 * the mapping; with direct=1 every IO is also synced and its pages dropped (msync, then
 * MADV_DONTNEED), fio's stand-in for O_DIRECT.  Trims go through the file descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engines/engines_int.h"

struct mmap_priv {
	char **map;		/* per file, NULL where the file is empty */
	uint64_t *len;
};

static void mmap_cleanup(struct engine *e)
{
	struct mmap_priv *p = e->priv;

	if (!p)
		return;
	for (unsigned i = 0; p->map && i < e->nfiles; i++)
		if (p->map[i])
			munmap(p->map[i], p->len[i]);
	free(p->map);
	free(p->len);
	free(p);
	e->priv = NULL;
}

/* Maps file i whole (thp: with huge pages).  Returns 0 or -errno with err set. */
static int mmap_map(struct engine *e, struct mmap_priv *p, unsigned i, struct iowl_err *err)
{
	const struct target_file *f = &e->files[i];
	int acc = fcntl(f->fd, F_GETFL) & O_ACCMODE;
	int prot = acc == O_RDONLY ? PROT_READ :
		   acc == O_WRONLY ? PROT_WRITE :
				     PROT_READ | PROT_WRITE;
	void *m;

	if (!f->real_size)
		return 0;
	m = mmap(NULL, f->real_size, prot, MAP_SHARED, f->fd, 0);
	if (m == MAP_FAILED)
		return err_errno(err, errno, "mmap: cannot map %s (%llu bytes)", f->path,
				 (unsigned long long)f->real_size);
	p->map[i] = m;
	p->len[i] = f->real_size;
	/* thp: transparent huge pages for the mapping, as fio's (its failure is the job's) */
	if (e->params.thp && madvise(m, f->real_size, MADV_HUGEPAGE) < 0)
		return err_errno(err, errno, "mmap: thp: madvise(MADV_HUGEPAGE) on %s", f->path);
	return 0;
}

/* openfiles: a file opened is mapped, one closed unmapped (as fio maps at each open). */
static int mmap_file_changed(struct engine *e, unsigned f, struct iowl_err *err)
{
	struct mmap_priv *p = e->priv;

	if (p->map[f])
		munmap(p->map[f], p->len[f]);
	p->map[f] = NULL;
	p->len[f] = 0;
	return e->files[f].fd >= 0 ? mmap_map(e, p, f, err) : 0;
}

static int mmap_init(struct engine *e, struct iowl_err *err)
{
	struct mmap_priv *p = calloc(1, sizeof(*p));
	int r;

	e->priv = p;
	if (!p || !(p->map = calloc(e->nfiles ? e->nfiles : 1, sizeof(*p->map))) ||
	    !(p->len = calloc(e->nfiles ? e->nfiles : 1, sizeof(*p->len)))) {
		mmap_cleanup(e);
		err_nomem(err, "mmap: out of memory");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < e->nfiles; i++) {
		r = e->files[i].fd >= 0 ? mmap_map(e, p, i, err) : 0;
		if (r) {
			mmap_cleanup(e);
			return r;
		}
	}
	return 0;
}

static int mmap_sync(const struct mmap_priv *p, unsigned file, uint64_t off, uint64_t len)
{
	uint64_t pg = off & ~4095ULL;

	if (msync(p->map[file] + pg, len + (off - pg), MS_SYNC) < 0)
		return -errno;
	return 0;
}

static int mmap_queue(struct engine *e, struct io_u *io)
{
	struct mmap_priv *p = e->priv;
	char *m = p->map[io->file];
	int r = 0;

	if (io->op == DDIR_TRIM) {
		io->res = sync_nondata(&e->files[io->file], io);
		return ENGINE_COMPLETED;
	}
	if (io->op > DDIR_TRIM) {
		io->res = m ? mmap_sync(p, io->file, 0, p->len[io->file]) : 0;
		return ENGINE_COMPLETED;
	}
	/* Past the mapped end (a file that grew since) is an error, never a SIGBUS. */
	if (!m || io->offset + io->len > p->len[io->file]) {
		io->res = -EINVAL;
		return ENGINE_COMPLETED;
	}
	if (io->op == DDIR_READ)
		memcpy(io->buf, m + io->offset, io->len);
	else
		memcpy(m + io->offset, io->buf, io->len);
	if (e->params.direct) {
		r = mmap_sync(p, io->file, io->offset, io->len);
		if (!r && posix_madvise(m + (io->offset & ~4095ULL),
					io->len + (io->offset & 4095), POSIX_MADV_DONTNEED))
			r = -EIO;
	}
	io->res = r ? r : (int32_t)io->len;
	return ENGINE_COMPLETED;
}

const struct engine_ops engine_mmap_ops = {
	.name = "mmap",
	.flags = ENGINE_F_SYNC,
	.help = "each file mapped with mmap(2), data copied with memcpy",
	.init = mmap_init,
	.queue = mmap_queue,
	.cleanup = mmap_cleanup,
	.file_changed = mmap_file_changed,
};
