// SPDX-License-Identifier: MIT
/* Unit tests for the write guard (src/guard.c): files, signatures in images, a fake /sys and /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "iowl/guard.h"

#define IMG_SIZE (1u << 20)

/* A scratch directory holding images and a fake root with sys/ and proc/. */
struct rig {
	char dir[256];
};

static void has(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("message '%s' lacks '%s'", text, needle);
}

static void path_in(const struct rig *rig, const char *rel, char *buf)
{
	snprintf(buf, PATH_MAX, "%s/%s", rig->dir, rel);
}

/* Writes text to rig->dir/rel, creating the directories on the way. */
static void put(const struct rig *rig, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	path_in(rig, rel, path);
	for (char *p = path + strlen(rig->dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void link_in(const struct rig *rig, const char *target, const char *rel)
{
	char path[PATH_MAX];

	path_in(rig, rel, path);
	if (symlink(target, path))
		fail_msg("symlink %s: %s", path, strerror(errno));
}

/*
 * The fake tree: loop3 (7:3) with partitions loop3p1 (259:0) and loop3p2 (259:1), linked from
 * sys/dev/block as in the kernel; 8:0 has no sysfs entry.
 */
static int rig_setup(void **state)
{
	struct rig *rig = calloc(1, sizeof(*rig));
	const char *tmp = getenv("TMPDIR");

	if (!rig)
		return -1;
	snprintf(rig->dir, sizeof(rig->dir), "%s/iowl-guard.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(rig->dir))
		return -1;
	put(rig, "sys/devices/virtual/block/loop3/dev", "7:3\n");
	put(rig, "sys/devices/virtual/block/loop3/queue/logical_block_size", "512\n");
	put(rig, "sys/devices/virtual/block/loop3/holders/.keep", "");
	put(rig, "sys/devices/virtual/block/loop3/loop3p1/dev", "259:0\n");
	put(rig, "sys/devices/virtual/block/loop3/loop3p1/partition", "1\n");
	put(rig, "sys/devices/virtual/block/loop3/loop3p2/dev", "259:1\n");
	put(rig, "sys/devices/virtual/block/loop3/loop3p2/partition", "2\n");
	put(rig, "sys/dev/block/.keep", "");
	link_in(rig, "../../devices/virtual/block/loop3", "sys/dev/block/7:3");
	link_in(rig, "../../devices/virtual/block/loop3/loop3p1", "sys/dev/block/259:0");
	link_in(rig, "../../devices/virtual/block/loop3/loop3p2", "sys/dev/block/259:1");
	put(rig, "proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	*state = rig;
	return 0;
}

static int rig_teardown(void **state)
{
	struct rig *rig = *state;
	char cmd[PATH_MAX + 16];
	int r;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", rig->dir);
	r = system(cmd);
	free(rig);
	return r ? -1 : 0;
}

static const char mounts_none[] =
	"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
	"28 27 0:5 / /dev rw,nosuid shared:2 - devtmpfs devtmpfs rw,size=1024k\n"
	"29 27 0:22 / /proc rw - proc proc rw\n";

/* Runs guard_check_mounts() for dev on the fake tree with this mountinfo. */
static int mounts(const struct rig *rig, const char *mountinfo, dev_t dev, const char *path,
		  struct iowl_err *err)
{
	put(rig, "proc/self/mountinfo", mountinfo);
	err->text[0] = '\0';
	return guard_check_mounts(path, dev, rig->dir, err);
}

static void test_char_device_passes(void **state)
{
	struct iowl_err err = {""};

	assert_int_equal(guard_check_write("/dev/null", 0, &err), 0);
	assert_int_equal(guard_check_write("/dev/zero", GUARD_ALLOW_MOUNTED, &err), 0);
	assert_string_equal(err.text, "");
}

static void test_missing_path(void **state)
{
	const struct rig *rig = *state;
	struct iowl_err err = {""};
	char path[PATH_MAX];

	path_in(rig, "no/such/file", path);
	assert_int_equal(guard_check_write(path, 0, &err), -ENOENT);
	has(err.text, path);
	has(err.text, "No such file or directory");
	/* Allowing everything does not make a missing path exist. */
	assert_int_equal(guard_check_write(path, GUARD_ALLOW_ALL, &err), -ENOENT);
}

/* A run's set keeps only block devices, and tells a missing path from one that passes. */
static void test_set_keeps_devices_only(void **state)
{
	const struct rig *rig = *state;
	struct iowl_err err = {""};
	struct guard_set set;
	char path[PATH_MAX];

	guard_set_init(&set);
	assert_int_equal(guard_set_check(&set, "/dev/null", 0, true, &err), 0);
	path_in(rig, "no/such/file", path);
	assert_int_equal(guard_set_check(&set, path, GUARD_ALLOW_ALL, true, &err), -ENOENT);
	has(err.text, "No such file or directory");
	assert_int_equal(set.n, 0);
	guard_set_release(&set);
	assert_null(set.v);
}

/* Creates an IMG_SIZE sparse image, writes the given chunks into it and opens it read-only. */
static int image(const struct rig *rig, const char *name, const void *const *chunks,
		 const size_t *offs, const size_t *lens, size_t n)
{
	char path[PATH_MAX];
	int fd;

	path_in(rig, name, path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, IMG_SIZE), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(pwrite(fd, chunks[i], lens[i], (off_t)offs[i]), (ssize_t)lens[i]);
	return fd;
}

static int signature(int fd, const char *name, struct iowl_err *err)
{
	int r;

	err->text[0] = '\0';
	r = guard_check_signature(name, fd, err);
	close(fd);
	return r;
}

/* An ext2 superblock (at 1024): magic 0xEF53 at 56, revision 1, the label at 120. */
static void ext2_sb(unsigned char *sb, const char *label)
{
	memset(sb, 0, 1024);
	sb[56] = 0x53;
	sb[57] = 0xef;
	sb[76] = 1;
	memcpy(sb + 120, label, strlen(label));
}

/* A DOS MBR with one Linux partition from sector 64 to the end of the image. */
static void dos_mbr(unsigned char *mbr)
{
	uint32_t start = 64, count = IMG_SIZE / 512 - 64;

	memset(mbr, 0, 512);
	mbr[446 + 4] = 0x83;
	for (int i = 0; i < 4; i++) {
		mbr[446 + 8 + i] = (unsigned char)(start >> (8 * i));
		mbr[446 + 12 + i] = (unsigned char)(count >> (8 * i));
	}
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
}

/* A regular file passes whatever it holds: it is not a device another system mounts. */
static void test_regular_file_passes(void **state)
{
	const struct rig *rig = *state;
	unsigned char sb[1024];
	const void *chunks[] = {sb};
	size_t offs[] = {1024}, lens[] = {sizeof(sb)};
	struct iowl_err err = {""};
	char path[PATH_MAX];

	ext2_sb(sb, "data");
	close(image(rig, "file.img", chunks, offs, lens, 1));
	path_in(rig, "file.img", path);
	assert_int_equal(guard_check_write(path, 0, &err), 0);
	assert_int_equal(guard_check_write(path, GUARD_ALLOW_ALL, &err), 0);
	assert_string_equal(err.text, "");
}

static void test_signature_blank(void **state)
{
	struct iowl_err err;

	assert_int_equal(signature(image(*state, "blank.img", NULL, NULL, NULL, 0), "blank", &err),
			 0);
	assert_string_equal(err.text, "");
}

static void test_signature_filesystem(void **state)
{
	unsigned char sb[1024];
	const void *chunks[] = {sb};
	size_t offs[] = {1024}, lens[] = {sizeof(sb)};
	struct iowl_err err;
	int fd;

	ext2_sb(sb, "data");
	fd = image(*state, "ext2.img", chunks, offs, lens, 1);
	assert_int_equal(signature(fd, "/dev/loop3", &err), -EEXIST);
	has(err.text,
	    "'/dev/loop3' holds an ext2 filesystem (label 'data'); writing would destroy it");
	has(err.text, "(set allow_signature_write=1 to write anyway)");
}

static void test_signature_partition_table(void **state)
{
	unsigned char mbr[512];
	const void *chunks[] = {mbr};
	size_t offs[] = {0}, lens[] = {sizeof(mbr)};
	struct iowl_err err;
	int fd;

	dos_mbr(mbr);
	fd = image(*state, "dos.img", chunks, offs, lens, 1);
	assert_int_equal(signature(fd, "/dev/sdb", &err), -EEXIST);
	has(err.text, "'/dev/sdb' holds a dos partition table; writing would destroy it");
	has(err.text, "allow_signature_write=1");
}

static void test_signature_swap(void **state)
{
	unsigned char hdr[48] = {1, 0, 0, 0, 0xff, 0x3f}; /* version 1, last page 0x3fff */
	const void *chunks[] = {hdr, "SWAPSPACE2"};
	size_t offs[] = {1024, 4096 - 10}, lens[] = {sizeof(hdr), 10};
	struct iowl_err err;
	int fd;

	memcpy(hdr + 28, "sw", 2);
	fd = image(*state, "swap.img", chunks, offs, lens, 2);
	assert_int_equal(signature(fd, "/dev/sdc", &err), -EEXIST);
	has(err.text, "'/dev/sdc' holds a swap signature (label 'sw')");
}

static void test_signature_bad_fd(void **state)
{
	struct iowl_err err = {""};
	int r = guard_check_signature("/dev/gone", -1, &err);

	assert_true(r < 0 && r != -EEXIST);
	has(err.text, "'/dev/gone'");
}

static void test_not_mounted(void **state)
{
	struct iowl_err err;

	assert_int_equal(mounts(*state, mounts_none, makedev(7, 3), "/dev/loop3", &err), 0);
	assert_string_equal(err.text, "");
}

static void test_disk_mounted(void **state)
{
	static const char mi[] = "27 1 254:0 / / rw - ext4 /dev/vda rw\n"
				 "40 27 7:3 / /mnt/my\\040data rw,relatime - ext4 /dev/loop3 rw\n";
	struct iowl_err err;

	assert_int_equal(mounts(*state, mi, makedev(7, 3), "/dev/loop3", &err), -EBUSY);
	assert_string_equal(err.text, "'/dev/loop3' is mounted at /mnt/my data; writing would "
				      "corrupt it (set allow_mounted_write=1 to write anyway)");
}

static void test_bind_mounts_counted(void **state)
{
	static const char mi[] = "40 27 7:3 / /a rw - ext4 /dev/loop3 rw\n"
				 "41 27 7:3 /sub /b rw - ext4 /dev/loop3 rw\n"
				 "42 27 7:3 /sub /c rw - ext4 /dev/loop3 rw\n";
	struct iowl_err err;

	assert_int_equal(mounts(*state, mi, makedev(7, 3), "/dev/loop3", &err), -EBUSY);
	has(err.text, "is mounted at /a (and 2 other mounts);");
}

static void test_partition_mounted(void **state)
{
	static const char mi[] =
		"27 1 254:0 / / rw - ext4 /dev/vda rw\n"
		"40 27 259:1 / /boot rw shared:7 master:2 - vfat /dev/loop3p2 rw\n";
	struct iowl_err err;

	assert_int_equal(mounts(*state, mi, makedev(7, 3), "/dev/loop3", &err), -EBUSY);
	has(err.text, "'/dev/loop3p2', a partition of '/dev/loop3', is mounted at /boot;");
	has(err.text, "allow_mounted_write=1");
}

/* A partition is checked alone: its disk and sibling partitions being mounted do not count. */
static void test_partition_alone(void **state)
{
	static const char mi[] = "40 27 7:3 / /disk rw - ext4 /dev/loop3 rw\n"
				 "41 27 259:1 / /boot rw - vfat /dev/loop3p2 rw\n";
	struct iowl_err err;

	assert_int_equal(mounts(*state, mi, makedev(259, 0), "/dev/loop3p1", &err), 0);
	assert_int_equal(mounts(*state, mi, makedev(259, 1), "/dev/loop3p2", &err), -EBUSY);
	assert_string_equal(err.text,
			    "'/dev/loop3p2' is mounted at /boot; writing would corrupt it "
			    "(set allow_mounted_write=1 to write anyway)");
}

/* btrfs shows an anonymous device number (0:NN) in field 3: the source names the device. */
static void test_anonymous_devno(void **state)
{
	static const char mi[] = "40 27 0:45 / /srv rw - btrfs /dev/loop3p1 rw,space_cache\n";
	static const char other[] = "40 27 0:46 / /tmp rw - tmpfs tmpfs rw\n"
				    "41 27 0:47 / /x rw - btrfs /dev/loop33 rw\n";
	struct iowl_err err;

	assert_int_equal(mounts(*state, mi, makedev(7, 3), "/dev/loop3", &err), -EBUSY);
	has(err.text, "'/dev/loop3p1', a partition of '/dev/loop3', is mounted at /srv;");
	assert_int_equal(mounts(*state, other, makedev(7, 3), "/dev/loop3", &err), 0);
}

static void test_swap(void **state)
{
	const struct rig *rig = *state;
	struct iowl_err err;

	put(rig, "proc/swaps",
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/swapfile                               file\t\t1048572\t\t0\t\t-2\n"
	    "/dev/loop3p1                            partition\t1048572\t\t0\t\t-3\n");
	assert_int_equal(mounts(rig, mounts_none, makedev(7, 3), "/dev/loop3", &err), -EBUSY);
	has(err.text, "'/dev/loop3p1', a partition of '/dev/loop3', is in use as swap;");
	has(err.text, "allow_mounted_write=1");
	assert_int_equal(mounts(rig, mounts_none, makedev(259, 1), "/dev/loop3p2", &err), 0);
	put(rig, "proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
}

/* A kernel without swap has no /proc/swaps; a missing mountinfo is an error, never a pass. */
static void test_missing_proc_files(void **state)
{
	const struct rig *rig = *state;
	char path[PATH_MAX];
	struct iowl_err err;

	path_in(rig, "proc/swaps", path);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mounts(rig, mounts_none, makedev(7, 3), "/dev/loop3", &err), 0);
	put(rig, "proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");

	put(rig, "proc/self/mountinfo", "");
	path_in(rig, "proc/self/mountinfo", path);
	assert_int_equal(unlink(path), 0);
	err.text[0] = '\0';
	assert_int_equal(guard_check_mounts("/dev/loop3", makedev(7, 3), rig->dir, &err), -ENOENT);
	has(err.text, "mountinfo to tell whether '/dev/loop3' is mounted: No such file");
}

/* Without a sysfs entry only the device itself is looked for. */
static void test_no_sysfs_entry(void **state)
{
	static const char mi[] = "40 27 8:0 / /data rw - xfs /dev/sda rw\n"
				 "41 27 8:1 / /boot rw - xfs /dev/sda1 rw\n";
	struct iowl_err err;

	assert_int_equal(mounts(*state, mi, makedev(8, 0), "/dev/sda", &err), -EBUSY);
	has(err.text, "'/dev/sda' is mounted at /data;");
	assert_int_equal(mounts(*state, mi, makedev(8, 16), "/dev/sdb", &err), 0);
}

/* Lines that do not parse are skipped, not trusted and not fatal. */
static void test_garbage_lines(void **state)
{
	static const char mi[] = "\n"
				 "garbage\n"
				 "1 2 x:y / /nowhere rw - ext4 /dev/loop3 rw\n"
				 "40 27 0:45 / /srv rw\n"
				 "41 27 7:3 / /ok rw - ext4 /dev/loop3 rw";
	struct iowl_err err;

	assert_int_equal(mounts(*state, mi, makedev(7, 3), "/dev/loop3", &err), -EBUSY);
	has(err.text, "is mounted at /ok;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_file_passes),
		cmocka_unit_test(test_char_device_passes),
		cmocka_unit_test(test_missing_path),
		cmocka_unit_test(test_set_keeps_devices_only),
		cmocka_unit_test(test_signature_blank),
		cmocka_unit_test(test_signature_filesystem),
		cmocka_unit_test(test_signature_partition_table),
		cmocka_unit_test(test_signature_swap),
		cmocka_unit_test(test_signature_bad_fd),
		cmocka_unit_test(test_not_mounted),
		cmocka_unit_test(test_disk_mounted),
		cmocka_unit_test(test_bind_mounts_counted),
		cmocka_unit_test(test_partition_mounted),
		cmocka_unit_test(test_partition_alone),
		cmocka_unit_test(test_anonymous_devno),
		cmocka_unit_test(test_swap),
		cmocka_unit_test(test_missing_proc_files),
		cmocka_unit_test(test_no_sysfs_entry),
		cmocka_unit_test(test_garbage_lines),
	};

	return cmocka_run_group_tests(tests, rig_setup, rig_teardown);
}
