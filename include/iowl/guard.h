/* SPDX-License-Identifier: MIT */
/* The write guard: refuses to write a block device that is mounted, swap, or holds data. */
#ifndef IOWL_GUARD_H
#define IOWL_GUARD_H

#include <stdbool.h>
#include <stdint.h>
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
 *    refuses an exclusive open (a mount in another namespace, a dm/md holder, another program's
 *    exclusive open such as another iowl run's hold);
 *  - unless allow has GUARD_ALLOW_SIGNATURE: whether it holds a filesystem, RAID/LVM/swap/crypto
 *    signature or a partition table (libblkid, read-only).
 * Runs once per file before the run (it opens, reads and closes the device; never per IO).
 * Returns 0 when writing is fine; -EBUSY (in use) or -EEXIST (signature) with err naming what
 * was found and the option that allows it; another -errno with err set when it cannot tell
 * (-ENOENT for a path that does not exist: the caller decides whether it will be created,
 * -EACCES when the device cannot be opened for reading).
 */
int guard_check_write(const char *path, unsigned allow, struct iowl_err *err);

/* A block device a run writes: checked once per run and, for a run, held exclusively. */
struct guard_entry {
	char *path;		/* as first named */
	dev_t dev;
	unsigned allow;		/* the fewest allow bits it was checked with (enum guard_allow) */
	int fd;			/* held with O_EXCL until guard_set_release(), or -1 */
	unsigned probes;	/* signature probes made (0 or 1) */
	uint64_t reads;		/* reads the signature probe cost the device (its own counters) */
	uint64_t read_bytes;
};

/* The block devices a run writes, each checked once. */
struct guard_set {
	struct guard_entry *v;
	unsigned n;
};

void guard_set_init(struct guard_set *s);

/*
 * guard_check_write() for one path a run writes, remembered in s: a device already checked
 * with the same or fewer allow bits is not checked again (nor probed again), so a run reads
 * each device's signatures once.  With hold, the device stays open with O_EXCL until
 * guard_set_release(), so that a mount (or mkfs, or another iowl run) fails while the run
 * lasts; a device another holder claims is refused (-EBUSY) unless allow has
 * GUARD_ALLOW_MOUNTED, and then written without a hold.  The signature probe's reads of the
 * device are counted in the entry and dropped from the page cache.  Paths that are not block
 * devices pass.  Returns 0 or -errno with err set (-ENOENT for a path that does not exist).
 */
int guard_set_check(struct guard_set *s, const char *path, unsigned allow, bool hold,
		    struct iowl_err *err);

/*
 * Writes back and drops the page cache of every held device, as the last close of a block
 * device does: the hold keeps a phase's workers from being that last close, and the device's
 * figures and the next phase's buffered reads must not change for it.
 */
void guard_set_settle(const struct guard_set *s);

/* Closes the held devices and frees s. */
void guard_set_release(struct guard_set *s);

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
