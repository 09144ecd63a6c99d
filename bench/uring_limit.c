// SPDX-License-Identifier: MIT
/*
 * The kernel-side limit of io_uring random reads: the least a program can do per IO (no stats,
 * no clock, no generator beyond one xorshift), with the ring set up as iowl sets its up
 * (SINGLE_ISSUER | DEFER_TASKRUN, else COOP_TASKRUN; the ring fd registered).  bench/uring_limit.sh
 * runs it beside iowl and fio on the same loop device.
 *
 *   uring_limit DEVICE [SECONDS [IODEPTH [BS]]]	(defaults 5 s, 32, 4096)
 *
 * Prints one line: "ios N seconds S iops I usr_s U sys_s Y".
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int setup(struct io_uring *ring, unsigned depth)
{
	static const unsigned tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
		0,
	};
	int r = -EINVAL;

	for (unsigned i = 0; i < 3 && r == -EINVAL; i++)
		r = io_uring_queue_init(depth, ring, tries[i]);
	if (!r)
		io_uring_register_ring_fd(ring);
	return r;
}

int main(int argc, char **argv)
{
	double secs = argc > 2 ? atof(argv[2]) : 5.0;
	unsigned depth = argc > 3 ? (unsigned)atoi(argv[3]) : 32;
	unsigned bs = argc > 4 ? (unsigned)atoi(argv[4]) : 4096;
	uint64_t size = 0, blocks, x = 0x9e3779b97f4a7c15ULL, ios = 0;
	struct io_uring ring;
	struct rusage ru;
	char *bufs;
	double t0, t1;
	int fd, r;

	if (argc < 2 || !depth || !bs || secs <= 0) {
		fprintf(stderr, "usage: uring_limit DEVICE [SECONDS [IODEPTH [BS]]]\n");
		return 1;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 || size < bs) {
		fprintf(stderr, "uring_limit: %s: %s\n", argv[1],
			fd < 0 ? strerror(errno) : "not a block device of at least one block");
		return 1;
	}
	blocks = size / bs;
	r = setup(&ring, depth);
	if (r < 0 || posix_memalign((void **)&bufs, 4096, (size_t)depth * bs)) {
		fprintf(stderr, "uring_limit: setup: %s\n", strerror(r < 0 ? -r : ENOMEM));
		return 1;
	}
	t0 = now_s();
	for (unsigned i = 0; i < depth; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		io_uring_prep_read(sqe, fd, bufs + (size_t)i * bs, bs, (x % blocks) * bs);
		sqe->user_data = i;
	}
	for (unsigned n = 0;; n++) {
		struct io_uring_cqe *cqe;
		unsigned head, got = 0;

		r = io_uring_submit_and_wait(&ring, 1);
		if (r < 0 && r != -EINTR) {
			fprintf(stderr, "uring_limit: submit: %s\n", strerror(-r));
			return 1;
		}
		io_uring_for_each_cqe(&ring, head, cqe)
		{
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			unsigned i = (unsigned)cqe->user_data;

			if (cqe->res != (int)bs) {
				fprintf(stderr, "uring_limit: read: %s\n",
					cqe->res < 0 ? strerror(-cqe->res) : "short");
				return 1;
			}
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			io_uring_prep_read(sqe, fd, bufs + (size_t)i * bs, bs, (x % blocks) * bs);
			sqe->user_data = i;
			got++;
		}
		io_uring_cq_advance(&ring, got);
		ios += got;
		/* the clock once per 256 reaps: a few ns per IO at most */
		if (!(n & 255) && now_s() - t0 >= secs)
			break;
	}
	t1 = now_s();
	getrusage(RUSAGE_SELF, &ru);
	printf("ios %llu seconds %.3f iops %.0f usr_s %.3f sys_s %.3f\n", (unsigned long long)ios,
	       t1 - t0, (double)ios / (t1 - t0),
	       (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6,
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6);
	io_uring_queue_exit(&ring);
	free(bufs);
	close(fd);
	return 0;
}
