// SPDX-License-Identifier: MIT
/* The one option table (name, type, place, default, help) and how a value of each type is applied; job files, the command line, --help and the manual check all read it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iowl/clock.h"
#include "iowl/engine.h"
#include "iowl/flock.h"
#include "iowl/flow.h"
#include "iowl/job_opts.h"
#include "iowl/options.h"
#include "iowl/place.h"
#include "iowl/iomem.h"
#include "iowl/lattarget.h"
#include "iowl/steady.h"
#include "iowl/suggest.h"
#include "iowl/value.h"

#include "options_int.h"

#define NS_S NSEC_PER_SEC
#define NS_MS 1000000ULL
#define NS_US 1000ULL

static int parse_ss(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	return steady_parse(v ? v : "", &o->ss, why, VAL_WHY_LEN) ? -EINVAL : 0;
}

/*
 * Options other modules parse: each parser fills the part of the options its module owns
 * (place.h, cmdprio.h, lattarget.h, iomem.h), handed to it here.
 */
#define PART_PARSER(name, call)                                                                  \
	static int name(const struct opt_def *def, struct job_opts *o, const char *v, char *why) \
	{                                                                                        \
		return call;                                                                     \
	}
PART_PARSER(parse_cmdprio_pct, cmdprio_parse_pct(&o->cmdprio, v, why))
PART_PARSER(parse_cmdprio_class, cmdprio_parse_class(&o->cmdprio, v, why))
PART_PARSER(parse_cmdprio_level, cmdprio_parse_level(&o->cmdprio, v, why))
PART_PARSER(parse_cmdprio_bssplit, cmdprio_parse_bssplit(&o->cmdprio, o->kb_base, v, why))
PART_PARSER(parse_cpus, place_parse_cpus(&o->place.cpus, v, why))
PART_PARSER(parse_cpumask, place_parse_cpumask(&o->place.cpus, v, why))
PART_PARSER(parse_cpu_nodes, place_parse_cpu_nodes(&o->place, v, why))
PART_PARSER(parse_mem_policy, place_parse_mem_policy(&o->place, v, why))
PART_PARSER(parse_nice, place_parse_nice(&o->place, v, why))
PART_PARSER(parse_prio, place_parse_prio(&o->place, v, why))
PART_PARSER(parse_prioclass, place_parse_prioclass(&o->place, v, why))
PART_PARSER(parse_verify_async_cpus, place_parse_cpus(&o->verify_async_cpus, v, why))
PART_PARSER(parse_max_latency, lt_parse_max_latency(o->max_latency, v, why))
PART_PARSER(parse_latency_percentile, lt_parse_percentile(&o->latency_percentile, v, why))
PART_PARSER(parse_iomem, iomem_parse(o, v, why))
#undef PART_PARSER

static const struct opt_value coe_values[] = {
	{ "none", 0, "the first IO error ends the job (the default)" },
	{ "read", COE_READ, "go on after read errors" },
	{ "write", COE_WRITE, "go on after write, trim and sync errors" },
	{ "io", COE_READ | COE_WRITE, "go on after any IO error" },
	{ "verify", COE_VERIFY, "go on after verification errors" },
	{ "all", COE_READ | COE_WRITE | COE_VERIFY, "go on after every error" },
	{ NULL, 0, NULL },
};

static const struct opt_value verify_values[] = {
	{ "0", VERIFY_NONE, "no verification (the default)" },
	{ "none", VERIFY_NONE, "the same as 0" },
	{ "crc32c", VERIFY_CRC32C, "a checked header and pseudo-random data with its CRC-32C" },
	{ "crc32c-intel", VERIFY_CRC32C,
	  "the same as crc32c (hardware CRC is used wherever the CPU has it)" },
	{ "md5", VERIFY_MD5, "MD5 of the data in the header (nettle)" },
	{ "crc64", VERIFY_CRC64, "fio's CRC-64 of the data in the header" },
	{ "crc32", VERIFY_CRC32, "fio's CRC-32 of the data in the header" },
	{ "crc16", VERIFY_CRC16, "fio's CRC-16 of the data in the header" },
	{ "crc7", VERIFY_CRC7, "fio's CRC-7 of the data in the header" },
	{ "xxhash", VERIFY_XXHASH, "XXH32 of the data in the header (libxxhash)" },
	{ "sha512", VERIFY_SHA512, "SHA-512 of the data in the header (nettle)" },
	{ "sha256", VERIFY_SHA256, "fio's SHA-256 block of the data in the header (nettle)" },
	{ "sha1", VERIFY_SHA1, "SHA-1 of the data in the header (nettle)" },
	{ "sha3-224", VERIFY_SHA3_224, "SHA3-224 of the data in the header (nettle)" },
	{ "sha3-256", VERIFY_SHA3_256, "SHA3-256 of the data in the header (nettle)" },
	{ "sha3-384", VERIFY_SHA3_384, "SHA3-384 of the data in the header (nettle)" },
	{ "sha3-512", VERIFY_SHA3_512, "SHA3-512 of the data in the header (nettle)" },
	{ "meta", VERIFY_META,
	  "the header alone (offset, seed, write number), the data unchecked" },
	{ "pattern", VERIFY_PATTERN, "no header: every byte must be verify_pattern's" },
	{ "null", VERIFY_NULL, "pretend: reads back, checks nothing" },
	{ NULL, 0, NULL },
};

static const struct opt_value fallocate_values[] = {
	{ "native", FALLOCATE_NATIVE, "fallocate(2), or none where the file system has none (the default)" },
	{ "none", FALLOCATE_NONE, "no preallocation" },
	{ "posix", FALLOCATE_POSIX, "posix_fallocate(3)" },
	{ "keep", FALLOCATE_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE: blocks, not the size" },
	{ "truncate", FALLOCATE_TRUNCATE, "ftruncate(2) to the size: a sparse file" },
	{ "0", FALLOCATE_NONE, "the same as none" },
	{ "1", FALLOCATE_POSIX, "the same as posix" },
	{ NULL, 0, NULL },
};

static const struct opt_value sync_values[] = {
	{ "none", 0, "no synchronous IO (the default)" },    { "0", 0, "the same as none" },
	{ "sync", O_SYNC, "open the files with O_SYNC" },    { "1", O_SYNC, "the same as sync" },
	{ "dsync", O_DSYNC, "open the files with O_DSYNC" }, { NULL, 0, NULL },
};

static const struct opt_value fadvise_values[] = {
	{ "1", FADVISE_TYPE,
	  "POSIX_FADV_RANDOM for a random rw=, POSIX_FADV_SEQUENTIAL otherwise (the default)" },
	{ "0", FADVISE_NONE, "no posix_fadvise() hint" },
	{ "random", FADVISE_RANDOM, "POSIX_FADV_RANDOM" },
	{ "sequential", FADVISE_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL" },
	{ NULL, 0, NULL },
};

/* RWH_WRITE_LIFE_NONE .. RWH_WRITE_LIFE_EXTREME (linux/fcntl.h); 0 is "not set". */
static const struct opt_value write_hint_values[] = {
	{ "none", 1, "no particular life time" }, { "short", 2, "short-lived data" },
	{ "medium", 3, "medium-lived data" },	  { "long", 4, "long-lived data" },
	{ "extreme", 5, "very long-lived data" }, { NULL, 0, NULL },
};

static const struct opt_value dedupe_mode_values[] = {
	{ "repeat", DEDUPE_REPEAT, "a dedupable write repeats the last unique one (the default)" },
	{ "working_set", DEDUPE_WORKING_SET, "a dedupable write repeats one of the first unique ones, dedupe_working_set_percentage of the region" },
	{ NULL, 0, NULL },
};

static const struct opt_value rate_process_values[] = {
	{ "linear", RATE_LINEAR, "IOs evenly spaced (the default)" },
	{ "poisson", RATE_POISSON,
	  "exponential gaps with the same mean: arrivals as a Poisson process" },
	{ NULL, 0, NULL },
};

static const struct opt_value lockfile_values[] = {
	{ "none", LOCKFILE_NONE, "no locking (the default)" },
	{ "exclusive", LOCKFILE_EXCLUSIVE,
	  "one IO at a time on a file, among all jobs that lock it" },
	{ "readwrite", LOCKFILE_READWRITE, "reads of a file together, any other IO alone" },
	{ NULL, 0, NULL },
};

static const struct opt_value submit_mode_values[] = {
	{ "inline", 0, "the job's thread submits and reaps its IOs (the default)" },
	{ "offload", 1, "iodepth submit threads, each doing one IO at a time with its own engine" },
	{ NULL, 0, NULL },
};

static const struct opt_value rw_seq_values[] = {
	{ "sequential", 0,
	  "the IOs between random jumps (rw=randread:N) follow on sequentially (the default)" },
	{ "identical", 1, "the IOs between random jumps repeat the jump's offset" },
	{ NULL, 0, NULL },
};

static const struct opt_value zonemode_values[] = {
	{ "none", ZONEMODE_NONE, "no zones (the default)" },
	{ "strided", ZONEMODE_STRIDED,
	  "zonesize bytes of IO in each zone of zonerange bytes, then the next, zoneskip further" },
	{ "zbd", ZONEMODE_ZBD,
	  "zoned block device mode: refused (iowl does not drive zoned devices)" },
	{ NULL, 0, NULL },
};

static const struct opt_value hotset_values[] = {
	{ "job", 0, "every stream and direction of a clone draws from one hot set (fio's meaning)" },
	{ "stream", 1, "this stream's own hot set, shared by its directions" },
	{ "direction", 2, "a hot set per direction of this stream" },
	{ NULL, 0, NULL },
};

static const struct opt_value think_type_values[] = {
	{ "complete", 0, "count completed IOs: the queue drains before each stall (the default)" },
	{ "issue", 1, "count issued IOs" },
	{ NULL, 0, NULL },
};

static const struct opt_value randgen_values[] = {
	{ "tausworthe", RANDGEN_TAUSWORTHE, "iowl's generator (fio's default name)" },
	{ "lfsr", RANDGEN_LFSR, "every block once per pass, even with norandommap, as fio's LFSR" },
	{ "tausworthe64", RANDGEN_TAUSWORTHE64, "iowl's generator (its 64-bit draws cover any size)" },
	{ NULL, 0, NULL },
};

static const struct opt_value clocksource_values[] = {
	{ "cpu", CLOCK_SRC_CPU,
	  "the CPU's invariant time-stamp counter, calibrated against CLOCK_MONOTONIC (iowl's choice where the CPU has one)" },
	{ "clock_gettime", CLOCK_SRC_GETTIME,
	  "clock_gettime(2) of CLOCK_MONOTONIC for every timestamp" },
	{ "gettimeofday", CLOCK_SRC_GETTIME,
	  "as clock_gettime: iowl reads CLOCK_MONOTONIC, since a wall clock that steps would corrupt latencies" },
	{ NULL, 0, NULL },
};

static const struct opt_value unit_base_values[] = {
	{ "0", 0, "bytes (fio's auto-detection)" },
	{ "8", 8, "bytes" },
	{ "1", 1, "bits: BW=...bit/s in the normal output" },
	{ NULL, 0, NULL },
};

static const struct opt_value unified_rw_values[] = {
	{ "none", UNIFIED_NONE, "per direction (the default)" },
	{ "mixed", UNIFIED_MIXED, "the directions summed and reported as one, \"mixed\"" },
	{ "both", UNIFIED_BOTH, "per direction, then \"mixed\" as well" },
	{ "0", UNIFIED_NONE, "the same as none" },
	{ "1", UNIFIED_MIXED, "the same as mixed" },
	{ NULL, 0, NULL },
};

static const struct opt_value exit_what_values[] = {
	{ "group", EXIT_GROUP, "the jobs of its reporting group (the default)" },
	{ "stonewall", EXIT_STONEWALL, "every job running now; the next stonewalled jobs still run" },
	{ "all", EXIT_ALL, "every job running now, and no later job starts" },
	{ NULL, 0, NULL },
};

static const struct opt_value cpus_policy_values[] = {
	{ "shared", 0, "every clone may run on every CPU of the set (the default)" },
	{ "split", 1, "each clone gets one CPU of the set, round robin by thread number" },
	{ NULL, 0, NULL },
};

/* fio's engines iowl does not build, each refused with the reason (ioengine_values' tail). */
static const struct opt_value refused_engines[] = {
	{ "io_uring_cmd", OPT_VALUE_REFUSED,
	  "it sends NVMe passthrough commands to /dev/ngXnY character "
	  "devices, which this build cannot test and does not implement; use io_uring on the "
	  "block device" },
	{ "sg", OPT_VALUE_REFUSED, "SCSI generic passthrough needs a SCSI device (/dev/sgN)" },
	{ "libiscsi", OPT_VALUE_REFUSED, "it needs an iSCSI target" },
	{ "nbd", OPT_VALUE_REFUSED, "it needs an NBD server" },
	{ "rbd", OPT_VALUE_REFUSED, "it needs a Ceph cluster" },
	{ "rados", OPT_VALUE_REFUSED, "it needs a Ceph cluster" },
	{ "gfapi", OPT_VALUE_REFUSED, "it needs a GlusterFS volume" },
	{ "gfapi_async", OPT_VALUE_REFUSED, "it needs a GlusterFS volume" },
	{ "libhdfs", OPT_VALUE_REFUSED, "it needs an HDFS cluster" },
	{ "http", OPT_VALUE_REFUSED, "it needs an HTTP/S3/Swift object store" },
	{ "nfs", OPT_VALUE_REFUSED, "it needs an NFS server (libnfs)" },
	{ "dfs", OPT_VALUE_REFUSED, "it needs a DAOS cluster" },
	{ "rdma", OPT_VALUE_REFUSED, "it needs RDMA hardware" },
	{ "libpmem", OPT_VALUE_REFUSED, "it needs persistent memory (DAX)" },
	{ "pmemblk", OPT_VALUE_REFUSED, "it needs persistent memory (DAX)" },
	{ "dev-dax", OPT_VALUE_REFUSED, "it needs a device-DAX persistent memory device" },
	{ "mtd", OPT_VALUE_REFUSED, "it needs a raw flash (MTD) device" },
	{ "libzbc", OPT_VALUE_REFUSED, "it needs a zoned SCSI/ATA disk" },
	{ "xnvme", OPT_VALUE_REFUSED, "it needs an NVMe device and the xNVMe library" },
	{ "ime_psync", OPT_VALUE_REFUSED, "it needs a DDN IME file system" },
	{ "ime_psyncv", OPT_VALUE_REFUSED, "it needs a DDN IME file system" },
	{ "ime_aio", OPT_VALUE_REFUSED, "it needs a DDN IME file system" },
	{ "windowsaio", OPT_VALUE_REFUSED, "it is Windows' engine" },
	{ "solarisaio", OPT_VALUE_REFUSED, "it is Solaris' engine" },
	{ "net", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "netsplice", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "splice", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "cpuio", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "exec", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "falloc", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "ftruncate", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "filecreate", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "filestat", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "filedelete", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ "e4defrag", OPT_VALUE_REFUSED,
	  "iowl does not implement this engine (it measures block and file IO)" },
	{ NULL, 0, NULL },
};

#define ENGINES_MAX 32

/*
 * ioengine's values: the built-in engines from the one engine list (engine_list(), with each
 * engine's own help line), then refused_engines.  Filled once before main() runs.
 */
static struct opt_value
	ioengine_values[ENGINES_MAX + sizeof(refused_engines) / sizeof(refused_engines[0])];

static void __attribute__((constructor)) ioengine_values_fill(void)
{
	unsigned n, k = 0;
	const struct engine_ops *const *e = engine_list(&n);

	for (unsigned i = 0; i < n && k < ENGINES_MAX; i++)
		ioengine_values[k++] = (struct opt_value){ e[i]->name, 0, e[i]->help };
	memcpy(ioengine_values + k, refused_engines, sizeof(refused_engines));
}

/* The table is laid out by hand, one option per row group: clang-format leaves it alone. */
/* clang-format off */
#define O(f) offsetof(struct job_opts, f)
#define UNSUPPORTED(n) { .name = n, .type = OPT_UNSUPPORTED, .category = "unsupported" }
/* A refused option with its reason (help): needs hardware or a service, or fio 3.33 lacks it. */
#define REFUSED(n, why) { .name = n, .type = OPT_UNSUPPORTED, .category = "unsupported", .help = why }
#define NEWER_THAN_FIO "is not a fio 3.33 option (a later fio added it); iowl follows fio 3.33"
#define NOT_IN_FIO "is not a fio 3.33 option (fio 3.33 refuses it too)"
#define ONLY_ZBD "is only for zonemode=zbd, which needs a zoned block device and is refused: iowl does not drive zoned devices (write pointers, zone resets, open-zone limits)"

static const struct opt_def options[] = {
	/* description and files */
	{ .name = "name", .type = OPT_STR, .off = O(name), .category = "job",
	  .help = "job name; on the command line --name starts a new job" },
	{ .name = "description", .type = OPT_STR, .off = O(description), .category = "job",
	  .help = "free text shown with the results" },
	{ .name = "filename", .type = OPT_STR, .off = O(filename), .category = "files",
	  .help = "target file(s) or block device(s), ':' separated, '\\:' for a literal colon" },
	{ .name = "filename_format", .type = OPT_STR, .off = O(filename_format), .category = "files",
	  .help = "generated file names from $jobname, $jobnum (the clone) and $filenum (default $jobname.$jobnum.$filenum)" },
	{ .name = "directory", .type = OPT_STR, .off = O(directory), .category = "files",
	  .help = "directory for generated file names (':' separated directories round-robin over clones)" },
	{ .name = "allow_mounted_write", .type = OPT_BOOL, .off = O(allow_mounted_write),
	  .def = "0", .category = "files",
	  .help = "let a job write to a block device that is mounted, used as swap or held by the kernel" },
	{ .name = "allow_signature_write", .type = OPT_BOOL, .off = O(allow_signature_write),
	  .def = "0", .category = "files",
	  .help = "let a job write to a block device that holds a filesystem, RAID, LVM or swap signature or a partition table" },
	{ .name = "nrfiles", .type = OPT_UINT, .off = O(nrfiles), .def = "1", .min = 1,
	  .max = 65536, .category = "files", .help = "files per job when names are generated" },
	{ .name = "file_service_type", .type = OPT_FUNC, .parse = opt_parse_file_service,
	  .def = "roundrobin", .category = "files",
	  .help = "how the next file is chosen: roundrobin, sequential or random, with an optional :N (IOs per switch), or zipf, pareto, normal (gauss) with their parameter" },
	{ .name = "size", .type = OPT_SIZE_PCT, .off = O(size), .flags = OPT_F_STREAM | OPT_F_RANGE, .category = "files",
	  .help = "region size per job clone (all files together), or N% of the target" },
	{ .name = "filesize", .type = OPT_FUNC, .parse = opt_parse_filesize, .category = "files",
	  .help = "size of each file, or a range lo-hi spread over the files from the job's seed" },
	{ .name = "offset", .type = OPT_SIZE_PCT, .off = O(offset), .def = "0",
	  .flags = OPT_F_STREAM | OPT_F_RANGE, .category = "files", .help = "start of the region in each file, bytes or N%" },
	{ .name = "offset_align", .type = OPT_SIZE, .off = O(offset_align), .def = "0",
	  .category = "files",
	  .help = "a start given by a percentage is rounded up to a multiple of this (0: the smallest block size)" },
	{ .name = "offset_increment", .type = OPT_SIZE_PCT, .off = O(offset_increment),
	  .def = "0", .category = "files",
	  .help = "added to offset once per clone number, so clones get disjoint slices" },
	{ .name = "fallocate", .type = OPT_ENUM, .off = O(fallocate), .def = "native",
	  .values = fallocate_values, .category = "files",
	  .help = "how a laid-out file is preallocated: native, none, posix, keep, truncate (0: none, 1: posix)" },
	{ .name = "create_on_open", .type = OPT_BOOL, .off = O(create_on_open), .def = "0",
	  .category = "files", .help = "do not lay files out: the job's open creates a missing file" },
	{ .name = "overwrite", .type = OPT_BOOL, .off = O(overwrite), .def = "0", .category = "files",
	  .help = "lay a write job's new or short file out with data first, so its writes overwrite" },
	{ .name = "file_append", .type = OPT_BOOL, .off = O(file_append), .def = "0",
	  .category = "files", .help = "a regular file's region starts at its end (offset= its size)" },
	{ .name = "fill_device", .alias = "fill_fs", .type = OPT_BOOL, .off = O(fill_device),
	  .def = "0", .category = "files",
	  .help = "without size=, a file's region is the free space of its file system and ENOSPC ends the job" },
	{ .name = "unlink", .type = OPT_BOOL, .off = O(unlink), .def = "0", .category = "files",
	  .help = "remove the job's regular files when it ends" },
	{ .name = "unlink_each_loop", .type = OPT_BOOL, .off = O(unlink_each_loop), .def = "0",
	  .category = "files", .help = "remove and create the job's regular files again before every loop after the first" },
	{ .name = "invalidate", .type = OPT_BOOL, .off = O(invalidate), .def = "1",
	  .category = "files",
	  .help = "drop the page cache of the job's files before its IO, every loop and every time_based pass (fio's default)" },
	{ .name = "io_size", .alias = "io_limit", .type = OPT_SIZE, .off = O(io_size),
	  .def = "0", .category = "files",
	  .help = "bytes of IO to do (default: the region size)" },
	{ .name = "number_ios", .type = OPT_U64, .off = O(number_ios), .def = "0",
	  .category = "files", .help = "stop after this many IOs (0: no limit)" },
	{ .name = "fadvise_hint", .type = OPT_ENUM, .off = O(fadvise_hint), .def = "1",
	  .values = fadvise_values, .category = "files",
	  .help = "posix_fadvise() over each file's region when it is opened: 1 (by rw=), 0, random or sequential" },
	{ .name = "write_hint", .type = OPT_ENUM, .off = O(write_hint), .values = write_hint_values,
	  .category = "files",
	  .help = "fcntl(F_SET_RW_HINT) on each file: the expected life time of its writes (none, short, medium, long, extreme)" },
	{ .name = "pre_read", .type = OPT_BOOL, .off = O(pre_read), .def = "0", .category = "files",
	  .help = "read each file's region into the page cache before the IO (turns invalidate off)" },
	{ .name = "create_fsync", .type = OPT_BOOL, .off = O(create_fsync), .def = "1",
	  .category = "files", .help = "fsync a file after the layout wrote data into it" },
	{ .name = "create_only", .type = OPT_BOOL, .off = O(create_only), .def = "0",
	  .category = "files", .help = "lay the job's files out and do no IO" },
	{ .name = "create_serialize", .type = OPT_BOOL, .off = O(create_serialize), .def = "1",
	  .category = "files",
	  .help = "lay out the files of the phase's jobs one after another before any starts; 0: each clone lays out its own, in parallel" },
	{ .name = "allow_file_create", .type = OPT_BOOL, .off = O(allow_file_create), .def = "1",
	  .category = "files", .help = "0: a regular file that does not exist is an error instead of being created" },
	{ .name = "unique_filename", .type = OPT_BOOL, .off = O(unique_filename), .def = "1",
	  .category = "files",
	  .help = "fio's client-name prefix for generated names: iowl has no client mode, so names are never prefixed (as fio run locally)" },
	{ .name = "softrandommap", .type = OPT_BOOL, .off = O(softrandommap), .def = "0",
	  .category = "random",
	  .help = "fio's fallback when its random map cannot be allocated: iowl's map is a constant-size permutation that always is" },
	/* IO type */
	{ .name = "rw", .alias = "readwrite", .type = OPT_FUNC, .parse = opt_parse_rw,
	  .def = "read", .flags = OPT_F_STREAM, .category = "io",
	  .help = "read, write, trim, randread, randwrite, randtrim, rw (readwrite), randrw, trimwrite, randtrimwrite; ':N' suffix" },
	{ .name = "rw_sequencer", .type = OPT_ENUM, .off = O(rw_sequencer), .def = "sequential",
	  .values = rw_seq_values, .flags = OPT_F_STREAM, .category = "io",
	  .help = "with rw=randread:N, what the N-1 IOs after each random jump do: sequential or identical" },
	{ .name = "rwmixread", .type = OPT_UINT, .off = O(rwmixread), .def = "50", .max = 100,
	  .flags = OPT_F_STREAM, .category = "io", .help = "percentage of reads in a mixed workload" },
	{ .name = "rwmixwrite", .type = OPT_FUNC, .parse = opt_parse_rwmixwrite, .flags = OPT_F_STREAM, .category = "io",
	  .help = "percentage of writes in a mixed workload (sets rwmixread to 100 minus it)" },
	{ .name = "bs", .alias = "blocksize", .type = OPT_DIR_SIZE, .off = O(bs), .def = "4k",
	  .min = 1, .max = UINT32_MAX, .flags = OPT_F_STREAM, .category = "io", .help = "block size, per direction: read,write,trim" },
	{ .name = "bsrange", .alias = "blocksize_range", .type = OPT_FUNC,
	  .parse = opt_parse_bsrange, .flags = OPT_F_STREAM, .category = "io",
	  .help = "block size drawn uniformly in lo-hi (multiples of lo), per direction" },
	{ .name = "bssplit", .type = OPT_FUNC, .parse = opt_parse_bssplit, .flags = OPT_F_STREAM, .category = "io",
	  .help = "weighted block sizes bs/pct:bs/pct, per direction; blank percentages share the rest" },
	{ .name = "bs_unaligned", .alias = "blocksize_unaligned", .type = OPT_BOOL,
	  .off = O(bs_unaligned), .def = "0", .flags = OPT_F_STREAM, .category = "io",
	  .help = "bsrange sizes of any byte count in lo-hi, not only multiples of lo" },
	{ .name = "bs_is_seq_rand", .type = OPT_BOOL, .off = O(bs_is_seq_rand), .def = "0",
	  .flags = OPT_F_STREAM, .category = "io",
	  .help = "bs, bsrange and bssplit give sizes for sequential,random IOs instead of read,write" },
	{ .name = "zonemode", .type = OPT_ENUM, .off = O(zonemode), .def = "none",
	  .values = zonemode_values, .category = "io",
	  .help = "fio's zones: none, strided (zonesize, zonerange, zoneskip) or zbd (refused: zoned devices)" },
	{ .name = "zonesize", .type = OPT_SIZE, .off = O(zonesize), .def = "0", .category = "io",
	  .help = "zonemode=strided: bytes of IO in a zone before moving to the next" },
	{ .name = "zonerange", .type = OPT_SIZE, .off = O(zonerange), .def = "0", .category = "io",
	  .help = "zonemode=strided: the length of a zone, where its IOs fall (0: zonesize)" },
	{ .name = "zoneskip", .type = OPT_SIZE, .off = O(zoneskip), .def = "0", .category = "io",
	  .help = "zonemode=strided: bytes skipped after each zone" },
	{ .name = "zonecapacity", .type = OPT_SIZE, .off = O(zonecapacity), .def = "0",
	  .category = "io", .help = "zonemode=zbd only (refused there): the usable part of a zone" },
	{ .name = "blockalign", .alias = "ba", .type = OPT_DIR_SIZE, .off = O(blockalign),
	  .def = "0", .max = UINT32_MAX, .flags = OPT_F_STREAM, .category = "io",
	  .help = "alignment of random offsets, per direction (default: the minimum block size)" },
	{ .name = "iodepth", .type = OPT_UINT, .off = O(iodepth), .def = "1", .min = 1,
	  .max = 65535, .category = "io", .help = "IOs kept in flight per job clone" },
	{ .name = "iodepth_batch_submit", .alias = "iodepth_batch", .type = OPT_UINT,
	  .off = O(iodepth_batch_submit), .def = "1", .max = 65535, .category = "io",
	  .help = "IOs submitted at once (0: iodepth)" },
	{ .name = "iodepth_batch_complete_min", .alias = "iodepth_batch_complete",
	  .type = OPT_UINT, .off = O(iodepth_batch_complete_min), .def = "1", .max = 65535,
	  .category = "io", .help = "completions to wait for at least (0: poll without waiting)" },
	{ .name = "iodepth_batch_complete_max", .type = OPT_UINT,
	  .off = O(iodepth_batch_complete_max), .def = "0", .max = 65535, .category = "io",
	  .help = "completions to reap at most per call (0: iodepth_batch_complete_min, as fio)" },
	{ .name = "iodepth_low", .type = OPT_UINT, .off = O(iodepth_low), .def = "0",
	  .max = 65535, .category = "io",
	  .help = "refill the queue once it drains to this depth (0: iodepth)" },
	{ .name = "numjobs", .type = OPT_UINT, .off = O(numjobs), .def = "1", .min = 1,
	  .max = 4096, .category = "io", .help = "clones of this job, each a thread" },
	{ .name = "thread", .alias = "threads", .type = OPT_BOOL, .off = O(thread), .def = "0",
	  .category = "io",
	  .help = "accepted for fio compatibility: iowl always runs clones as threads" },
	{ .name = "direct", .type = OPT_BOOL, .off = O(direct), .def = "0", .category = "io",
	  .help = "O_DIRECT: bypass the page cache" },
	{ .name = "buffered", .type = OPT_FUNC, .parse = opt_parse_buffered, .flags = OPT_F_BARE_OK,
	  .category = "io",
	  .help = "the inverse of direct" },
	{ .name = "ioengine", .type = OPT_ENUM_STR, .off = O(ioengine), .def = "psync",
	  .values = ioengine_values, .category = "io", .help = "how IO is issued" },
	/* time */
	{ .name = "runtime", .alias = "timeout", .type = OPT_TIME, .off = O(runtime), .def = "0",
	  .unit_ns = NS_S, .category = "time", .help = "stop after this long (bare numbers are seconds)" },
	{ .name = "io_timeout", .type = OPT_TIME, .off = O(io_timeout), .def = "300",
	  .unit_ns = NS_S, .category = "time",
	  .help = "end the job with an error when IOs in flight see no completion for this long, naming them (0: wait for ever; iowl's own, bare numbers are seconds)" },
	{ .name = "time_based", .type = OPT_BOOL, .off = O(time_based), .def = "0",
	  .category = "time", .help = "run for the whole runtime, repeating the workload" },
	{ .name = "ramp_time", .type = OPT_TIME, .off = O(ramp_time), .def = "0",
	  .unit_ns = NS_S, .category = "time",
	  .help = "run this long before statistics start; added to runtime" },
	{ .name = "rate", .type = OPT_DIR_SIZE, .off = O(rate), .def = "0", .category = "time",
	  .help = "cap on bandwidth in bytes per second, per direction (rate=,500k caps writes only)" },
	{ .name = "rate_iops", .type = OPT_FUNC, .parse = opt_parse_dir_iops, .off = O(rate_iops), .def = "0",
	  .category = "time", .help = "cap on IOs per second, per direction" },
	{ .name = "rate_process", .type = OPT_ENUM, .off = O(rate_process), .def = "linear",
	  .values = rate_process_values, .category = "time",
	  .help = "how a rate schedules IOs: linear or poisson" },
	{ .name = "rate_min", .alias = "ratemin", .type = OPT_DIR_SIZE, .off = O(rate_min),
	  .def = "0", .category = "time",
	  .help = "end the job with an error when a direction's bandwidth over rate_cycle falls below this (bytes per second, per direction)" },
	{ .name = "rate_iops_min", .type = OPT_FUNC, .parse = opt_parse_dir_iops, .off = O(rate_iops_min), .def = "0",
	  .category = "time",
	  .help = "end the job with an error when a direction's IOPS over rate_cycle fall below this, per direction" },
	{ .name = "rate_cycle", .alias = "ratecycle", .type = OPT_TIME, .off = O(rate_cycle),
	  .def = "1000", .unit_ns = NS_MS, .category = "time",
	  .help = "window over which rate_min and rate_iops_min are measured (bare numbers are milliseconds)" },
	{ .name = "thinktime", .type = OPT_TIME, .off = O(thinktime), .def = "0", .unit_ns = NS_US,
	  .category = "time",
	  .help = "stall this long between batches of thinktime_blocks IOs (bare numbers are microseconds)" },
	{ .name = "thinktime_spin", .type = OPT_TIME, .off = O(thinktime_spin), .def = "0",
	  .unit_ns = NS_US, .category = "time",
	  .help = "part of each thinktime stall spent busy on the CPU; the rest sleeps (bare numbers are microseconds)" },
	{ .name = "thinktime_blocks", .type = OPT_UINT, .off = O(thinktime_blocks), .def = "1",
	  .min = 1, .max = UINT32_MAX, .category = "time",
	  .help = "IOs between thinktime stalls (the default 1 keeps one IO in flight)" },
	{ .name = "thinktime_blocks_type", .type = OPT_ENUM, .off = O(thinktime_blocks_type),
	  .def = "complete", .values = think_type_values, .category = "time",
	  .help = "what thinktime_blocks counts: complete or issue" },
	{ .name = "thinktime_iotime", .type = OPT_TIME, .off = O(thinktime_iotime), .def = "0",
	  .unit_ns = NS_S, .category = "time",
	  .help = "stall once IO has run this long since the last stall (bare numbers are seconds)" },
	{ .name = "worker_ramp", .type = OPT_TIME, .off = O(worker_ramp), .def = "0",
	  .unit_ns = NS_S, .category = "time",
	  .help = "start the clones one at a time, one more every this long, and report each step (X-Ray style ramp)" },
	{ .name = "ss", .alias = "steadystate", .type = OPT_FUNC, .parse = parse_ss,
	  .def = "iops_slope:0.01%", .category = "time",
	  .help = "steady-state criterion CRIT:LIMIT[%] (iops, iops_slope, bw, bw_slope, lat, lat_slope); active with ss_dur" },
	{ .name = "ss_dur", .alias = "steadystate_duration", .type = OPT_TIME, .off = O(ss_dur),
	  .def = "0", .unit_ns = NS_S, .category = "time",
	  .help = "steady-state window: end the job once the criterion holds over this long (0: off)" },
	{ .name = "ss_ramp", .alias = "steadystate_ramp_time", .type = OPT_TIME, .off = O(ss_ramp),
	  .def = "0", .unit_ns = NS_S, .category = "time",
	  .help = "wait this long before taking steady-state samples" },
	{ .name = "ss_interval", .alias = "steadystate_check_interval", .type = OPT_TIME,
	  .off = O(ss_interval), .def = "1", .unit_ns = NS_S, .category = "time",
	  .help = "steady-state sampling period" },
	{ .name = "startdelay", .type = OPT_FUNC, .parse = opt_parse_startdelay, .def = "0",
	  .category = "time", .help = "wait before starting, or a range lo-hi spread over the clones from the job's seed" },
	{ .name = "loops", .type = OPT_UINT, .off = O(loops), .def = "1", .min = 1,
	  .category = "time", .help = "repeat the workload this many times" },
	/* random */
	{ .name = "randrepeat", .alias = "allrandrepeat", .type = OPT_BOOL, .off = O(randrepeat),
	  .def = "1", .category = "random", .help = "same random sequence on every run (seeded by randseed)" },
	{ .name = "randseed", .type = OPT_U64, .off = O(randseed), .def = "0x89",
	  .category = "random", .help = "base seed of the random generators" },
	{ .name = "norandommap", .type = OPT_BOOL, .off = O(norandommap), .def = "0",
	  .flags = OPT_F_STREAM, .category = "random",
	  .help = "plain uniform draws: blocks may repeat or be skipped within a pass" },
	{ .name = "exitall", .type = OPT_BOOL, .off = O(exitall), .def = "0", .category = "job",
	  .help = "when one clone of this job finishes, end the others (see exit_what)" },
	{ .name = "exit_what", .type = OPT_ENUM, .off = O(exit_what), .def = "group",
	  .values = exit_what_values, .category = "job", .help = "which jobs an exitall job ends" },
	{ .name = "exitall_on_error", .type = OPT_BOOL, .off = O(exitall_on_error), .def = "0",
	  .category = "job", .help = "when a clone of this job ends in error, end the whole run" },
	{ .name = "random_generator", .type = OPT_ENUM, .off = O(random_generator),
	  .def = "tausworthe", .values = randgen_values, .category = "random",
	  .help = "fio's generator names: lfsr gives every block once per pass even with norandommap" },
	{ .name = "random_distribution", .type = OPT_FUNC, .parse = opt_parse_rdist, .def = "random",
	  .flags = OPT_F_STREAM, .category = "random",
	  .help = "random, zipf:theta[:center], pareto:h[:center], normal:dev[:center], normal_sd:dev[:center], zoned:..., zoned_abs:..., hotband[:center]; per direction" },
	{ .name = "percentage_random", .type = OPT_FUNC, .parse = opt_parse_pct_random,
	  .flags = OPT_F_STREAM, .category = "random",
	  .help = "share of IOs at a random offset, the rest sequential (default: 100 for rand*, 0 for sequential); per direction" },
	{ .name = "random_scatter", .type = OPT_BOOL, .off = O(random_scatter), .def = "1",
	  .flags = OPT_F_STREAM, .category = "random",
	  .help = "spread hot blocks over the region through a permutation; 0 keeps the hot set contiguous" },
	{ .name = "random_hotset", .type = OPT_ENUM, .off = O(random_hotset), .def = "job",
	  .values = hotset_values, .flags = OPT_F_STREAM, .category = "random",
	  .help = "whose hot set a non-uniform random_distribution draws from: job, stream or direction" },
	{ .name = "bs_roundup", .type = OPT_BOOL, .off = O(bs_roundup), .def = "0",
	  .flags = OPT_F_STREAM, .category = "io",
	  .help = "with direct=1, round block sizes below the logical block size up to it (reported) instead of refusing the job" },
	/* streams */
	{ .name = "stream", .type = OPT_FUNC, .parse = opt_parse_stream, .flags = OPT_F_STREAM,
	  .category = "streams",
	  .help = "start a stream of this job: the lines after it, up to the next stream=, set its options" },
	{ .name = "weight", .type = OPT_FUNC, .parse = opt_parse_weight, .def = "1",
	  .flags = OPT_F_STREAM | OPT_F_STREAM_ONLY, .category = "streams",
	  .help = "the stream's share of the job's IOs, relative to the other streams' weights" },
	{ .name = "walkers", .type = OPT_UINT, .off = O(walkers), .def = "1", .min = 1,
	  .max = JOB_MAX_STREAMS, .flags = OPT_F_STREAM | OPT_F_STREAM_ONLY, .category = "streams",
	  .help = "split a stream into N walkers, each with weight/N and its own cursor, spread evenly over the range" },
	{ .name = "walker_start", .type = OPT_SIZE_PCT, .off = O(walker_start), .def = "0",
	  .flags = OPT_F_STREAM | OPT_F_STREAM_ONLY, .category = "streams",
	  .help = "where the first walker starts in the stream's range (bytes or N%); the others follow evenly spaced" },
	/* sync */
	{ .name = "fsync", .type = OPT_UINT, .off = O(fsync), .def = "0", .category = "sync",
	  .help = "fsync the file every N writes" },
	{ .name = "fdatasync", .type = OPT_UINT, .off = O(fdatasync), .def = "0",
	  .category = "sync", .help = "fdatasync the file every N writes" },
	{ .name = "end_fsync", .type = OPT_BOOL, .off = O(end_fsync), .def = "0",
	  .category = "sync", .help = "fsync every written file when the job ends" },
	{ .name = "sync_file_range", .type = OPT_FUNC, .parse = opt_parse_sync_file_range,
	  .category = "sync",
	  .help = "sync_file_range(2) over each file's range written since the last, every N writes: FLAGS:N (wait_before, write, wait_after)" },
	{ .name = "fsync_on_close", .type = OPT_BOOL, .off = O(fsync_on_close), .def = "0",
	  .category = "sync", .help = "fsync each file of a job that writes when it is closed" },
	{ .name = "sync", .type = OPT_ENUM, .off = O(sync_io), .def = "none", .values = sync_values,
	  .category = "sync", .help = "open the files for synchronous IO: none (0), sync (1, O_SYNC) or dsync (O_DSYNC)" },
	/* errors */
	{ .name = "continue_on_error", .type = OPT_ENUM, .off = O(continue_on_error),
	  .def = "none", .values = coe_values, .category = "errors",
	  .help = "which IO errors do not end the job: none, read, write, io, verify or all (errors still count, and the exit status is 2)" },
	{ .name = "ignore_error", .type = OPT_FUNC, .parse = opt_parse_ignore_error,
	  .category = "errors",
	  .help = "errnos that do not end the job, as fio: read,write,verify lists of names or numbers joined by ':' (e.g. ,ENOSPC:EIO)" },
	/* buffers */
	{ .name = "zero_buffers", .type = OPT_BOOL, .off = O(zero_buffers), .def = "0",
	  .category = "buffers", .help = "write buffers full of zeros" },
	{ .name = "refill_buffers", .type = OPT_BOOL, .off = O(refill_buffers), .def = "0",
	  .category = "buffers", .help = "refill write buffers with new data before every write" },
	{ .name = "buffer_compress_percentage", .type = OPT_UINT,
	  .off = O(buffer_compress_percentage), .def = "0", .max = 100, .category = "buffers",
	  .help = "make write data compressible: this share of each chunk is zeros" },
	{ .name = "buffer_compress_chunk", .type = OPT_SIZE, .off = O(buffer_compress_chunk),
	  .def = "512", .category = "buffers",
	  .help = "granularity of buffer_compress_percentage (0: the smallest write)" },
	{ .name = "scramble_buffers", .type = OPT_BOOL, .off = O(scramble_buffers), .def = "1",
	  .category = "buffers",
	  .help = "stamp every 512-byte sector of every write with its offset and time, so no two written blocks are the same" },
	{ .name = "buffer_pattern", .type = OPT_FUNC, .parse = opt_parse_buffer_pattern,
	  .category = "buffers",
	  .help = "write this pattern: 0x hex bytes, a decimal, a \"string\" or a 'file', one after another" },
	{ .name = "dedupe_percentage", .type = OPT_UINT, .off = O(dedupe_percentage), .def = "0",
	  .max = 100, .category = "buffers",
	  .help = "this share of the writes repeat earlier contents (dedupable)" },
	{ .name = "dedupe_mode", .type = OPT_ENUM, .off = O(dedupe_mode), .def = "repeat",
	  .values = dedupe_mode_values, .category = "buffers",
	  .help = "what a dedupable write repeats: repeat or working_set" },
	{ .name = "dedupe_working_set_percentage", .type = OPT_UINT,
	  .off = O(dedupe_working_set_percentage), .def = "5", .max = 100, .category = "buffers",
	  .help = "dedupe_mode=working_set: the working set's share of the region" },
	{ .name = "dedupe_global", .type = OPT_BOOL, .off = O(dedupe_global), .def = "0",
	  .category = "buffers",
	  .help = "dedupe_mode=working_set: one working set shared by the jobs of the phase that set it" },
	/* verification */
	{ .name = "verify", .type = OPT_ENUM, .off = O(verify), .def = "0", .values = verify_values,
	  .category = "verify",
	  .help = "verify written data: md5, crc64, crc32c (crc32c-intel), crc32, crc16, crc7, xxhash, sha1, sha256, sha512, sha3-224/256/384/512, meta, pattern, null, or 0/none" },
	{ .name = "do_verify", .type = OPT_BOOL, .off = O(do_verify), .def = "1",
	  .category = "verify",
	  .help = "after the job's writes, read back and check every unit written" },
	{ .name = "verify_backlog", .type = OPT_UINT, .off = O(verify_backlog), .def = "0",
	  .max = 1U << 20, .category = "verify",
	  .help = "while writing, read back and check the last N writes every N writes (0: off)" },
	{ .name = "verify_fatal", .type = OPT_BOOL, .off = O(verify_fatal), .def = "0",
	  .category = "verify", .help = "stop the job at the first unit that fails verification" },
	{ .name = "verify_interval", .type = OPT_SIZE, .off = O(verify_interval), .def = "0",
	  .category = "verify",
	  .help = "bytes per verified unit, each with its own header (0: the smallest block size)" },
	{ .name = "verify_pattern", .type = OPT_FUNC, .parse = opt_parse_verify_pattern,
	  .category = "verify",
	  .help = "the data of verify=pattern: 0x hex bytes, a decimal or a \"string\", concatenated" },
	{ .name = "verify_offset", .type = OPT_SIZE, .off = O(verify_offset), .def = "0",
	  .category = "verify",
	  .help = "swap the header with the data at this offset of the unit before writing (0: not moved)" },
	{ .name = "verify_dump", .type = OPT_BOOL, .off = O(verify_dump), .def = "0",
	  .category = "verify",
	  .help = "write each failed unit as read and as expected to FILE.OFFSET.received and .expected" },
	{ .name = "verify_backlog_batch", .type = OPT_UINT, .off = O(verify_backlog_batch),
	  .def = "0", .max = 1U << 20, .category = "verify",
	  .help = "reads per verify_backlog round (0: verify_backlog's)" },
	{ .name = "verify_only", .type = OPT_BOOL, .off = O(verify_only), .def = "0",
	  .category = "verify",
	  .help = "do not write: replay the job's writes without IO and verify what an earlier run left" },
	{ .name = "verify_state_save", .type = OPT_BOOL, .off = O(verify_state_save), .def = "1",
	  .category = "verify",
	  .help = "at the end or a stop, save the last completed write of every unit to local-NAME-N-verify.state (in --aux-path)" },
	{ .name = "verify_state_load", .type = OPT_BOOL, .off = O(verify_state_load), .def = "0",
	  .category = "verify",
	  .help = "load that state first: verify only the units whose writes completed in the saved run" },
	{ .name = "verify_async", .type = OPT_UINT, .off = O(verify_async), .def = "0", .max = 256,
	  .category = "verify",
	  .help = "check the reads in this many threads of their own, the worker going on with its IO (0: the worker checks them)" },
	{ .name = "verify_async_cpus", .type = OPT_FUNC, .parse = parse_verify_async_cpus,
	  .category = "verify",
	  .help = "CPUs of the verify_async threads, as cpus_allowed (0,5,8-15)" },
	{ .name = "trim_percentage", .type = OPT_UINT, .off = O(trim_percentage), .def = "0",
	  .max = 100, .category = "verify",
	  .help = "trim again this share of the units verify writes (with trim_backlog)" },
	{ .name = "trim_backlog", .type = OPT_UINT, .off = O(trim_backlog), .def = "0",
	  .max = 1U << 20, .category = "verify",
	  .help = "trim after every N writes (0: trim_percentage trims nothing, as in fio)" },
	{ .name = "trim_backlog_batch", .type = OPT_UINT, .off = O(trim_backlog_batch),
	  .def = "0", .max = 1U << 20, .category = "verify",
	  .help = "trims per trim_backlog round (0: trim_backlog's)" },
	{ .name = "trim_verify_zero", .type = OPT_BOOL, .off = O(trim_verify_zero), .def = "1",
	  .category = "verify", .help = "trimmed units must read back as zeros (0: not read back)" },
	{ .name = "experimental_verify", .type = OPT_BOOL, .off = O(experimental_verify),
	  .def = "0", .category = "verify",
	  .help = "fio's log-free read-back; iowl's read-back is always log-free (accepted, same result)" },
	/* reporting */
	{ .name = "group_reporting", .type = OPT_BOOL, .off = O(group_reporting), .def = "0",
	  .category = "report", .help = "report a reporting group as one set of figures" },
	{ .name = "percentile_list", .type = OPT_FUNC, .parse = opt_parse_pct_list,
	  .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
	  .category = "report", .help = "latency percentiles to report, ':' separated" },
	{ .name = "clat_percentiles", .type = OPT_BOOL, .off = O(clat_percentiles), .def = "1",
	  .category = "report", .help = "report completion latency percentiles" },
	{ .name = "lat_percentiles", .type = OPT_BOOL, .off = O(lat_percentiles), .def = "0",
	  .category = "report", .help = "report total latency percentiles" },
	{ .name = "slat_percentiles", .type = OPT_BOOL, .off = O(slat_percentiles), .def = "0",
	  .category = "report", .help = "report submission latency percentiles" },
	{ .name = "write_bw_log", .type = OPT_STR, .off = O(write_bw_log), .flags = OPT_F_BARE_OK,
	  .category = "report",
	  .help = "write fio's bandwidth log NAME_bw.N.log (bare: the job's name)" },
	{ .name = "write_iops_log", .type = OPT_STR, .off = O(write_iops_log), .flags = OPT_F_BARE_OK,
	  .category = "report", .help = "write fio's IOPS log NAME_iops.N.log" },
	{ .name = "write_lat_log", .type = OPT_STR, .off = O(write_lat_log), .flags = OPT_F_BARE_OK,
	  .category = "report", .help = "write fio's latency logs NAME_slat/clat/lat.N.log (ns)" },
	{ .name = "write_hist_log", .type = OPT_STR, .off = O(write_hist_log), .flags = OPT_F_BARE_OK,
	  .category = "report",
	  .help = "write fio's completion-latency histogram log NAME_clat_hist.N.log (needs log_hist_msec)" },
	{ .name = "log_avg_msec", .type = OPT_UINT, .off = O(log_avg_msec), .def = "0",
	  .category = "report", .help = "average log entries over windows of this many ms (0: one line per IO)" },
	{ .name = "log_hist_msec", .type = OPT_UINT, .off = O(log_hist_msec), .def = "0",
	  .category = "report", .help = "write a histogram log line every this many ms" },
	{ .name = "log_hist_coarseness", .type = OPT_UINT, .off = O(log_hist_coarseness), .def = "0",
	  .max = 6, .category = "report",
	  .help = "merge 2^N adjacent bins of the histogram log (0..6)" },
	{ .name = "log_offset", .type = OPT_BOOL, .off = O(log_offset), .def = "0",
	  .category = "report", .help = "add each IO's offset to the log lines" },
	{ .name = "log_compression", .type = OPT_SIZE, .off = O(log_compression),
	  .min = 1024, .max = 512U << 20, .category = "report",
	  .help = "with log_store_compressed, deflate the logs in zlib streams of this many bytes of samples" },
	{ .name = "log_store_compressed", .type = OPT_BOOL, .off = O(log_store_compressed),
	  .def = "0", .category = "report",
	  .help = "store the logs compressed as fio does (NAME_KIND.N.log.fz; iowl --inflate-log reads them)" },
	{ .name = "per_job_logs", .type = OPT_BOOL, .off = O(per_job_logs), .def = "1",
	  .category = "report",
	  .help = "one log per clone (NAME_bw.N.log); 0: one file per name, appended to" },
	{ .name = "gtod_reduce", .type = OPT_FUNC, .parse = opt_parse_gtod_reduce, .def = "0",
	  .flags = OPT_F_BARE_OK, .category = "report",
	  .help = "1: disable_lat, disable_clat, disable_slat and disable_bw_measurement, and no latency percentiles (as fio)" },
	{ .name = "clocksource", .type = OPT_ENUM, .off = O(clocksource),
	  .values = clocksource_values, .category = "report",
	  .help = "the clock of every timestamp: cpu (the TSC), clock_gettime or gettimeofday (both CLOCK_MONOTONIC); one per run" },
	{ .name = "gtod_cpu", .type = OPT_FUNC, .parse = opt_parse_gtod_cpu, .category = "report",
	  .help = "refused: iowl reads the TSC, which a time-keeping CPU would not make cheaper" },
	{ .name = "significant_figures", .type = OPT_UINT, .off = O(sig_figs),
	  .def = "4", .min = 1, .max = 10, .category = "report",
	  .help = "digits of the IOPS, bandwidths and sizes of the normal output (1 to 10)" },
	{ .name = "unit_base", .type = OPT_ENUM, .off = O(unit_base), .def = "0",
	  .values = unit_base_values, .category = "report",
	  .help = "1: bandwidths of the normal output in bits per second; 0 or 8: bytes" },
	{ .name = "unified_rw_reporting", .type = OPT_ENUM, .off = O(unified_rw), .def = "none",
	  .values = unified_rw_values, .category = "report",
	  .help = "none, mixed (the directions reported summed, as \"mixed\") or both; 0, 1" },
	{ .name = "disable_lat", .type = OPT_BOOL, .off = O(disable_lat), .def = "0",
	  .category = "report", .help = "do not measure total latency (lat)" },
	{ .name = "disable_clat", .type = OPT_BOOL, .off = O(disable_clat), .def = "0",
	  .category = "report",
	  .help = "do not measure completion latency (clat, its buckets and the sync latency)" },
	{ .name = "disable_slat", .type = OPT_BOOL, .off = O(disable_slat), .def = "0",
	  .category = "report", .help = "do not measure submission latency (slat)" },
	{ .name = "disable_bw_measurement", .alias = "disable_bw", .type = OPT_BOOL,
	  .off = O(disable_bw), .def = "0", .category = "report",
	  .help = "no per-IO bandwidth log lines (the periodic bw samples stay, as in fio)" },
	{ .name = "stats", .type = OPT_BOOL, .off = O(stats), .def = "1", .category = "report",
	  .help = "0: the job is not measured and left out of the results (its IO still runs)" },
	{ .name = "disk_util", .type = OPT_BOOL, .off = O(disk_util), .def = "1",
	  .category = "report", .help = "0: the devices behind this job's targets are not in the disk figures" },
	{ .name = "bwavgtime", .type = OPT_TIME, .off = O(bwavgtime), .def = "500",
	  .unit_ns = NS_MS, .category = "report",
	  .help = "window of the bandwidth samples (bw_min, bw_mean ...; bare numbers are milliseconds)" },
	{ .name = "iopsavgtime", .type = OPT_TIME, .off = O(iopsavgtime), .def = "500",
	  .unit_ns = NS_MS, .category = "report",
	  .help = "window of the IOPS samples (iops_min, iops_mean ...; bare numbers are milliseconds)" },
	{ .name = "log_unix_epoch", .type = OPT_BOOL, .off = O(log_unix_epoch), .def = "0",
	  .category = "report", .help = "log times as Unix time in ms instead of from the job's start" },
	{ .name = "log_alternate_epoch", .type = OPT_BOOL, .off = O(log_alternate_epoch),
	  .def = "0", .category = "report",
	  .help = "log times in ms on the clock of log_alternate_epoch_clock_id instead of from the job's start" },
	{ .name = "log_alternate_epoch_clock_id", .type = OPT_FUNC, .parse = opt_parse_clock_id,
	  .def = "0", .category = "report",
	  .help = "the clock_gettime() clock of log_unix_epoch and log_alternate_epoch (0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, 7 CLOCK_BOOTTIME ...)" },
	{ .name = "log_entries", .type = OPT_UINT, .off = O(log_entries), .def = "1024",
	  .min = 1024, .max = 1U << 20, .category = "report",
	  .help = "lines (of 64 bytes) each log's buffer holds before it is written out" },
	{ .name = "log_max_value", .type = OPT_BOOL, .off = O(log_max_value), .def = "0",
	  .category = "report", .help = "with log_avg_msec, log each window's largest latency instead of its mean" },
	{ .name = "write_iolog", .type = OPT_STR, .off = O(write_iolog), .category = "report",
	  .help = "record every IO issued in fio's iolog version 2 format" },
	{ .name = "stonewall", .alias = "wait_for_previous", .type = OPT_BOOL, .off = O(stonewall),
	  .def = "0", .category = "report",
	  .help = "wait for the jobs before this one to finish; starts a new reporting group" },
	{ .name = "wait_for", .type = OPT_STR, .off = O(wait_for), .category = "report",
	  .help = "start once every clone of the named job (an earlier one, in this phase or before) has finished" },
	{ .name = "new_group", .type = OPT_BOOL, .off = O(new_group), .def = "0",
	  .category = "report", .help = "start a new reporting group" },
	{ .name = "kb_base", .type = OPT_FUNC, .parse = opt_parse_kb_base, .def = "1024",
	  .category = "report", .help = "1024: k means KiB (and ki means 1000, as fio); 1000: k means 1000" },
	/* io_uring */
	{ .name = "fixedbufs", .type = OPT_BOOL, .off = O(fixedbufs), .def = "0",
	  .engine = "io_uring", .category = "engine", .help = "register the IO buffers with the kernel" },
	{ .name = "registerfiles", .type = OPT_BOOL, .off = O(registerfiles), .def = "0",
	  .engine = "io_uring", .category = "engine", .help = "register the file descriptors with the kernel" },
	{ .name = "sqthread_poll", .type = OPT_BOOL, .off = O(sqthread_poll), .def = "0",
	  .engine = "io_uring", .category = "engine",
	  .help = "a kernel thread polls the submission queue (implies registerfiles)" },
	{ .name = "sqthread_poll_cpu", .type = OPT_FUNC, .parse = opt_parse_sqpoll_cpu, .def = "-1",
	  .engine = "io_uring", .category = "engine", .help = "CPU the polling thread is pinned to" },
	{ .name = "hipri", .type = OPT_BOOL, .off = O(hipri), .def = "0", .engine = "io_uring|pvsync2",
	  .category = "engine",
	  .help = "io_uring: polled completions (needs device poll queues); pvsync2: RWF_HIPRI" },
	/* pvsync2 */
	{ .name = "hipri_percentage", .type = OPT_UINT, .off = O(hipri_percentage), .def = "100",
	  .max = 100, .engine = "pvsync2", .category = "engine",
	  .help = "with hipri, the share of IOs that get RWF_HIPRI" },
	{ .name = "uncached", .type = OPT_BOOL, .off = O(uncached), .def = "0", .engine = "pvsync2",
	  .category = "engine", .help = "buffered IO that leaves no pages cached (RWF_DONTCACHE)" },
	{ .name = "nowait", .type = OPT_BOOL, .off = O(nowait), .def = "0",
	  .engine = "pvsync2|libaio|io_uring", .category = "engine",
	  .help = "RWF_NOWAIT: an IO that would block fails with EAGAIN instead" },
	/* io_uring and libaio: per-IO priorities */
	{ .name = "cmdprio_percentage", .type = OPT_FUNC, .parse = parse_cmdprio_pct, .def = "0",
	  .engine = "io_uring|libaio", .category = "engine",
	  .help = "share of reads,writes issued with the priority cmdprio_class/cmdprio (0..100)" },
	{ .name = "cmdprio_class", .type = OPT_FUNC, .parse = parse_cmdprio_class, .def = "1",
	  .engine = "io_uring|libaio", .category = "engine",
	  .help = "priority class of those IOs, per read,write: 1 real time (the default), 2 best effort, 3 idle" },
	{ .name = "cmdprio", .type = OPT_FUNC, .parse = parse_cmdprio_level, .def = "0",
	  .engine = "io_uring|libaio", .category = "engine",
	  .help = "priority level of those IOs, per read,write: 0 (highest, the default) to 7" },
	{ .name = "cmdprio_bssplit", .type = OPT_FUNC, .parse = parse_cmdprio_bssplit,
	  .engine = "io_uring|libaio", .category = "engine",
	  .help = "per block size shares with a priority: bs/pct[/class/level]:..., per read,write" },
	{ .name = "log_prio", .type = OPT_BOOL, .off = O(log_prio), .def = "0", .category = "report",
	  .help = "the logs' last column is each IO's ioprio value (0x%04x), not 1 for the real-time class" },
	{ .name = "nonvectored", .type = OPT_FUNC, .parse = opt_parse_nonvectored, .def = "-1",
	  .engine = "io_uring", .category = "engine",
	  .help = "1: READ/WRITE opcodes, 0: READV/WRITEV with one iovec, -1: READ/WRITE where the kernel has them" },
	{ .name = "force_async", .type = OPT_UINT, .off = O(force_async), .def = "0",
	  .engine = "io_uring", .category = "engine",
	  .help = "IOSQE_ASYNC on every Nth IO: the kernel hands it to a worker thread (0: none)" },
	{ .name = "userspace_reap", .type = OPT_BOOL, .off = O(userspace_reap), .def = "0",
	  .engine = "libaio", .category = "engine",
	  .help = "reap from the AIO ring in user space: a reap of min 0 (iodepth_batch_complete_min=0) makes no io_getevents(2) call, one whose completions are there already neither" },
	{ .name = "thp", .type = OPT_BOOL, .off = O(thp), .def = "0", .engine = "mmap",
	  .category = "engine",
	  .help = "madvise(MADV_HUGEPAGE) on each file's mapping: transparent huge pages where the kernel and file system have them" },
	{ .name = "atomic", .type = OPT_BOOL, .off = O(atomic), .def = "0", .category = "io",
	  .help = "fio's O_ATOMIC, which Linux does not have: as fio 3.33 on Linux, it means direct=1" },
	REFUSED("readfua", "is an option of fio's sg engine (SCSI generic devices, /dev/sgN), which iowl does not have"),
	REFUSED("writefua", "is an option of fio's sg engine (SCSI generic devices, /dev/sgN), which iowl does not have"),
	REFUSED("cmd_type", "is an option of fio's io_uring_cmd engine (NVMe passthrough to /dev/ngXnY character devices), which iowl refuses"),
	REFUSED("libaio_vectored", NEWER_THAN_FIO),
	/* replay */
	{ .name = "read_iolog", .type = OPT_STR, .off = O(read_iolog), .category = "replay",
	  .help = "replay fio iologs (version 2 or 3) or blktrace binary traces instead of generating IOs; ':' separated, one per clone in turn" },
	{ .name = "replay_no_stall", .type = OPT_BOOL, .off = O(replay_no_stall), .def = "0",
	  .category = "replay", .help = "replay as fast as possible, in order, without the log's delays" },
	{ .name = "replay_time_scale", .type = OPT_UINT, .off = O(replay_time_scale), .def = "100",
	  .min = 1, .category = "replay",
	  .help = "replay at this percentage of the log's IO rate (200: twice as fast, delays halved)" },
	{ .name = "replay_redirect", .type = OPT_STR, .off = O(replay_redirect), .category = "replay",
	  .help = "replay every IO of the log onto this one file or device" },
	{ .name = "replay_align", .type = OPT_UINT, .off = O(replay_align), .def = "0",
	  .category = "replay", .help = "round the log's offsets down to a multiple of this power of 2" },
	{ .name = "replay_scale", .type = OPT_UINT, .off = O(replay_scale), .def = "0",
	  .category = "replay", .help = "divide the log's offsets by this" },
	{ .name = "replay_skip", .type = OPT_FUNC, .parse = opt_parse_replay_skip, .category = "replay",
	  .help = "leave these actions of the log out: read, write, trim, sync (comma separated)" },
	{ .name = "merge_blktrace_file", .type = OPT_STR, .off = O(merge_blktrace_file),
	  .category = "replay",
	  .help = "merge read_iolog's blktraces into this file in the order of their events' times, and replay it" },
	{ .name = "merge_blktrace_scalars", .type = OPT_STR, .off = O(merge_blktrace_scalars),
	  .category = "replay",
	  .help = "merge_blktrace_file: each trace's times in percent, one per trace, ':' separated (50: twice as fast)" },
	{ .name = "merge_blktrace_iters", .type = OPT_STR, .off = O(merge_blktrace_iters),
	  .category = "replay",
	  .help = "merge_blktrace_file: how many times each trace runs, one after the other, ':' separated" },
	/* CPU and memory placement (src/place.c) */
	{ .name = "cpus_allowed", .type = OPT_FUNC, .parse = parse_cpus, .category = "place",
	  .help = "CPUs the job's threads may run on: a list of numbers and ranges (0,5,8-15)" },
	{ .name = "cpumask", .type = OPT_FUNC, .parse = parse_cpumask, .category = "place",
	  .help = "CPUs as a bit mask (34: CPUs 1 and 5); the same setting as cpus_allowed" },
	{ .name = "cpus_allowed_policy", .type = OPT_ENUM, .off = O(place.cpus_policy),
	  .def = "shared", .values = cpus_policy_values, .category = "place",
	  .help = "shared: every clone gets the whole set; split: one CPU each" },
	{ .name = "numa_cpu_nodes", .type = OPT_FUNC, .parse = parse_cpu_nodes,
	  .category = "place", .help = "run on the CPUs of these NUMA nodes (0,1, 0-1 or all)" },
	{ .name = "numa_mem_policy", .type = OPT_FUNC, .parse = parse_mem_policy,
	  .category = "place",
	  .help = "memory policy MODE[:NODES]: default, prefer:N, bind:NODES, interleave:NODES or local" },
	{ .name = "nice", .type = OPT_FUNC, .parse = parse_nice, .def = "0",
	  .category = "place", .help = "run the job's threads at this nice value (-20 to 19)" },
	{ .name = "prio", .type = OPT_FUNC, .parse = parse_prio, .category = "place",
	  .help = "IO priority level 0 (highest) to 7 (ioprio_set(2); class best-effort unless prioclass)" },
	{ .name = "prioclass", .type = OPT_FUNC, .parse = parse_prioclass,
	  .category = "place", .help = "IO priority class: 1 realtime, 2 best-effort, 3 idle (0: none)" },
	/* job control (src/jobctl.c) */
	{ .name = "exec_prerun", .type = OPT_STR, .off = O(exec_prerun), .category = "job",
	  .help = "shell command each clone runs before its IO, output to NAME.prerun.txt" },
	{ .name = "exec_postrun", .type = OPT_STR, .off = O(exec_postrun), .category = "job",
	  .help = "shell command each clone runs after its IO, output to NAME.postrun.txt" },
	{ .name = "uid", .type = OPT_UINT, .off = O(uid), .max = UINT32_MAX - 1, .category = "job",
	  .help = "user ID the job's threads switch to before they open their files" },
	{ .name = "gid", .type = OPT_UINT, .off = O(gid), .max = UINT32_MAX - 1, .category = "job",
	  .help = "group ID the job's threads switch to before they open their files" },
	{ .name = "error_dump", .type = OPT_BOOL, .off = O(error_dump), .def = "0",
	  .category = "errors", .help = "print every IO error as it happens, those that do not end the job too" },
	{ .name = "rate_ignore_thinktime", .type = OPT_BOOL, .off = O(rate_ignore_thinktime),
	  .def = "0", .category = "time",
	  .help = "after a thinktime stall, go on at the rate instead of catching up" },
	/* latency limits (src/lattarget.c) */
	{ .name = "max_latency", .type = OPT_FUNC, .parse = parse_max_latency, .def = "0",
	  .category = "time",
	  .help = "end the job with ETIMEDOUT when an IO takes longer, per direction (bare numbers are microseconds)" },
	{ .name = "latency_target", .type = OPT_TIME, .off = O(latency_target), .def = "0",
	  .unit_ns = NS_US, .category = "time",
	  .help = "find the deepest queue (up to iodepth) whose latency keeps this (bare numbers are microseconds)" },
	{ .name = "latency_window", .type = OPT_TIME, .off = O(latency_window), .def = "0",
	  .unit_ns = NS_US, .category = "time",
	  .help = "latency_target: how long each depth is tried (bare numbers are microseconds)" },
	{ .name = "latency_percentile", .type = OPT_FUNC, .parse = parse_latency_percentile,
	  .def = "100", .category = "time",
	  .help = "latency_target: the share of IOs in a window that must keep the target" },
	{ .name = "latency_run", .type = OPT_BOOL, .off = O(latency_run), .def = "0",
	  .category = "time",
	  .help = "latency_target: keep adjusting the depth for the whole run instead of ending once found" },
	/* IO buffer memory (src/iomem.c) */
	{ .name = "mem", .alias = "iomem", .type = OPT_FUNC, .parse = parse_iomem, .def = "malloc",
	  .category = "buffers",
	  .help = "the IO buffers' memory: malloc, shm, shmhuge, mmap[:FILE], mmaphuge[:FILE], mmapshared[:FILE]" },
	{ .name = "mem_align", .alias = "iomem_align", .type = OPT_SIZE, .off = O(iomem_align),
	  .def = "0", .max = 1U << 30, .category = "buffers",
	  .help = "the first IO buffer starts this far past a page boundary" },
	{ .name = "hugepage-size", .type = OPT_SIZE, .off = O(hugepage_size), .def = "2m",
	  .min = 4096, .category = "buffers",
	  .help = "huge page size: shmhuge and mmaphuge areas are a multiple of it" },
	{ .name = "lockmem", .type = OPT_SIZE, .off = O(lockmem), .def = "0", .category = "buffers",
	  .help = "each clone pins this much memory with mlock(2), leaving less to the page cache" },
	/* fio options iowl does not implement: naming one is an error, never ignored */
	REFUSED("thinkcycles", NEWER_THAN_FIO),
	REFUSED("percentage_sequential", "is refused by fio 3.33 too (deprecated): use percentage_random=100-N"),
	REFUSED("size_increment", NOT_IN_FIO),
	REFUSED("verify_write_sequence", NEWER_THAN_FIO),
	REFUSED("verify_header_seed", NEWER_THAN_FIO),
	REFUSED("log_compression_cpus", "places fio's background log-compression threads: iowl has none (a log is deflated a chunk at a time by the clone that writes it, with log_store_compressed)"),
	{ .name = "ioscheduler", .type = OPT_STR, .off = O(ioscheduler), .category = "files",
	  .help = "switch the block device behind each of the job's files to this IO scheduler (none, mq-deadline, kyber, bfq ...); put back when the run ends" },
	REFUSED("max_open_zones", ONLY_ZBD),
	REFUSED("job_max_open_zones", ONLY_ZBD),
	REFUSED("read_beyond_wp", ONLY_ZBD),
	REFUSED("block_error_percentiles", "is refused: its histogram counts the trims each block took until the device failed one, which needs flash that wears out under trims (no loop device or file fails a trim)"),
	REFUSED("cgroup_weight", "is refused: it sets blkio.weight of a cgroup v1 blkio controller, which this kernel no longer has (CFQ is gone; BFQ's weights are per device)"),
	{ .name = "cgroup", .type = OPT_STR, .off = O(cgroup), .category = "place",
	  .help = "each clone's thread joins this control group of the cgroup v1 blkio hierarchy (made if missing)" },
	{ .name = "cgroup_nodelete", .type = OPT_BOOL, .off = O(cgroup_nodelete), .def = "0",
	  .category = "place", .help = "keep the cgroups the run made instead of removing them at the end" },
	{ .name = "profile", .type = OPT_FUNC, .parse = opt_parse_profile, .category = "job",
	  .help = "fio's built-in job set, on the command line: --profile=tiobench (with --size=MiB, --block, --numruns, --dir, --threads) or --profile=act (--device-names=..., iowl --profile=act --cmdhelp)" },
	{ .name = "read_iolog_chunked", .type = OPT_BOOL, .off = O(read_iolog_chunked), .def = "0",
	  .category = "replay",
	  .help = "read a text read_iolog as the replay goes, a chunk of 4096 IOs at a time, instead of whole before the run (memory bounded)" },
	REFUSED("zone_reset_threshold", ONLY_ZBD),
	REFUSED("zone_reset_frequency", ONLY_ZBD),
	REFUSED("ignore_zone_limits", ONLY_ZBD),
	REFUSED("fadvise_stream", "is not a fio 3.33 option, and Linux has no POSIX_FADV_STREAMID (use write_hint)"),
	{ .name = "openfiles", .type = OPT_UINT, .off = O(openfiles), .def = "0", .max = 65536,
	  .category = "files",
	  .help = "files kept open at once (0: nrfiles); fewer: a file is opened at its first IO and closed when its pass is over" },
	{ .name = "lockfile", .type = OPT_ENUM, .off = O(lockfile), .def = "none",
	  .values = lockfile_values, .category = "files",
	  .help = "lock each file around every IO's submission, shared with the other jobs that lock it: none, exclusive, readwrite" },
	{ .name = "opendir", .type = OPT_STR, .off = O(opendir), .category = "files",
	  .help = "every regular file below this directory (recursively, symbolic links left out) is one of the job's files, after filename's" },
	REFUSED("exitall_fast", NEWER_THAN_FIO),
	{ .name = "flow", .type = OPT_UINT, .off = O(flow), .def = "0", .max = FLOW_MAX_WEIGHT,
	  .category = "job",
	  .help = "weight in the flow control of the jobs running together with the same flow_id: their IO counts keep the ratio of their weights (0: not in a flow)" },
	{ .name = "flow_id", .type = OPT_UINT, .off = O(flow_id), .def = "0", .category = "job",
	  .help = "the flow this job's flow= weight belongs to" },
	REFUSED("flow_watermark", "is not a fio 3.33 option (older fio had it; 3.33's flow keeps the jobs' shares without a watermark)"),
	{ .name = "flow_sleep", .type = OPT_TIME, .off = O(flow_sleep), .def = "0", .unit_ns = NS_US,
	  .category = "job",
	  .help = "while over its flow share: let the IOs in flight complete and wait this long before trying again (bare numbers are microseconds; 0: try again at once)" },
	{ .name = "io_submit_mode", .type = OPT_ENUM, .off = O(io_submit_mode), .def = "inline",
	  .values = submit_mode_values, .category = "io",
	  .help = "inline: the job's thread submits and reaps its IOs; offload: a pool of iodepth threads submits them, one IO each at a time" },
	{ .name = "serialize_overlap", .type = OPT_BOOL, .off = O(serialize_overlap), .def = "0",
	  .category = "io",
	  .help = "an IO that shares a byte with one of the clone's IOs in flight (same file) waits until that one completes" },
	REFUSED("ramp_size", NEWER_THAN_FIO),
	REFUSED("sprandom", NOT_IN_FIO),
	REFUSED("sig_figs", NOT_IN_FIO),
	REFUSED("write_barrier", "is refused: fio 3.33 only marks every N-th write, and none of the engines iowl has acts on the mark: Linux has had no barrier writes since 2.6.37 (use fsync=N, fdatasync=N or sync=1)"),
	{ .name = NULL },
};

/* clang-format on */
#undef UNSUPPORTED
#undef REFUSED
#undef NEWER_THAN_FIO
#undef NOT_IN_FIO
#undef ONLY_ZBD
#undef O

static const unsigned n_options = sizeof(options) / sizeof(options[0]) - 1;

const struct opt_def *opt_table(unsigned *n)
{
	if (n)
		*n = n_options;
	return options;
}

unsigned opt_count(void)
{
	return n_options;
}

unsigned opt_index(const struct opt_def *def)
{
	return (unsigned)(def - options);
}

const struct opt_def *opt_find(const char *name)
{
	for (unsigned i = 0; i < n_options; i++) {
		if (!strcmp(options[i].name, name))
			return &options[i];
		if (options[i].alias && !strcmp(options[i].alias, name))
			return &options[i];
	}
	return NULL;
}

const struct opt_def *opt_by_id(enum opt_id id)
{
	static const char *const names[] = {
#define OPT_ID_NAME(n) #n,
		OPT_IDS(OPT_ID_NAME)
#undef OPT_ID_NAME
	};
	static unsigned index[OPT_ID_NR]; /* table index + 1; 0: not looked up yet */
	unsigned i = __atomic_load_n(&index[id], __ATOMIC_RELAXED);

	if (!i) { /* threads racing here store the same value */
		const struct opt_def *def = opt_find(names[id]);

		if (!def)
			abort(); /* an OPT_IDS name missing from the table: test_options fails first */
		i = opt_index(def) + 1;
		__atomic_store_n(&index[id], i, __ATOMIC_RELAXED);
	}
	return &options[i - 1];
}

const char *const *opt_names(size_t *n)
{
	/* Built once per process from a const table: the array is immutable afterwards. */
	static const char *names[2 * sizeof(options) / sizeof(options[0])];
	static size_t count;

	if (!count) {
		size_t c = 0;

		for (unsigned i = 0; i < n_options; i++) {
			names[c++] = options[i].name;
			if (options[i].alias)
				names[c++] = options[i].alias;
		}
		count = c;
	}
	*n = count;
	return names;
}

static int apply_enum(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	const char *names[64];
	const char *best;
	char list[VAL_WHY_LEN / 2];
	size_t n = 0, k = 0;

	for (const struct opt_value *e = def->values; e->name && k < 64; e++)
		if (e->value != OPT_VALUE_REFUSED)
			names[k++] = e->name;
	best = v ? suggest_closest(v, names, k) : NULL;
	for (const struct opt_value *e = def->values; e->name; e++) {
		if (e->value == OPT_VALUE_REFUSED && v && !strcmp(e->name, v)) {
			snprintf(why, VAL_WHY_LEN, "'%s' is not supported: %s", v, e->help);
			return -EINVAL;
		}
		if (e->value == OPT_VALUE_REFUSED)
			continue;
		if (v && !strcmp(e->name, v) && def->type == OPT_ENUM) {
			*(unsigned *)opt_field(o, def) = e->value;
			return 0;
		}
		if (v && !strcmp(e->name, v)) {
			char *dup = strdup(v);
			char **slot = opt_field(o, def);

			if (!dup)
				return -ENOMEM;
			free(*slot);
			*slot = dup;
			return 0;
		}
		/* A long list is cut short; later values must still match. */
		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "",
					      e->name);
	}
	snprintf(why, VAL_WHY_LEN, "'%s' is not a valid value (use one of: %s%s%s%s)", v ? v : "",
		 list, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
	return -EINVAL;
}

static int apply_number(const struct opt_def *def, struct job_opts *o, const char *v, char *why)
{
	uint64_t n;
	int ret;

	if (def->type == OPT_SIZE)
		ret = val_parse_size(v, o->kb_base, &n, why);
	else
		ret = val_parse_u64(v, &n, why);
	if (ret)
		return ret;
	if (n < def->min || (def->max && n > def->max)) {
		if (def->max)
			snprintf(why, VAL_WHY_LEN, "%s is out of range (%llu to %llu)", v,
				 (unsigned long long)def->min, (unsigned long long)def->max);
		else
			snprintf(why, VAL_WHY_LEN, "%s is out of range (at least %llu)", v,
				 (unsigned long long)def->min);
		return -ERANGE;
	}
	if (def->type == OPT_UINT) {
		if (n > UINT32_MAX) {
			snprintf(why, VAL_WHY_LEN, "%s is too large (at most %u)", v, UINT32_MAX);
			return -ERANGE;
		}
		*(unsigned *)opt_field(o, def) = (unsigned)n;
	} else {
		*(uint64_t *)opt_field(o, def) = n;
	}
	return 0;
}

static int apply_dir_size(const struct opt_def *def, struct job_opts *o, const char *v,
			  char *why)
{
	uint64_t vals[3];
	uint64_t *out = opt_field(o, def);
	void *ctx[2] = { o, vals };
	unsigned mask = 0;
	int ret;

	memcpy(vals, out, sizeof(vals));
	ret = val_parse_per_dir(v, opt_one_dir_size, ctx, &mask, why);
	if (ret)
		return ret;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		if ((mask & (1U << d)) && vals[d] < def->min) {
			snprintf(why, VAL_WHY_LEN, "'%s': a size of 0 is not allowed (e.g. 4k)", v);
			return -ERANGE;
		}
		if (def->max && vals[d] > def->max) {
			snprintf(why, VAL_WHY_LEN, "'%s': sizes above 4 GiB are not supported", v);
			return -ERANGE;
		}
	}
	memcpy(out, vals, sizeof(vals));
	return 0;
}

int opt_apply(const struct opt_def *def, struct job_opts *o, const char *value, char *why)
{
	why[0] = '\0';
	if (!value && def->type != OPT_BOOL && def->type != OPT_UNSUPPORTED &&
	    !(def->flags & OPT_F_BARE_OK)) {
		snprintf(why, VAL_WHY_LEN, "needs a value (%s=...)", def->name);
		return -EINVAL;
	}
	switch (def->type) {
	case OPT_STR: {
		char *dup = strdup(value ? value : "");	/* a bare key (OPT_F_BARE_OK) is "" */
		char **slot = opt_field(o, def);

		if (!dup)
			return -ENOMEM;
		free(*slot);
		*slot = dup;
		return 0;
	}
	case OPT_BOOL: return val_parse_bool(value, opt_field(o, def), why);
	case OPT_UINT:
	case OPT_U64:
	case OPT_SIZE:
		return apply_number(def, o, value, why);
	case OPT_SIZE_PCT: return val_parse_size_pct(value, o->kb_base, opt_field(o, def), why);
	case OPT_TIME: return val_parse_time_ns(value, def->unit_ns, opt_field(o, def), why);
	case OPT_ENUM:
	case OPT_ENUM_STR:
		return apply_enum(def, o, value, why);
	case OPT_DIR_SIZE:
		return apply_dir_size(def, o, value, why);
	case OPT_FUNC:
		return def->parse(def, o, value, why);
	case OPT_UNSUPPORTED:
		snprintf(why, VAL_WHY_LEN, "%s",
			 def->help ? def->help : "is a fio option iowl does not support yet");
		return -EINVAL;
	}
	return -EINVAL;
}

int opt_set_defaults(struct job_opts *o)
{
	char why[VAL_WHY_LEN];

	memset(o, 0, sizeof(*o));
	o->kb_base = 1024;
	for (unsigned i = 0; i < n_options; i++) {
		const struct opt_def *def = &options[i];
		int ret;

		if (!def->def || def->type == OPT_UNSUPPORTED)
			continue;
		ret = opt_apply(def, o, def->def, why);
		if (ret) {
			/* A bad default is a bug in the table: fail loudly in every build. */
			fprintf(stderr, "iowl: internal error: default of '%s': %s\n", def->name, why);
			return ret;
		}
	}
	return 0;
}

void opt_release(struct job_opts *o)
{
	for (unsigned i = 0; i < n_options; i++) {
		if (options[i].type == OPT_STR || options[i].type == OPT_ENUM_STR) {
			char **slot = opt_field(o, &options[i]);

			free(*slot);
			*slot = NULL;
		}
	}
}

int opt_copy(struct job_opts *dst, const struct job_opts *src)
{
	memcpy(dst, src, sizeof(*dst));
	for (unsigned i = 0; i < n_options; i++) {
		const struct opt_def *def = &options[i];
		char **slot;

		if (def->type != OPT_STR && def->type != OPT_ENUM_STR)
			continue;
		slot = opt_field(dst, def);
		if (*slot && !(*slot = strdup(*slot))) {
			/* Make the rest safe to release, then fail. */
			for (unsigned j = i + 1; j < n_options; j++)
				if (options[j].type == OPT_STR || options[j].type == OPT_ENUM_STR)
					*(char **)opt_field(dst, &options[j]) = NULL;
			opt_release(dst);
			return -ENOMEM;
		}
	}
	return 0;
}

void opt_describe_type(const struct opt_def *def, char *buf, size_t len)
{
	static const char *const names[] = {
		[OPT_STR] = "text", [OPT_BOOL] = "bool", [OPT_UINT] = "int",
		[OPT_U64] = "int", [OPT_SIZE] = "size", [OPT_SIZE_PCT] = "size or N%",
		[OPT_TIME] = "time", [OPT_ENUM] = "enum", [OPT_ENUM_STR] = "enum",
		[OPT_DIR_SIZE] = "size[,size[,size]]",
		[OPT_FUNC] = "text", [OPT_UNSUPPORTED] = "unsupported",
	};
	size_t n = 0;

	if (def->type != OPT_ENUM && def->type != OPT_ENUM_STR) {
		snprintf(buf, len, "%s", names[def->type]);
		return;
	}
	buf[0] = '\0';
	for (const struct opt_value *e = def->values; e->name && n < len; e++)
		if (e->value != OPT_VALUE_REFUSED)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "", e->name);
}
