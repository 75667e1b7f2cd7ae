// SPDX-License-Identifier: GPL-2.0
/*
 * The same CPU work, timed on the host and in the guest
 *
 * make bench scales a real disk's latency by how much slower the guest's
 * CPU runs than the host's (TCG): a page kept in RAM then saves the guest
 * what it would save a real machine.  This program times, per 4 KiB page,
 * lz4 compressing and decompressing the pages of the guest's corpus (what
 * a compressed cache does for each page), and copying pages from one
 * 24 MiB buffer to another, past most CPUs' caches and within what the
 * guest's RAM holds without swap, with rep movsq as the kernel's
 * copy_page() does (glibc's memcpy would take vector code that TCG
 * emulates at another cost than the kernel's copies).  Each is run
 * five times and the fastest run counts.  Built static with Debian's
 * liblz4.a, so the host and the guest run the same code.
 *
 *	zcalib [CORPUS-FILE...]
 * prints "lz4_ns=N copy_ns=N" (nanoseconds per page).
 */
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAGE 4096
#define REPEAT 5
#define COPY_BYTES (24UL << 20)

/* One page, as x86-64's copy_page() without ERMS copies it. */
static void copy_page_movsq(void *to, const void *from)
{
	unsigned long n = PAGE / 8;

	asm volatile("rep movsq" : "+D" (to), "+S" (from), "+c" (n) : : "memory");
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static char *load(int argc, char **argv, size_t *len)
{
	static const char * const dflt[] = { "/corpus/text", "/corpus/bin" };
	int i, n = argc > 1 ? argc - 1 : 2;
	char *buf = NULL;
	size_t size = 0;

	for (i = 0; i < n; i++) {
		const char *name = argc > 1 ? argv[i + 1] : dflt[i];
		FILE *f = fopen(name, "rb");
		size_t got;

		if (!f) {
			perror(name);
			exit(1);
		}
		for (;;) {
			buf = realloc(buf, size + (1 << 20));
			if (!buf)
				exit(1);
			got = fread(buf + size, 1, 1 << 20, f);
			size += got;
			if (got < (1 << 20))
				break;
		}
		fclose(f);
	}
	*len = size / PAGE * PAGE;
	if (!*len) {
		fprintf(stderr, "zcalib: empty corpus\n");
		exit(1);
	}
	return buf;
}

int main(int argc, char **argv)
{
	char dst[LZ4_COMPRESSBOUND(PAGE)], out[PAGE];
	double best_lz4 = 1e30, best_copy = 1e30, t;
	size_t len, off, pages;
	char *corpus = load(argc, argv, &len);
	char *a = malloc(COPY_BYTES), *b = malloc(COPY_BYTES);
	unsigned long sum = 0;
	int r;

	if (!a || !b)
		return 1;
	memset(a, 1, COPY_BYTES);
	memset(b, 2, COPY_BYTES);
	pages = len / PAGE;
	for (r = 0; r < REPEAT; r++) {
		t = now_ns();
		for (off = 0; off < len; off += PAGE) {
			int c = LZ4_compress_default(corpus + off, dst, PAGE,
						     sizeof(dst));
			int d = LZ4_decompress_safe(dst, out, c, PAGE);

			if (c <= 0 || d != PAGE || memcmp(out, corpus + off, PAGE)) {
				fprintf(stderr, "zcalib: lz4 failed at %zu\n", off);
				return 1;
			}
		}
		t = (now_ns() - t) / pages;
		if (t < best_lz4)
			best_lz4 = t;

		t = now_ns();
		for (off = 0; off < COPY_BYTES; off += PAGE) {
			copy_page_movsq(b + off, a + off);
			sum += (unsigned char)b[off];
		}
		t = (now_ns() - t) / (COPY_BYTES / PAGE);
		if (t < best_copy)
			best_copy = t;
	}
	printf("lz4_ns=%.0f copy_ns=%.1f\n", best_lz4, best_copy);
	return sum == 0;	/* keeps the copies */
}
