// SPDX-License-Identifier: MIT
/* IO buffer memory of fio's kinds (mem=/iomem=), its alignment (mem_align) and lockmem's pinned memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "iowl/iomem.h"
#include "iowl/job_opts.h"
#include "iowl/value.h"

#define PAGE 4096UL

static const struct {
	const char *name;
	unsigned kind;
} kinds[] = {
	{ "malloc", IOMEM_MALLOC },	{ "shm", IOMEM_SHM },
	{ "shmhuge", IOMEM_SHMHUGE },	{ "mmap", IOMEM_MMAP },
	{ "mmaphuge", IOMEM_MMAPHUGE }, { "mmapshared", IOMEM_MMAPSHARED },
};

int iomem_parse(struct job_opts *o, const char *v, char *why)
{
	const char *colon = strchr(v, ':');
	size_t len = colon ? (size_t)(colon - v) : strlen(v);

	if (len == 10 && !strncmp(v, "cudamalloc", len))
		return snprintf(why, VAL_WHY_LEN,
				"cudamalloc needs a GPU and the rdma engine (GPUDirect), which this build cannot test and does not implement"),
		       -EINVAL;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strlen(kinds[i].name) != len || strncmp(kinds[i].name, v, len))
			continue;
		if (colon && kinds[i].kind < IOMEM_MMAP)
			return snprintf(why, VAL_WHY_LEN,
					"%s takes no file (only the mmap kinds do)", kinds[i].name),
			       -EINVAL;
		if (colon && !colon[1])
			return snprintf(why, VAL_WHY_LEN, "the file after ':' is empty"), -EINVAL;
		if (colon && strlen(colon + 1) >= sizeof(o->iomem_file))
			return snprintf(why, VAL_WHY_LEN, "the file name is too long"), -EINVAL;
		snprintf(o->iomem_file, sizeof(o->iomem_file), "%s", colon ? colon + 1 : "");
		o->iomem = kinds[i].kind;
		return 0;
	}
	return snprintf(why, VAL_WHY_LEN,
			"must be malloc, shm, shmhuge, mmap[:FILE], mmaphuge[:FILE] or mmapshared[:FILE]"),
	       -EINVAL;
}

static int alloc_shm(struct iomem *m, const struct job_opts *o, struct iowl_err *err)
{
	int flags = IPC_CREAT | 0600, id;

	if (m->kind == IOMEM_SHMHUGE)
		flags |= SHM_HUGETLB;
	id = shmget(IPC_PRIVATE, m->len, flags);
	if (id < 0)
		return err_errno(err, errno, "job '%s': mem=%s: shmget of %zu bytes%s", o->name,
				 m->kind == IOMEM_SHMHUGE ? "shmhuge" : "shm", m->len,
				 m->kind == IOMEM_SHMHUGE ?
					 " of huge pages (/proc/sys/vm/nr_hugepages)" :
					 "");
	m->area = shmat(id, NULL, 0);
	shmctl(id, IPC_RMID, NULL); /* gone once detached, whatever happens to iowl */
	if (m->area == (void *)-1) {
		m->area = NULL;
		return err_errno(err, errno, "job '%s': mem: shmat", o->name);
	}
	return 0;
}

/* As fio: anonymous and private, or a file (MAP_SHARED for mmaphuge and mmapshared). */
static int alloc_mmap(struct iomem *m, const struct job_opts *o, struct iowl_err *err)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	void *p;

	if (o->iomem_file[0]) {
		bool existed = access(o->iomem_file, F_OK) == 0;

		m->fd = open(o->iomem_file, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (m->fd < 0)
			return err_errno(err, errno, "job '%s': mem: '%s'", o->name, o->iomem_file);
		if (!existed && !(m->path = strdup(o->iomem_file)))
			return err_nomem(err, "out of memory");
		if (ftruncate(m->fd, (off_t)m->len))
			return err_errno(err, errno, "job '%s': mem: '%s': ftruncate", o->name,
					 o->iomem_file);
		flags = m->kind == IOMEM_MMAP ? MAP_PRIVATE : MAP_SHARED;
	} else if (m->kind == IOMEM_MMAPHUGE) {
		flags |= MAP_HUGETLB;
	}
	p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, flags, m->fd, 0);
	if (p == MAP_FAILED)
		return err_errno(err, errno, "job '%s': mem: mmap of %zu bytes%s", o->name, m->len,
				 flags & MAP_HUGETLB ?
					 " of huge pages (/proc/sys/vm/nr_hugepages)" :
					 "");
	m->area = p;
	return 0;
}

/* lockmem: pins that much memory for the clone's life, as fio's fio_pin_memory(). */
static int pin(struct iomem *m, const struct job_opts *o, struct iowl_err *err)
{
	void *p =
		mmap(NULL, o->lockmem, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return err_errno(err, errno, "job '%s': lockmem: mmap of %llu bytes", o->name,
				 (unsigned long long)o->lockmem);
	m->locked = p;
	m->locked_len = o->lockmem;
	if (mlock(p, o->lockmem))
		return err_errno(err, errno, "job '%s': lockmem=%llu: mlock", o->name,
				 (unsigned long long)o->lockmem);
	return 0;
}

int iomem_alloc(struct iomem *m, const struct job_opts *o, size_t size, void **base,
		struct iowl_err *err)
{
	int ret = 0;

	*m = (struct iomem){ .kind = o->iomem, .fd = -1 };
	/* fio: page aligned, then mem_align further in */
	m->len = size + PAGE + o->iomem_align;
	if (m->kind == IOMEM_SHMHUGE || m->kind == IOMEM_MMAPHUGE)
		m->len = (m->len + o->hugepage_size - 1) / o->hugepage_size * o->hugepage_size;
	if (m->kind == IOMEM_MALLOC) {
		m->area = malloc(m->len);
		if (!m->area)
			ret = err_nomem(err, "job '%s': out of memory for %zu bytes of buffers",
					o->name, size);
	} else if (m->kind == IOMEM_SHM || m->kind == IOMEM_SHMHUGE) {
		ret = alloc_shm(m, o, err);
	} else {
		ret = alloc_mmap(m, o, err);
	}
	if (!ret)
		*base = (char *)(((uintptr_t)m->area + PAGE - 1) & ~(uintptr_t)(PAGE - 1)) +
			o->iomem_align;
	if (!ret && o->lockmem)
		ret = pin(m, o, err);
	return ret;
}

void iomem_release(struct iomem *m)
{
	if (m->locked) {
		munlock(m->locked, m->locked_len);
		munmap(m->locked, m->locked_len);
	}
	if (m->area && m->kind == IOMEM_MALLOC)
		free(m->area);
	else if (m->area && (m->kind == IOMEM_SHM || m->kind == IOMEM_SHMHUGE))
		shmdt(m->area);
	else if (m->area)
		munmap(m->area, m->len);
	if (m->fd >= 0)
		close(m->fd);
	if (m->path)
		unlink(m->path);
	free(m->path);
	*m = (struct iomem){ .fd = -1 };
}
