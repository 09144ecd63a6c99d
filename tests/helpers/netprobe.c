// SPDX-License-Identifier: MIT
/*
 * Test helper for the HTTP tests (127.0.0.1 only):
 *   netprobe freeport              prints a TCP port free on 127.0.0.1 now
 *   netprobe hold PORT N SECONDS   opens N connections that each send half a request line
 *                                  and then nothing, holds them SECONDS, prints how many opened
 *   netprobe bigheader PORT BYTES  sends GET /metrics with a header of BYTES bytes and prints
 *                                  the response's status code, or "closed"
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int dial(unsigned port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "freeport")) {
		struct sockaddr_in a = { .sin_family = AF_INET };
		socklen_t len = sizeof(a);
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
		    getsockname(fd, (struct sockaddr *)&a, &len))
			return 1;
		printf("%u\n", ntohs(a.sin_port));
		close(fd);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "hold")) {
		unsigned port = (unsigned)atoi(argv[2]), n = (unsigned)atoi(argv[3]), ok = 0;
		int *fd = calloc(n ? n : 1, sizeof(*fd));

		for (unsigned i = 0; fd && i < n; i++)
			if ((fd[i] = dial(port)) >= 0 && write(fd[i], "GET /met", 8) == 8)
				ok++;
		printf("%u\n", ok);
		fflush(stdout);
		sleep((unsigned)atoi(argv[4]));
		for (unsigned i = 0; fd && i < n; i++)
			if (fd[i] >= 0)
				close(fd[i]);
		free(fd);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "bigheader")) {
		size_t n = (size_t)atol(argv[3]);
		char *h = malloc(n + 64), resp[64] = "";
		int fd = dial((unsigned)atoi(argv[2]));
		ssize_t got = 0;

		if (!h || fd < 0)
			return 1;
		memset(h, 'x', n + 64);
		memcpy(h, "X-Big: ", 7);
		dprintf(fd, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		for (size_t off = 0; off < n;) {
			ssize_t w = write(fd, h + (off ? 7 : 0), n - off > 4096 ? 4096 : n - off);

			if (w <= 0)
				break;
			off += (size_t)w;
		}
		if (write(fd, "\r\n\r\n", 4) == 4)
			got = read(fd, resp, sizeof(resp) - 1);
		if (got > 12 && !strncmp(resp, "HTTP/1.", 7))
			printf("%.3s\n", resp + 9);
		else
			printf("closed\n");
		free(h);
		close(fd);
		return 0;
	}
	fprintf(stderr, "usage: netprobe freeport | hold PORT N SECONDS | bigheader PORT BYTES\n");
	return 2;
}
