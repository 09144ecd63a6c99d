// SPDX-License-Identifier: MIT
/* The one list of built-in engines, in the order --help shows them. */
#include <string.h>

#include "engines/engines_int.h"

/* Adding an engine: one file with its ops table, one line here. */
#define ENGINE_LIST(X) \
	X(sync)        \
	X(psync)       \
	X(libaio)      \
	X(io_uring)    \
	X(pvsync)      \
	X(pvsync2)     \
	X(vsync)       \
	X(mmap)        \
	X(posixaio)    \
	X(null)

#define ENGINE_ENTRY(name) &engine_##name##_ops,

static const struct engine_ops *const engine_table[] = { ENGINE_LIST(ENGINE_ENTRY) };

#define ENGINE_COUNT (sizeof(engine_table) / sizeof(engine_table[0]))

const struct engine_ops *engine_find(const char *name)
{
	unsigned i;

	if (!name)
		return NULL;
	for (i = 0; i < ENGINE_COUNT; i++)
		if (!strcmp(engine_table[i]->name, name))
			return engine_table[i];
	return NULL;
}

const struct engine_ops *const *engine_list(unsigned *n)
{
	if (n)
		*n = ENGINE_COUNT;
	return engine_table;
}
