// SPDX-License-Identifier: MIT
/* The vdbench model's memory: one bump allocator, freed at once when the parameter file is done with. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdbench/vdbench_int.h"

#define CHUNK_SIZE (64 * 1024)

struct vdb_chunk {
	struct vdb_chunk *next;
	size_t used, size;
	max_align_t data[];
};

void *vdb_alloc(struct vdb *v, size_t n)
{
	struct vdb_chunk *c = v->arena;
	size_t need = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	void *p;

	if (!c || c->size - c->used < need) {
		size_t size = need > CHUNK_SIZE ? need : CHUNK_SIZE;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->used = 0;
		c->size = size;
		c->next = v->arena;
		v->arena = c;
	}
	p = (char *)c->data + c->used;
	c->used += need;
	memset(p, 0, n);
	return p;
}

char *vdb_strndup(struct vdb *v, const char *s, size_t n)
{
	char *p = vdb_alloc(v, n + 1);

	if (p)
		memcpy(p, s, n);
	return p;
}

char *vdb_strdup(struct vdb *v, const char *s)
{
	return vdb_strndup(v, s, strlen(s));
}

char *vdb_printf(struct vdb *v, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(p = vdb_alloc(v, (size_t)n + 1)))
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *vdb_push(struct vdb *v, void **arr, unsigned *n, size_t size)
{
	/* Arrays grow by doubling inside the arena; the old copy is simply left behind. */
	unsigned cap = 4;
	char *p;

	while (cap < *n)
		cap *= 2;
	if (*n == cap || !*arr) {
		unsigned ncap = *arr ? cap * 2 : 4;

		p = vdb_alloc(v, ncap * size);
		if (!p)
			return NULL;
		if (*arr)
			memcpy(p, *arr, *n * size);
		*arr = p;
	}
	p = (char *)*arr + *n * size;
	memset(p, 0, size);
	(*n)++;
	return p;
}

int vdb_nomem(struct vdb *v, const struct vdb_pos *pos)
{
	err_at(v->err, pos ? pos->file : NULL, pos ? pos->line : 0, "out of memory");
	return -ENOMEM;
}

void vdb_release(struct vdb *v)
{
	while (v->arena) {
		struct vdb_chunk *c = v->arena;

		v->arena = c->next;
		free(c);
	}
}
