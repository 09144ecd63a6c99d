/* SPDX-License-Identifier: MIT */
/*
 * fio 3.33's compressed logs (log_store_compressed, NAME_KIND.N.log.fz) and --inflate-log.
 * fio does not compress the text: a .fz file is one or more zlib streams one after the other,
 * each the deflated array of its binary samples (iolog.h, struct io_sample, 32 bytes on
 * x86-64; struct io_sample_offset, 40, with log_offset), in the machine's byte order:
 *   u64 time (ms), u64 value, u32 ddir | flags, u16 ioprio, 2 bytes padding, u64 bs,
 *   [u64 offset]
 * where flags are 0x80000000 for samples with an offset and 0x40000000 for log_prio.  The
 * priority is the IO's raw ioprio value either way; --inflate-log prints it as fio's
 * flush_samples() does: "0x%04x" with log_prio, else 1 for the real-time class and 0 otherwise.
 */
#ifndef IOWL_FIOLOG_GZ_H
#define IOWL_FIOLOG_GZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "iowl/err.h"
#include "iowl/fiolog.h"

#define FIOLOG_GZ_OFFSET_BIT 0x80000000U
#define FIOLOG_GZ_PRIO_BIT 0x40000000U
#define FIOLOG_GZ_SAMPLE 32	   /* bytes of a sample */
#define FIOLOG_GZ_SAMPLE_OFFSET 40 /* with log_offset */
#define FIOLOG_GZ_DEFAULT_CHUNK                                                                    \
	(128 * 1024) /* uncompressed bytes per stream without log_compression */

/* The suffix fio 3.33 gives a compressed log's name: NAME_KIND.N.log.fz. */
#define FIOLOG_GZ_SUFFIX ".fz"

/*
 * Writes e as fio's binary sample at buf (FIOLOG_GZ_SAMPLE or FIOLOG_GZ_SAMPLE_OFFSET bytes)
 * and returns its size.  e->prio is the raw ioprio value.
 */
size_t fiolog_gz_sample(void *buf, const struct fiolog_entry *e, bool log_offset, bool log_prio);

struct fiolog_gz;

/* A deflate stream, reused for every chunk of one log.  Returns NULL when out of memory. */
struct fiolog_gz *fiolog_gz_new(size_t chunk);

/*
 * Deflates len bytes of samples (at most the chunk given to fiolog_gz_new()) as one zlib stream
 * and writes it to fd.  Returns 0, or a positive errno (EIO when zlib fails).
 */
int fiolog_gz_write(struct fiolog_gz *z, int fd, const void *buf, size_t len);

void fiolog_gz_free(struct fiolog_gz *z);

/*
 * fio's --inflate-log: reads the compressed log at path (fio's or iowl's) and writes its
 * samples to out as the text lines fio 3.33 writes.  Returns 0, or -errno / -EINVAL with err
 * saying what was wrong (not a zlib stream, a stream cut short, a partial sample).
 */
int fiolog_inflate(const char *path, FILE *out, struct iowl_err *err);

#endif
