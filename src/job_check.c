// SPDX-License-Identifier: MIT
/* The cross-option checks of one job (job_validate()): depths, engine, files, rates, statistics, thinktime, verification and buffers; everything that can be wrong is found before any IO. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/clock.h"
#include "iowl/dirfiles.h"
#include "iowl/engine.h"
#include "iowl/job.h"
#include "iowl/options.h"

#include "job_int.h"

void job_check_depths(struct job *job)
{
	struct job_opts *o = &job->o;

	if (!o->iodepth_batch_submit)
		o->iodepth_batch_submit = o->iodepth;
	/* As fio: the batches and the low mark are capped by the depth, never refused. */
	if (o->iodepth_batch_submit > o->iodepth) {
		job_warn(job, OPT_ID_iodepth_batch_submit,
			 "above iodepth=%u: batches of %u are submitted (as fio)", o->iodepth,
			 o->iodepth);
		o->iodepth_batch_submit = o->iodepth;
	}
	if (o->iodepth_batch_complete_min > o->iodepth) {
		job_warn(job, OPT_ID_iodepth_batch_complete_min,
			 "above iodepth=%u: at most %u completions are waited for (as fio)",
			 o->iodepth, o->iodepth);
		o->iodepth_batch_complete_min = o->iodepth;
	}
	/* 0 (the default) is iodepth_batch_complete_min, as in fio (at least 1). */
	if (o->iodepth_batch_complete_max &&
	    o->iodepth_batch_complete_max < o->iodepth_batch_complete_min) {
		job_warn(job, OPT_ID_iodepth_batch_complete_max,
			 "below iodepth_batch_complete_min=%u: raised to it (as fio)",
			 o->iodepth_batch_complete_min);
		o->iodepth_batch_complete_max = o->iodepth_batch_complete_min;
	}
	if (!o->iodepth_batch_complete_max)
		o->iodepth_batch_complete_max =
			o->iodepth_batch_complete_min ? o->iodepth_batch_complete_min : 1;
	if (o->iodepth_batch_complete_max > o->iodepth)
		o->iodepth_batch_complete_max = o->iodepth;
	if (o->iodepth_low > o->iodepth)
		job_warn(job, OPT_ID_iodepth_low,
			 "above iodepth=%u: the low mark is the depth (as fio)", o->iodepth);
	if (!o->iodepth_low || o->iodepth_low > o->iodepth)
		o->iodepth_low = o->iodepth;
}

/* Whether word is one of the '|'-separated words of list. */
static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == '|') && (p[n] == '|' || !p[n]))
			return true;
	return false;
}

int job_check_engine(struct job *job, struct iowl_err *err)
{
	struct job_opts *o = &job->o;
	const struct engine_ops *ops = engine_find(o->ioengine);
	unsigned n;
	const struct opt_def *tab = opt_table(&n);

	if (!ops)
		return JOB_ERR(job, OPT_ID_ioengine, err, "ioengine '%s' is not built in",
			       o->ioengine);
	job->engine = ops;
	for (unsigned i = 0; i < n; i++) {
		if (!tab[i].engine || !job->pos[i].file || word_in(tab[i].engine, o->ioengine))
			continue;
		return err_at(err, job->pos[i].file, job->pos[i].line,
			      "'%s' is an option of ioengine %s, but this job uses ioengine %s",
			      tab[i].name, tab[i].engine, o->ioengine);
	}
	if (o->sqthread_poll)
		o->registerfiles = true;
	if (o->atomic) /* fio 3.33 on Linux: O_DIRECT and an O_ATOMIC bit the kernel ignores */
		o->direct = true;
	if (job_opt_is_set(job, OPT_ID_cmdprio_bssplit) &&
	    job_opt_is_set(job, OPT_ID_cmdprio_percentage))
		return JOB_ERR(job, OPT_ID_cmdprio_bssplit, err,
			       "cmdprio_bssplit and cmdprio_percentage both say which IOs get a priority: use one of them (as fio)");
	if (job_opt_is_set(job, OPT_ID_sqthread_poll_cpu) && !o->sqthread_poll)
		job_warn(job, OPT_ID_sqthread_poll_cpu,
			 "is ignored without sqthread_poll=1 (as fio)");
	if (o->hipri && !o->direct && !strcmp(o->ioengine, "io_uring"))
		return JOB_ERR(job, OPT_ID_hipri, err,
			       "hipri (polled completions) needs direct=1: buffered IO cannot be polled (fio runs it and every IO fails with EOPNOTSUPP)");
	if (o->uncached && o->direct)
		iowl_warn("job '%s': uncached acts on buffered IO only: with direct=1 it changes nothing",
			  o->name);
	if ((ops->flags & ENGINE_F_SYNC) && o->iodepth > 1)
		iowl_warn("job '%s': ioengine %s is synchronous: iodepth=%u acts as 1", o->name,
			  o->ioengine, o->iodepth);
	return 0;
}

/* unlink_each_loop makes empty files for the loops after the first: only writing fits that. */
static int check_unlink_each_loop(const struct job *job, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;

	if (!o->unlink_each_loop || o->loops < 2 || o->time_based)
		return 0;
	if (job_does_dir(job, 0))
		return JOB_ERR(job, OPT_ID_unlink_each_loop, err,
			       "unlink_each_loop gives every loop after the first a new, empty file: this job reads, so its second loop would have nothing to read (fio fails it with ENOENT); use it with a job that only writes");
	if (o->registerfiles)
		return JOB_ERR(job, OPT_ID_unlink_each_loop, err,
			       "unlink_each_loop opens a new file every loop, but io_uring's registered files (registerfiles, sqthread_poll) keep the first one: drop one of them");
	return 0;
}

/* fio's file options that change others: pre_read turns invalidate off (fio's fixup). */
static int check_files_fio(struct job *job, struct iowl_err *err)
{
	struct job_opts *o = &job->o;

	if (o->pre_read)
		o->invalidate = false;
	if (o->zonemode == ZONEMODE_NONE && o->zonesize)
		return JOB_ERR(job, OPT_ID_zonesize, err,
			       "zonesize needs zonemode=strided (fio refuses zonemode=none with zonesize too)");
	if (o->zonemode == ZONEMODE_STRIDED && !o->zonesize)
		return JOB_ERR(job, OPT_ID_zonemode, err,
			       "zonemode=strided needs zonesize (the bytes of IO in each zone, e.g. zonesize=256m)");
	if (o->zonemode == ZONEMODE_NONE && (o->zonerange || o->zoneskip))
		job_warn(job, o->zonerange ? OPT_ID_zonerange : OPT_ID_zoneskip,
			 "only means something with zonemode=strided: ignored (as fio)");
	if (o->zonemode != ZONEMODE_ZBD && o->zonecapacity)
		job_warn(job, OPT_ID_zonecapacity,
			 "only means something with zonemode=zbd: ignored (as fio)");
	if (o->zonemode == ZONEMODE_STRIDED && !o->zonerange)
		o->zonerange = o->zonesize; /* fio's default */
	for (unsigned d = 0; d < DDIR_NR && o->bs_unaligned && o->direct; d++)
		if (o->bsrange[d].hi)
			return JOB_ERR(job, OPT_ID_bs_unaligned, err,
				       "bs_unaligned gives sizes of any byte count, which direct=1 cannot issue (fio's IOs fail with EINVAL): use direct=0, or drop bs_unaligned");
	for (unsigned d = 0; d < DDIR_NR && o->bs_unaligned && o->verify; d++)
		if (o->bsrange[d].hi)
			return JOB_ERR(job, OPT_ID_bs_unaligned, err,
				       "bs_unaligned gives sizes of any byte count, which split iowl's verify units (verify_interval bytes, each written whole): drop one of them");
	return 0;
}

/* opendir=: the regular files below it join filename='s, as fio adds them. */
static int add_dir_files(struct job *job, struct iowl_err *err)
{
	struct job_opts *o = &job->o;
	char why[VAL_WHY_LEN];
	unsigned before = job->nfilenames;
	int r = dirfiles_add(o->opendir, &job->filenames, &job->nfilenames, why);

	if (r)
		return JOB_ERR(job, OPT_ID_opendir, err, "opendir=%s: %s", o->opendir, why);
	if (job->nfilenames == before)
		return JOB_ERR(job, OPT_ID_opendir, err,
			       "opendir=%s: no regular file below it (fio's opendir takes the files in it and its subdirectories; symbolic links are left out)",
			       o->opendir);
	if (!o->filename && job_opt_is_set(job, OPT_ID_nrfiles) && o->nrfiles != job->nfilenames)
		job_warn(job, OPT_ID_nrfiles,
			 "opendir= finds %u files: the job uses them all, nrfiles is ignored (fio 3.33 takes the first nrfiles of them when nrfiles comes after opendir, all of them when before)",
			 job->nfilenames);
	o->nrfiles = job->nfilenames;
	return 0;
}

int job_check_files(struct job *job, struct iowl_err *err)
{
	struct job_opts *o = &job->o;
	char why[VAL_WHY_LEN] = "";

	if (o->filename) {
		unsigned n = 0;

		job->filenames = val_split_names(o->filename, why);
		if (!job->filenames)
			return JOB_ERR(job, OPT_ID_filename, err, "filename=%s: %s%s", o->filename,
				       why[0] ? why : "out of memory",
				       why[0] ? " (an unset ${VAR} expands to nothing)" : "");
		while (job->filenames[n])
			n++;
		job->nfilenames = n;
		if (job_opt_is_set(job, OPT_ID_nrfiles) && o->nrfiles != n)
			job_warn(job, OPT_ID_nrfiles,
				 "filename= names %u file%s: the job uses %s, nrfiles is ignored (as fio)",
				 n, n == 1 ? "" : "s", n == 1 ? "it" : "them all");
		o->nrfiles = n;
	}
	if (o->opendir && add_dir_files(job, err))
		return -EINVAL;
	if (job_opt_is_set(job, OPT_ID_filesize) && o->filesize.lo == 0)
		return JOB_ERR(job, OPT_ID_filesize, err, "filesize of 0 (use a size, e.g. 1g)");
	if (o->write_iolog && !*o->write_iolog)
		return job_opt_err(job, OPT_ID_write_iolog, err,
				   "empty value (give a file name, e.g. write_iolog=iolog.txt)");
	if (o->directory && !*o->directory)
		return job_opt_err(job, OPT_ID_directory, err,
				   "empty value (use names separated by ':', with '\\:' for a colon inside a name) (an unset ${VAR} expands to nothing)");
	return check_unlink_each_loop(job, err) ? -EINVAL : check_files_fio(job, err);
}

int job_check_misc(struct job *job, struct iowl_err *err)
{
	struct job_opts *o = &job->o;

	for (unsigned d = 0; d < DDIR_NR; d++)
		if (o->rate[d] && o->rate_iops[d])
			return JOB_ERR(job, OPT_ID_rate_iops, err,
				       "rate and rate_iops both limit %s (they are mutually exclusive, as in fio; keep one)",
				       d == 0 ? "reads" :
				       d == 1 ? "writes" :
						"trims");
	if (o->worker_ramp && o->numjobs < 2)
		return JOB_ERR(job, OPT_ID_worker_ramp, err,
			       "worker_ramp adds clones one at a time: it needs numjobs=2 or more");
	if (o->worker_ramp && o->ramp_time)
		return JOB_ERR(job, OPT_ID_worker_ramp, err,
			       "worker_ramp and ramp_time contradict each other (the ramp's first step is its warm-up; keep one)");
	if (o->worker_ramp && o->runtime && o->runtime <= o->worker_ramp * (o->numjobs - 1))
		return JOB_ERR(job, OPT_ID_worker_ramp, err,
			       "runtime ends before the last of %u clones starts (it needs more than %u x worker_ramp)",
			       o->numjobs, o->numjobs - 1);
	if (o->ss_dur &&
	    (!o->ss_interval || o->ss_dur % o->ss_interval || o->ss_dur / o->ss_interval < 2))
		return JOB_ERR(job, OPT_ID_ss_dur, err,
			       "ss_dur must be a whole number of ss_interval, at least two (ss_interval=%llums; e.g. ss_dur=%llus)",
			       (unsigned long long)(o->ss_interval / 1000000),
			       (unsigned long long)(o->ss_interval ?
							    2 * o->ss_interval / NSEC_PER_SEC :
							    2));
	if (o->ss_dur && o->ss_dur / (o->ss_interval ? o->ss_interval : 1) > STEADY_MAX_SAMPLES)
		return JOB_ERR(job, OPT_ID_ss_dur, err,
			       "ss_dur holds more than %u samples of ss_interval (lengthen ss_interval)",
			       STEADY_MAX_SAMPLES);
	if (o->write_hist_log && !o->log_hist_msec)
		return JOB_ERR(job, OPT_ID_write_hist_log, err,
			       "write_hist_log needs log_hist_msec (how often to write a line, e.g. log_hist_msec=1000)");
	if (o->write_hist_log && o->log_store_compressed)
		return JOB_ERR(job, OPT_ID_log_store_compressed, err,
			       "log_store_compressed with write_hist_log: fio 3.33 stores a histogram log's samples as pointers into its memory, which its --inflate-log prints as numbers, so no compressed histogram log could be read back; drop one of them (or gzip the histogram log afterwards)");
	if ((o->log_compression || o->log_store_compressed) && !o->write_bw_log &&
	    !o->write_iops_log && !o->write_lat_log)
		job_warn(job,
			 o->log_compression ? OPT_ID_log_compression : OPT_ID_log_store_compressed,
			 "compresses the logs of write_bw_log, write_iops_log or write_lat_log: without one, it is ignored (as fio)");
	if (o->log_hist_msec && !o->write_hist_log)
		job_warn(job, OPT_ID_log_hist_msec,
			 "sets how often write_hist_log writes: without it, it is ignored (as fio)");
	if (o->write_hist_log && !o->clat_percentiles)
		return JOB_ERR(job, OPT_ID_write_hist_log, err,
			       "write_hist_log logs the completion-latency histogram, which clat_percentiles=0 turns off");
	if (o->log_avg_msec && !o->write_bw_log && !o->write_iops_log && !o->write_lat_log)
		job_warn(job, OPT_ID_log_avg_msec,
			 "averages the entries of write_bw_log, write_iops_log or write_lat_log: without one, it is ignored (as fio)");
	if (o->time_based && !o->runtime)
		return JOB_ERR(job, OPT_ID_time_based, err,
			       "time_based needs a runtime (e.g. runtime=60)");
	if (o->zero_buffers && o->buffer_compress_percentage)
		return JOB_ERR(job, OPT_ID_zero_buffers, err,
			       "zero_buffers and buffer_compress_percentage contradict each other (keep one)");
	if (!o->size.is_pct && job_opt_is_set(job, OPT_ID_size) && o->size.bytes == 0)
		return JOB_ERR(job, OPT_ID_size, err, "size=0 (use a size, e.g. 1g)");
	if (!o->clat_percentiles && !o->lat_percentiles && !o->slat_percentiles &&
	    job_opt_is_set(job, OPT_ID_percentile_list))
		job_warn(job, OPT_ID_percentile_list,
			 "every *_percentiles option is off: no percentiles are reported, the list is ignored (as fio)");
	return 0;
}

/* The sample windows and log switches of fio's stats options. */
int job_check_stats_opts(const struct job *job, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;

	if (!o->bwavgtime || !o->iopsavgtime)
		return JOB_ERR(job, o->bwavgtime ? OPT_ID_iopsavgtime : OPT_ID_bwavgtime, err,
			       "%s=0: a sample window of 0 ms holds no IO (give 1 ms or more; fio's default is 500)",
			       o->bwavgtime ? "iopsavgtime" : "bwavgtime");
	if (o->log_max_value && !o->log_avg_msec)
		job_warn(job, OPT_ID_log_max_value,
			 "logs the largest value of each log_avg_msec window: without log_avg_msec every IO is logged and it is ignored (as fio)");
	return 0;
}

/*
 * fio applies percentage_random to random rw= only: a sequential job stays sequential.  A
 * stream (iowl's own, and vdbench's seekpct) keeps it as the share of seeks of its walk.
 */
void job_check_pct_random(struct job *job)
{
	struct job_opts *o = &job->o;

	if (!o->pct_random_set || (o->rw & RW_F_RANDOM) || job->nstreams)
		return;
	job_warn(job, OPT_ID_percentage_random,
		 "rw=%s is sequential: percentage_random applies to random rw= only and is ignored (as fio)",
		 job_opt_is_set(job, OPT_ID_rw) ? job->pos[opt_index(opt_by_id(OPT_ID_rw))].value :
						  "read");
	o->pct_random_set = 0;
}

/* rate_min / rate_iops_min against the caps, as fio checks them; rate_cycle alone means nothing. */
int job_check_rate_min(const struct job *job, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;
	bool bytes = false, iops = false;

	for (unsigned d = 0; d < DDIR_NR; d++) {
		bytes = bytes || o->rate_min[d];
		iops = iops || o->rate_iops_min[d];
		if (o->rate[d] && o->rate_min[d] > o->rate[d])
			return JOB_ERR(job, OPT_ID_rate_min, err,
				       "rate_min for %s (%llu bytes/s) is above rate (%llu bytes/s): the job could never meet it",
				       job_dir_names[d], (unsigned long long)o->rate_min[d],
				       (unsigned long long)o->rate[d]);
		if (o->rate_iops[d] && o->rate_iops_min[d] > o->rate_iops[d])
			return JOB_ERR(job, OPT_ID_rate_iops_min, err,
				       "rate_iops_min for %s (%llu) is above rate_iops (%llu): the job could never meet it",
				       job_dir_names[d], (unsigned long long)o->rate_iops_min[d],
				       (unsigned long long)o->rate_iops[d]);
	}
	if (bytes && iops)
		return JOB_ERR(job, OPT_ID_rate_iops_min, err,
			       "rate_min and rate_iops_min are mutually exclusive, as in fio (keep one)");
	if (job_opt_is_set(job, OPT_ID_rate_cycle) && !bytes && !iops)
		job_warn(job, OPT_ID_rate_cycle,
			 "rate_cycle is the window of rate_min or rate_iops_min: without one it is ignored (as fio)");
	if (o->rate_cycle < 1000000)
		return JOB_ERR(job, OPT_ID_rate_cycle, err,
			       "rate_cycle must be at least 1 ms (e.g. rate_cycle=1000)");
	return 0;
}

/* thinktime companions mean nothing without thinktime: ignored with a warning, as fio ignores them. */
void job_check_think(struct job *job)
{
	static const enum opt_id opts[] = { OPT_ID_thinktime_spin, OPT_ID_thinktime_blocks,
					    OPT_ID_thinktime_blocks_type, OPT_ID_thinktime_iotime };
	struct job_opts *o = &job->o;

	for (unsigned i = 0; !o->thinktime && i < sizeof(opts) / sizeof(opts[0]); i++)
		if (job_opt_is_set(job, opts[i]))
			job_warn(job, opts[i],
				 "%s is ignored without thinktime (e.g. thinktime=1ms)",
				 opt_by_id(opts[i])->name);
	if (o->thinktime_spin > o->thinktime) {
		if (o->thinktime)
			job_warn(job, OPT_ID_thinktime_spin,
				 "longer than thinktime (%llu us): the whole think time is spun (as fio)",
				 (unsigned long long)(o->thinktime / 1000));
		o->thinktime_spin = o->thinktime;
	}
}

/* The smallest block size the job reads or writes: the default verify_interval. */
static uint64_t smallest_bs(const struct job *job)
{
	uint64_t m = UINT64_MAX;

	for (unsigned d = 0; d < 2; d++)
		if (job_does_dir(job, d) && job->min_bs[d] < m)
			m = job->min_bs[d];
	return m == UINT64_MAX ? job->o.bs[0] : m;
}

/* A size the job issues or aligns to that is not a whole number of units (0: none), and its option. */
static uint64_t misfit_size(const struct job *job, uint64_t iv, enum opt_id *opt)
{
	const struct job_opts *o = &job->o;

	for (unsigned d = 0; d < 2; d++) {
		if (!job_does_dir(job, d))
			continue;
		*opt = OPT_ID_bssplit;
		for (unsigned i = 0; i < o->bssplit[d].n; i++)
			if (o->bssplit[d].e[i].pct > 0 && o->bssplit[d].e[i].bs % iv)
				return o->bssplit[d].e[i].bs;
		*opt = OPT_ID_bsrange;
		if (!o->bssplit[d].n && o->bsrange[d].hi && o->bsrange[d].lo % iv)
			return o->bsrange[d].lo;	/* the sizes are multiples of lo */
		*opt = OPT_ID_bs;
		if (!o->bssplit[d].n && !o->bsrange[d].hi && o->bs[d] % iv)
			return o->bs[d];
		*opt = OPT_ID_blockalign;
		if (o->blockalign[d] % iv)
			return o->blockalign[d];
	}
	*opt = OPT_ID_rw;
	return !(o->rw & RW_F_RANDOM) && o->rw_nr % iv ? o->rw_nr : 0;
}

/* Verify options mean nothing without verify=: ignored with a warning, as fio ignores them. */
static int check_verify_off(struct job *job)
{
	static const enum opt_id opts[] = { OPT_ID_verify_backlog,    OPT_ID_verify_fatal,
					    OPT_ID_verify_interval,   OPT_ID_verify_offset,
					    OPT_ID_verify_dump,	      OPT_ID_verify_backlog_batch,
					    OPT_ID_verify_only,	      OPT_ID_verify_async,
					    OPT_ID_verify_async_cpus, OPT_ID_trim_percentage,
					    OPT_ID_trim_backlog,      OPT_ID_trim_backlog_batch };
	struct job_opts *o = &job->o;

	for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (job_opt_is_set(job, opts[i]))
			job_warn(job, opts[i], "%s is ignored without verify= (crc32c, md5, ...)",
				 opt_by_id(opts[i])->name);
	o->verify_backlog = 0;
	o->verify_offset = 0;
	o->verify_dump = false;
	o->verify_only = false;
	return 0;
}

/* What verification cannot work with. */
static int check_verify_combos(struct job *job, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;

	if (o->verify == VERIFY_PATTERN && !o->verify_pattern_len)
		return JOB_ERR(job, OPT_ID_verify, err,
			       "verify=pattern needs verify_pattern= (e.g. verify_pattern=0xdeadbeef)");
	if (job->engine && (job->engine->flags & ENGINE_F_NODATA))
		return JOB_ERR(job, OPT_ID_verify, err,
			       "ioengine %s moves no data: there is nothing to verify",
			       o->ioengine);
	/* trimwrite writes every block it trims: its writes are verified */
	if (job_does_dir(job, DDIR_TRIM) && !(o->rw & RW_F_TRIMWRITE))
		return JOB_ERR(job, OPT_ID_verify, err,
			       "verification does not check trimmed blocks (use a workload without trims, trimwrite, or trim_percentage)");
	if (job->nstreams)
		return JOB_ERR(job, OPT_ID_verify, err,
			       "verification of jobs with streams is not supported");
	if (o->zero_buffers || o->buffer_compress_percentage)
		return JOB_ERR(job,
			       o->zero_buffers ? OPT_ID_zero_buffers :
						 OPT_ID_buffer_compress_percentage,
			       err, "verify writes its own data: %s contradicts it (keep one)",
			       o->zero_buffers ? "zero_buffers" : "buffer_compress_percentage");
	if (o->verify_only && o->time_based && job_does_dir(job, DDIR_WRITE))
		return JOB_ERR(job, OPT_ID_verify_only, err,
			       "verify_only replays the job's writes, which time_based leaves open-ended (fio does not support it either; drop time_based)");
	if (o->verify_backlog && !job_does_dir(job, DDIR_WRITE))
		job_warn(job, OPT_ID_verify_backlog,
			 "the job does not write: verify_backlog is ignored (as fio)");
	if (o->time_based && o->do_verify && !o->verify_backlog && job_does_dir(job, DDIR_WRITE))
		job_warn(job, OPT_ID_verify,
			 "time_based writes for all of runtime: the verification read phase never starts (as in fio; verify_backlog verifies while writing)");
	if (o->numjobs > 1 && o->filename && job_does_dir(job, DDIR_WRITE) &&
	    !o->offset_increment.bytes && !o->offset_increment.is_pct)
		return JOB_ERR(job, OPT_ID_numjobs, err,
			       "numjobs=%u clones would write over each other's verified blocks in filename=%s (give each clone its own region with offset_increment, or let iowl name a file per clone)",
			       o->numjobs, o->filename);
	return 0;
}

/* verify_interval: set, or the smallest block size; every IO must be whole units. */
static int check_verify_interval(struct job *job, struct iowl_err *err)
{
	struct job_opts *o = &job->o;
	enum opt_id opt = OPT_ID_bs;
	uint64_t bad;

	if (!o->verify_interval)
		o->verify_interval = smallest_bs(job);
	bad = misfit_size(job, o->verify_interval, &opt);
	if (bad && opt == OPT_ID_rw)
		return JOB_ERR(job, opt, err,
			       "the skip of rw= (%llu bytes) is not a multiple of verify_interval=%llu (every IO must cover whole verified units)",
			       (unsigned long long)bad, (unsigned long long)o->verify_interval);
	/* Blame what the user wrote: an explicit verify_interval, else the size itself. */
	if (bad)
		return JOB_ERR(job,
			       job_opt_is_set(job, OPT_ID_verify_interval) ?
				       OPT_ID_verify_interval :
				       opt,
			       err,
			       "%s=%llu is not a multiple of verify_interval=%llu (every IO must cover whole verified units)",
			       opt_by_id(opt)->name, (unsigned long long)bad,
			       (unsigned long long)o->verify_interval);
	return 0; /* against the method's header: verify_check_job(), before the first IO */
}

int job_check_verify(struct job *job, struct iowl_err *err)
{
	struct job_opts *o = &job->o;
	int ret;

	/* As fio: a pattern on its own asks for verify=pattern. */
	if (o->verify_pattern_len && !job_opt_is_set(job, OPT_ID_verify))
		o->verify = VERIFY_PATTERN;
	ret = o->verify ? check_verify_combos(job, err) : check_verify_off(job);
	if (!ret && o->verify)
		ret = check_verify_interval(job, err);
	if (!ret && o->verify && o->trim_percentage && !o->trim_backlog)
		job_warn(job, OPT_ID_trim_percentage,
			 "trim_percentage trims nothing without trim_backlog (as fio 3.33)");
	/* trim_percentage's trims are the job's own, reported as fio reports them */
	if (!ret && o->verify && o->trim_percentage && o->trim_backlog &&
	    job_does_dir(job, DDIR_WRITE))
		job->dirs |= RW_F_TRIM;
	return ret;
}

/*
 * Buffer contents (src/fill.c): what verify's own data contradicts is refused, as zero_buffers
 * and buffer_compress_percentage are; dedupe options without dedupe are ignored, as in fio.
 */
int job_check_buffers(const struct job *job, struct iowl_err *err)
{
	const struct job_opts *o = &job->o;

	if (o->verify && (o->dedupe_percentage || o->buffer_pattern_len))
		return JOB_ERR(job,
			       o->dedupe_percentage ? OPT_ID_dedupe_percentage :
						      OPT_ID_buffer_pattern,
			       err, "verify writes its own data: %s contradicts it (keep one)",
			       o->dedupe_percentage ? "dedupe_percentage" : "buffer_pattern");
	if (!o->dedupe_percentage && job_opt_is_set(job, OPT_ID_dedupe_mode))
		job_warn(job, OPT_ID_dedupe_mode,
			 "without dedupe_percentage nothing is deduped: ignored (as fio)");
	else if (!o->dedupe_percentage && job_opt_is_set(job, OPT_ID_dedupe_working_set_percentage))
		job_warn(job, OPT_ID_dedupe_working_set_percentage,
			 "without dedupe_percentage nothing is deduped: ignored (as fio)");
	else if (o->dedupe_mode != DEDUPE_WORKING_SET &&
		 job_opt_is_set(job, OPT_ID_dedupe_working_set_percentage))
		job_warn(job, OPT_ID_dedupe_working_set_percentage,
			 "applies to dedupe_mode=working_set only: ignored (as fio)");
	if (o->dedupe_global && (!o->dedupe_percentage || o->dedupe_mode != DEDUPE_WORKING_SET))
		job_warn(job, OPT_ID_dedupe_global,
			 "shares the working set of dedupe_mode=working_set with dedupe_percentage only: ignored (as fio)");
	return 0;
}
