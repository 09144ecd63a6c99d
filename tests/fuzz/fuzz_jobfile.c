// SPDX-License-Identifier: MIT
/* libFuzzer harness: any bytes as a job file, through the INI parser, the option table and every job check. */
#include <stddef.h>
#include <stdint.h>

#include "iowl/ini.h"
#include "iowl/jobfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iowl_err err = { "" };
	struct ini_doc doc;
	struct job *jobs;
	unsigned njobs;

	ini_doc_init(&doc);
	if (!ini_parse_buffer(&doc, "fuzz.ini", (const char *)data, size, &err)) {
		struct jobfile_input in = { .doc = &doc };

		if (!jobfile_build(&in, &jobs, &njobs, &err))
			jobfile_free(jobs, njobs);
	}
	ini_doc_release(&doc);
	return 0;
}
