/* SPDX-License-Identifier: MIT */
/* Shared by ranks.c and ranks_live.c: the bytes of a message as they are put together. */
#ifndef IOWL_RANKS_INT_H
#define IOWL_RANKS_INT_H

#include <stdbool.h>
#include <stddef.h>

/* A growing buffer of bytes; err is set once anything failed. */
struct wire {
	char *p;
	size_t len, cap;
	bool err;
};

/* Appends n bytes of b (nothing when n is 0: b may be NULL). */
void wire_put(struct wire *w, const void *b, size_t n);

#endif
