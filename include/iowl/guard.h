/* SPDX-License-Identifier: MIT */
/* The write guard: refuses to write a block device that is mounted, swap, or holds data. */
#ifndef IOWL_GUARD_H
#define IOWL_GUARD_H

#include <sys/types.h>

#include "iowl/err.h"

/*
 * What a job allows guard_check_write() to let through: fio's allow_mounted_write and iowl's
 * allow_signature_write.
 */
enum guard_allow {
	GUARD_ALLOW_MOUNTED = 1U << 0,
	GUARD_ALLOW_SIGNATURE = 1U << 1,
};

#define GUARD_ALLOW_ALL (GUARD_ALLOW_MOUNTED | GUARD_ALLOW_SIGNATURE)

/*
 * Checks whether writing to path may destroy data.  Regular files, character devices and
 * anything else that is not a block device pass.  For a block device:
 *  - unless allow has GUARD_ALLOW_MOUNTED: whether it, or for a whole disk any of its
 *    partitions, is mounted (/proc/self/mountinfo) or swap (/proc/swaps), and whether the kernel
 *    refuses an exclusive open (a mount in another namespace, a dm/md holder);
 *  - unless allow has GUARD_ALLOW_SIGNATURE: whether it holds a filesystem, RAID/LVM/swap/crypto
 *    signature or a partition table (libblkid, read-only).
 * Runs once per file before the run (it opens, reads and closes the device; never per IO).
 * Returns 0 when writing is fine; -EBUSY (in use) or -EEXIST (signature) with err naming what
 * was found and the option that allows it; another -errno with err set when it cannot tell
 * (-ENOENT for a path that does not exist: the caller decides whether it will be created,
 * -EACCES when the device cannot be opened for reading).
 */
int guard_check_write(const char *path, unsigned allow, struct iowl_err *err);

/*
 * The mount and swap half of guard_check_write() for the block device number dev, named path
 * in messages.  Reads root/proc/self/mountinfo, root/proc/swaps and root/sys/dev/block (root ""
 * for the running system; tests point it at a fake tree).  Returns 0, -EBUSY with err naming
 * the mount point or swap, or another -errno with err set.
 */
int guard_check_mounts(const char *path, dev_t dev, const char *root, struct iowl_err *err);

/*
 * The signature half of guard_check_write(): probes the open file fd (a block device, or an
 * image file in tests) with libblkid for filesystems, RAID/LVM/swap/crypto signatures and
 * partition tables.  fd stays open and owned by the caller.  Returns 0 when nothing was found,
 * -EEXIST with err naming what was found, or another -errno with err set.
 */
int guard_check_signature(const char *path, int fd, struct iowl_err *err);

#endif
