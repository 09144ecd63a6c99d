/* SPDX-License-Identifier: MIT */
/* What the engine files share: their ops tables (for engines.c) and synchronous helpers. */
#ifndef IOWL_ENGINES_INT_H
#define IOWL_ENGINES_INT_H

#include <stdint.h>

#include "iowl/engine.h"

/* Each engine's table, defined in its own file and listed once in engines.c. */
extern const struct engine_ops engine_sync_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_libaio_ops;
extern const struct engine_ops engine_io_uring_ops;
extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_pvsync_ops;
extern const struct engine_ops engine_pvsync2_ops;
extern const struct engine_ops engine_vsync_ops;
extern const struct engine_ops engine_mmap_ops;
extern const struct engine_ops engine_posixaio_ops;

/*
 * Runs a trim (BLKDISCARD on a block device, a punched hole that keeps the size on a file),
 * an fsync or an fdatasync synchronously on f.  Returns what goes into io->res: -errno
 * on failure (-EINVAL for a read, a write or an unknown op), else io->len for a trim (as every
 * engine reports a whole trim, so the worker counts its bytes) and 0 for a sync.
 */
int sync_nondata(const struct target_file *f, const struct io_u *io);

#endif
