// SPDX-License-Identifier: MIT
/*
 * vdbench's checks of a whole parameter file, once every parameter is read: local hosts only,
 * count= expanded, every SD with a lun Linux has (or mapped), every reference resolved, skews
 * adding up to 100, and elapsed, interval and warmup as vdbench wants them.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "iowl/cluster.h"
#include "vdbench/vdbench_int.h"

bool vdb_match(const char *p, const char *s)
{
	const char *star = NULL, *mark = s;

	/* One pass, going back only to the last '*': no blow-up on patterns of many stars. */
	while (*s) {
		if (*p == '*') {
			star = p++;
			mark = s;
		} else if (*p && (*p == '?' || *p == *s)) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++mark;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

/* Windows (\\.\PHYSICALDRIVE1, e:\dir\file) and Solaris (/dev/rdsk/c0t0d0s2) names. */
static const char *foreign_lun(const char *l)
{
	if (!strncmp(l, "\\\\", 2) || strchr(l, '\\') ||
	    (isalpha((unsigned char)l[0]) && l[1] == ':'))
		return "Windows";
	if (!strncmp(l, "/dev/rdsk/", 10) || !strncmp(l, "/dev/dsk/", 9) ||
	    !strncmp(l, "/dev/md/", 8) || !strncmp(l, "/dev/zvol/", 10))
		return "Solaris";
	return NULL;
}

const char *vdb_lun_path(const struct vdb *v, const struct vdb_sd *sd)
{
	for (unsigned i = 0; i < v->opts->nluns; i++)
		if (!strcmp(v->opts->luns[i].key, sd->lun))
			return v->opts->luns[i].value;
	return sd->lun;
}

uint64_t vdb_sd_bytes(const struct vdb *v, const struct vdb_sd *sd)
{
	struct stat st;
	uint64_t n = 0;
	int fd;

	if (sd->size)
		return sd->size;
	/* Only a block device is opened for its size: opening a character device can act. */
	if (stat(vdb_lun_path(v, sd), &st))
		return 0;
	if (S_ISREG(st.st_mode)) {
		n = (uint64_t)st.st_size;
	} else if (S_ISBLK(st.st_mode)) {
		fd = open(vdb_lun_path(v, sd), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &n))
			n = 0;
		if (fd >= 0)
			close(fd);
	}
	return n > sd->offset ? n - sd->offset : 0;
}

static bool loopback(const char *s)
{
	return !strcmp(s, "localhost") || !strcmp(s, "127.0.0.1") || !strcmp(s, "::1") ||
	       !strcmp(s, "localhost.localdomain");
}

/* s names host me: the name, or its first label (vdbench's system= takes either). */
static bool names_host(const char *s, const char *me)
{
	size_t n = strcspn(me, ".");

	return !strcmp(s, me) || (strlen(s) == n && !strncmp(s, me, n));
}

static bool local_name(const char *s)
{
	char me[256] = "";

	if (loopback(s))
		return true;
	if (gethostname(me, sizeof(me) - 1))
		return false;
	return names_host(s, me);
}

/*
 * Under MPI, vdbench's hosts are the ranks, one hd= each as vdbench runs one slave per host:
 * first every hd= whose system= (else its label) names a rank's host goes to the lowest such
 * rank not yet taken (localhost: rank 0's, vdbench's master), then the others go to the ranks
 * left, in order (hd number i to rank i when none matched by name).
 */
static int map_hosts(struct vdb *v)
{
	unsigned n = cluster_size();
	int *hd_rank = vdb_alloc(v, v->nhosts * sizeof(*hd_rank));

	if (!hd_rank || !(v->rank_hd = vdb_alloc(v, n * sizeof(*v->rank_hd))))
		return vdb_nomem(v, NULL);
	if (v->nhosts != n)
		return err_at(v->err, v->hosts[0].pos.file, v->hosts[0].pos.line,
			      "%u hd= host definitions, but %u MPI ranks: start one rank per host definition (mpirun -np %u), as vdbench starts one slave per host",
			      v->nhosts, n, v->nhosts);
	for (unsigned r = 0; r < n; r++)
		v->rank_hd[r] = UINT32_MAX;
	for (unsigned i = 0; i < v->nhosts; i++) {
		const struct vdb_host *h = &v->hosts[i];
		const char *sys = h->system ? h->system : h->name;

		hd_rank[i] = -1;
		for (unsigned r = 0; r < n && hd_rank[i] < 0; r++) {
			if (v->rank_hd[r] != UINT32_MAX ||
			    !(loopback(sys) ? !r : names_host(sys, cluster_host_of(r))))
				continue;
			hd_rank[i] = (int)r;
			v->rank_hd[r] = i;
		}
	}
	for (unsigned i = 0, r = 0; i < v->nhosts; i++) {
		if (hd_rank[i] >= 0)
			continue;
		while (v->rank_hd[r] != UINT32_MAX)
			r++;
		v->rank_hd[r] = i;
	}
	return 0;
}

static int check_hosts(struct vdb *v)
{
	if (cluster_size() > 1 && v->nhosts)
		return map_hosts(v);
	for (unsigned i = 0; i < v->nhosts; i++) {
		const struct vdb_host *h = &v->hosts[i];
		const char *sys = h->system ? h->system : h->name;

		if (!local_name(sys))
			return err_at(v->err, h->pos.file, h->pos.line,
				      "hd=%s%s%s: '%s' is not this machine: run the file with iowl-mpi under mpirun, one rank per hd= (mpirun -np N iowl-mpi --vdbench FILE), or use hd=localhost",
				      h->name, h->system ? ",system=" : "",
				      h->system ? h->system : "", sys);
	}
	return 0;
}

/* count=(start,n) becomes n SDs: the name and the lun with the number appended (or put for '*'). */
static int expand_counts(struct vdb *v)
{
	for (unsigned i = 0; i < v->nsds; i++) {
		struct vdb_sd sd = v->sds[i];

		if (!sd.count_n)
			continue;
		if (!sd.lun)
			break;
		memmove(&v->sds[i], &v->sds[i + 1], (v->nsds - i - 1) * sizeof(sd));
		v->nsds--;
		for (unsigned k = 0; k < sd.count_n; k++) {
			struct vdb_sd *c = vdb_push(v, (void **)&v->sds, &v->nsds, sizeof(*c));
			unsigned num = sd.count_start + k;
			const char *star = strchr(sd.lun, '*');

			if (!c)
				return vdb_nomem(v, &sd.count_pos);
			*c = sd;
			c->count_n = 0;
			c->name = vdb_printf(v, "%s%u", sd.name, num);
			c->lun = star ? vdb_printf(v, "%.*s%u%s", (int)(star - sd.lun), sd.lun, num,
						   star + 1) :
				 vdb_printf(v, "%s%u", sd.lun, num);
			if (!c->name || !c->lun)
				return vdb_nomem(v, &sd.count_pos);
			for (unsigned o = 0; o + 1 < v->nsds; o++)
				if (!strcmp(v->sds[o].name, c->name))
					return err_at(v->err, sd.count_pos.file, sd.count_pos.line,
						      "count=: sd=%s is defined twice", c->name);
		}
		i--;
	}
	return 0;
}

static int check_sds(struct vdb *v)
{
	int ret = expand_counts(v);

	for (unsigned i = 0; !ret && i < v->nsds; i++) {
		const struct vdb_sd *sd = &v->sds[i];
		const char *kind;

		if (!sd->lun)
			return err_at(v->err, sd->pos.file, sd->pos.line,
				      "sd=%s has no lun= (the device or file to use)", sd->name);
		kind = foreign_lun(vdb_lun_path(v, sd));
		if (kind)
			return err_at(v->err, sd->lun_pos.file, sd->lun_pos.line,
				      "lun=%s: a %s device or file name, which Linux does not have: map it to a Linux path with --vdbench-lun '%s=/dev/sdX' (or a file)",
				      sd->lun, kind, sd->lun);
		if (sd->range.set && sd->range.hi > 200 && sd->size && sd->range.hi > (double)sd->size)
			return err_at(v->err, sd->range.pos.file, sd->range.pos.line,
				      "sd=%s,range=: the end is beyond size=%llu", sd->name,
				      (unsigned long long)sd->size);
	}
	return ret;
}

/* The SDs of a pattern list, in definition order per pattern. */
static int match_sds(struct vdb *v, char **pats, unsigned npats, const struct vdb_pos *pos,
		     const char *who, unsigned *out, unsigned *n)
{
	*n = 0;
	for (unsigned p = 0; p < npats; p++) {
		unsigned found = 0;

		for (unsigned i = 0; i < v->nsds; i++) {
			if (!vdb_match(pats[p], v->sds[i].name))
				continue;
			for (unsigned k = 0; k < *n; k++)
				if (out[k] == i)
					return err_at(v->err, pos->file, pos->line,
						      "%s: sd=%s is named more than once (vdbench refuses an SD twice in one workload)",
						      who, v->sds[i].name);
			if (*n == VDB_MAX_LIST)
				return err_at(v->err, pos->file, pos->line, "%s: too many SDs", who);
			out[(*n)++] = i;
			found++;
		}
		if (!found)
			return err_at(v->err, pos->file, pos->line,
				      "%s: sd=%s names no SD defined in the file%s", who, pats[p],
				      v->nsds ? "" : " (there is no sd= at all)");
	}
	return 0;
}

static int check_wds(struct vdb *v)
{
	unsigned *idx = vdb_alloc(v, VDB_MAX_LIST * sizeof(*idx)), n;

	if (!idx)
		return vdb_nomem(v, NULL);
	for (unsigned i = 0; i < v->nwds; i++) {
		const struct vdb_wd *wd = &v->wds[i];
		char who[160];

		snprintf(who, sizeof(who), "wd=%s", wd->name);
		if (!wd->nsds)
			return err_at(v->err, wd->pos.file, wd->pos.line,
				      "wd=%s has no sd= (the storage it runs on)", wd->name);
		if (match_sds(v, wd->sds, wd->nsds, &wd->sds_pos, who, idx, &n))
			return -EINVAL;
	}
	return 0;
}

static int check_times(struct vdb *v, const struct vdb_rd *rd)
{
	const struct vdb_pos *p = rd->elapsed_pos.file ? &rd->elapsed_pos : &rd->pos;

	if (rd->elapsed < 2 * rd->interval)
		return err_at(v->err, p->file, p->line,
			      "rd=%s: elapsed=%g must be at least twice interval=%g (vdbench)", rd->name,
			      rd->elapsed, rd->interval);
	if (fmod(rd->elapsed, rd->interval))
		return err_at(v->err, p->file, p->line,
			      "rd=%s: elapsed=%g must be a multiple of interval=%g (vdbench)", rd->name,
			      rd->elapsed, rd->interval);
	p = rd->warmup_pos.file ? &rd->warmup_pos : &rd->pos;
	if (fmod(rd->warmup, rd->interval))
		return err_at(v->err, p->file, p->line,
			      "rd=%s: warmup=%g must be a multiple of interval=%g (vdbench)", rd->name,
			      rd->warmup, rd->interval);
	if (rd->warmup >= rd->elapsed)
		return err_at(v->err, p->file, p->line,
			      "rd=%s: warmup=%g leaves nothing of elapsed=%g to measure", rd->name,
			      rd->warmup, rd->elapsed);
	return 0;
}

/* The skews of the rd's workloads: those given, the rest shared out; they must make 100. */
static int check_skew(struct vdb *v, const struct vdb_rd *rd)
{
	double total = 0;
	unsigned unskewed = 0;

	for (unsigned i = 0; i < v->nwds; i++) {
		bool used = false;

		for (unsigned p = 0; p < rd->nwds && !used; p++)
			used = vdb_match(rd->wds[p], v->wds[i].name);
		if (!used)
			continue;
		total += v->wds[i].skew;
		unskewed += !v->wds[i].skew;
	}
	if ((unskewed && total < 100 - 1e-4) || (!unskewed && fabs(total - 100) <= 1e-4))
		return 0;
	if (unskewed && total < 100 + 1e-4)
		return err_at(v->err, rd->wds_pos.file, rd->wds_pos.line,
			      "rd=%s: the skews add up to 100 and leave nothing for the %u workload%s without skew=",
			      rd->name, unskewed, unskewed > 1 ? "s" : "");
	return err_at(v->err, rd->wds_pos.file, rd->wds_pos.line,
		      "rd=%s: the skews of its workloads add up to %g%s, not 100 (vdbench)", rd->name,
		      total, unskewed ? " before the workloads without skew= get a share" : "");
}

static int check_rd(struct vdb *v, struct vdb_rd *rd)
{
	if (!rd->nwds)
		return err_at(v->err, rd->pos.file, rd->pos.line,
			      "rd=%s has no wd= (the workloads to run)", rd->name);
	for (unsigned p = 0; p < rd->nwds; p++) {
		unsigned found = 0;
		char list[512] = "";
		size_t len = 0;

		for (unsigned i = 0; i < v->nwds; i++) {
			found += vdb_match(rd->wds[p], v->wds[i].name);
			if (len < sizeof(list) - 64)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
							i ? ", " : "", v->wds[i].name);
		}
		if (!found)
			return err_at(v->err, rd->wds_pos.file, rd->wds_pos.line,
				      "rd=%s: wd=%s names no workload defined in the file (%s%s)",
				      rd->name, rd->wds[p], v->nwds ? "the workloads are " : "there is no wd=",
				      list);
	}
	if (rd->iorate == VDB_IO_UNSET)
		return err_at(v->err, rd->pos.file, rd->pos.line,
			      "rd=%s has no iorate= (vdbench needs iorate=max, iorate=curve or a rate)",
			      rd->name);
	/* A list of rates (iorate=(a,b)) is the innermost loop, after every for-loop, and
	 * replaces a foriorate= (vdbench adds it last, when the file is read). */
	for (unsigned i = 0; i < rd->nloops; i++) {
		if (rd->loops[i].var != VDB_L_COUNT)
			continue;
		struct vdb_loop l = rd->loops[i];

		l.var = VDB_L_IORATE;
		for (unsigned k = 0; k < rd->nloops;) {
			if (rd->loops[k].var == VDB_L_IORATE || rd->loops[k].var == VDB_L_COUNT) {
				memmove(&rd->loops[k], &rd->loops[k + 1],
					(rd->nloops - k - 1) * sizeof(l));
				rd->nloops--;
			} else {
				k++;
			}
		}
		rd->loops[rd->nloops++] = l;
		break;
	}
	for (unsigned i = 0; i < rd->nloops; i++)
		if (rd->loops[i].var == VDB_L_IORATE && rd->iorate == VDB_IO_CURVE)
			return err_at(v->err, rd->loops[i].pos.file, rd->loops[i].pos.line,
				      "rd=%s: iorate=curve finds its own rates: foriorate= contradicts it",
				      rd->name);
	if (rd->ncurve && rd->iorate != VDB_IO_CURVE)
		return err_at(v->err, rd->curve_pos.file, rd->curve_pos.line,
			      "rd=%s: curve= gives the points of iorate=curve, which this rd does not use",
			      rd->name);
	if (rd->nsds) {
		unsigned *idx = vdb_alloc(v, VDB_MAX_LIST * sizeof(*idx)), n;
		char who[160];

		snprintf(who, sizeof(who), "rd=%s", rd->name);
		if (!idx)
			return vdb_nomem(v, NULL);
		if (match_sds(v, rd->sds, rd->nsds, &rd->sds_pos, who, idx, &n))
			return -EINVAL;
	}
	if (check_times(v, rd))
		return -EINVAL;
	return check_skew(v, rd);
}

int vdb_check(struct vdb *v)
{
	int ret = check_hosts(v);

	if (!ret)
		ret = check_sds(v);
	if (!ret)
		ret = check_wds(v);
	if (!ret && !v->nrds)
		ret = err_at(v->err, v->file, 0,
			     "no rd= in the file: vdbench needs at least one run definition (rd=NAME,wd=...,iorate=...)");
	for (unsigned i = 0; !ret && i < v->nrds; i++)
		ret = check_rd(v, &v->rds[i]);
	return ret;
}
