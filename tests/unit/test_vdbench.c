// SPDX-License-Identifier: MIT
/* Unit tests of the vdbench module: its numbers, wildcards, ranges, shares and the loops it turns into sweeps and phases. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "vdbench/vdbench_int.h"

/* Reads, checks and translates text into v (release with vdb_release).  Returns 0 or -errno. */
static int load(struct vdb *v, struct vdbench_opts *o, struct iowl_err *err, const char *text)
{
	int ret;

	vdb_init(v, o, err);
	ret = vdb_read_text(v, "t.vdb", text, strlen(text));
	if (!ret)
		ret = vdb_check(v);
	return ret ? ret : vdb_translate(v);
}

/* The value of key in job j of step s, or NULL. */
static const char *entry(const struct vdb *v, unsigned s, unsigned j, const char *key)
{
	const struct vdb_job *job = &v->steps[s].jobs[j];

	for (unsigned i = 0; i < job->n; i++)
		if (!strcmp(job->e[i].key, key))
			return job->e[i].value;
	return NULL;
}

static void test_numbers(void **state)
{
	double x;

	(void)state;
	assert_int_equal(vdb_number("4k", false, &x), 0);
	assert_true(x == 4096);
	assert_int_equal(vdb_number("4KB", false, &x), 0);
	assert_true(x == 4096);
	assert_int_equal(vdb_number("500m", false, &x), 0);
	assert_true(x == 500.0 * 1024 * 1024);
	assert_int_equal(vdb_number("1.5", false, &x), 0);
	assert_true(x == 1.5);
	/* times: m is minutes, h hours, a bare number seconds */
	assert_int_equal(vdb_number("6H", true, &x), 0);
	assert_true(x == 21600);
	assert_int_equal(vdb_number("2m", true, &x), 0);
	assert_true(x == 120);
	assert_int_equal(vdb_number("30s", true, &x), -EINVAL);
	assert_int_equal(vdb_number("4k", true, &x), -EINVAL);
	assert_int_equal(vdb_number("0x10", false, &x), -EINVAL);
	assert_int_equal(vdb_number("XX", false, &x), -EINVAL);
	assert_int_equal(vdb_number("", false, &x), -EINVAL);
}

static void test_match(void **state)
{
	(void)state;
	assert_true(vdb_match("sd*", "sd12"));
	assert_true(vdb_match("*", "anything"));
	assert_true(vdb_match("s?1", "sd1"));
	assert_true(vdb_match("wd_*seq*", "wd_99rseq1"));
	assert_false(vdb_match("HOTwd*", "wd_hot1"));
	assert_false(vdb_match("sd1", "sd12"));
	assert_false(vdb_match("sd?", "sd"));
}

/* Skews: given ones kept, the rest shared out, a workload's split evenly over its SDs. */
static void test_shares(void **state)
{
	struct vdbench_opts o = { 0 };
	struct iowl_err err = { "" };
	struct vdb v;

	(void)state;
	assert_int_equal(load(&v, &o, &err,
			      "sd=a,lun=/nonexistent/a\nsd=b,lun=/nonexistent/b\n"
			      "wd=w1,sd=(a,b),skew=60\nwd=w2,sd=a\nwd=w3,sd=b\n"
			      "rd=r,wd=w*,iorate=1000,elapsed=2,interval=1\n"), 0);
	assert_int_equal(v.nsteps, 1);
	assert_int_equal(v.steps[0].njobs, 2);
	/* sd a: w1's 30 % and w2's 20 %, all reads: half the rate */
	assert_string_equal(entry(&v, 0, 0, "rate_iops"), "500,0");
	assert_string_equal(entry(&v, 0, 0, "weight"), "30");
	assert_string_equal(entry(&v, 0, 1, "filename"), "/nonexistent/b");
	vdb_release(&v);
}

/* Loops that set one option in every job are a sweep, ranges expanded; the others phases. */
static void test_loops(void **state)
{
	struct vdbench_opts o = { 0 };
	struct iowl_err err = { "" };
	struct vdb v;

	(void)state;
	assert_int_equal(load(&v, &o, &err,
			      "sd=a,lun=/nonexistent/a\nwd=w,sd=a\n"
			      "rd=r,wd=w,iorate=max,elapsed=2,interval=1,forxfersize=(4k-32k,d),th=(1-3,1)\n"),
			 0);
	assert_int_equal(v.nsteps, 1);
	assert_int_equal(v.steps[0].nsweeps, 2);
	assert_string_equal(v.steps[0].sweeps[0].key, "bs");
	assert_int_equal(v.steps[0].sweeps[0].nvalues, 4);
	assert_string_equal(v.steps[0].sweeps[0].values[3], "32768");
	assert_string_equal(v.steps[0].sweeps[1].key, "iodepth");
	assert_string_equal(v.steps[0].sweeps[1].values[2], "3");
	vdb_release(&v);

	/* a list of rates: one phase per rate, innermost, after the thread loop */
	assert_int_equal(load(&v, &o, &err,
			      "sd=a,lun=/nonexistent/a\nwd=w,sd=a\n"
			      "rd=r,wd=w,iorate=(100,200),elapsed=2,interval=1,forthreads=(1,2)\n"), 0);
	assert_int_equal(v.nsteps, 1);
	assert_int_equal(v.steps[0].nphases, 4);
	assert_string_equal(v.steps[0].phases[1].fortext, "threads=1 iorate=200");
	assert_string_equal(entry(&v, 0, 3, "iodepth"), "2");
	assert_string_equal(entry(&v, 0, 3, "stonewall"), "1");
	vdb_release(&v);
}

/* Name ranges and count= make SDs; $host repeats a definition per host. */
static void test_names(void **state)
{
	struct vdbench_opts o = { 0 };
	struct iowl_err err = { "" };
	struct vdb v;

	(void)state;
	assert_int_equal(load(&v, &o, &err,
			      "hd=h1,system=localhost\nhd=h2,system=localhost\n"
			      "sd=s_$host,lun=/nonexistent/#host\nsd=c,lun=/nonexistent/c*,count=(8,3)\n"
			      "wd=w,sd=(c8-c10)\nwd=x,sd=s_*\nrd=r,wd=*,iorate=max,elapsed=2,interval=1\n"), 0);
	assert_int_equal(v.nsds, 5);
	assert_string_equal(v.sds[1].name, "s_h2");
	assert_string_equal(v.sds[1].lun, "/nonexistent/1");
	assert_string_equal(v.sds[4].name, "c10");
	assert_string_equal(v.sds[4].lun, "/nonexistent/c10");
	assert_int_equal(v.steps[0].njobs, 5);
	vdb_release(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
