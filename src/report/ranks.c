// SPDX-License-Identifier: MIT
/* A run over MPI in the reports: every rank's own figures, the totals over the common window, the start spread. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "ranks.h"

#define JI(x) ((json_int_t)(x))

/* The largest spread of one phase's start over the ranks that answered, in ns. */
static uint64_t start_spread(const struct run_result *r)
{
	uint64_t worst = 0;
	unsigned np = r->nranks ? r->ranks[0].nstarts : 0;

	for (unsigned p = 0; p < np; p++) {
		uint64_t lo = UINT64_MAX, hi = 0;

		for (unsigned k = 0; k < r->nranks; k++) {
			uint64_t s = p < r->ranks[k].nstarts ? r->ranks[k].starts[p] : 0;

			if (!r->ranks[k].answered || !s)
				continue;
			lo = s < lo ? s : lo;
			hi = s > hi ? s : hi;
		}
		if (hi > lo && hi - lo > worst)
			worst = hi - lo;
	}
	return worst;
}

/* A rank's bytes per second over all directions: its bytes over its longest direction's time. */
static double rank_bw(const struct rank_result *x)
{
	uint64_t bytes = 0, ns = 0;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		bytes += x->bytes[d];
		ns = x->runtime_ns[d] > ns ? x->runtime_ns[d] : ns;
	}
	return ns ? (double)bytes * 1e9 / (double)ns : 0;
}

/* The slowest (slow) or fastest rank by bandwidth among those that did IO; -1: none. */
static int rank_extreme(const struct run_result *r, bool slow)
{
	int best = -1;

	for (unsigned k = 0; k < r->nranks; k++) {
		double bw = rank_bw(&r->ranks[k]);

		if (!r->ranks[k].answered || bw <= 0)
			continue;
		if (best < 0 ||
		    (slow ? bw < rank_bw(&r->ranks[best]) : bw > rank_bw(&r->ranks[best])))
			best = (int)k;
	}
	return best;
}

/* The window every rank's IO fell in, per direction: the longest rank's time. */
static uint64_t window_ns(const struct run_result *r, unsigned d)
{
	uint64_t w = 0;

	for (unsigned k = 0; k < r->nranks; k++)
		w = r->ranks[k].runtime_ns[d] > w ? r->ranks[k].runtime_ns[d] : w;
	return w;
}

static json_t *dir_json(uint64_t ios, uint64_t bytes, uint64_t ns)
{
	return json_pack("{s:I, s:I, s:I, s:f, s:I}", "total_ios", JI(ios), "io_bytes", JI(bytes),
			 "bw_bytes", JI(fmt_per_sec(bytes, ns)), "iops",
			 ns ? (double)ios * 1e9 / (double)ns : 0.0, "runtime",
			 JI(fmt_runtime_ms(ns)));
}

json_t *report_ranks_json(const struct run_result *r)
{
	json_t *a = json_array(), *c, *tot = json_object();

	for (unsigned k = 0; a && k < r->nranks; k++) {
		const struct rank_result *x = &r->ranks[k];
		json_t *starts = json_array(), *o;

		for (unsigned p = 0; starts && p < x->nstarts; p++)
			json_array_append_new(starts, json_integer(JI(x->starts[p])));
		o = json_pack("{s:I, s:s, s:b, s:i, s:s, s:I, s:o}", "rank", JI(x->rank), "host",
			      x->host, "answered", x->answered, "status", x->status, "error",
			      x->why, "start_ns", JI(x->nstarts ? x->starts[0] : 0), "starts_ns",
			      starts);
		for (unsigned d = 0; o && d < DDIR_NR; d++)
			json_object_set_new(o, ddir_name(d),
					    dir_json(x->ios[d], x->bytes[d], x->runtime_ns[d]));
		if (o && x->iostat)
			json_object_set(o, "iostat", x->iostat);
		json_array_append_new(a, o);
	}
	for (unsigned d = 0; tot && d < DDIR_NR; d++) {
		uint64_t ios = 0, bytes = 0;

		for (unsigned k = 0; k < r->nranks; k++) {
			ios += r->ranks[k].ios[d];
			bytes += r->ranks[k].bytes[d];
		}
		json_object_set_new(tot, ddir_name(d), dir_json(ios, bytes, window_ns(r, d)));
	}
	c = json_pack("{s:I, s:s, s:I, s:i, s:i, s:o, s:o}", "size", JI(r->nranks), "mpi",
		      r->mpi ? r->mpi : "", "start_spread_ns", JI(start_spread(r)), "slowest_rank",
		      rank_extreme(r, true), "fastest_rank", rank_extreme(r, false), "total", tot,
		      "ranks", a);
	return c;
}

/*
 * --iostat over MPI: each host's devices as its rank saw them, averaged over the run's intervals
 * (each interval weighted by its length).
 */
static void iostat_per_host(FILE *f, const struct run_result *r)
{
	static const char *const cols[] = { "r/s", "w/s", "rkB/s", "wkB/s", "aqu-sz", "%util" };
	bool head = false;

	for (unsigned k = 0; k < r->nranks; k++) {
		const struct rank_result *x = &r->ranks[k];
		json_t *first = json_array_get(x->iostat, 0), *dev;
		size_t i;

		json_array_foreach(json_object_get(first, "devices"), i, dev)
		{
			const char *name = json_string_value(json_object_get(dev, "name"));
			double sum[6] = { 0 }, secs = 0;
			json_t *ivl;
			size_t j;

			json_array_foreach(x->iostat, j, ivl)
			{
				json_t *d;
				size_t m;

				json_array_foreach(json_object_get(ivl, "devices"), m, d)
				{
					const char *dn =
						json_string_value(json_object_get(d, "name"));
					double t = json_real_value(json_object_get(d, "seconds"));

					if (!name || !dn || strcmp(name, dn))
						continue;
					for (unsigned c = 0; c < 6; c++)
						sum[c] += t * json_number_value(
								      json_object_get(d, cols[c]));
					secs += t;
				}
			}
			if (!head) {
				fprintf(f, "  devices per host (--iostat, over the run):\n");
				fprintf(f, "  %4s  %-20s %-10s %9s %9s %10s %10s %7s %6s\n", "rank",
					"host", "device", "r/s", "w/s", "rkB/s", "wkB/s", "aqu-sz",
					"%util");
				head = true;
			}
			for (unsigned c = 0; c < 6; c++)
				sum[c] = secs > 0 ? sum[c] / secs : 0;
			fprintf(f,
				"  %4u  %-20.20s %-10.10s %9.1f %9.1f %10.1f %10.1f %7.2f %6.1f\n",
				x->rank, x->host, name ? name : "?", sum[0], sum[1], sum[2], sum[3],
				sum[4], sum[5]);
		}
	}
}

void report_ranks_text(FILE *f, const struct run_result *r)
{
	char b[4][FMT_NUM_LEN];
	int slow = rank_extreme(r, true), fast = rank_extreme(r, false);

	if (!r->nranks)
		return;
	fprintf(f, "\nRanks: %u (%s), phases started within %.3f ms of each other\n", r->nranks,
		r->mpi && r->mpi[0] ? r->mpi : "MPI", (double)start_spread(r) / 1e6);
	fprintf(f, "  %4s  %-20s %10s %11s %10s %11s %9s  %s\n", "rank", "host", "read IOPS",
		"read BW", "write IOPS", "write BW", "runtime", "status");
	for (unsigned k = 0; k < r->nranks; k++) {
		const struct rank_result *x = &r->ranks[k];
		uint64_t rt =
			x->runtime_ns[0] > x->runtime_ns[1] ? x->runtime_ns[0] : x->runtime_ns[1];

		if (!x->answered) {
			fprintf(f, "  %4u  %-20s %s\n", x->rank, x->host[0] ? x->host : "?",
				x->why);
			continue;
		}
		fprintf(f, "  %4u  %-20.20s %10s %11s %10s %11s %7.2fs  %d%s%s\n", x->rank, x->host,
			fmt_num(b[0], sizeof(b[0]), fmt_per_sec(x->ios[0], x->runtime_ns[0]), 4,
				false, FMT_UNIT_NONE),
			fmt_num(b[1], sizeof(b[1]), fmt_per_sec(x->bytes[0], x->runtime_ns[0]), 4,
				true, FMT_UNIT_BYTE_SEC),
			fmt_num(b[2], sizeof(b[2]), fmt_per_sec(x->ios[1], x->runtime_ns[1]), 4,
				false, FMT_UNIT_NONE),
			fmt_num(b[3], sizeof(b[3]), fmt_per_sec(x->bytes[1], x->runtime_ns[1]), 4,
				true, FMT_UNIT_BYTE_SEC),
			(double)rt / 1e9, x->status, x->why[0] ? " " : "", x->why);
	}
	for (unsigned d = 0; d < 2; d++) {
		uint64_t ios = 0, bytes = 0, w = window_ns(r, d);

		for (unsigned k = 0; k < r->nranks; k++) {
			ios += r->ranks[k].ios[d];
			bytes += r->ranks[k].bytes[d];
		}
		if (ios)
			fprintf(f,
				"  all ranks, %s: IOPS=%s, BW=%s over the common window of %.2fs\n",
				ddir_name(d),
				fmt_num(b[0], sizeof(b[0]), fmt_per_sec(ios, w), 4, false,
					FMT_UNIT_NONE),
				fmt_num(b[1], sizeof(b[1]), fmt_per_sec(bytes, w), 4, true,
					FMT_UNIT_BYTE_SEC),
				(double)w / 1e9);
	}
	if (slow >= 0 && fast >= 0)
		fprintf(f, "  slowest: rank %d (%s), fastest: rank %d (%s)\n", slow,
			fmt_num(b[0], sizeof(b[0]), (uint64_t)rank_bw(&r->ranks[slow]), 4, true,
				FMT_UNIT_BYTE_SEC),
			fast,
			fmt_num(b[1], sizeof(b[1]), (uint64_t)rank_bw(&r->ranks[fast]), 4, true,
				FMT_UNIT_BYTE_SEC));
	iostat_per_host(f, r);
}
