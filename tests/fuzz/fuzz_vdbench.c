// SPDX-License-Identifier: MIT
/* libFuzzer harness: any bytes as a vdbench parameter file, through its reader, its checks, the translation into jobs and every job check. */
#include <stddef.h>
#include <stdint.h>

#include "iowl/vdbench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iowl_err err = { "" };

	vdbench_check_text("fuzz.vdb", (const char *)data, size, &err);
	return 0;
}
