// SPDX-License-Identifier: MIT
/* The one table of direction names. */
#include "iowl/ddir.h"

const char *ddir_name(unsigned d)
{
	static const char *const names[] = { "read", "write", "trim", "fsync", "fdatasync" };

	return d < sizeof(names) / sizeof(names[0]) ? names[d] : "unknown";
}
