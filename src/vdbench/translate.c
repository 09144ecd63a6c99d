// SPDX-License-Identifier: MIT
/*
 * vdbench's model in iowl's, one run's jobs (the runs themselves are translate_rd.c): each run
 * (an rd, or one point of its for-loops) is a phase; its workloads are weighted streams of one
 * job per SD (skew -> weight, rdpct -> rw and rwmixread, seekpct -> sequential walkers with percentage_random, xfersize -> bs/bssplit/bsrange, range=
 * and hotband= -> each stream's range and distribution, rhpct/whpct -> hit and miss streams,
 * streams= -> one walker per slice); threads -> iodepth, iorate -> rate_iops split by the
 * shares; iorate=curve -> --curve.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/cluster.h"
#include "iowl/job.h"
#include "vdbench/vdbench_int.h"

static int put(struct vdb *v, struct vdb_job *j, const char *key, const struct vdb_pos *pos,
	       const char *note, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int put(struct vdb *v, struct vdb_job *j, const char *key, const struct vdb_pos *pos,
	       const char *note, const char *fmt, ...)
{
	struct vdb_entry *e = vdb_push(v, (void **)&j->e, &j->n, sizeof(*e));
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!e || !(e->value = vdb_strdup(v, buf)))
		return vdb_nomem(v, pos);
	e->key = key;
	e->pos = *pos;
	e->note = note;
	return 0;
}

/* A size as the iowl job file writes it: 8k, 1m, or bytes. */
const char *vdb_size_str(char *buf, size_t len, double bytes)
{
	static const char units[] = "kmgt";
	uint64_t b;
	unsigned u = 0;

	/* Beyond 64 bits (a fuzzed xfersize=7777...k): written out whole, for the job parser to refuse. */
	if (!(bytes >= 0 && bytes < 18446744073709551616.0)) {
		snprintf(buf, len, "%.0f", bytes);
		return buf;
	}
	b = (uint64_t)bytes;
	if (b)
		while (u < 4 && b % 1024 == 0) {
			b /= 1024;
			u++;
		}
	if (u)
		snprintf(buf, len, "%llu%c", (unsigned long long)b, units[u - 1]);
	else
		snprintf(buf, len, "%llu", (unsigned long long)b);
	return buf;
}

double vdb_point_or(const struct vdb_runspec *rs, enum vdb_loopvar var, double dflt)
{
	return rs->pt.set[var] ? rs->pt.v[var] : dflt;
}

/* A host= list takes rank r, which runs hd= label: none means every host. */
static bool on_host(char *const *pats, unsigned n, const char *label, unsigned r)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(pats[i], "*") || vdb_match(pats[i], label) ||
		    (!strcmp(pats[i], "localhost") && !r)) /* vdbench's master */
			return true;
	return !n;
}

/* MPI with hd=: rank r's host has workload g's SD and runs its wd. */
static bool wg_on_rank(const struct vdb *v, const struct vdb_wg *g, unsigned r)
{
	const char *label = v->hosts[v->rank_hd[r]].name;
	const struct vdb_sd *sd = &v->sds[g->sd];

	return on_host(g->wd->hosts, g->wd->nhosts, label, r) &&
	       on_host(sd->hosts, sd->nhosts, label, r);
}

/*
 * MPI with hd=: each workload's share of the run's iorate= is split over the hosts that run it,
 * as vdbench's rate is the run's over all its slaves.  Returns 0 or -EINVAL (one runs nowhere).
 */
static int wgs_over_hosts(struct vdb *v, struct vdb_runspec *rs)
{
	for (unsigned i = 0; v->rank_hd && i < rs->nwgs; i++) {
		struct vdb_wg *g = &rs->wgs[i];
		unsigned nh = 0;

		for (unsigned r = 0; r < cluster_size(); r++)
			nh += wg_on_rank(v, g, r);
		if (!nh)
			return err_at(v->err, g->wd->pos.file, g->wd->pos.line,
				      "wd=%s on sd=%s runs on no host: the wd's host= and the sd's host= name no hd= in common",
				      g->wd->name, v->sds[g->sd].name);
		g->skew /= nh;
	}
	return 0;
}

/*
 * MPI with hd=: the ranks whose hosts run job name (sd's workloads of a run), as a --rank-jobs
 * entry of the step when not every rank does.  Returns 0 or -errno.
 */
static int job_ranks(struct vdb *v, struct vdb_step *st, const struct vdb_runspec *rs, unsigned sd,
		     const char *name)
{
	unsigned n = cluster_size(), nr = 0;
	size_t cap = (size_t)n * 12 + strlen(name) + 2, len = 0;
	char *list, **e;

	if (!v->rank_hd)
		return 0;
	if (!(list = vdb_alloc(v, cap)))
		return vdb_nomem(v, &rs->rd->pos);
	for (unsigned r = 0; r < n; r++) {
		const struct vdb_wg *on = NULL, *off = NULL;

		for (unsigned i = 0; i < rs->nwgs; i++)
			if (rs->wgs[i].sd == sd)
				*(wg_on_rank(v, &rs->wgs[i], r) ? &on : &off) = &rs->wgs[i];
		if (on && off)
			return err_at(v->err, off->wd->pos.file, off->wd->pos.line,
				      "rd=%s: on hd=%s wd=%s runs on sd=%s but wd=%s does not: iowl runs an SD's workloads of a run together, on the same hosts (give the workloads of different hosts their own sd=)",
				      rs->rd->name, v->hosts[v->rank_hd[r]].name, on->wd->name,
				      v->sds[sd].name, off->wd->name);
		if (on)
			len += (size_t)snprintf(list + len, cap - len, "%s%u", nr++ ? "," : "", r);
	}
	if (nr == n)
		return 0;
	snprintf(list + len, cap - len, ":%s", name);
	if (!(e = vdb_push(v, (void **)&st->rank_jobs, &st->nrank_jobs, sizeof(*e))))
		return vdb_nomem(v, &rs->rd->pos);
	*e = list;
	return 0;
}

/* The workloads of a run on each SD, with their shares. */
int vdb_collect_wgs(struct vdb *v, struct vdb_runspec *rs)
{
	const struct vdb_rd *rd = rs->rd;
	unsigned nw = 0, unskewed = 0;
	const struct vdb_wd **wds = vdb_alloc(v, v->nwds * sizeof(*wds) + 1);
	double total = 0;

	if (!wds)
		return vdb_nomem(v, &rd->pos);
	for (unsigned p = 0; p < rd->nwds; p++)
		for (unsigned i = 0; i < v->nwds; i++) {
			if (!vdb_match(rd->wds[p], v->wds[i].name))
				continue;
			for (unsigned k = 0; k < nw; k++)
				if (wds[k] == &v->wds[i])
					return err_at(v->err, rd->wds_pos.file, rd->wds_pos.line,
						      "rd=%s: wd=%s is named twice", rd->name,
						      v->wds[i].name);
			wds[nw++] = &v->wds[i];
			total += v->wds[i].skew;
			unskewed += !v->wds[i].skew;
		}
	for (unsigned k = 0; k < nw; k++) {
		char **pats = rd->nsds ? rd->sds : wds[k]->sds;
		unsigned npats = rd->nsds ? rd->nsds : wds[k]->nsds, first = rs->nwgs;
		double skew = wds[k]->skew ? wds[k]->skew : (100 - total) / unskewed;

		for (unsigned p = 0; p < npats; p++)
			for (unsigned i = 0; i < v->nsds; i++) {
				struct vdb_wg *g;

				if (!vdb_match(pats[p], v->sds[i].name))
					continue;
				g = vdb_push(v, (void **)&rs->wgs, &rs->nwgs, sizeof(*g));
				if (!g)
					return vdb_nomem(v, &rd->pos);
				*g = (struct vdb_wg){ wds[k], i, 0 };
			}
		/* a workload's share is split evenly over its SDs, as vdbench does */
		for (unsigned i = first; i < rs->nwgs; i++)
			rs->wgs[i].skew = skew / (rs->nwgs - first);
	}
	return wgs_over_hosts(v, rs);
}

/* The transfer sizes of a workload in this run: the table, or the swept single size. */
const double *vdb_xfer_of(const struct vdb_runspec *rs, const struct vdb_wd *wd, unsigned *n)
{
	if (rs->pt.set[VDB_L_XFERSIZE]) {
		*n = 1;
		return &rs->pt.v[VDB_L_XFERSIZE];
	}
	*n = wd->nxfer;
	return wd->xfer;
}

static double max_xfer(const struct vdb_runspec *rs, const struct vdb_wd *wd)
{
	unsigned n;
	const double *x = vdb_xfer_of(rs, wd, &n);
	double m = 0;

	if (n == 3)
		return x[1];
	for (unsigned i = 0; i < n; i += n > 1 ? 2 : 1)
		m = x[i] > m ? x[i] : m;
	return m;
}

/* The largest transfer of any workload on an SD in this run (vdbench rounds ranges to it). */
static double sd_max_xfer(const struct vdb_runspec *rs, unsigned sd)
{
	double m = 0;

	for (unsigned i = 0; i < rs->nwgs; i++)
		if (rs->wgs[i].sd == sd && max_xfer(rs, rs->wgs[i].wd) > m)
			m = max_xfer(rs, rs->wgs[i].wd);
	return m;
}

static int put_bs(struct vdb *v, struct vdb_job *j, const struct vdb_runspec *rs,
		  const struct vdb_wd *wd)
{
	const struct vdb_pos *pos = wd->xfer_pos.file ? &wd->xfer_pos : &wd->pos;
	unsigned n;
	const double *x = vdb_xfer_of(rs, wd, &n);
	char buf[4096], one[64];
	size_t len = 0;

	if (n == 1)
		return put(v, j, "bs", pos, NULL, "%s", vdb_size_str(one, sizeof(one), x[0]));
	if (n == 3) {
		unsigned k = (unsigned)((x[1] - x[0]) / x[2]) + 1;

		/* vdbench draws min + i * align; bsrange draws multiples of its low end */
		if (x[0] == x[2])
			return put(v, j, "bsrange", pos, "xfersize=(min,max,align)", "%s-%s",
				   vdb_size_str(buf, 64, x[0]),
				   vdb_size_str(one, sizeof(one), x[0] * k));
		if (k > VDB_MAX_XFER)
			return err_at(v->err, pos->file, pos->line,
				      "wd=%s: xfersize=(%.0f,%.0f,%.0f) makes %u sizes: iowl draws at most %d sizes unless align equals min",
				      wd->name, x[0], x[1], x[2], k, VDB_MAX_XFER);
		for (unsigned i = 0; i < k; i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s/%.10g",
						i ? ":" : "",
						vdb_size_str(one, sizeof(one), x[0] + i * x[2]),
						100.0 / k);
		return put(v, j, "bssplit", pos, "xfersize=(min,max,align)", "%s", buf);
	}
	for (unsigned i = 0; i < n && len < sizeof(buf) - 64; i += 2)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s/%.10g", i ? ":" : "",
					vdb_size_str(one, sizeof(one), x[i]), x[i + 1]);
	return put(v, j, "bssplit", pos, NULL, "%s", buf);
}

/* A piece of a workload's range: percent of the SD, or bytes. */
struct seg {
	bool bytes;
	double lo, hi;
};

/*
 * The range of a workload on an SD as segments (two across the end of the SD).  When the SD's
 * size is known, percentages become bytes rounded down to whole transfers of the largest size
 * (mx), as vdbench rounds them, so every IO stays aligned.
 */
static int segments(struct vdb *v, const struct vdb_wd *wd, const struct vdb_sd *sd, double seek,
		    double mx, struct seg seg[2], unsigned *n)
{
	const struct vdb_range *r = wd->range.set ? &wd->range : &sd->range;
	double total = (double)vdb_sd_bytes(v, sd);

	*n = 1;
	if (!r->set) {
		seg[0] = (struct seg){ false, 0, 100 };
		return 0;
	}
	if (r->lo > 100) {
		seg[0] = (struct seg){ true, r->lo, r->hi };
		return 0;
	}
	if (r->hi <= 100) {
		seg[0] = (struct seg){ false, r->lo, r->hi };
	} else {
		if (seek != 100)
			return err_at(v->err, r->pos.file, r->pos.line,
				      "wd=%s: a sequential walk across the end of the SD (a range end above 100) has no iowl equivalent: use seekpct=random or a range within 0-100",
				      wd->name);
		seg[0] = (struct seg){ false, r->lo, 100 };
		seg[1] = (struct seg){ false, 0, r->hi - 100 };
		*n = 2;
	}
	for (unsigned i = 0; total > 0 && mx > 0 && i < *n; i++)
		seg[i] = (struct seg){ true, floor(total * seg[i].lo / 100 / mx) * mx,
				       floor(total * seg[i].hi / 100 / mx) * mx };
	return 0;
}

/* One generated stream: directions, weight, range. */
struct spec {
	const char *suffix;
	double weight;
	bool rd, wr;
	struct seg seg;
};

static int put_range(struct vdb *v, struct vdb_job *j, const struct seg *s,
		     const struct vdb_pos *pos, const char *note)
{
	char a[64], b[64];

	if (!s->bytes && s->lo == 0 && s->hi == 100)
		return 0;
	if (s->bytes) {
		if (put(v, j, "offset", pos, note, "%s", vdb_size_str(a, sizeof(a), s->lo)))
			return -ENOMEM;
		return put(v, j, "size", pos, NULL, "%s",
			   vdb_size_str(b, sizeof(b), s->hi - s->lo));
	}
	/* iowl's percentages start above 0: the start of the SD is offset 0 */
	if (put(v, j, "offset", pos, note, s->lo ? "%.10g%%" : "%.0f", s->lo))
		return -ENOMEM;
	return put(v, j, "size", pos, NULL, "%.10g%%", s->hi - s->lo);
}

static const char *rw_name(bool rd, bool wr, bool random)
{
	if (rd && wr)
		return random ? "randrw" : "rw";
	if (rd)
		return random ? "randread" : "read";
	return random ? "randwrite" : "write";
}

static int put_stream(struct vdb *v, struct vdb_job *j, const struct vdb_runspec *rs,
		      const struct vdb_wg *g, const struct spec *s, const char *name)
{
	const struct vdb_wd *wd = g->wd;
	const struct vdb_sd *sd = &v->sds[g->sd];
	double seek = vdb_point_or(rs, VDB_L_SEEKPCT, wd->seekpct);
	double rdpct = vdb_point_or(rs, VDB_L_RDPCT, wd->rdpct);
	bool random = seek == 100 && !rs->pt.set[VDB_L_SEEKPCT];
	bool mixed = (s->rd && s->wr) || rs->mixed_form;
	const struct vdb_pos *rpos = wd->range.set ? &wd->range.pos : sd->range.set ? &sd->range.pos :
				     &wd->pos;
	int ret;

	ret = put(v, j, "stream", &wd->pos, NULL, "%s", name);
	ret = ret ? ret : put(v, j, "weight", wd->skew_pos.file ? &wd->skew_pos : &wd->pos,
			      NULL, "%.10g", s->weight);
	ret = ret ? ret : put(v, j, "rw", wd->seekpct_pos.file ? &wd->seekpct_pos : &wd->pos,
			      NULL, "%s", rw_name(mixed || s->rd, mixed || s->wr, random));
	if (!ret && mixed)
		ret = put(v, j, "rwmixread", wd->rdpct_pos.file ? &wd->rdpct_pos : &wd->pos, NULL,
			  "%.10g", s->rd && s->wr ? rdpct : s->rd ? 100 : 0);
	if (!ret && ((seek > 0 && seek < 100) || rs->pt.set[VDB_L_SEEKPCT]))
		ret = put(v, j, "percentage_random",
			  wd->seekpct_pos.file ? &wd->seekpct_pos : &wd->pos,
			  "seekpct: the share of IOs that seek to a random block", "%.10g",
			  seek < 0 ? 0 : seek);
	ret = ret ? ret : put_bs(v, j, rs, wd);
	if (!ret && sd->align)
		ret = put(v, j, "blockalign", &sd->align_pos, "align=", "%llu",
			  (unsigned long long)sd->align);
	if (!ret && wd->hotband)
		ret = put(v, j, "random_distribution", &wd->range.pos,
			  "hotband=: vdbench's curve; writes 1 % further into the band",
			  s->rd && s->wr ? "hotband,hotband:0.01" : s->rd ? "hotband" : "hotband:0.01");
	return ret ? ret : put_range(v, j, &s->seg, rpos, NULL);
}

/* Cuts a workload's range into hit and miss areas (rhpct, whpct), in bytes. */
static int hit_split(struct vdb *v, const struct vdb_runspec *rs, const struct vdb_wg *g,
		     const struct seg *s, struct seg *hit, struct seg *miss)
{
	const struct vdb_sd *sd = &v->sds[g->sd];
	double area = vdb_point_or(rs, VDB_L_HITAREA, (double)sd->hitarea);
	double total = (double)vdb_sd_bytes(v, sd), align = sd_max_xfer(rs, g->sd), lo, hi;
	const struct vdb_pos *pos = g->wd->rhpct_pos.file ? &g->wd->rhpct_pos : &g->wd->whpct_pos;

	if (!s->bytes && !total)
		return err_at(v->err, pos->file, pos->line,
			      "wd=%s: rhpct=/whpct= put hits in the first %.0f bytes of the range: iowl needs the size of sd=%s for that (give size=, or make the lun exist)",
			      g->wd->name, area, sd->name);
	lo = s->bytes ? s->lo : floor(total * s->lo / 100 / align) * align;
	hi = s->bytes ? s->hi : floor(total * s->hi / 100 / align) * align;
	if (hi - lo < area + 2 * align || area < 2 * align)
		return err_at(v->err, pos->file, pos->line,
			      "wd=%s: the hit area (%.0f bytes) and the misses beside it need at least twice the largest transfer each in sd=%s's range (vdbench)",
			      g->wd->name, area, sd->name);
	*hit = (struct seg){ true, lo, lo + area };
	*miss = (struct seg){ true, lo + area, hi };
	return 0;
}

/* The specs of a workload: hits and misses by direction, pieces of the range, slices. */
static int specs(struct vdb *v, const struct vdb_runspec *rs, const struct vdb_wg *g,
		 struct spec *out, unsigned *n)
{
	const struct vdb_wd *wd = g->wd;
	double seek = vdb_point_or(rs, VDB_L_SEEKPCT, wd->seekpct);
	double rdpct = vdb_point_or(rs, VDB_L_RDPCT, wd->rdpct) / 100;
	double rh = vdb_point_or(rs, VDB_L_RHPCT, wd->rhpct) / 100;
	double wh = vdb_point_or(rs, VDB_L_WHPCT, wd->whpct) / 100;
	unsigned nseg, slices = wd->streams ? wd->streams : 1, k = 0;
	struct seg seg[2];
	double width;

	if (segments(v, wd, &v->sds[g->sd], seek, sd_max_xfer(rs, g->sd), seg, &nseg))
		return -EINVAL;
	width = nseg == 2 ? (seg[0].hi - seg[0].lo) + (seg[1].hi - seg[1].lo) : 1;
	for (unsigned s = 0; s < nseg; s++) {
		double share = g->skew * (nseg == 2 ? (seg[s].hi - seg[s].lo) / width : 1);
		struct spec base[4];
		unsigned nb = 0;

		if (rh + wh > 0) {
			struct seg hit, miss;

			if (hit_split(v, rs, g, &seg[s], &hit, &miss))
				return -EINVAL;
			base[nb++] = (struct spec){ "read-hit", share * rdpct * rh, true, false, hit };
			base[nb++] = (struct spec){ "read-miss", share * rdpct * (1 - rh), true, false, miss };
			base[nb++] = (struct spec){ "write-hit", share * (1 - rdpct) * wh, false, true, hit };
			base[nb++] = (struct spec){ "write-miss", share * (1 - rdpct) * (1 - wh), false, true, miss };
		} else {
			base[nb++] = (struct spec){ nseg == 2 ? (s ? "wrap-start" : "wrap-end") : NULL,
						    share, rdpct > 0, rdpct < 1, seg[s] };
		}
		for (unsigned b = 0; b < nb; b++) {
			double step = (base[b].seg.hi - base[b].seg.lo) / slices;

			if (base[b].weight <= 0)
				continue;
			for (unsigned i = 0; i < slices; i++) {
				if (k == 64)
					return err_at(v->err, wd->pos.file, wd->pos.line,
						      "wd=%s makes more than 64 streams on one SD",
						      wd->name);
				out[k] = base[b];
				out[k].weight = base[b].weight / slices;
				out[k].seg.lo = base[b].seg.lo + i * step;
				out[k].seg.hi = i + 1 == slices ? base[b].seg.hi :
						base[b].seg.lo + (i + 1) * step;
				if (out[k].seg.bytes)
					out[k].seg.lo = floor(out[k].seg.lo / 512) * 512,
					out[k].seg.hi = floor(out[k].seg.hi / 512) * 512;
				k++;
			}
		}
	}
	*n = k;
	return 0;
}

static const char *stream_name(struct vdb *v, const struct vdb_wg *g, const struct spec *s,
			       unsigned slice, unsigned slices)
{
	if (slices > 1)
		return s->suffix ? vdb_printf(v, "%s.%s.%u", g->wd->name, s->suffix, slice) :
		       vdb_printf(v, "%s.%u", g->wd->name, slice);
	return s->suffix ? vdb_printf(v, "%s.%s", g->wd->name, s->suffix) : g->wd->name;
}

/* The effective open flags of an SD in a run: the rd's, else a workload's, else the SD's. */
static unsigned sd_flags(const struct vdb *v, const struct vdb_runspec *rs, unsigned sd,
			 const struct vdb_pos **pos)
{
	unsigned f = v->sds[sd].openflags;

	*pos = v->sds[sd].openflags_set ? &v->sds[sd].openflags_pos : &v->sds[sd].lun_pos;
	for (unsigned i = 0; i < rs->nwgs; i++)
		if (rs->wgs[i].sd == sd && rs->wgs[i].wd->openflags_set) {
			f = rs->wgs[i].wd->openflags;
			*pos = &rs->wgs[i].wd->openflags_pos;
		}
	if (rs->rd->openflags_set) {
		f = rs->rd->openflags;
		*pos = &rs->rd->openflags_pos;
	}
	return f;
}

double vdb_compratio(const struct vdb *v, const struct vdb_runspec *rs)
{
	return vdb_point_or(rs, VDB_L_COMPRATIO, v->gen.compratio);
}

/* rate_iops for an SD: the rd's rate times the SD's shares, per direction. */
static int put_rate(struct vdb *v, struct vdb_job *j, const struct vdb_runspec *rs, double rshare,
		    double wshare)
{
	const struct vdb_rd *rd = rs->rd;
	double rate = vdb_point_or(rs, VDB_L_IORATE, rd->rate);
	double r = rate * rshare / 100, w = rate * wshare / 100;

	if (rd->iorate != VDB_IO_RATE)
		return 0;
	if (put(v, j, "rate_iops", &rd->iorate_pos, "iorate=: this SD's share, reads,writes",
		"%.0f,%.0f", r > 0 && r < 1 ? 1 : r, w > 0 && w < 1 ? 1 : w))
		return -ENOMEM;
	return put(v, j, "rate_process", rd->distribution_pos.file ? &rd->distribution_pos :
		   &rd->iorate_pos, rd->deterministic ? "distribution=deterministic" :
		   "distribution=exponential (vdbench's default)", "%s",
		   rd->deterministic ? "linear" : "poisson");
}

static int put_time(struct vdb *v, struct vdb_job *j, const struct vdb_runspec *rs, bool eof)
{
	const struct vdb_rd *rd = rs->rd;
	const struct vdb_pos *ep = rd->elapsed_pos.file ? &rd->elapsed_pos : &rd->pos;
	int ret = 0;

	if (!eof)
		ret = put(v, j, "time_based", ep, NULL, "1");
	ret = ret ? ret : put(v, j, "runtime", ep, rd->warmup ? "elapsed= less warmup=" : "elapsed=",
			      "%.0f", rd->elapsed - rd->warmup);
	if (!ret && rd->warmup)
		ret = put(v, j, "ramp_time", &rd->warmup_pos, "warmup=", "%.0f", rd->warmup);
	if (!ret && rs->startdelay)
		ret = put(v, j, "startdelay", &rd->pos, "pause= of the run before", "%.0f",
			  rs->startdelay);
	return ret;
}

/* An eof workload runs one pass: alone on its SD, and every workload of the rd is one. */
static int check_eof(struct vdb *v, const struct vdb_runspec *rs, unsigned sd, bool *eof)
{
	unsigned n = 0, neof = 0;
	const struct vdb_wd *some = NULL, *other = NULL;

	for (unsigned i = 0; i < rs->nwgs; i++) {
		bool e = vdb_point_or(rs, VDB_L_SEEKPCT, rs->wgs[i].wd->seekpct) == VDB_SEEK_EOF;

		*(e ? &some : &other) = rs->wgs[i].wd;
		if (rs->wgs[i].sd == sd) {
			n++;
			neof += e;
		}
	}
	*eof = neof > 0;
	if (some && other)
		return err_at(v->err, some->seekpct_pos.file, some->seekpct_pos.line,
			      "rd=%s: seekpct=eof ends the run at the end of the lun: every workload of the rd must use it (wd=%s does, wd=%s does not)",
			      rs->rd->name, some->name, other->name);
	if (neof && n > 1)
		return err_at(v->err, some->seekpct_pos.file, some->seekpct_pos.line,
			      "rd=%s: a workload with seekpct=eof must be alone on sd=%s",
			      rs->rd->name, v->sds[sd].name);
	return 0;
}

static int job_head(struct vdb *v, struct vdb_job *j, const struct vdb_runspec *rs, unsigned sd,
		    bool writes, bool first)
{
	const struct vdb_sd *s = &v->sds[sd];
	const struct vdb_pos *fp;
	unsigned flags = sd_flags(v, rs, sd, &fp);
	const char *path = vdb_lun_path(v, s);
	double threads = vdb_point_or(rs, VDB_L_THREADS, s->threads), cr = vdb_compratio(v, rs);
	char buf[64];
	int ret;

	if (!strncmp(path, "/dev/", 5) && !(flags & VDB_OF_DIRECT))
		return err_at(v->err, fp->file, fp->line,
			      "sd=%s,lun=%s: on Linux vdbench requires openflags=o_direct for a device under /dev (without it the page cache is measured)",
			      s->name, path);
	if (strchr(path, ':'))
		return err_at(v->err, s->lun_pos.file, s->lun_pos.line,
			      "lun=%s: a ':' separates file names in iowl: map the lun to a path without one with --vdbench-lun",
			      s->lun);
	ret = put(v, j, "description", &rs->rd->pos, NULL, "%s", rs->desc);
	if (!ret && first && rs->phase)
		ret = put(v, j, "stonewall", &rs->rd->pos,
			  "the next run starts when the one before is done", "1");
	ret = ret ? ret : put(v, j, "filename", &s->lun_pos,
			      path != s->lun ? "lun= (--vdbench-lun)" : "lun=", "%s", path);
	if (!ret && s->size)
		ret = put(v, j, "size", &s->size_pos, "size=", "%s",
			  vdb_size_str(buf, sizeof(buf), (double)s->size));
	if (!ret && s->offset)
		ret = put(v, j, "offset", &s->offset_pos, "offset=", "%llu",
			  (unsigned long long)s->offset);
	ret = ret ? ret : put(v, j, "ioengine", &s->pos,
			      "threads= concurrent IOs: one io_uring queue of that depth", "io_uring");
	ret = ret ? ret : put(v, j, "iodepth", s->threads_pos.file ? &s->threads_pos : &s->pos,
			      rs->pt.set[VDB_L_THREADS] ? "threads= of the rd" : "threads=", "%.0f",
			      threads);
	if (!ret && (flags & VDB_OF_DIRECT))
		ret = put(v, j, "direct", fp, "openflags=o_direct", "1");
	if (!ret && (flags & VDB_OF_FSYNC))
		ret = put(v, j, "end_fsync", fp, "openflags=fsync", "1");
	ret = ret ? ret : put(v, j, "norandommap", &s->pos,
			      "vdbench draws random blocks with replacement", "1");
	if (!ret && writes)
		ret = put(v, j, "refill_buffers", &s->pos, "vdbench writes new data every time", "1");
	if (!ret && writes && cr > 1)
		ret = put(v, j, "buffer_compress_percentage",
			  v->gen.compratio_pos.file ? &v->gen.compratio_pos : &rs->rd->pos,
			  "compratio=: zeros make the data compress by that ratio", "%.0f",
			  100 - 100 / cr);
	return ret;
}

/* A stream of an SD's job: its workload and spec, and its number among the workload's. */
struct placed {
	const struct vdb_wg *g;
	struct spec sp;
	unsigned k;
};

/* The streams of every workload on an SD, with the SD's read and write shares of the run. */
static int sd_specs(struct vdb *v, const struct vdb_runspec *rs, unsigned sd, struct placed *out,
		    unsigned *n, double *rshare, double *wshare)
{
	*n = 0;
	for (unsigned i = 0; i < rs->nwgs; i++) {
		const struct vdb_wg *g = &rs->wgs[i];
		double rdpct = vdb_point_or(rs, VDB_L_RDPCT, g->wd->rdpct) / 100;
		struct spec sp[64];
		unsigned ns = 0;

		if (g->sd != sd)
			continue;
		if (specs(v, rs, g, sp, &ns))
			return -EINVAL;
		for (unsigned k = 0; k < ns; k++) {
			double r = sp[k].rd && sp[k].wr ? rdpct : sp[k].rd ? 1 : 0;

			if (*n == JOB_MAX_STREAMS)
				return err_at(v->err, g->wd->pos.file, g->wd->pos.line,
					      "rd=%s: more than %d streams on sd=%s", rs->rd->name,
					      JOB_MAX_STREAMS, v->sds[sd].name);
			out[(*n)++] = (struct placed){ g, sp[k], k };
			*rshare += sp[k].weight * r;
			*wshare += sp[k].weight * (1 - r);
		}
	}
	return 0;
}

/* seekpct=eof over part of an SD: io_size ends the pass at the end of the range. */
static int put_eof_size(struct vdb *v, struct vdb_job *j, const struct placed *p, unsigned sd)
{
	const struct seg *s = &p->sp.seg;
	uint64_t b = vdb_sd_bytes(v, &v->sds[sd]);
	double len = s->bytes ? s->hi - s->lo : (double)b * (s->hi - s->lo) / 100;

	if (!s->bytes && !s->lo && s->hi == 100)
		return 0;
	if (!s->bytes && !b)
		return err_at(v->err, p->g->wd->seekpct_pos.file, p->g->wd->seekpct_pos.line,
			      "wd=%s: seekpct=eof over part of sd=%s needs its size (give size=)",
			      p->g->wd->name, v->sds[sd].name);
	return put(v, j, "io_size", &p->g->wd->seekpct_pos, "seekpct=eof: one pass over the range",
		   "%.0f", len);
}

/* Direct IO moves whole sectors: every transfer size of the SD's workloads a multiple of 512. */
static int check_direct(struct vdb *v, const struct vdb_runspec *rs, unsigned sd)
{
	const struct vdb_pos *fp;

	if (!(sd_flags(v, rs, sd, &fp) & VDB_OF_DIRECT))
		return 0;
	for (unsigned i = 0; i < rs->nwgs; i++) {
		const struct vdb_wd *wd = rs->wgs[i].wd;
		unsigned n;
		const double *x = vdb_xfer_of(rs, wd, &n);

		for (unsigned k = 0; rs->wgs[i].sd == sd && k < n; k += n == 1 || n == 3 ? 1 : 2)
			if (fmod(x[k], 512))
				return err_at(v->err, wd->xfer_pos.file ? wd->xfer_pos.file : wd->pos.file,
					      wd->xfer_pos.file ? wd->xfer_pos.line : wd->pos.line,
					      "wd=%s: a transfer of %.0f bytes on sd=%s, which has openflags=o_direct: direct IO moves multiples of 512 bytes",
					      wd->name, x[k], v->sds[sd].name);
	}
	return 0;
}

/* One SD's job in a run. */
int vdb_build_job(struct vdb *v, struct vdb_step *st, const struct vdb_runspec *rs, unsigned sd,
		  bool first)
{
	const struct vdb_rd *rd = rs->rd;
	struct vdb_job *j = vdb_push(v, (void **)&st->jobs, &st->njobs, sizeof(*j));
	struct placed *pl = vdb_alloc(v, JOB_MAX_STREAMS * sizeof(*pl));
	double rshare = 0, wshare = 0;
	unsigned n = 0;
	bool eof;
	int ret;

	if (!j || !pl)
		return vdb_nomem(v, &rd->pos);
	j->name = vdb_printf(v, "%s.%s", rd->name, v->sds[sd].name);
	j->pos = rd->pos;
	v->sds[sd].used = true;
	if (!j->name || job_ranks(v, st, rs, sd, j->name) || check_eof(v, rs, sd, &eof) ||
	    check_direct(v, rs, sd) || sd_specs(v, rs, sd, pl, &n, &rshare, &wshare))
		return -EINVAL;
	ret = job_head(v, j, rs, sd, wshare > 0, first);
	ret = ret ? ret : put_time(v, j, rs, eof);
	ret = ret ? ret : put_rate(v, j, rs, rshare, wshare);
	if (!ret && eof)
		ret = put_eof_size(v, j, &pl[0], sd);
	for (unsigned i = 0; !ret && i < n; i++) {
		unsigned slices = pl[i].g->wd->streams ? pl[i].g->wd->streams : 1;

		ret = put_stream(v, j, rs, pl[i].g, &pl[i].sp,
				 stream_name(v, pl[i].g, &pl[i].sp, pl[i].k % slices, slices));
	}
	return ret;
}
