/* SPDX-License-Identifier: MIT */
/* A clone's IO buffer memory, fio's mem=/iomem= kinds (malloc, shm, shmhuge, mmap, mmaphuge, mmapshared), mem_align and lockmem. */
#ifndef IOWL_IOMEM_H
#define IOWL_IOMEM_H

#include <stddef.h>
#include <stdint.h>

#include "iowl/err.h"

enum iomem_kind {
	IOMEM_MALLOC = 0,
	IOMEM_SHM,
	IOMEM_SHMHUGE,
	IOMEM_MMAP,
	IOMEM_MMAPHUGE,
	IOMEM_MMAPSHARED,
};

/* One allocation: what to release, and where the buffers start. */
struct iomem {
	void *area;    /* what was allocated or attached (NULL: nothing) */
	size_t len;    /* its length */
	unsigned kind; /* enum iomem_kind */
	int fd;	       /* mmap's file, -1: none */
	char *path;    /* mmap's file iowl created (removed at the end), else NULL */
	void *locked;  /* lockmem's pinned area, NULL: none */
	size_t locked_len;
};

struct job_opts;

/* Parser of mem=/iomem= (KIND[:FILE]).  Returns 0 or -EINVAL with why set. */
int iomem_parse(struct job_opts *o, const char *v, char *why);

/*
 * Allocates size bytes of buffer memory of o's kind for a clone; *base gets the first buffer:
 * page aligned plus mem_align, as fio's.  name is the job's, for messages.  Then pins lockmem
 * bytes (mlock(2)), when set.  Returns 0 or -errno with err set; m is released by iomem_release()
 * in either case.
 */
int iomem_alloc(struct iomem *m, const struct job_opts *o, size_t size, void **base,
		struct iowl_err *err);

/* Releases what iomem_alloc() set up (the file iowl created for mmap too). */
void iomem_release(struct iomem *m);

#endif
