// SPDX-License-Identifier: MIT
/* iowl --analyze: the run's jobs analysed (analyze.h) instead of run, to --output and --report. */
#include <jansson.h>
#include <stdio.h>

#include "iowl/analyze.h"
#include "iowl/analyze_run.h"
#include "iowl/outfile.h"
#include "iowl/version.h"

int analyze_run(struct iowl_run *run, uint64_t nios)
{
	bool json = run->opts.formats & (OUT_JSON | OUT_JSONPLUS);
	json_t *root = json || run->opts.report ?
			       json_pack("{s:s, s:I, s:[]}", "iowl version", "iowl-" IOWL_VERSION,
					 "ios_per_job", (json_int_t)nios, "analysis") :
			       NULL;
	struct outfile of = { 0 };
	struct iowl_err oerr = { "" };
	int status = IOWL_EXIT_OK;
	FILE *out;

	/* --output as a run writes it: the file is replaced only by a complete analysis */
	if (outfile_open(&of, run->opts.output, &oerr)) {
		iowl_warn("%s", oerr.text);
		json_decref(root);
		return IOWL_EXIT_USAGE;
	}
	out = of.f;
	for (unsigned j = 0; j < run->njobs && status == IOWL_EXIT_OK; j++) {
		struct iowl_err err = { "" };

		if (analyze_job(&run->jobs[j], nios, true, json ? NULL : out,
				json_object_get(root, "analysis"), &err)) {
			iowl_warn("%s", err.text);
			status = IOWL_EXIT_USAGE;
		}
	}
	if (json && status == IOWL_EXIT_OK) {
		json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
	}
	if (status == IOWL_EXIT_OK && run_report_html(run, json_incref(root), false))
		status = IOWL_EXIT_IO;
	json_decref(root);
	/* a full disk or a closed pipe loses the analysis: say so, and fail the run */
	if (outfile_close(&of, &oerr) && status == IOWL_EXIT_OK) {
		iowl_warn("%s", oerr.text);
		status = IOWL_EXIT_IO;
	}
	return status;
}
