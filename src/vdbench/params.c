// SPDX-License-Identifier: MIT
/*
 * vdbench's parameters into the model: the order of sections (general, hd, sd, wd, rd), keywords
 * shortened to a prefix and resolved in vdbench's own order, default= inheritance, values with
 * vdbench's units and ranges, and vdbench's checks of each value (check.c checks the whole).
 * What vdbench does and iowl cannot is refused by name with the reason, never accepted and
 * left out.
 */
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "iowl/suggest.h"
#include "vdbench/vdbench_int.h"

enum pid {
	/* general */
	P_COMPRATIO, P_COMPRESSION, P_DEDUP, P_DATA_ERRORS, P_MESSAGESCAN, P_VALIDATE, P_JOURNAL,
	P_HISTOGRAM, P_REPORT, P_FORMAT_SDS, P_LOOP, P_DEBUGGING, P_PORT, P_CONCAT, P_COMMANDS,
	P_PATTERN, P_FILESYSTEM, P_REPLAY,
	/* hd */
	P_SYSTEM, P_HDLOCAL, P_CLIENTS, P_MOUNT,
	/* sd */
	P_HOST, P_LUN, P_COUNT, P_SIZE, P_THREADS, P_HITAREA, P_OFFSET, P_ALIGN, P_KSTAT,
	P_RESET, P_OPENFLAGS, P_RANGE, P_SD_STREAMS,
	/* wd */
	P_SDS, P_SKEW, P_XFERSIZE, P_RDPCT, P_WRPCT, P_HOTBAND, P_SEEKPCT, P_STRIDE, P_PRIORITY,
	P_WD_IORATE, P_RHPCT, P_WHPCT, P_USER, P_WD_THREADS, P_STREAMS,
	/* rd */
	P_WDS, P_RD_SDS, P_IORATE, P_MAXDATA, P_CURVE, P_STOPCURVE, P_ELAPSED, P_INTERVAL,
	P_WARMUP, P_PAUSE, P_FOR, P_FORPCT, P_DISTRIBUTION, P_FORMAT,
};

/* A keyword: matched whole, or (not exact) by any prefix, first in the table's order. */
struct kw {
	const char *name;
	enum pid id;
	int arg;
	bool exact;
};

static const struct kw general_kw[] = {
	{ "compratio", P_COMPRATIO, 0, false }, { "compression", P_COMPRESSION, 0, false },
	{ "dedupratio", P_DEDUP, 0, false }, { "dedupunit", P_DEDUP, 0, false },
	{ "dedupsets", P_DEDUP, 0, false }, { "deduphotsets", P_DEDUP, 0, false },
	{ "dedupflipflop", P_DEDUP, 0, false }, { "dedup", P_DEDUP, 0, false },
	{ "data_errors", P_DATA_ERRORS, 0, false }, { "messagescan", P_MESSAGESCAN, 0, false },
	{ "validate", P_VALIDATE, 0, false }, { "journal", P_JOURNAL, 0, false },
	{ "histogram", P_HISTOGRAM, 0, false }, { "report", P_REPORT, 0, false },
	{ "formatsds", P_FORMAT_SDS, 0, false }, { "format_sds", P_FORMAT_SDS, 0, false },
	{ "formatxfersize", P_FORMAT_SDS, 0, false }, { "loop", P_LOOP, 0, false },
	{ "showlba", P_DEBUGGING, 0, false }, { "debug", P_DEBUGGING, 0, false },
	{ "port", P_PORT, 0, false }, { "concatenatesds", P_CONCAT, 0, false },
	{ "startcmd", P_COMMANDS, 0, false }, { "start_cmd", P_COMMANDS, 0, false },
	{ "endcmd", P_COMMANDS, 0, false }, { "end_cmd", P_COMMANDS, 0, false },
	{ "patterns", P_PATTERN, 0, false }, { "create_anchors", P_FILESYSTEM, 0, false },
	{ "fsd", P_FILESYSTEM, 0, true }, { "fwd", P_FILESYSTEM, 0, true },
	{ "rg", P_REPLAY, 0, true }, { NULL, 0, 0, false },
};

static const struct kw hd_kw[] = {
	{ "system", P_SYSTEM, 0, false }, { "vdbench", P_HDLOCAL, 0, false },
	{ "user", P_HDLOCAL, 0, false }, { "shell", P_HDLOCAL, 0, false },
	{ "jvms", P_HDLOCAL, 0, false }, { "clients", P_CLIENTS, 0, false },
	{ "mount", P_MOUNT, 0, false }, { NULL, 0, 0, false },
};

static const struct kw sd_kw[] = {
	{ "host", P_HOST, 0, false }, { "hd", P_HOST, 0, true }, { "lun", P_LUN, 0, false },
	{ "count", P_COUNT, 0, false }, { "size", P_SIZE, 0, false },
	{ "threads", P_THREADS, 0, false }, { "hitarea", P_HITAREA, 0, false },
	{ "offset", P_OFFSET, 0, false }, { "align", P_ALIGN, 0, false },
	{ "kstat", P_KSTAT, 0, false }, { "instance", P_KSTAT, 0, false },
	{ "replay", P_REPLAY, 0, false }, { "journal", P_JOURNAL, 0, false },
	{ "resetlun", P_RESET, 0, false }, { "resetbus", P_RESET, 0, false },
	{ "openflags", P_OPENFLAGS, 0, false }, { "range", P_RANGE, 0, false },
	{ "dedupratio", P_DEDUP, 0, false }, { "dedupunit", P_DEDUP, 0, false },
	{ "dedupsets", P_DEDUP, 0, false }, { "deduphotsets", P_DEDUP, 0, false },
	{ "dedupflipflop", P_DEDUP, 0, false }, { "streams", P_SD_STREAMS, 0, false },
	{ NULL, 0, 0, false },
};

static const struct kw wd_kw[] = {
	{ "sd", P_SDS, 0, true }, { "skew", P_SKEW, 0, false },
	{ "xfersize", P_XFERSIZE, 0, false }, { "readpct", P_RDPCT, 0, false },
	{ "rdpct", P_RDPCT, 0, false }, { "writepct", P_WRPCT, 0, false },
	{ "wrpct", P_WRPCT, 0, false }, { "range", P_RANGE, 0, false },
	{ "hotband", P_HOTBAND, 0, false }, { "seekpct", P_SEEKPCT, 0, false },
	{ "stride", P_STRIDE, 0, false }, { "priority", P_PRIORITY, 0, false },
	{ "iorate", P_WD_IORATE, 0, false }, { "rhpct", P_RHPCT, 0, false },
	{ "whpct", P_WHPCT, 0, false }, { "host", P_HOST, 0, false }, { "hd", P_HOST, 0, true },
	{ "openflags", P_OPENFLAGS, 0, false }, { "user", P_USER, 0, true },
	{ "threads", P_WD_THREADS, 0, false }, { "streams", P_STREAMS, 0, false },
	{ NULL, 0, 0, false },
};

static const struct kw rd_kw[] = {
	{ "wd", P_WDS, 0, true }, { "sd", P_RD_SDS, 0, true }, { "fsd", P_FILESYSTEM, 0, true },
	{ "iorate", P_IORATE, 0, false }, { "maxdata", P_MAXDATA, 0, false },
	{ "curve", P_CURVE, 0, false }, { "stopcurve", P_STOPCURVE, 0, false },
	{ "elapsed", P_ELAPSED, 0, false }, { "interval", P_INTERVAL, 0, false },
	{ "warmup", P_WARMUP, 0, false }, { "replay", P_REPLAY, 0, true },
	{ "pause", P_PAUSE, 0, false },
	{ "forxfersize", P_FOR, VDB_L_XFERSIZE, false }, { "forthreads", P_FOR, VDB_L_THREADS, false },
	{ "forrdpct", P_FOR, VDB_L_RDPCT, false }, { "forrhpct", P_FOR, VDB_L_RHPCT, false },
	{ "forwhpct", P_FOR, VDB_L_WHPCT, false }, { "forseekpct", P_FOR, VDB_L_SEEKPCT, false },
	{ "forhitarea", P_FOR, VDB_L_HITAREA, false },
	{ "forcompratio", P_FOR, VDB_L_COMPRATIO, false },
	{ "forcompression", P_FORPCT, VDB_L_COMPRATIO, false },
	{ "fordepth", P_FILESYSTEM, 0, false }, { "forwidth", P_FILESYSTEM, 0, false },
	{ "forfiles", P_FILESYSTEM, 0, false }, { "forsizes", P_FILESYSTEM, 0, false },
	{ "fortotalsize", P_FILESYSTEM, 0, false }, { "forwss", P_FILESYSTEM, 0, false },
	{ "forworkingsetsize", P_FILESYSTEM, 0, false },
	{ "foroperations", P_FILESYSTEM, 0, false },
	{ "foriorate", P_FOR, VDB_L_IORATE, false },
	{ "xfersize", P_FOR, VDB_L_XFERSIZE, false }, { "threads", P_FOR, VDB_L_THREADS, false },
	{ "rdpct", P_FOR, VDB_L_RDPCT, false }, { "rhpct", P_FOR, VDB_L_RHPCT, false },
	{ "whpct", P_FOR, VDB_L_WHPCT, false }, { "seekpct", P_FOR, VDB_L_SEEKPCT, false },
	{ "hitarea", P_FOR, VDB_L_HITAREA, false }, { "compratio", P_FOR, VDB_L_COMPRATIO, false },
	{ "compression", P_FORPCT, VDB_L_COMPRATIO, false },
	{ "depth", P_FILESYSTEM, 0, false }, { "width", P_FILESYSTEM, 0, false },
	{ "files", P_FILESYSTEM, 0, false }, { "sizes", P_FILESYSTEM, 0, false },
	{ "totalsize", P_FILESYSTEM, 0, false }, { "wss", P_FILESYSTEM, 0, false },
	{ "workingsetsize", P_FILESYSTEM, 0, false },
	{ "distribution", P_DISTRIBUTION, 0, false }, { "startcmd", P_COMMANDS, 0, false },
	{ "start_cmd", P_COMMANDS, 0, false }, { "endcmd", P_COMMANDS, 0, false },
	{ "end_cmd", P_COMMANDS, 0, false }, { "fwd", P_FILESYSTEM, 0, true },
	{ "fwdrate", P_FILESYSTEM, 0, false }, { "operations", P_FILESYSTEM, 0, false },
	{ "format", P_FORMAT, 0, false }, { "openflags", P_OPENFLAGS, 0, false },
	{ "mount", P_MOUNT, 0, false }, { NULL, 0, 0, false },
};

static const char *const section_names[] = { "general", "hd", "sd", "wd", "rd" };

/* Why a parameter vdbench has is not run: each one is refused with this, never dropped. */
static const char *refusal(enum pid id)
{
	switch (id) {
	case P_COMPRESSION:
		return "vdbench 5.03 replaced compression= (a percentage) by compratio= (a ratio): write compratio=N for N:1";
	case P_DEDUP:
		return "iowl cannot write data with vdbench's deduplication (dedupratio, dedupunit, dedupsets) yet: remove the dedup parameters";
	case P_VALIDATE:
	case P_JOURNAL:
		return "vdbench's data validation and journals (a key per block, every read checked, recovery after a crash) are not available: iowl's verify= works on fio's model and not on jobs of several streams";
	case P_HISTOGRAM:
		return "iowl keeps its own latency histograms (128 bins per power of two, in the normal and JSON output): vdbench's histogram= buckets do not apply";
	case P_REPORT:
		return "report= chooses vdbench's HTML pages: iowl reports with --output-format, --vdbench-output and --output-format=vdbench-flat";
	case P_FORMAT_SDS:
	case P_FORMAT:
		return "iowl has no separate format run: write the storage first with an rd of its own (a wd with seekpct=eof,rdpct=0)";
	case P_LOOP:
		return "loop= (run the whole file again) is not supported: run iowl again";
	case P_DEBUGGING:
		return "a vdbench debugging aid with no iowl equivalent";
	case P_PORT:
		return "the port of vdbench's master and slaves means nothing without remote hosts, which iowl does not run yet";
	case P_CONCAT:
		return "concatenated SDs are not supported";
	case P_COMMANDS:
		return "iowl does not run commands around a run: run them in the script that calls iowl";
	case P_PATTERN:
		return "vdbench's data patterns are not supported (compratio= shapes the data)";
	case P_FILESYSTEM:
		return "file-system workloads (fsd=, fwd=, fwdrate=, operations= and their for-loops) are not supported: iowl runs vdbench's raw workloads (sd=, wd=, rd=)";
	case P_REPLAY:
		return "vdbench's trace replay is not supported";
	case P_CLIENTS:
		return "clients= (several client processes for one host) is not supported";
	case P_MOUNT:
		return "iowl does not mount file systems";
	case P_KSTAT:
		return "Solaris kstat names do not apply on Linux: iowl finds the devices behind a lun itself (--iostat)";
	case P_RESET:
		return "SCSI lun and bus resets are not supported";
	case P_SD_STREAMS:
		return "streams= is a WD parameter, not an SD one (vdbench moved it)";
	case P_STRIDE:
		return "stride= (skip-sequential with random strides) has no iowl equivalent";
	case P_PRIORITY:
	case P_WD_IORATE:
		return "a workload's own iorate= and priority= need a rate per stream, which iowl does not have: give the workloads skew= shares of the rd's iorate=";
	case P_USER:
		return "user-written workload generators are Java classes";
	case P_WD_THREADS:
		return "a WD's threads= works only with concatenatesds=yes, which is not supported: give threads= on the sd or the rd";
	case P_MAXDATA:
		return "maxdata= is not supported: bound the run with elapsed=";
	case P_STOPCURVE:
		return "stopcurve= is not supported: iowl's curve runs every point and reports the knee";
	default:
		return NULL;
	}
}

int vdb_section_start(enum vdb_section sec, const char *key)
{
	static const char *const starts[] = { NULL, "hd", "sd", "wd", "rd" };

	/* Definitions come in the order hd, sd, wd, rd: an earlier section's keyword is a
	 * parameter of the current definition (hd= of an sd, sd= of a wd, wd= of an rd). */
	for (int s = VDB_S_HD; s <= VDB_S_RD; s++)
		if (!strcmp(key, starts[s]))
			return s >= (int)sec ? s : -1;
	return -1;
}

/* The keyword table entry for key in tab: the exact name, else the first it is a prefix of. */
static const struct kw *kw_find(const struct kw *tab, const char *key)
{
	for (const struct kw *k = tab; k->name; k++)
		if (!strcmp(k->name, key))
			return k;
	for (const struct kw *k = tab; k->name; k++)
		if (!k->exact && !strncmp(k->name, key, strlen(key)))
			return k;
	return NULL;
}

/* The current definition of a section: the one read last, or its default. */
#define CUR(arr, dflt) (v->cur < 0 ? &(dflt) : &(arr)[v->cur])

static bool host_is_defined(const struct vdb *v, const char *name)
{
	if (!strcmp(name, "*") || !strcmp(name, "localhost"))
		return true;
	for (unsigned i = 0; i < v->nhosts; i++)
		if (vdb_match(name, v->hosts[i].name))
			return true;
	return false;
}

static int host_param(struct vdb *v, const struct vdb_tok *t, char ***out, unsigned *nout)
{
	char **a;
	unsigned n;
	int ret = vdb_names(v, t, &a, &n);

	for (unsigned i = 0; !ret && i < n; i++)
		if (!host_is_defined(v, a[i]))
			ret = vdb_bad(v, t,
				      "no hd=%s is defined (define the host with hd= before the sd=)",
				      a[i]);
	if (!ret) {
		*out = a;
		*nout = n;
	}
	return ret;
}

static int general(struct vdb *v, const struct vdb_tok *t, const struct kw *k)
{
	double x;

	switch (k->id) {
	case P_COMPRATIO:
		if (vdb_num1(v, t, VK_COUNT, 1, 1e6, &x))
			return -EINVAL;
		v->gen.compratio = x;
		v->gen.compratio_pos = t->pos;
		return 0;
	case P_DATA_ERRORS:
		if (vdb_num1(v, t, VK_COUNT, 0, 1e12, &x))
			return -EINVAL;
		if (x != 1)
			return vdb_bad(v, t,
				       "iowl ends a job at its first IO error (data_errors=1 says the same; vdbench's default is 50): other counts are not supported");
		return 0;
	case P_MESSAGESCAN:
		if (t->list || (strcasecmp(t->raw, "no") && strcasecmp(t->raw, "yes")))
			return vdb_bad(v, t, "give yes or no");
		if (!strcasecmp(t->raw, "yes"))
			return vdb_bad(v, t,
				       "iowl does not scan the system log for errors (messagescan=no says so)");
		return 0;
	default: return vdb_bad(v, t, "%s", refusal(k->id));
	}
}

static int hd_param(struct vdb *v, const struct vdb_tok *t, const struct kw *k)
{
	struct vdb_host *h = CUR(v->hosts, v->hd_dflt);

	switch (k->id) {
	case P_SYSTEM: return vdb_name1(v, t, &h->system);
	case P_HDLOCAL:
		/* How vdbench itself reaches and starts a host: nothing to do here, and said so. */
		iowl_warn("%s:%u: %s=%s: how vdbench starts itself on a host; iowl runs its threads here and ignores it",
			  t->pos.file, t->pos.line, t->key, t->raw);
		return 0;
	default: return vdb_bad(v, t, "%s", refusal(k->id));
	}
}

static int sd_size(struct vdb *v, const struct vdb_tok *t, uint64_t mult512, uint64_t *out,
		   struct vdb_pos *pos)
{
	double x;

	if (vdb_num1(v, t, VK_SIZE, 0, 1e18, &x))
		return -EINVAL;
	if (x != floor(x) || (mult512 && fmod(x, 512)))
		return vdb_bad(v, t, "%s",
			       mult512 ? "give a multiple of 512 bytes" : "give whole bytes");
	*out = (uint64_t)x;
	*pos = t->pos;
	return 0;
}

static int sd_param(struct vdb *v, const struct vdb_tok *t, const struct kw *k)
{
	struct vdb_sd *sd = CUR(v->sds, v->sd_dflt);
	double x, *a;
	unsigned n;

	switch (k->id) {
	case P_HOST: return host_param(v, t, &sd->hosts, &sd->nhosts);
	case P_LUN:
		if (v->cur < 0)
			return vdb_bad(v, t, "lun= may not be given for sd=default (vdbench)");
		sd->lun_pos = t->pos;
		return vdb_name1(v, t, &sd->lun);
	case P_COUNT:
		if (vdb_nums(v, t, VK_COUNT, &a, &n))
			return -EINVAL;
		if (n != 2 || a[1] < 1 || a[0] < 0 || a[0] > 999999999 || a[0] != floor(a[0]) ||
		    a[1] != floor(a[1]) || a[1] > 4096)
			return vdb_bad(v, t,
				       "give count=(start,n): the first number (0 to 999999999) and how many SDs (1 to 4096)");
		sd->count_start = (unsigned)a[0];
		sd->count_n = (unsigned)a[1];
		sd->count_pos = t->pos;
		return 0;
	case P_SIZE:
		if (sd_size(v, t, 0, &sd->size, &sd->size_pos))
			return -EINVAL;
		return sd->size ? 0 : vdb_bad(v, t, "a size of 0 bytes");
	case P_THREADS:
		if (vdb_num1(v, t, VK_COUNT, 1, 65536, &x))
			return -EINVAL;
		sd->threads = (unsigned)x;
		sd->threads_pos = t->pos;
		return x == floor(x) ? 0 : vdb_bad(v, t, "give a whole number of threads");
	case P_HITAREA:
		return sd_size(v, t, 0, &sd->hitarea, &sd->hitarea_pos);
	case P_OFFSET:
		return sd_size(v, t, 1, &sd->offset, &sd->offset_pos);
	case P_ALIGN:
		if (sd_size(v, t, 1, &sd->align, &sd->align_pos))
			return -EINVAL;
		return sd->align ? 0 : vdb_bad(v, t, "give a multiple of 512 bytes");
	case P_OPENFLAGS:
		sd->openflags_set = true;
		sd->openflags_pos = t->pos;
		return vdb_openflags(v, t, &sd->openflags);
	case P_RANGE: return vdb_range2(v, t, &sd->range);
	default: return vdb_bad(v, t, "%s", refusal(k->id));
	}
}

static int xfersize(struct vdb *v, const struct vdb_tok *t, struct vdb_wd *wd)
{
	double sum = 0;

	if (vdb_nums(v, t, VK_SIZE, &wd->xfer, &wd->nxfer))
		return -EINVAL;
	wd->xfer_pos = t->pos;
	if (wd->nxfer == 3) {
		if (wd->xfer[0] >= wd->xfer[1] || wd->xfer[0] <= 0)
			return vdb_bad(v, t,
				       "xfersize=(min,max,align): min must be above 0 and below max");
		if (wd->xfer[2] <= 0 || fmod(wd->xfer[2], 512))
			return vdb_bad(v, t,
				       "xfersize=(min,max,align): align must be a multiple of 512");
		return 0;
	}
	if (wd->nxfer == 1)
		return wd->xfer[0] >= 1 && wd->xfer[0] == floor(wd->xfer[0]) ?
			       0 :
			       vdb_bad(v, t, "give a size in whole bytes above 0");
	if (wd->nxfer % 2)
		return vdb_bad(v, t,
			       "a distribution is pairs of size and percentage: xfersize=(4k,25,8k,75)");
	if (wd->nxfer / 2 > VDB_MAX_XFER)
		return vdb_bad(v, t, "more than %d sizes", VDB_MAX_XFER);
	for (unsigned i = 0; i < wd->nxfer; i += 2) {
		if (wd->xfer[i] <= 0 || fmod(wd->xfer[i], 512))
			return vdb_bad(v, t,
				       "the transfer size %.0f is not a multiple of 512 bytes",
				       wd->xfer[i]);
		if (wd->xfer[i + 1] < 0 || wd->xfer[i + 1] > 100)
			return vdb_bad(v, t, "the share %g of %.0f bytes is not a percentage",
				       wd->xfer[i + 1], wd->xfer[i]);
		sum += wd->xfer[i + 1];
	}
	/* vdbench rounds the total before it compares it with 100 */
	if (lround(sum) != 100)
		return vdb_bad(v, t, "the percentages add up to %g, not 100", sum);
	return 0;
}

static int seekpct(struct vdb *v, const struct vdb_tok *t, double *out)
{
	if (t->nitems != 1)
		return vdb_bad(v, t, "takes one value: a percentage, sequential, random or eof");
	for (unsigned i = 0; i < t->nitems; i++) {
		const char *s = t->items[i];
		size_t n = strlen(s);

		if (!strncasecmp("sequential", s, n))
			*out = 0;
		else if (!strcasecmp(s, "eof"))
			*out = VDB_SEEK_EOF;
		else if (!strncasecmp("random", s, n))
			*out = 100;
		else if (!strncasecmp("poisson", s, n))
			return vdb_bad(v, t, "poisson seek distances are not supported");
		else if (vdb_number(s, false, out) || *out < 0 || *out > 100)
			return vdb_bad(v, t,
				       "give a percentage from 0 to 100, or seq, random or eof");
	}
	return 0;
}

static int wd_param(struct vdb *v, const struct vdb_tok *t, const struct kw *k)
{
	struct vdb_wd *wd = CUR(v->wds, v->wd_dflt);
	double x;

	switch (k->id) {
	case P_SDS: wd->sds_pos = t->pos; return vdb_names(v, t, &wd->sds, &wd->nsds);
	case P_SKEW:
		wd->skew_pos = t->pos;
		if (vdb_num1(v, t, VK_COUNT, 0, 100, &wd->skew))
			return -EINVAL;
		return wd->skew > 0 ?
			       0 :
			       vdb_bad(v, t,
				       "give a share above 0 (leave skew= out for a share of what the others leave)");
	case P_XFERSIZE:
		return xfersize(v, t, wd);
	case P_RDPCT:
	case P_WRPCT:
		wd->rdpct_pos = t->pos;
		if (vdb_pct1(v, t, &x))
			return -EINVAL;
		wd->rdpct = k->id == P_RDPCT ? x : 100 - x;
		return 0;
	case P_RANGE:
	case P_HOTBAND: wd->hotband = k->id == P_HOTBAND; return vdb_range2(v, t, &wd->range);
	case P_SEEKPCT:
		wd->seekpct_pos = t->pos;
		return seekpct(v, t, &wd->seekpct);
	case P_RHPCT:
	case P_WHPCT:
		*(k->id == P_RHPCT ? &wd->rhpct_pos : &wd->whpct_pos) = t->pos;
		return vdb_pct1(v, t, k->id == P_RHPCT ? &wd->rhpct : &wd->whpct);
	case P_HOST: wd->hosts_pos = t->pos; return host_param(v, t, &wd->hosts, &wd->nhosts);
	case P_OPENFLAGS:
		wd->openflags_set = true;
		wd->openflags_pos = t->pos;
		return vdb_openflags(v, t, &wd->openflags);
	case P_STREAMS:
		if (vdb_num1(v, t, VK_COUNT, 2, 256, &x) || x != floor(x))
			return vdb_bad(v, t, "give a whole number of streams from 2 to 256");
		wd->streams = (unsigned)x;
		wd->streams_pos = t->pos;
		return 0;
	default: return vdb_bad(v, t, "%s", refusal(k->id));
	}
}

/* A for-loop (or a list, or one value of a loop parameter): replaces one of the same kind. */
static int loop_param(struct vdb *v, const struct vdb_tok *t, struct vdb_rd *rd,
		      enum vdb_loopvar var, bool from_pct)
{
	struct vdb_loop *l;
	double *a;
	unsigned n, i;

	if (vdb_nums(v, t, var == VDB_L_XFERSIZE || var == VDB_L_HITAREA ? VK_SIZE : VK_COUNT, &a,
		     &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		double x = a[i];

		if (from_pct) {
			if (!(x > 0 && x <= 100))
				return vdb_bad(v, t,
					       "compression= is a percentage above 0 and up to 100");
			a[i] = x = round(100.0 / x * 1000) / 1000;
		}
		if ((var == VDB_L_RDPCT || var == VDB_L_RHPCT || var == VDB_L_WHPCT ||
		     var == VDB_L_SEEKPCT) && !(x >= 0 && x <= 100))
			return vdb_bad(v, t, "%g is not a percentage", x);
		if (var == VDB_L_THREADS && (x < 1 || x > 65536 || x != floor(x)))
			return vdb_bad(v, t, "%g is not a whole number of threads from 1 to 65536",
				       x);
		if (var == VDB_L_XFERSIZE && (x <= 0 || fmod(x, 512)))
			return vdb_bad(v, t,
				       "the transfer size %.0f is not a multiple of 512 bytes", x);
		if (var == VDB_L_HITAREA && (x < 1 || x != floor(x)))
			return vdb_bad(v, t, "give a hit area in whole bytes");
		if (var == VDB_L_COMPRATIO && x < 1)
			return vdb_bad(v, t, "a compression ratio is 1 or more");
		if (var == VDB_L_IORATE && x <= 0)
			return vdb_bad(v, t, "a rate above 0");
	}
	for (i = 0; i < rd->nloops && rd->loops[i].var != var; i++)
		;
	if (i < rd->nloops) {
		memmove(&rd->loops[i], &rd->loops[i + 1], (rd->nloops - i - 1) * sizeof(rd->loops[0]));
		rd->nloops--;
	}
	if (rd->nloops == VDB_MAX_LOOPS)
		return vdb_bad(v, t, "more than %d for-loops", VDB_MAX_LOOPS);
	l = &rd->loops[rd->nloops++];
	*l = (struct vdb_loop){ var, a, n, t->pos };
	return 0;
}

static int iorate(struct vdb *v, const struct vdb_tok *t, struct vdb_rd *rd)
{
	rd->iorate_pos = t->pos;
	if (t->nitems == 1 && !strcasecmp(t->items[0], "max")) {
		rd->iorate = VDB_IO_MAX;
		return 0;
	}
	if (t->nitems == 1 && !strcmp(t->items[0], "curve")) {
		rd->iorate = VDB_IO_CURVE;
		return 0;
	}
	for (unsigned i = 0; i < t->nitems; i++)
		if (!strcasecmp(t->items[i], "max") || !strcmp(t->items[i], "curve"))
			return vdb_bad(v, t, "max and curve stand alone: a list holds rates only");
	rd->iorate = VDB_IO_RATE;
	if (t->nitems == 1 && t->dash[0] < 0) {
		double x;

		if (vdb_num1(v, t, VK_COUNT, 1e-9, 1e12, &x))
			return -EINVAL;
		rd->rate = x;
		return 0;
	}
	/* A list of rates is a loop, the innermost one (vdbench adds it after the others). */
	if (loop_param(v, t, rd, VDB_L_IORATE, false))
		return -EINVAL;
	rd->rate = rd->loops[rd->nloops - 1].v[0];
	rd->loops[rd->nloops - 1].var = VDB_L_COUNT;	/* placed last in vdb_check */
	return 0;
}

static int rd_param(struct vdb *v, const struct vdb_tok *t, const struct kw *k)
{
	struct vdb_rd *rd = CUR(v->rds, v->rd_dflt);
	double *a;
	unsigned n;

	switch (k->id) {
	case P_WDS:
		if (rd->nwds)
			return vdb_bad(v, t,
				       "wd= may be given once per rd: list the workloads in one, wd=(w1,w2)");
		rd->wds_pos = t->pos;
		return vdb_names(v, t, &rd->wds, &rd->nwds);
	case P_RD_SDS: rd->sds_pos = t->pos; return vdb_names(v, t, &rd->sds, &rd->nsds);
	case P_IORATE:
		return iorate(v, t, rd);
	case P_CURVE:
		if (vdb_nums(v, t, VK_COUNT, &a, &n))
			return -EINVAL;
		if (n > 32)
			return vdb_bad(v, t, "at most 32 points");
		for (unsigned i = 0; i < n; i++)
			if (!(a[i] > 0 && a[i] <= 100))
				return vdb_bad(v, t, "%g is not a percentage above 0 and up to 100",
					       a[i]);
		rd->curve = a;
		rd->ncurve = n;
		rd->curve_pos = t->pos;
		return 0;
	case P_ELAPSED: rd->elapsed_pos = t->pos; return vdb_secs1(v, t, 1, &rd->elapsed);
	case P_INTERVAL: rd->interval_pos = t->pos; return vdb_secs1(v, t, 1, &rd->interval);
	case P_WARMUP: rd->warmup_pos = t->pos; return vdb_secs1(v, t, 0, &rd->warmup);
	case P_PAUSE: rd->pause_pos = t->pos; return vdb_secs1(v, t, 0, &rd->pause);
	case P_FOR:
	case P_FORPCT:
		return loop_param(v, t, rd, (enum vdb_loopvar)k->arg, k->id == P_FORPCT);
	case P_DISTRIBUTION:
		rd->distribution_pos = t->pos;
		if (t->nitems != 1)
			return vdb_bad(v, t, "give exponential or deterministic");
		if (!strncasecmp("exponential", t->raw, strlen(t->raw)))
			rd->deterministic = false;
		else if (!strncasecmp("deterministic", t->raw, strlen(t->raw)))
			rd->deterministic = true;
		else if (!strncasecmp("uniform", t->raw, strlen(t->raw)))
			return vdb_bad(v, t,
				       "iowl spaces rated IOs evenly (deterministic) or as a Poisson process (exponential, vdbench's default), not with uniform gaps");
		else
			return vdb_bad(v, t,
				       "give exponential, deterministic (or uniform, which iowl does not do)");
		return 0;
	case P_OPENFLAGS:
		rd->openflags_set = true;
		rd->openflags_pos = t->pos;
		return vdb_openflags(v, t, &rd->openflags);
	default: return vdb_bad(v, t, "%s", refusal(k->id));
	}
}

#define HEAD_OK(type)                                                                              \
	_Static_assert(offsetof(type, name) == offsetof(struct vdb_head, name) &&                  \
			       offsetof(type, pos) == offsetof(struct vdb_head, pos),              \
		       #type " starts as struct vdb_head")
HEAD_OK(struct vdb_host);
HEAD_OK(struct vdb_sd);
HEAD_OK(struct vdb_wd);
HEAD_OK(struct vdb_rd);

/* The definitions of a section: their array, count and size, and the section's default. */
struct defs {
	void **arr;
	unsigned *n;
	size_t size;
	const void *dflt;
};

static struct defs defs_of(struct vdb *v, enum vdb_section s)
{
	switch (s) {
	case VDB_S_HD:
		return (struct defs){ (void **)&v->hosts, &v->nhosts, sizeof(*v->hosts), &v->hd_dflt };
	case VDB_S_SD:
		return (struct defs){ (void **)&v->sds, &v->nsds, sizeof(*v->sds), &v->sd_dflt };
	case VDB_S_WD:
		return (struct defs){ (void **)&v->wds, &v->nwds, sizeof(*v->wds), &v->wd_dflt };
	default:
		return (struct defs){ (void **)&v->rds, &v->nrds, sizeof(*v->rds), &v->rd_dflt };
	}
}

static struct vdb_head *def_at(const struct defs *d, unsigned i)
{
	return (struct vdb_head *)((char *)*d->arr + i * d->size);
}

/* hd=, sd=, wd= or rd= NAME: a new definition, a copy of the section's default as it stands. */
static int def_start(struct vdb *v, enum vdb_section s, const struct vdb_tok *t)
{
	struct defs d = defs_of(v, s);
	struct vdb_head *h;
	char *name = NULL;

	if (vdb_name1(v, t, &name))
		return -EINVAL;
	if (!strcmp(name, "default")) {
		v->cur = -1;
		return 0;
	}
	if (strchr(name, '*') || strchr(name, '?'))
		return vdb_bad(v, t, "a name may not hold a wildcard");
	for (unsigned i = 0; i < *d.n; i++)
		if (!strcmp(def_at(&d, i)->name, name))
			return vdb_bad(v, t,
				       "%s=%s is defined twice (vdbench does not allow duplicate names)",
				       section_names[s], name);
	h = vdb_push(v, d.arr, d.n, d.size);
	if (!h)
		return vdb_nomem(v, &t->pos);
	memcpy(h, d.dflt, d.size);
	h->name = name;
	h->pos = t->pos;
	v->cur = (int)*d.n - 1;
	return 0;
}

static const struct kw *const section_kw[] = { general_kw, hd_kw, sd_kw, wd_kw, rd_kw };

static int unknown(struct vdb *v, enum vdb_section sec, const struct vdb_tok *t)
{
	const char *cands[128] = { NULL };
	size_t n = 0;
	const char *best;

	/* A general parameter after the definitions started is out of place, not unknown. */
	if (sec != VDB_S_GENERAL && kw_find(general_kw, t->key))
		return vdb_bad(v, t,
			       "%s= is a general parameter: put it before the first hd=, sd=, wd= or rd= (vdbench reads them in that order)",
			       kw_find(general_kw, t->key)->name);
	for (const struct kw *k = section_kw[sec]; k->name && n < 128; k++)
		cands[n++] = k->name;
	best = suggest_closest(t->key, cands, n);
	if (sec == VDB_S_GENERAL)
		return err_at(v->err, t->pos.file, t->pos.line,
			      "unknown general parameter '%s'%s%s%s (a parameter file starts with general parameters, then hd=, sd=, wd= and rd= definitions)",
			      t->key, best ? " (did you mean '" : "", best ? best : "",
			      best ? "'?)" : "");
	return err_at(v->err, t->pos.file, t->pos.line, "unknown %s parameter '%s'%s%s%s", sec == VDB_S_HD ? "HD" :
		      sec == VDB_S_SD ? "SD" : sec == VDB_S_WD ? "WD" : "RD", t->key,
		      best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
}

int vdb_param(struct vdb *v, enum vdb_section *sec, const struct vdb_tok *t)
{
	int start = vdb_section_start(*sec, t->key);
	const struct kw *k;

	if (start >= 0) {
		*sec = (enum vdb_section)start;
		return def_start(v, *sec, t);
	}
	k = kw_find(section_kw[*sec], t->key);
	if (!k && *sec != VDB_S_GENERAL && !strncmp(t->key, "dedup", 5))
		k = kw_find(sd_kw, "dedupratio");
	if (!k)
		return unknown(v, *sec, t);
	switch (*sec) {
	case VDB_S_GENERAL:
		return general(v, t, k);
	case VDB_S_HD:
		return hd_param(v, t, k);
	case VDB_S_SD:
		return sd_param(v, t, k);
	case VDB_S_WD:
		return wd_param(v, t, k);
	default:
		return rd_param(v, t, k);
	}
}
