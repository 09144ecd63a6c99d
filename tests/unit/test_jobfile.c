// SPDX-License-Identifier: MIT
/* Tests of the option table and of building jobs from job-file text: globals, --set, groups, validation messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/ini.h"
#include "iowl/jobfile.h"
#include "iowl/options.h"

struct built {
	struct ini_doc doc;
	struct job *jobs;
	unsigned njobs;
	struct iowl_err err;
	int ret;
};

static void build(struct built *b, const char *text, const struct job_set *sets, unsigned nsets)
{
	struct jobfile_input in = { .doc = &b->doc, .sets = sets, .nsets = nsets };

	memset(b, 0, sizeof(*b));
	ini_doc_init(&b->doc);
	b->ret = ini_parse_buffer(&b->doc, "t.ini", text, strlen(text), &b->err);
	if (!b->ret)
		b->ret = jobfile_build(&in, &b->jobs, &b->njobs, &b->err);
}

static void done(struct built *b)
{
	if (!b->ret)
		jobfile_free(b->jobs, b->njobs);
	ini_doc_release(&b->doc);
}

static void expect_error(const char *text, const char *msg)
{
	struct built b;

	build(&b, text, NULL, 0);
	if (!b.ret || !strstr(b.err.text, msg))
		fail_msg("job file:\n%s\nexpected an error containing \"%s\", got %d \"%s\"", text,
			 msg, b.ret, b.ret ? b.err.text : "");
	done(&b);
}

static void test_table_defaults(void **state)
{
	unsigned n;
	const struct opt_def *tab = opt_table(&n);
	struct job_opts o;

	assert_true(n > 60);
	assert_int_equal(opt_set_defaults(&o), 0);
	assert_int_equal(o.bs[0], 4096);
	assert_int_equal(o.bs[2], 4096);
	assert_int_equal(o.iodepth, 1);
	assert_int_equal(o.rwmixread, 50);
	assert_int_equal(o.rw, RW_F_READ);
	assert_string_equal(o.ioengine, "psync");
	assert_int_equal(o.randseed, 0x89);
	assert_true(o.randrepeat);
	assert_true(o.clat_percentiles);
	assert_int_equal(o.npercentiles, 17);
	assert_int_equal(o.kb_base, 1024);
	assert_int_equal(o.sqthread_poll_cpu, -1);
	opt_release(&o);
	/* Names and aliases are unique, and every row has help text or is an unsupported fio name. */
	for (unsigned i = 0; i < n; i++) {
		assert_ptr_equal(opt_find(tab[i].name), &tab[i]);
		if (tab[i].alias)
			assert_ptr_equal(opt_find(tab[i].alias), &tab[i]);
		assert_true(tab[i].type == OPT_UNSUPPORTED || (tab[i].help && tab[i].help[0]));
	}
}

static void test_globals_and_sets(void **state)
{
	static char key[] = "iodepth", value[] = "8";
	const struct job_set sets[] = { { key, value } };
	struct built b;

	build(&b,
	      "[global]\nbs=8k\nsize=1m\nioengine=null\n"
	      "[a]\nrw=randread\niodepth=2\n"
	      "[global]\nrw=write\n"
	      "[b]\nbs=16k,32k\n[c]\nnew_group\n[d]\nstonewall\n",
	      sets, 1);
	assert_int_equal(b.ret, 0);
	assert_int_equal(b.njobs, 4);
	assert_string_equal(b.jobs[0].o.name, "a");
	assert_int_equal(b.jobs[0].o.bs[0], 8192);
	assert_int_equal(b.jobs[0].o.rw, RW_F_READ | RW_F_RANDOM);
	/* --set wins over the section, as if written last. */
	assert_int_equal(b.jobs[0].o.iodepth, 8);
	/* The second [global] applies only to jobs after it. */
	assert_int_equal(b.jobs[1].o.rw, RW_F_WRITE);
	assert_int_equal(b.jobs[1].o.bs[0], 16384);
	assert_int_equal(b.jobs[1].o.bs[1], 32768);
	assert_int_equal(b.jobs[1].o.bs[2], 32768);
	/* Groups and phases. */
	assert_int_equal(b.jobs[0].group, 0);
	assert_int_equal(b.jobs[1].group, 0);
	assert_int_equal(b.jobs[2].group, 1);
	assert_int_equal(b.jobs[2].phase, 0);
	assert_int_equal(b.jobs[3].group, 2);
	assert_int_equal(b.jobs[3].phase, 1);
	/* "job options" keeps the section's own entries only. */
	assert_int_equal(b.jobs[0].nkv, 2);
	assert_string_equal(b.jobs[0].kv[0].key, "rw");
	done(&b);
}

static void test_kb_base_first(void **state)
{
	struct built b;

	/* kb_base applies before sizes whatever the order of the lines. */
	build(&b, "[a]\nioengine=null\nsize=1m\nbs=4k\nkb_base=1000\n", NULL, 0);
	assert_int_equal(b.ret, 0);
	assert_int_equal(b.jobs[0].o.bs[0], 4000);
	assert_int_equal(b.jobs[0].o.size.bytes, 1000000);
	done(&b);
}

static void test_derived(void **state)
{
	struct built b;

	build(&b, "[a]\nioengine=libaio\nsize=1m\nrw=randrw\nbssplit=4k/30:8k/30:64k/40,16k\n"
		  "iodepth=32\niodepth_batch_submit=0\n", NULL, 0);
	assert_int_equal(b.ret, 0);
	assert_int_equal(b.jobs[0].min_bs[0], 4096);
	assert_int_equal(b.jobs[0].max_bs[0], 65536);
	assert_int_equal(b.jobs[0].min_bs[1], 16384);
	assert_int_equal(b.jobs[0].o.iodepth_batch_submit, 32);
	assert_int_equal(b.jobs[0].o.iodepth_low, 32);
	assert_int_equal(b.jobs[0].o.iodepth_batch_complete_max, 1);
	done(&b);
	build(&b, "[a]\nioengine=null\nsize=1m\nrw=randread:8\n[b]\nioengine=null\nsize=1m\nrw=write:4k\n",
	      NULL, 0);
	if (b.ret)
		fail_msg("%s", b.err.text);
	assert_int_equal(b.jobs[0].o.rw_nr, 8);
	assert_int_equal(b.jobs[1].o.rw_nr, 4096);
	done(&b);
}

static void test_errors(void **state)
{
	expect_error("[a]\niodepht=1\n", "t.ini:2: unknown option 'iodepht' (did you mean 'iodepth'?)");
	expect_error("[a]\nbs=4q\n", "t.ini:2: bs=4q:");
	expect_error("[a]\nruntime=5x\n", "t.ini:2: runtime=5x:");
	expect_error("[a]\nrwmixread=150\n", "t.ini:2: rwmixread=150:");
	expect_error("[a]\nbs=0\n", "t.ini:2: bs=0:");
	expect_error("[a]\nrw=randreed\n", "t.ini:2: rw=randreed:");
	expect_error("[a]\nthinkcycles=1000\n",
		     "t.ini:2: 'thinkcycles' is not a fio 3.33 option (a later fio added it); iowl follows fio 3.33");
	expect_error("[a]\nsize=1m\ntime_based\n", "t.ini:3: time_based needs a runtime");
	expect_error("[a]\nioengine=psync\nfixedbufs\n",
		     "t.ini:3: 'fixedbufs' is an option of ioengine io_uring, but this job uses ioengine psync");
	expect_error("[a]\nioengine=nosuch\n", "t.ini:2: ioengine=nosuch:");
	expect_error("[a]\nbssplit=4k/50:8k/40\n", "t.ini:2: bssplit=4k/50:8k/40:");
	expect_error("[a]\nzero_buffers\nbuffer_compress_percentage=50\n", "contradict");
	expect_error("[a]\nioengine=io_uring\nhipri\n", "hipri (polled completions) needs direct=1");
	expect_error("[global]\nbs=4q\n", "t.ini:2: bs=4q:");
	expect_error("[global]\nsize=1m\n", "no jobs defined");
	expect_error("[a]\ndirect=maybe\n", "t.ini:2: direct=maybe:");
	expect_error("[a]\nstartdelay=x\n", "t.ini:2: startdelay=x:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_defaults),
		cmocka_unit_test(test_globals_and_sets),
		cmocka_unit_test(test_kb_base_first),
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
