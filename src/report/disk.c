// SPDX-License-Identifier: MIT
/* fio's disk statistics block and disk_util JSON over the whole run, plus sysstat's iostat -x figures. */
#include <inttypes.h>
#include <stdlib.h>

#include "disk.h"
#include "iowl/report.h"

#define JI(v) ((json_int_t)(v))

static bool shown(const struct disk_dev *d)
{
	return d->first.nfields && d->last.nfields;
}

static void text_dev(FILE *f, const struct disk_set *s, unsigned i, const char *indent)
{
	const struct disk_dev *d = &s->devs[i];
	struct disk_util u;
	struct disk_aggr a;

	disk_calc_util(&d->first, &d->last, &u);
	fprintf(f, "%s%s: ios=%" PRIu64 "/%" PRIu64 ", sectors=%" PRIu64 "/%" PRIu64
		", merge=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64
		", util=%.2f%%", indent, d->name, u.read_ios, u.write_ios, u.read_sectors,
		u.write_sectors, u.read_merges, u.write_merges, u.read_ticks, u.write_ticks,
		u.in_queue, u.util);
	if (disk_set_aggr(s, i, DISK_SPAN_RUN, &a))
		fprintf(f, ", aggrios=%" PRIu64 "/%" PRIu64 ", aggrmerge=%" PRIu64 "/%" PRIu64
			", aggrticks=%" PRIu64 "/%" PRIu64 ", aggrin_queue=%" PRIu64 ", aggrutil=%.2f%%",
			a.read_ios, a.write_ios, a.read_merges, a.write_merges, a.read_ticks,
			a.write_ticks, a.in_queue, a.max_util);
	fputc('\n', f);
	for (unsigned m = 0; m < d->nmembers; m++)
		if (shown(&s->devs[d->members[m]]))
			text_dev(f, s, d->members[m], "    ");
}

void report_disk_text(FILE *f, const struct disk_set *s)
{
	bool header = false;

	for (unsigned i = 0; s && i < s->n; i++) {
		if (!s->devs[i].is_target || !shown(&s->devs[i]))
			continue;
		if (!header)
			fputs("\nDisk stats (read/write):\n", f);
		header = true;
		text_dev(f, s, i, "  ");
	}
}

static json_t *json_iostat(const struct disk_dev *d)
{
	struct disk_iostat x;

	disk_calc_iostat(&d->first, &d->last, &x);
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			 "r/s", x.rd.ios_s, "w/s", x.wr.ios_s, "rkB/s", x.rd.kb_s, "wkB/s", x.wr.kb_s,
			 "rrqm/s", x.rd.rqm_s, "wrqm/s", x.wr.rqm_s, "%rrqm", x.rd.rqm_pct,
			 "%wrqm", x.wr.rqm_pct, "r_await", x.rd.await, "w_await", x.wr.await,
			 "aqu-sz", x.aqu_sz, "rareq-sz", x.rd.areq_sz, "wareq-sz", x.wr.areq_sz,
			 "%util", x.util, "seconds", x.secs);
}

static json_t *json_dev(const struct disk_set *s, unsigned i)
{
	const struct disk_dev *d = &s->devs[i];
	struct disk_util u;
	struct disk_aggr a;
	json_t *o;

	disk_calc_util(&d->first, &d->last, &u);
	o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f}", "name", d->name,
		      "read_ios", JI(u.read_ios), "write_ios", JI(u.write_ios), "read_sectors",
		      JI(u.read_sectors), "write_sectors", JI(u.write_sectors), "read_merges",
		      JI(u.read_merges), "write_merges", JI(u.write_merges), "read_ticks",
		      JI(u.read_ticks), "write_ticks", JI(u.write_ticks), "in_queue", JI(u.in_queue),
		      "util", u.util);
	if (o && disk_set_aggr(s, i, DISK_SPAN_RUN, &a)) {
		json_t *slaves = json_array();

		/* fio's keys, its aggr_write_merge spelling included */
		json_object_update_new(o, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f}",
						    "aggr_read_ios", JI(a.read_ios),
						    "aggr_write_ios", JI(a.write_ios),
						    "aggr_read_merges", JI(a.read_merges),
						    "aggr_write_merge", JI(a.write_merges),
						    "aggr_read_ticks", JI(a.read_ticks),
						    "aggr_write_ticks", JI(a.write_ticks),
						    "aggr_in_queue", JI(a.in_queue),
						    "aggr_util", a.max_util));
		for (unsigned m = 0; slaves && m < d->nmembers; m++)
			if (shown(&s->devs[d->members[m]]))
				json_array_append_new(slaves, json_dev(s, d->members[m]));
		json_object_set_new(o, "slaves", slaves);
	}
	if (o)
		json_object_set_new(o, "iowl", json_pack("{s:s, s:o, s:{s:I, s:I}}", "kind",
							 disk_kind_name(d->kind), "iostat",
							 json_iostat(d), "queue",
							 "max_sectors_kb", JI(d->lim.max_sectors_kb),
							 "logical_block_size",
							 JI(d->lim.logical_block_size)));
	return o;
}

json_t *report_disk_json(const struct disk_set *s)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && s && i < s->n; i++)
		if (s->devs[i].is_target && shown(&s->devs[i]))
			json_array_append_new(a, json_dev(s, i));
	return a;
}

/* The run's devices seen over group g's window (free view->devs); false when it has none. */
static bool group_view(const struct run_result *r, unsigned g, struct disk_set *view)
{
	const struct disk_sample *first, *last;

	if (!result_group_disks(r, g, &first, &last))
		return false;
	*view = *r->disks;
	view->devs = malloc(r->disks->n * sizeof(*view->devs));
	if (!view->devs)
		return false;
	for (unsigned i = 0; i < r->disks->n; i++) {
		view->devs[i] = r->disks->devs[i];
		view->devs[i].first = view->devs[i].prev = first[i];
		view->devs[i].last = last[i];
	}
	return true;
}

void report_disk_group_text(FILE *f, const struct run_result *r, unsigned g)
{
	struct disk_set v;
	bool header = false;

	if (!group_view(r, g, &v))
		return;
	for (unsigned i = 0; i < v.n; i++) {
		if (!v.devs[i].is_target || !shown(&v.devs[i]))
			continue;
		if (!header)
			fprintf(f, "  Disk stats of group %u (read/write):\n", g);
		header = true;
		text_dev(f, &v, i, "    ");
	}
	free(v.devs);
}

json_t *report_disk_group_json(const struct run_result *r, unsigned g)
{
	struct disk_set v;
	json_t *a;

	if (!group_view(r, g, &v))
		return NULL;
	a = report_disk_json(&v);
	free(v.devs);
	return a;
}
