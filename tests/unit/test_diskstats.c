// SPDX-License-Identifier: MIT
/* Unit tests for device statistics: sysfs resolution, diskstats parsing, iostat and fio maths. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "iowl/diagnose.h"
#include "iowl/diskstats.h"

/*
 * The fake trees, laid out as sysstat's tests/root*:
 *  sysroot1: sys/ (devices below) and proc/diskstats, sample A;
 *  sysroot2: proc/diskstats, sample B (two seconds after A), sys -> ../sysroot1/sys;
 *  sysroot3: proc/diskstats with only loop0, its counters wrapped, sys -> ../sysroot1/sys.
 * A test reads A, sets the set's root to the next tree and reads again, as sysstat's tests
 * re-point their "root" link between runs.
 *
 * Devices: sda 8:0 (partitions sda1 8:1, sda2 8:2), sdb 8:16 (sdb1 8:17), sdc 8:32, sdd 8:48,
 * md0 9:0 = raid1(sdc, sdd), dm-0 253:0 over sda2 and sdb1, dm-1 253:1 over md0, loop0 7:0.
 * In proc/diskstats sdc has 11 counters and sdd 15 (the other lines 17): a real kernel prints
 * one format for all, the mix is there to test the parser.
 */
#define NS_A 1000000000ULL /* sample A at t = 1 s */
#define NS_B 3000000000ULL /* sample B at t = 3 s: a two-second interval */
#define TOL  1e-9

#define assert_close(got, want) check_close((got), (want), __LINE__)

static void check_close(double got, double want, int line)
{
	if (!(fabs(got - want) <= TOL))
		fail_msg("line %d: got %.15g, want %.15g", line, got, want);
}

/* tests/data/sysrootN, found from this file's path (the tests run from the top directory). */
static const char *data_root(int n)
{
	static char buf[PATH_MAX];
	const char *f = __FILE__, *p = strstr(f, "unit/test_diskstats.c");

	assert_non_null(p);
	snprintf(buf, sizeof(buf), "%.*sdata/sysroot%d", (int)(p - f), f, n);
	return buf;
}

static void set_init(struct disk_set *s, int n)
{
	assert_int_equal(disk_set_init(s, data_root(n)), 0);
}

static void set_root(struct disk_set *s, int n)
{
	snprintf(s->root, sizeof(s->root), "%s", data_root(n));
}

static int add(struct disk_set *s, unsigned major, unsigned minor)
{
	struct iowl_err err = {""};
	int idx = -2;

	if (disk_set_add_devno(s, major, minor, &idx, &err))
		fail_msg("%u:%u: %s", major, minor, err.text);
	return idx;
}

static const struct disk_dev *dev_named(const struct disk_set *s, const char *name)
{
	for (unsigned i = 0; i < s->n; i++)
		if (!strcmp(s->devs[i].name, name))
			return &s->devs[i];
	fail_msg("no device '%s' in the set", name);
	return NULL;
}

static void sample(struct disk_set *s, int root, uint64_t ns)
{
	struct iowl_err err = {""};

	set_root(s, root);
	if (disk_set_sample(s, ns, &err))
		fail_msg("%s", err.text);
}

static void test_init_root(void **state)
{
	struct disk_set s;
	char longroot[PATH_MAX + 2];

	assert_int_equal(disk_set_init(&s, "/some/root//"), 0);
	assert_string_equal(s.root, "/some/root");
	assert_int_equal(disk_set_init(&s, "/"), 0);
	assert_string_equal(s.root, "");
	setenv(DISK_SYSROOT_ENV, "/fake/tree", 1);
	assert_int_equal(disk_set_init(&s, NULL), 0);
	assert_string_equal(s.root, "/fake/tree");
	assert_int_equal(disk_set_init(&s, ""), 0); /* an explicit root wins */
	assert_string_equal(s.root, "");
	unsetenv(DISK_SYSROOT_ENV);
	assert_int_equal(disk_set_init(&s, NULL), 0);
	assert_string_equal(s.root, "");
	memset(longroot, 'x', sizeof(longroot) - 1);
	longroot[sizeof(longroot) - 1] = '\0';
	assert_int_equal(disk_set_init(&s, longroot), -ENAMETOOLONG);
}

static void test_resolve_disk(void **state)
{
	struct disk_set s;
	const struct disk_dev *d;

	set_init(&s, 1);
	assert_int_equal(add(&s, 8, 0), 0);
	assert_int_equal(s.n, 1);
	d = &s.devs[0];
	assert_string_equal(d->name, "sda");
	assert_int_equal(d->kind, DISK_KIND_DISK);
	assert_string_equal(disk_kind_name(d->kind), "disk");
	assert_string_equal(d->disk, "sda");
	assert_int_equal(d->disk_major, 8);
	assert_int_equal(d->disk_minor, 0);
	assert_true(d->is_target);
	assert_int_equal(d->nmembers, 0);
	assert_int_equal(d->lim.max_sectors_kb, 1280);
	assert_int_equal(d->lim.max_hw_sectors_kb, 32767);
	assert_int_equal(d->lim.logical_block_size, 512);
	assert_int_equal(d->lim.nr_requests, 64);
	assert_int_equal(d->lim.max_segments, 128);
	assert_int_equal(d->lim.max_segment_size, 65536);
	assert_int_equal(d->lim.rotational, 1);
	assert_string_equal(d->lim.scheduler, "mq-deadline");
	disk_set_release(&s);
}

static void test_resolve_partition(void **state)
{
	struct disk_set s;
	const struct disk_dev *d;

	/* Default: the partition itself (the device the IO goes to), limits of its disk. */
	set_init(&s, 1);
	assert_int_equal(add(&s, 8, 1), 0);
	assert_int_equal(s.n, 1);
	d = &s.devs[0];
	assert_string_equal(d->name, "sda1");
	assert_int_equal(d->kind, DISK_KIND_PART);
	assert_string_equal(d->disk, "sda");
	assert_int_equal(d->disk_major, 8);
	assert_int_equal(d->disk_minor, 0);
	assert_int_equal(d->lim.max_sectors_kb, 1280);
	assert_string_equal(d->lim.scheduler, "mq-deadline");
	disk_set_release(&s);

	/* fio's choice: the whole disk. */
	set_init(&s, 1);
	s.part_as_disk = true;
	assert_int_equal(add(&s, 8, 1), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.devs[0].name, "sda");
	assert_int_equal(s.devs[0].kind, DISK_KIND_DISK);
	assert_true(s.devs[0].is_target);
	disk_set_release(&s);
}

static void test_resolve_dm(void **state)
{
	struct disk_set s;
	const struct disk_dev *d;

	set_init(&s, 1);
	assert_int_equal(add(&s, 253, 0), 0);
	assert_int_equal(s.n, 3);
	d = &s.devs[0];
	assert_string_equal(d->name, "dm-0");
	assert_int_equal(d->kind, DISK_KIND_DM);
	assert_int_equal(d->nmembers, 2);
	assert_string_equal(s.devs[d->members[0]].name, "sda2");
	assert_string_equal(s.devs[d->members[1]].name, "sdb1");
	assert_false(s.devs[d->members[0]].is_target);
	assert_int_equal(s.devs[d->members[0]].kind, DISK_KIND_PART);
	assert_string_equal(s.devs[d->members[1]].disk, "sdb");
	assert_int_equal(s.devs[d->members[1]].lim.logical_block_size, 4096);
	assert_string_equal(s.devs[d->members[1]].lim.scheduler, "none");
	/* dm-0 has its own queue; nr_requests is missing from the fake tree: unknown. */
	assert_int_equal(d->lim.max_hw_sectors_kb, 2147483647);
	assert_int_equal(d->lim.nr_requests, 0);
	assert_int_equal(d->lim.rotational, 0);
	assert_string_equal(d->lim.scheduler, "none");
	disk_set_release(&s);

	/* As fio: partition members become their disks. */
	set_init(&s, 1);
	s.part_as_disk = true;
	assert_int_equal(add(&s, 253, 0), 0);
	d = &s.devs[0];
	assert_int_equal(d->nmembers, 2);
	assert_string_equal(s.devs[d->members[0]].name, "sda");
	assert_string_equal(s.devs[d->members[1]].name, "sdb");
	disk_set_release(&s);
}

static void test_resolve_nested(void **state)
{
	struct disk_set s;
	const struct disk_dev *dm1, *md0, *sdc;

	set_init(&s, 1);
	assert_int_equal(add(&s, 253, 1), 0);
	assert_int_equal(s.n, 4);
	dm1 = dev_named(&s, "dm-1");
	md0 = dev_named(&s, "md0");
	sdc = dev_named(&s, "sdc");
	assert_int_equal(dm1->nmembers, 1);
	assert_ptr_equal(&s.devs[dm1->members[0]], md0);
	assert_int_equal(md0->kind, DISK_KIND_MD);
	assert_int_equal(md0->nmembers, 2);
	assert_ptr_equal(&s.devs[md0->members[0]], sdc);
	assert_string_equal(s.devs[md0->members[1]].name, "sdd");
	assert_true(dm1->is_target);
	assert_false(md0->is_target);
	/* No queue directory in the fake tree: every limit unknown. */
	assert_int_equal(sdc->lim.max_sectors_kb, 0);
	assert_int_equal(sdc->lim.logical_block_size, 0);
	assert_int_equal(sdc->lim.rotational, -1);
	assert_string_equal(sdc->lim.scheduler, "");
	disk_set_release(&s);
}

static void test_resolve_loop(void **state)
{
	struct disk_set s;

	set_init(&s, 1);
	assert_int_equal(add(&s, 7, 0), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.devs[0].name, "loop0");
	assert_int_equal(s.devs[0].kind, DISK_KIND_LOOP);
	assert_int_equal(s.devs[0].nmembers, 0);
	assert_string_equal(s.devs[0].lim.scheduler, "none");
	disk_set_release(&s);
}

static void test_dedup(void **state)
{
	struct disk_set s;
	int dm0, sda2;

	set_init(&s, 1);
	dm0 = add(&s, 253, 0);
	assert_int_equal(s.n, 3);
	sda2 = add(&s, 8, 2); /* a target on a member: the same entry, now a target too */
	assert_string_equal(s.devs[sda2].name, "sda2");
	assert_true(s.devs[sda2].is_target);
	assert_int_equal(s.n, 3);
	assert_int_equal(add(&s, 253, 0), dm0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.devs[dm0].nmembers, 2);
	add(&s, 8, 0);
	assert_int_equal(s.n, 4);
	disk_set_release(&s);
}

static void test_no_device(void **state)
{
	struct disk_set s;
	struct iowl_err err = {""};
	int idx = 5;

	set_init(&s, 1);
	assert_int_equal(add(&s, 8, 99), -1); /* sysfs does not know it */
	assert_int_equal(add(&s, 0, 42), -1); /* tmpfs, overlay, procfs: anonymous */
	assert_int_equal(s.n, 0);
	disk_set_release(&s);

	/* No sysfs at all (a container without /sys): no device either. */
	assert_int_equal(disk_set_init(&s, "/nonexistent-iowl-root"), 0);
	assert_int_equal(disk_set_add_devno(&s, 8, 0, &idx, &err), 0);
	assert_int_equal(idx, -1);
	assert_int_equal(disk_set_sample(&s, NS_A, &err), -ENOENT);
	assert_non_null(strstr(err.text, "/nonexistent-iowl-root/proc/diskstats"));
	disk_set_release(&s);
}

static void add_all(struct disk_set *s)
{
	static const unsigned devnos[][2] = {
		{8, 0}, {8, 1}, {253, 0}, {253, 1}, {7, 0},
	};

	for (unsigned i = 0; i < sizeof(devnos) / sizeof(devnos[0]); i++)
		assert_true(add(s, devnos[i][0], devnos[i][1]) >= 0);
}

static void test_sample_parse(void **state)
{
	struct disk_set s;
	const struct disk_dev *sda;

	set_init(&s, 1);
	add_all(&s);
	sample(&s, 1, NS_A);
	sda = dev_named(&s, "sda");
	assert_int_equal(sda->last.nfields, 17);
	assert_int_equal(sda->last.ns, NS_A);
	assert_int_equal(sda->last.f[DISK_RD_IOS], 1000);
	assert_int_equal(sda->last.f[DISK_FL_TICKS], 100);
	assert_memory_equal(&sda->first, &sda->last, sizeof(sda->last));
	assert_memory_equal(&sda->prev, &sda->last, sizeof(sda->last));
	assert_int_equal(dev_named(&s, "sdc")->last.nfields, 11);
	assert_int_equal(dev_named(&s, "sdd")->last.nfields, 15);
	assert_int_equal(dev_named(&s, "loop0")->last.f[DISK_WR_SECTORS], 8589934592ULL);
	sample(&s, 2, NS_B);
	assert_int_equal(s.nsamples, 2);
	assert_int_equal(sda->first.f[DISK_RD_IOS], 1000);
	assert_int_equal(sda->prev.f[DISK_RD_IOS], 1000);
	assert_int_equal(sda->last.f[DISK_RD_IOS], 1400);
	assert_int_equal(sda->last.f[DISK_IN_FLIGHT], 3);
	sample(&s, 1, NS_B + NS_A);
	assert_int_equal(sda->first.f[DISK_RD_IOS], 1000);
	assert_int_equal(sda->prev.f[DISK_RD_IOS], 1400);
	assert_int_equal(sda->last.ns, NS_B + NS_A);
	disk_set_release(&s);
}

/*
 * sda from A to B over t = 2 s (fields 1..17):
 *   A: 1000 100  80000 5000 2000  400 160000  9000 0 12000 20000 10 0 20480 30 50 100
 *   B: 1400 200 105600 5600 3000 3400 224000 11500 3 13500 24200 15 1 30720 50 90 160
 *   Δ:  400 100  25600  600 1000 3000  64000  2500 - 1500  4200  5 1 10240 20 40  60
 * reads:    r/s = 400/2 = 200        rkB/s = 25600/2/2 = 6400     rrqm/s = 100/2 = 50
 *           %rrqm = 100·100/(100+400) = 20   r_await = 600/400 = 1.5
 *           rareq-sz = 25600/400/2 = 32
 * writes:   w/s = 1000/2 = 500       wkB/s = 64000/2/2 = 16000    wrqm/s = 3000/2 = 1500
 *           %wrqm = 100·3000/(3000+1000) = 75   w_await = 2500/1000 = 2.5
 *           wareq-sz = 64000/1000/2 = 32
 * discards: d/s = 5/2 = 2.5          dkB/s = 10240/2/2 = 2560     drqm/s = 1/2 = 0.5
 *           %drqm = 100·1/(1+5) = 16.666…   d_await = 20/5 = 4   dareq-sz = 10240/5/2 = 1024
 * flushes:  f/s = 40/2 = 20          f_await = 60/40 = 1.5
 * all:      await = (600+2500+20)/(400+1000+5) = 3120/1405 = 2.22064056939…
 *           areq-sz = (25600+64000+10240)/1405/2 = 99840/2810 = 35.5302491103…
 *           aqu-sz = 4200/(1000·2) = 2.1     %util = 100·1500/(1000·2) = 75
 */
static void test_iostat(void **state)
{
	struct disk_set s;
	const struct disk_dev *sda;
	struct disk_iostat x, y;

	set_init(&s, 1);
	add_all(&s);
	sample(&s, 1, NS_A);
	sample(&s, 2, NS_B);
	sda = dev_named(&s, "sda");
	disk_calc_iostat(&sda->prev, &sda->last, &x);
	assert_int_equal(x.nfields, 17);
	assert_close(x.secs, 2);
	assert_close(x.rd.ios_s, 200);
	assert_close(x.rd.kb_s, 6400);
	assert_close(x.rd.rqm_s, 50);
	assert_close(x.rd.rqm_pct, 20);
	assert_close(x.rd.await, 1.5);
	assert_close(x.rd.areq_sz, 32);
	assert_close(x.wr.ios_s, 500);
	assert_close(x.wr.kb_s, 16000);
	assert_close(x.wr.rqm_s, 1500);
	assert_close(x.wr.rqm_pct, 75);
	assert_close(x.wr.await, 2.5);
	assert_close(x.wr.areq_sz, 32);
	assert_close(x.dc.ios_s, 2.5);
	assert_close(x.dc.kb_s, 2560);
	assert_close(x.dc.rqm_s, 0.5);
	assert_close(x.dc.rqm_pct, 100.0 / 6);
	assert_close(x.dc.await, 4);
	assert_close(x.dc.areq_sz, 1024);
	assert_close(x.f_s, 20);
	assert_close(x.f_await, 1.5);
	assert_close(x.await, 3120.0 / 1405);
	assert_close(x.areq_sz, 99840.0 / 2810);
	assert_close(x.aqu_sz, 2.1);
	assert_close(x.util, 75);
	/* After two samples the run and the interval are the same span. */
	disk_calc_iostat(&sda->first, &sda->last, &y);
	assert_memory_equal(&x, &y, sizeof(x));
	/* sdd has 15 counters: discards but no flushes; sdc 11: neither. */
	disk_calc_iostat(&dev_named(&s, "sdd")->prev, &dev_named(&s, "sdd")->last, &x);
	assert_int_equal(x.nfields, 15);
	disk_calc_iostat(&dev_named(&s, "sdc")->prev, &dev_named(&s, "sdc")->last, &x);
	assert_int_equal(x.nfields, 11);
	disk_set_release(&s);
}

/*
 * fio's figures for sda over the same interval: the deltas above, and
 * util = 100·Δio_ticks/Δms = 100·1500/2000 = 75.
 */
static void test_fio_util(void **state)
{
	struct disk_set s;
	const struct disk_dev *sda;
	struct disk_util u;

	set_init(&s, 1);
	add_all(&s);
	sample(&s, 1, NS_A);
	sample(&s, 2, NS_B);
	sda = dev_named(&s, "sda");
	disk_calc_util(&sda->first, &sda->last, &u);
	assert_int_equal(u.read_ios, 400);
	assert_int_equal(u.write_ios, 1000);
	assert_int_equal(u.read_merges, 100);
	assert_int_equal(u.write_merges, 3000);
	assert_int_equal(u.read_sectors, 25600);
	assert_int_equal(u.write_sectors, 64000);
	assert_int_equal(u.read_ticks, 600);
	assert_int_equal(u.write_ticks, 2500);
	assert_int_equal(u.io_ticks, 1500);
	assert_int_equal(u.in_queue, 4200);
	assert_close(u.msec, 2000);
	assert_close(u.util, 75);
	disk_set_release(&s);
}

/*
 * dm-0's aggr_* over its members sda2 and sdb1 (A -> B, 2 s):
 *   sda2 Δ: r 60 ios, 2 merges, 480 sectors, 30 ticks; w 40, 4, 320, 40; io_ticks 600; in_queue 90
 *   sdb1 Δ: r 41 ios, 3 merges, 328 sectors, 21 ticks; w 31, 5, 248, 33; io_ticks 1000; in_queue 61
 * averages with integer division, as fio: read_ios 101/2 = 50, write_ios 71/2 = 35,
 * read_merges 5/2 = 2, write_merges 9/2 = 4, read_sectors 808/2 = 404, write_sectors 568/2 = 284,
 * read_ticks 51/2 = 25, write_ticks 73/2 = 36, in_queue 151/2 = 75;
 * utils 100·600/2000 = 30 and 100·1000/2000 = 50: aggr_util = 50.
 */
static void test_aggr(void **state)
{
	struct disk_set s;
	struct disk_aggr ag;
	int dm0;

	set_init(&s, 1);
	add_all(&s);
	sample(&s, 1, NS_A);
	sample(&s, 2, NS_B);
	dm0 = add(&s, 253, 0);
	assert_true(disk_set_aggr(&s, (unsigned)dm0, DISK_SPAN_INTERVAL, &ag));
	assert_int_equal(ag.nmembers, 2);
	assert_int_equal(ag.read_ios, 50);
	assert_int_equal(ag.write_ios, 35);
	assert_int_equal(ag.read_merges, 2);
	assert_int_equal(ag.write_merges, 4);
	assert_int_equal(ag.read_sectors, 404);
	assert_int_equal(ag.write_sectors, 284);
	assert_int_equal(ag.read_ticks, 25);
	assert_int_equal(ag.write_ticks, 36);
	assert_int_equal(ag.in_queue, 75);
	assert_close(ag.max_util, 50);
	assert_false(disk_set_aggr(&s, (unsigned)add(&s, 7, 0), DISK_SPAN_RUN, &ag));
	assert_int_equal(ag.nmembers, 0);
	disk_set_release(&s);
}

/* An interval with no IO: every rate, await, size and util is 0, no division by zero. */
static void test_no_io(void **state)
{
	struct disk_set s;
	struct disk_iostat x, zero;
	struct disk_util u;
	const struct disk_dev *d;

	memset(&zero, 0, sizeof(zero));
	set_init(&s, 1);
	add_all(&s);
	sample(&s, 1, NS_A);
	sample(&s, 1, NS_B); /* the same counters two seconds later */
	d = dev_named(&s, "sda");
	disk_calc_iostat(&d->prev, &d->last, &x);
	assert_int_equal(x.nfields, 17);
	assert_close(x.secs, 2);
	x.nfields = 0;
	x.secs = 0;
	assert_memory_equal(&x, &zero, sizeof(x));
	disk_calc_util(&d->prev, &d->last, &u);
	assert_int_equal(u.read_ios + u.write_ios + u.io_ticks + u.in_queue, 0);
	assert_close(u.util, 0);
	/* The same sample twice: a zero interval. */
	disk_calc_iostat(&d->last, &d->last, &x);
	assert_close(x.secs, 0);
	assert_close(x.util, 0);
	disk_calc_util(&d->last, &d->last, &u);
	assert_close(u.util, 0);
	disk_set_release(&s);
}

/*
 * loop0 from A (sysroot1) to C (sysroot3), 2 s, 32-bit counters wrapping:
 *   rd_ticks      4294967000 ->  704: Δ = 2^32 - 4294967000 + 704 = 296 + 704 = 1000
 *   io_ticks      4294967200 ->  800: Δ = 96 + 800 = 896
 *   time_in_queue 4294960000 -> 2704: Δ = 7296 + 2704 = 10000
 *   rd_ios 28283 -> 28383: Δ 100; rd_sectors 226264 -> 227064: Δ 800
 *   wr_sectors    2^33       -> 4096: above 32 bits, so a reset: Δ = 4096
 * r/s = 50, rkB/s = 800/2/2 = 200, r_await = 1000/100 = 10, rareq-sz = 800/100/2 = 4,
 * wkB/s = 4096/2/2 = 1024, w_await = 0 (no writes completed), aqu-sz = 10000/2000 = 5,
 * %util = 100·896/2000 = 44.8.  sda is absent from C: no figures.
 */
static void test_wrap(void **state)
{
	struct disk_set s;
	struct disk_iostat x;
	struct disk_util u;
	const struct disk_dev *d;

	set_init(&s, 1);
	add_all(&s);
	sample(&s, 1, NS_A);
	sample(&s, 3, NS_B);
	d = dev_named(&s, "loop0");
	disk_calc_iostat(&d->prev, &d->last, &x);
	assert_close(x.rd.ios_s, 50);
	assert_close(x.rd.kb_s, 200);
	assert_close(x.rd.await, 10);
	assert_close(x.rd.areq_sz, 4);
	assert_close(x.wr.ios_s, 0);
	assert_close(x.wr.kb_s, 1024);
	assert_close(x.wr.await, 0);
	assert_close(x.wr.areq_sz, 0);
	assert_close(x.aqu_sz, 5);
	assert_close(x.util, 44.8);
	disk_calc_util(&d->prev, &d->last, &u);
	assert_int_equal(u.read_ticks, 1000);
	assert_int_equal(u.io_ticks, 896);
	assert_int_equal(u.in_queue, 10000);
	assert_int_equal(u.write_sectors, 4096);
	assert_int_equal(u.write_ticks, 0);
	d = dev_named(&s, "sda");
	assert_int_equal(d->last.nfields, 0);
	disk_calc_iostat(&d->prev, &d->last, &x);
	assert_int_equal(x.nfields, 0);
	assert_close(x.rd.ios_s, 0);
	disk_set_release(&s);
}

/*
 * io_ticks growing faster than the wall clock (jiffy rounding on an idle-then-busy device):
 * Δio_ticks = 2100 over 2 s.  sysstat prints what the kernel counted, %util = 105; fio caps its
 * util at 100.
 */
static void test_util_cap(void **state)
{
	struct disk_sample a = {.ns = NS_A, .nfields = 11}, b = {.ns = NS_B, .nfields = 11};
	struct disk_iostat x;
	struct disk_util u;

	a.f[DISK_IO_TICKS] = 1000;
	b.f[DISK_IO_TICKS] = 3100;
	disk_calc_iostat(&a, &b, &x);
	assert_close(x.util, 105);
	disk_calc_util(&a, &b, &u);
	assert_int_equal(u.io_ticks, 2100);
	assert_close(u.util, 100);
}

/* The real system: the device of this test binary's filesystem and one real sample. */
static void test_real_system(void **state)
{
	struct disk_set s;
	struct iowl_err err = {""};
	struct stat st;
	int idx, again, none;

	if (stat("/proc/self/exe", &st) || !major(st.st_dev) || access("/proc/diskstats", R_OK)) {
		skip(); /* on tmpfs, overlay or btrfs, or no /proc: nothing to resolve */
		return;
	}
	assert_int_equal(disk_set_init(&s, ""), 0);
	if (disk_set_add_target(&s, "/proc/self/exe", &idx, &err))
		fail_msg("%s", err.text);
	if (idx < 0) {
		disk_set_release(&s);
		skip(); /* no sysfs entry for it (no /sys in this container) */
		return;
	}
	assert_true(s.devs[idx].is_target);
	assert_true(s.devs[idx].name[0] != '\0');
	/* A file not laid out yet resolves through its directory. */
	assert_int_equal(disk_set_add_target(&s, "/proc/self/cwd/iowl-not-there", &again, &err), 0);
	assert_true(again >= -1);
	/* procfs has no block device: no device, no error. */
	assert_int_equal(disk_set_add_target(&s, "/proc/self/stat", &none, &err), 0);
	assert_int_equal(none, -1);
	assert_int_equal(disk_set_add_target(&s, "/dev/null", &none, &err), 0);
	assert_int_equal(none, -1);
	assert_int_equal(disk_set_add_target(&s, "/nonexistent-iowl/dir/file", &none, &err),
			 -ENOENT);
	assert_non_null(strstr(err.text, "/nonexistent-iowl/dir/file"));
	if (disk_set_sample(&s, 1, &err))
		fail_msg("%s", err.text);
	assert_true(s.devs[idx].last.nfields >= DISK_NF_BASE);
	assert_true(s.devs[idx].last.nfields <= DISK_NFIELDS);
	disk_set_release(&s);
}

/* The split diagnostic names the limit the device's requests show, read from the (fake) sysfs. */
static void test_split_limit(void **state)
{
	struct disk_set s;
	char buf[128];

	(void)state;
	set_init(&s, 1);
	assert_int_equal(add(&s, 8, 0), 0);
	/* sda: max_sectors_kb 1280, max_segments 128, max_segment_size 65536 */
	diag_split_limit(buf, sizeof(buf), &s.devs[0].lim, 1280 * 1024);
	assert_string_equal(buf, "max_sectors_kb=1280");
	diag_split_limit(buf, sizeof(buf), &s.devs[0].lim, 512 * 1024);
	assert_string_equal(buf, "max_segments=128: 128 pages of 4096 bytes");
	diag_split_limit(buf, sizeof(buf), &s.devs[0].lim, 100 * 1024);
	assert_string_equal(buf, "max_sectors_kb=1280, max_segments=128");
	s.devs[0].lim.max_segment_size = 2048;
	diag_split_limit(buf, sizeof(buf), &s.devs[0].lim, 256 * 1024);
	assert_string_equal(buf, "max_segments=128: 128 pages of 2048 bytes");
	disk_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_root),
		cmocka_unit_test(test_resolve_disk),
		cmocka_unit_test(test_resolve_partition),
		cmocka_unit_test(test_resolve_dm),
		cmocka_unit_test(test_resolve_nested),
		cmocka_unit_test(test_resolve_loop),
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_no_device),
		cmocka_unit_test(test_sample_parse),
		cmocka_unit_test(test_iostat),
		cmocka_unit_test(test_fio_util),
		cmocka_unit_test(test_aggr),
		cmocka_unit_test(test_no_io),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_util_cap),
		cmocka_unit_test(test_real_system),
		cmocka_unit_test(test_split_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
