// SPDX-License-Identifier: MIT
/* Trim, fsync and fdatasync as plain system calls, shared by every engine that needs them. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engines/engines_int.h"

/* Discards [offset, offset + len) of f.  Returns 0 or -errno. */
static int sync_trim(const struct target_file *f, uint64_t offset, uint64_t len)
{
	uint64_t range[2] = { offset, len };
	int r;

	if (f->is_bdev)
		r = ioctl(f->fd, BLKDISCARD, range);
	else
		r = fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset,
			      (off_t)len);
	return r < 0 ? -errno : 0;
}

int sync_nondata(const struct target_file *f, const struct io_u *io)
{
	int r;

	switch (io->op) {
	case DDIR_TRIM: r = sync_trim(f, io->offset, io->len); return r < 0 ? r : (int)io->len;
	case DDIR_FSYNC: r = fsync(f->fd); break;
	case DDIR_FDATASYNC: r = fdatasync(f->fd); break;
	default:
		return -EINVAL;
	}
	return r < 0 ? -errno : 0;
}
