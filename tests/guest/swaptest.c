// SPDX-License-Identifier: GPL-2.0
/*
 * swaptest - swap workloads for the zcache test VM, verified byte for byte
 *
 * Every page gets content that is a pure function of (seed, page index,
 * version), so a read-back can be checked against a freshly generated
 * copy.  Each non-zero page starts with its index and version, so a page
 * returned for the wrong slot is caught even if its kind matches.
 *
 * usage: swaptest MODE [-m MB] [-t THREADS] [-o OPS] [-s SEED]
 *                      [-c CORPUSDIR] [-C CHECKPOINTDIR] [-F] [-Z PCT] [-B N]
 *                      [-R N] [-H]
 * MODE: mixed | zero | random | threads | fork | pageout | thp | hotcold |
 *       churn | rezero | rewrite
 *       swapon DEVICE PRIORITY (busybox's swapon takes no priority)
 *       latency DEVICE N: N O_DIRECT 4 KiB writes of distinct pages to
 *       the first N pages of DEVICE, one at a time, then N reads of them,
 *       each read checked against what was written; prints the least and
 *       the mean time of a write and of a read in us (the device's data
 *       is overwritten)
 *
 * -C DIR: after filling, create DIR/filled and wait for DIR/go before
 * verifying, so the caller can look at the cache while it holds the pages.
 * pageout also creates DIR/paging just before MADV_PAGEOUT.
 * -F: fault injection (debug kernel): mark the task make-it-fail from the
 * fill to the end of verification, so failslab, fail_page_alloc and
 * fail_function with task-filter hit the stores this task's reclaim makes.
 * -Z PCT: mixed mode with PCT% zero pages, the other kinds scaled to match.
 * -B N: pageout mode: exactly N pages must fail to read back with SIGBUS
 * (a load the cache failed on purpose); every other page must verify.
 * Everything of the process but the workload's pages is locked in memory,
 * so that the failure cannot hit the corpus or the stack instead.
 * hotcold: -m MB of cold pages (A) and as many hot ones (B), each set
 * swapped out with MADV_PAGEOUT (B 32 pages at a time, 5 ms apart); the
 * checkpoint comes after A.  B is then rewritten and swapped out -o times
 * (at most 100); at the end B and A
 * are read back, and how many of their faults zcache served (its loads)
 * and the disk (pswpin) is printed.
 * churn: all pages are swapped out (MADV_PAGEOUT), then, after the
 * checkpoint, -o times a random page is verified, then either freed
 * (MADV_DONTNEED) or kept, written anew and swapped out alone: its slot is
 * freed, or written again, while writeback may be working on it.
 * rezero: page by page, a page is filled and swapped out (MADV_PAGEOUT)
 * while a second thread keeps reading it: a fault that comes while the
 * page is being stored holds its folio in the swap cache past the store,
 * and maps it again, the cache's copy still held.  The page is then
 * written as zeroes, which the swap core keeps in its zero map or mark
 * without the cache seeing them, and swapped out again.  After the
 * checkpoint (where the caller writes the cache back) every page must
 * read as zeroes.  Prints how many pages were kept that way.
 * rewrite: the pages (no zero or random ones) are swapped out with
 * MADV_PAGEOUT and read back, which maps again those whose folios stayed
 * in the swap cache (tests/kmod/swapcache_holder.ko keeps them there);
 * after the checkpoint every page is written anew through its page table,
 * every even one random, and swapped out; the random ones, read once
 * their writes are done (from the swap cache), are swapped out again
 * (dropped unwritten), and every page is read back.  Prints how many of
 * the odd, compressible, pages the rewrite's pageout left in memory
 * (mincore(): mapped, or in the swap cache), and the pages of each
 * read-back that zswap and the disk served (vmstat).
 * -H: map the workload MADV_HUGEPAGE, as thp mode does, rather than
 * MADV_NOHUGEPAGE, which keeps every large folio away (mTHP sizes set to
 * "always" too): it gets the folio sizes the THP settings allow.
 * -R N: pageout mode: read the first N pages back before the checkpoint
 * (on 6.1 their slots then have a page in the swap cache and a copy in
 * zcache at once).
 * Fill/verify modes and threads print their phase times ("swaptest: time").
 * Exit status: 0 if every page verified, 1 on a mismatch, 2 on an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PAGE 4096UL

enum kind { K_ZERO, K_TEXT, K_BIN, K_STRUCT, K_RAND };

static unsigned long npages;
static uint64_t seed = 1;
static unsigned char *text, *bin;
static size_t text_len, bin_len;
static int pct_zero = 10, pct_text = 30, pct_bin = 25, pct_struct = 20;
static const char *checkpoint;
static int rewrite_alternate;
static int fault_inject;
static long expect_sigbus = -1;
static unsigned long read_back;

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static enum kind page_kind(unsigned long idx, unsigned int version)
{
	unsigned int r = mix64(seed ^ (idx * 0x9e3779b97f4a7c15ULL)) % 100;

	/* rewrite: the second version of every even page is random */
	if (version == 1 && rewrite_alternate && !(idx & 1))
		return K_RAND;
	if (r < (unsigned int)pct_zero)
		return version ? K_STRUCT : K_ZERO;
	r -= pct_zero;
	if (r < (unsigned int)pct_text)
		return K_TEXT;
	r -= pct_text;
	if (r < (unsigned int)pct_bin)
		return K_BIN;
	r -= pct_bin;
	if (r < (unsigned int)pct_struct)
		return K_STRUCT;
	return K_RAND;
}

static void gen_page(unsigned char *p, unsigned long idx, unsigned int version)
{
	uint64_t h = mix64(seed + idx * 31 + version * 0x100000001ULL);
	uint64_t *q = (uint64_t *)p;
	uint32_t *w = (uint32_t *)p;
	unsigned long i;

	switch (page_kind(idx, version)) {
	case K_ZERO:
		memset(p, 0, PAGE);
		return;
	case K_TEXT:
		memcpy(p, text + h % (text_len - PAGE), PAGE);
		break;
	case K_BIN:
		memcpy(p, bin + h % (bin_len - PAGE), PAGE);
		break;
	case K_STRUCT:
		for (i = 0; i < PAGE / 4; i++)
			w[i] = (uint32_t)(h & 0xff) + (uint32_t)(i / 8);
		break;
	case K_RAND:
		for (i = 0; i < PAGE / 8; i++) {
			h ^= h << 13;
			h ^= h >> 7;
			h ^= h << 17;
			q[i] = h;
		}
		break;
	}
	q[0] = idx;
	q[1] = version | 0xa5a5000000000000ULL;
}

static unsigned long mismatches;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static int check_page(const unsigned char *p, unsigned long idx,
		      unsigned int version, unsigned char *scratch)
{
	gen_page(scratch, idx, version);
	if (!memcmp(p, scratch, PAGE))
		return 0;
	pthread_mutex_lock(&report_lock);
	if (mismatches++ < 10) {
		unsigned long off = 0;

		while (off < PAGE && p[off] == scratch[off])
			off++;
		fprintf(stderr,
			"swaptest: MISMATCH page %lu version %u kind %d at byte %lu: got %02x want %02x (stamp %llx)\n",
			idx, version, page_kind(idx, version), off, p[off],
			scratch[off], (unsigned long long)((uint64_t *)p)[0]);
	}
	pthread_mutex_unlock(&report_lock);
	return 1;
}

static unsigned char *read_corpus(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)(64 * PAGE)) {
		fprintf(stderr, "swaptest: corpus %s missing or too small\n",
			path);
		exit(2);
	}
	buf = malloc(st.st_size);
	if (!buf || read(fd, buf, st.st_size) != st.st_size) {
		fprintf(stderr, "swaptest: cannot read %s\n", path);
		exit(2);
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

static int use_thp;

static unsigned char *map_region(void)
{
	const unsigned long huge = 2UL << 20;
	unsigned char *r = mmap(NULL, npages * PAGE + huge,
				PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (r == MAP_FAILED) {
		perror("swaptest: mmap");
		exit(2);
	}
	r = (unsigned char *)(((unsigned long)r + huge - 1) & ~(huge - 1));
	/* Most tests want 4 KiB pages; "thp" wants whole THPs swapped. */
	madvise(r, npages * PAGE, use_thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	return r;
}

/*
 * Fault injection on this task's allocations, if -F asked for it.  Turning
 * it off happens under injection, so it is retried until it takes.
 */
static void make_it_fail(int on)
{
	int fd, tries;

	if (!fault_inject)
		return;
	for (tries = 0; tries < 10000; tries++) {
		fd = open("/proc/self/make-it-fail", O_WRONLY);
		if (fd < 0)
			continue;
		if (write(fd, on ? "1" : "0", 1) == 1) {
			close(fd);
			return;
		}
		close(fd);
	}
	perror("swaptest: /proc/self/make-it-fail");
	exit(2);
}

static void fill(unsigned char *r, unsigned int version)
{
	unsigned long i;

	for (i = 0; i < npages; i++)
		gen_page(r + i * PAGE, i, version);
}

static unsigned long verify(unsigned char *r, const unsigned char *versions,
			    unsigned int version)
{
	unsigned char scratch[PAGE];
	unsigned long i, bad = 0;

	for (i = 0; i < npages; i++)
		bad += check_page(r + i * PAGE, i,
				  versions ? versions[i] : version, scratch);
	return bad;
}

/* -------- reads that may fail with SIGBUS (-B) -------- */
static sigjmp_buf bus_jmp;
static volatile sig_atomic_t bus_armed;

static void on_sigbus(int sig)
{
	if (bus_armed)
		siglongjmp(bus_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Read a page's first byte; -1 if that raised SIGBUS. */
static int touch_page(const volatile unsigned char *p)
{
	if (sigsetjmp(bus_jmp, 1)) {
		bus_armed = 0;
		return -1;
	}
	bus_armed = 1;
	(void)p[0];
	bus_armed = 0;
	return 0;
}

/* -B: lock all the process has and will have, except the region @r. */
static int lock_all_but(unsigned char *r)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE) ||
	    munlock(r, npages * PAGE)) {
		perror("swaptest: mlockall");
		return -1;
	}
	return 0;
}

/* verify() for -B: pages that raise SIGBUS are counted, not compared. */
static unsigned long verify_or_bus(unsigned char *r, unsigned long *bus)
{
	unsigned char scratch[PAGE];
	unsigned long i, bad = 0;

	signal(SIGBUS, on_sigbus);
	for (i = 0; i < npages; i++) {
		if (touch_page(r + i * PAGE)) {
			printf("swaptest: SIGBUS reading page %lu\n", i);
			++*bus;
			continue;
		}
		bad += check_page(r + i * PAGE, i, 0, scratch);
	}
	signal(SIGBUS, SIG_DFL);
	return bad;
}

/* Create CHECKPOINTDIR/name, if there is a checkpoint directory. */
static void mark_checkpoint(const char *name)
{
	char path[512];
	int fd;

	if (!checkpoint)
		return;
	snprintf(path, sizeof(path), "%s/%s", checkpoint, name);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd >= 0)
		close(fd);
}

static void wait_checkpoint(void)
{
	char path[512];

	if (!checkpoint)
		return;
	make_it_fail(0);
	mark_checkpoint("filled");
	snprintf(path, sizeof(path), "%s/go", checkpoint);
	while (access(path, F_OK))
		usleep(100000);
	make_it_fail(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long vm_swap_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSwap: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* -------- threads: random read-verify-write on owned pages -------- */
struct worker {
	pthread_t tid;
	unsigned int id, nthreads;
	unsigned long ops;
	unsigned char *region, *versions;
	unsigned long bad;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned char scratch[PAGE];
	uint64_t h = mix64(seed + w->id + 1);
	unsigned long n;

	for (n = 0; n < w->ops; n++) {
		unsigned long idx;

		h = mix64(h);
		idx = (h % (npages / w->nthreads)) * w->nthreads + w->id;
		if (idx >= npages)
			continue;
		w->bad += check_page(w->region + idx * PAGE, idx,
				     w->versions[idx], scratch);
		if (h & 0x100) {
			w->versions[idx] = (w->versions[idx] + 1) & 0x7f;
			if (!w->versions[idx])
				w->versions[idx] = 1;
			gen_page(w->region + idx * PAGE, idx, w->versions[idx]);
		}
	}
	return NULL;
}

static int run_threads(unsigned int nthreads, unsigned long ops)
{
	unsigned char *r = map_region();
	unsigned char *versions = calloc(npages, 1);
	struct worker *w = calloc(nthreads, sizeof(*w));
	unsigned long bad = 0;
	double t0, t1, t2, t3;
	unsigned int i;

	t0 = now_s();
	fill(r, 0);
	t1 = now_s();
	wait_checkpoint();
	t2 = now_s();
	for (i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .id = i, .nthreads = nthreads,
					.ops = ops, .region = r,
					.versions = versions };
		pthread_create(&w[i].tid, NULL, worker_main, &w[i]);
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(w[i].tid, NULL);
		bad += w[i].bad;
	}
	t3 = now_s();
	printf("swaptest: time fill=%.3f ops=%.3f ops_per_s=%.0f\n", t1 - t0,
	       t3 - t2, nthreads * ops / (t3 - t2));
	bad += verify(r, versions, 0);
	printf("swaptest: threads=%u ops=%lu pages=%lu mismatches=%lu\n",
	       nthreads, ops, npages, bad);
	return bad ? 1 : 0;
}

/* -------- fork: shared copy-on-write pages that then diverge -------- */
static int run_fork(void)
{
	unsigned char *r = map_region();
	unsigned char *parent_v = calloc(npages, 1), *child_v;
	unsigned long i, bad;
	pid_t pid, parent = getpid();
	int status;

	fill(r, 0);
	pid = fork();
	if (pid < 0) {
		perror("swaptest: fork");
		return 2;
	}
	/*
	 * A parent that the OOM killer takes must not leave its child
	 * holding the pages: the caller's next swapoff would have to bring
	 * them all back into its memory cgroup.  (A parent gone before the
	 * prctl() left a child whose parent is no longer it.)
	 */
	if (pid == 0 && (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
		_exit(2);
	child_v = calloc(npages, 1);
	/* Both verify the shared pages, then write their own half. */
	bad = verify(r, NULL, 0);
	for (i = 0; i < npages; i++) {
		if (pid == 0 && i % 2 == 1) {
			child_v[i] = 2;
			gen_page(r + i * PAGE, i, 2);
		} else if (pid > 0 && i % 2 == 0) {
			parent_v[i] = 1;
			gen_page(r + i * PAGE, i, 1);
		}
	}
	if (pid == 0) {
		wait_checkpoint();
		bad += verify(r, child_v, 0);
		printf("swaptest: fork child pages=%lu mismatches=%lu\n",
		       npages, bad);
		_exit(bad ? 1 : 0);
	}
	bad += verify(r, parent_v, 0);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "swaptest: fork child failed\n");
		bad++;
	}
	printf("swaptest: fork parent pages=%lu mismatches=%lu\n", npages,
	       bad);
	return bad ? 1 : 0;
}

/* A counter of zcache's debugfs, or -1 */
static long zcache_stat(const char *name)
{
	char path[128];
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/zcache/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

/* A counter of /proc/vmstat, or -1 */
static long vmstat(const char *name)
{
	char key[64];
	long val, ret = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &val) == 2)
		if (!strcmp(key, name)) {
			ret = val;
			break;
		}
	fclose(f);
	return ret;
}

static int pageout(unsigned char *p, unsigned long pages)
{
	if (madvise(p, pages * PAGE, MADV_PAGEOUT)) {
		perror("swaptest: madvise(MADV_PAGEOUT)");
		return -1;
	}
	return 0;
}

/* -------- hotcold: which set does the cache keep? -------- */
static int run_hotcold(unsigned long rounds)
{
	unsigned long n = npages, i, bad = 0, round;
	unsigned char scratch[PAGE], *a, *b;
	long a_disk, b_disk, a_hits, b_hits, t, l;

	if (rounds > 100)
		rounds = 100;
	npages = 2 * n;
	a = map_region();
	b = a + n * PAGE;
	for (i = 0; i < n; i++)
		gen_page(a + i * PAGE, i, 0);
	if (pageout(a, n))
		return 2;
	wait_checkpoint();
	for (round = 0; round <= rounds; round++) {
		for (i = 0; i < n; i++) {
			if (round)
				bad += check_page(b + i * PAGE, n + i,
						  round - 1, scratch);
			gen_page(b + i * PAGE, n + i, round);
		}
		/* In steps, as reclaim would: writeback can keep pace. */
		for (i = 0; i < n; i += 32) {
			if (pageout(b + i * PAGE, n - i < 32 ? n - i : 32))
				return 2;
			usleep(5000);
		}
	}
	t = vmstat("pswpin");
	l = zcache_stat("loads");
	for (i = 0; i < n; i++)
		bad += check_page(b + i * PAGE, n + i, rounds, scratch);
	b_disk = vmstat("pswpin") - t;
	b_hits = zcache_stat("loads") - l;
	t = vmstat("pswpin");
	l = zcache_stat("loads");
	for (i = 0; i < n; i++)
		bad += check_page(a + i * PAGE, i, 0, scratch);
	a_disk = vmstat("pswpin") - t;
	a_hits = zcache_stat("loads") - l;
	printf("swaptest: hotcold pages=%lu rounds=%lu a_hits=%ld a_disk=%ld b_hits=%ld b_disk=%ld mismatches=%lu\n",
	       n, rounds, a_hits, a_disk, b_hits, b_disk, bad);
	return bad ? 1 : 0;
}

/* -------- churn: slots freed and written again, one page at a time -------- */
static int run_churn(unsigned long ops)
{
	unsigned char *r = map_region(), *versions = calloc(npages, 1);
	unsigned char scratch[PAGE];
	uint64_t h = mix64(seed);
	unsigned long n, idx, bad = 0, freed = 0;

	fill(r, 0);
	if (pageout(r, npages))
		return 2;
	wait_checkpoint();
	for (n = 0; n < ops; n++) {
		h = mix64(h);
		idx = h % npages;
		bad += check_page(r + idx * PAGE, idx, versions[idx], scratch);
		if (h & 0x100) {
			/* Frees the slot: the page reads as zeroes now. */
			madvise(r + idx * PAGE, PAGE, MADV_DONTNEED);
			freed++;
		}
		versions[idx] = (versions[idx] + 1) & 0x7f;
		if (!versions[idx])
			versions[idx] = 1;
		gen_page(r + idx * PAGE, idx, versions[idx]);
		if (pageout(r + idx * PAGE, 1))
			return 2;
	}
	bad += verify(r, versions, 0);
	printf("swaptest: churn ops=%lu freed=%lu pages=%lu mismatches=%lu\n",
	       ops, freed, npages, bad);
	return bad ? 1 : 0;
}

/* -------- rezero: a stored page kept in the swap cache, then zeroed -------- */
static volatile unsigned char *volatile rezero_page;
static volatile int rezero_stop;

static void *rezero_reader(void *arg)
{
	volatile unsigned char *p;
	unsigned long sum = 0;

	(void)arg;
	while (!rezero_stop) {
		p = rezero_page;
		if (p)
			sum += p[0];
	}
	return (void *)sum;
}

/* Whether the page at @p is mapped (present in the page table) */
static int page_present(const void *p)
{
	uint64_t ent = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return -1;
	if (pread(fd, &ent, sizeof(ent),
		  (uintptr_t)p / PAGE * sizeof(ent)) != sizeof(ent))
		ent = 0;
	close(fd);
	return !!(ent >> 63);
}

/*
 * How many of the @n pages at @r have a swap entry in the page table
 * (pagemap bit 62): swapped out, whether by reclaim or by MADV_PAGEOUT.
 * -1 if pagemap cannot be read.
 */
static long pages_swapped(const unsigned char *r, unsigned long n)
{
	uint64_t ent[512];
	unsigned long i = 0, j, chunk;
	long swapped = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return -1;
	while (i < n) {
		chunk = n - i < 512 ? n - i : 512;
		if (pread(fd, ent, chunk * sizeof(ent[0]),
			  ((uintptr_t)r / PAGE + i) * sizeof(ent[0])) !=
		    (ssize_t)(chunk * sizeof(ent[0]))) {
			swapped = -1;
			break;
		}
		for (j = 0; j < chunk; j++)
			swapped += (ent[j] >> 62) & 1;
		i += chunk;
	}
	close(fd);
	return swapped;
}

/*
 * How many of the odd pages of r[0..n) mincore() finds in memory: mapped,
 * or, swapped out, still in the swap cache.  -1 on an error.
 */
static long odd_pages_in_memory(unsigned char *r, unsigned long n)
{
	unsigned char *vec = malloc(n);
	unsigned long i;
	long in = 0;

	if (!vec || mincore(r, n * PAGE, vec)) {
		free(vec);
		return -1;
	}
	for (i = 1; i < n; i += 2)
		in += vec[i] & 1;
	free(vec);
	return in;
}

static int run_rezero(void)
{
	unsigned char *r = map_region(), zero[PAGE];
	unsigned long i, kept = 0, bad = 0;
	long stores, loads;
	pthread_t reader;

	pct_zero = 0;
	memset(zero, 0, PAGE);
	if (pthread_create(&reader, NULL, rezero_reader, NULL))
		return 2;
	for (i = 0; i < npages; i++) {
		unsigned char *p = r + i * PAGE;

		gen_page(p, i, 1);
		stores = zcache_stat("stores");
		loads = zcache_stat("loads");
		rezero_page = p;
		if (pageout(p, 1))
			return 2;
		usleep(2000);
		rezero_page = NULL;
		usleep(1000);
		/* Stored, mapped again, and not by a load: kept */
		if (zcache_stat("stores") > stores && page_present(p) == 1 &&
		    zcache_stat("loads") == loads)
			kept++;
		memset(p, 0, PAGE);
		if (pageout(p, 1))
			return 2;
	}
	rezero_stop = 1;
	pthread_join(reader, NULL);
	wait_checkpoint();
	for (i = 0; i < npages; i++)
		if (memcmp(r + i * PAGE, zero, PAGE))
			bad++;
	printf("swaptest: rezero pages=%lu kept=%lu mismatches=%lu\n",
	       npages, kept, bad);
	return bad ? 1 : 0;
}

/* -------- rewrite: pages mapped again from the swap cache, rewritten -------- */
static int run_rewrite(void)
{
	unsigned char *r = map_region(), scratch[PAGE];
	unsigned long i, bad;
	long zswpin, pswpin;

	pct_zero = 0;
	pct_text = 40;
	pct_bin = 30;
	pct_struct = 30;
	fill(r, 0);
	if (pageout(r, npages))
		return 2;
	zswpin = vmstat("zswpin");
	pswpin = vmstat("pswpin");
	bad = verify(r, NULL, 0);
	printf("swaptest: rewrite read back pages=%lu zswpin=%ld pswpin=%ld mismatches=%lu\n",
	       npages, vmstat("zswpin") - zswpin, vmstat("pswpin") - pswpin,
	       bad);
	if (bad)
		return 1;
	wait_checkpoint();
	rewrite_alternate = 1;
	fill(r, 1);
	if (pageout(r, npages))
		return 2;
	/* The compressible (odd) pages go to the cache, their folios freed. */
	printf("swaptest: rewrite pageout left %ld of %lu compressible pages in memory\n",
	       odd_pages_in_memory(r, npages), npages / 2);
	/*
	 * The random pages go to the disk, and stay in the swap cache: read,
	 * they are mapped again, and a second pageout drops them unwritten
	 * once their writes are done.  Their next read is a swap-in.
	 */
	for (i = 0; i < 1000 && vmstat("nr_writeback") > 0; i++)
		usleep(10000);
	for (i = 0; i < npages; i += 2)
		bad += check_page(r + i * PAGE, i, 1, scratch);
	if (pageout(r, npages))
		return 2;
	zswpin = vmstat("zswpin");
	pswpin = vmstat("pswpin");
	bad += verify(r, NULL, 1);
	printf("swaptest: rewrite pages=%lu zswpin=%ld pswpin=%ld mismatches=%lu\n",
	       npages, vmstat("zswpin") - zswpin, vmstat("pswpin") - pswpin,
	       bad);
	return bad ? 1 : 0;
}

/* -------- pageout: deterministic swap-out with MADV_PAGEOUT -------- */
static int run_pageout(void)
{
	unsigned char *r = map_region();
	unsigned long bad, bus = 0;
	long before, after, out;

	fill(r, 0);
	if (expect_sigbus >= 0 && lock_all_but(r))
		return 2;
	before = vm_swap_kb();
	mark_checkpoint("paging");
	make_it_fail(1);
	if (madvise(r, npages * PAGE, MADV_PAGEOUT)) {
		perror("swaptest: madvise(MADV_PAGEOUT)");
		return 2;
	}
	make_it_fail(0);
	after = vm_swap_kb();
	out = pages_swapped(r, npages);
	if (out < 0) {
		fprintf(stderr, "swaptest: cannot read /proc/self/pagemap\n");
		return 2;
	}
	printf("swaptest: pageout swapped %ld of %lu pages (VmSwap %ld kB -> %ld kB)\n",
	       out, npages, before, after);
	/*
	 * The region's own swap entries, not VmSwap's rise: in a small memory
	 * cgroup the fill has already swapped most of the region out, and
	 * what matters is that at most a tenth is still mapped.  Under fault
	 * injection a page may fail to enter the swap cache.
	 */
	if (!fault_inject && out < (long)(npages * 9 / 10)) {
		fprintf(stderr, "swaptest: %lu of %lu pages still mapped after MADV_PAGEOUT\n",
			npages - out, npages);
		return 1;
	}
	if (read_back) {
		unsigned char scratch[PAGE];
		unsigned long i, early = 0;

		for (i = 0; i < read_back && i < npages; i++)
			early += check_page(r + i * PAGE, i, 0, scratch);
		if (early) {
			printf("swaptest: %lu pages read back early mismatched\n", early);
			return 1;
		}
	}
	wait_checkpoint();
	make_it_fail(1);
	if (expect_sigbus >= 0)
		bad = verify_or_bus(r, &bus);
	else
		bad = verify(r, NULL, 0);
	make_it_fail(0);
	printf("swaptest: pageout pages=%lu mismatches=%lu sigbus=%lu\n",
	       npages, bad, bus);
	if (expect_sigbus >= 0 && bus != (unsigned long)expect_sigbus) {
		fprintf(stderr, "swaptest: %lu pages raised SIGBUS, %ld expected\n",
			bus, expect_sigbus);
		return 1;
	}
	return bad ? 1 : 0;
}

static int run_fill_verify(void)
{
	unsigned char *r = map_region();
	double t0, t1, t2, t3;
	unsigned long bad;

	make_it_fail(1);
	t0 = now_s();
	fill(r, 0);
	t1 = now_s();
	wait_checkpoint();
	t2 = now_s();
	bad = verify(r, NULL, 0);
	t3 = now_s();
	/* Twice: the second pass reads pages the first pushed out. */
	bad += verify(r, NULL, 0);
	make_it_fail(0);
	printf("swaptest: time fill=%.3f verify=%.3f verify2=%.3f\n", t1 - t0,
	       t3 - t2, now_s() - t3);
	printf("swaptest: pages=%lu mismatches=%lu\n", npages, bad);
	return bad ? 1 : 0;
}

/* latency mode: see the top of the file */
static int run_latency(const char *dev, unsigned long n)
{
	double t, min[2] = { 1e30, 1e30 }, sum[2] = { 0, 0 };
	unsigned char *buf;
	unsigned long i, j;
	int fd, pass;

	fd = open(dev, O_RDWR | O_DIRECT);
	if (fd < 0 || posix_memalign((void **)&buf, PAGE, PAGE)) {
		perror("swaptest: latency");
		return 2;
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			ssize_t done;

			if (!pass)
				for (j = 0; j < PAGE; j++)
					buf[j] = (unsigned char)(i * 131 + j * 7 + seed);
			t = now_s();
			done = pass ? pread(fd, buf, PAGE, i * PAGE) :
				      pwrite(fd, buf, PAGE, i * PAGE);
			t = (now_s() - t) * 1e6;
			if (done != (ssize_t)PAGE) {
				perror("swaptest: latency: I/O");
				return 2;
			}
			for (j = 0; pass && j < PAGE; j++)
				if (buf[j] != (unsigned char)(i * 131 + j * 7 + seed)) {
					fprintf(stderr, "swaptest: latency: page %lu read back wrong\n", i);
					return 1;
				}
			sum[pass] += t;
			if (t < min[pass])
				min[pass] = t;
		}
	}
	printf("swaptest: latency write_min_us=%.0f write_mean_us=%.0f read_min_us=%.0f read_mean_us=%.0f\n",
	       min[0], sum[0] / n, min[1], sum[1] / n);
	close(fd);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode, *corpus = "/corpus";
	unsigned long mb = 64, ops = 20000;
	unsigned int nthreads = 2;
	int zero_pct = -1;
	char path[512];
	int opt;

	if (argc < 2) {
		fprintf(stderr, "usage: swaptest MODE [-m MB] [-t N] [-o OPS] [-s SEED] [-c DIR] [-C DIR] [-F] [-Z PCT] [-B N] [-R N] [-H]\n");
		return 2;
	}
	mode = argv[1];
	if (!strcmp(mode, "swapon") && argc == 4) {
		int prio = atoi(argv[3]);

		if (swapon(argv[2], SWAP_FLAG_PREFER |
			   ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK))) {
			perror("swaptest: swapon");
			return 2;
		}
		return 0;
	}
	if (!strcmp(mode, "latency") && argc == 4)
		return run_latency(argv[2], strtoul(argv[3], NULL, 0) ?: 1);
	optind = 2;
	while ((opt = getopt(argc, argv, "m:t:o:s:c:C:FZ:B:R:H")) != -1) {
		switch (opt) {
		case 'm': mb = strtoul(optarg, NULL, 0); break;
		case 't': nthreads = strtoul(optarg, NULL, 0); break;
		case 'o': ops = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'c': corpus = optarg; break;
		case 'C': checkpoint = optarg; break;
		case 'F': fault_inject = 1; break;
		case 'Z':
			zero_pct = atoi(optarg);
			if (zero_pct < 0 || zero_pct > 100) {
				fprintf(stderr, "swaptest: -Z takes 0 to 100\n");
				return 2;
			}
			break;
		case 'B': expect_sigbus = strtol(optarg, NULL, 0); break;
		case 'R': read_back = strtoul(optarg, NULL, 0); break;
		case 'H': use_thp = 1; break;
		default: return 2;
		}
	}
	npages = mb * 1024 * 1024 / PAGE;
	snprintf(path, sizeof(path), "%s/text", corpus);
	text = read_corpus(path, &text_len);
	snprintf(path, sizeof(path), "%s/bin", corpus);
	bin = read_corpus(path, &bin_len);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (!strcmp(mode, "mixed")) {
		/* -Z: this share of zero pages, the rest mixed as before */
		if (zero_pct >= 0) {
			pct_text = pct_text * (100 - zero_pct) / (100 - pct_zero);
			pct_bin = pct_bin * (100 - zero_pct) / (100 - pct_zero);
			pct_struct = pct_struct * (100 - zero_pct) /
				     (100 - pct_zero);
			pct_zero = zero_pct;
		}
		return run_fill_verify();
	}
	if (!strcmp(mode, "zero")) {
		pct_zero = 90;
		pct_text = 4;
		pct_bin = 3;
		pct_struct = 2;
		return run_fill_verify();
	}
	if (!strcmp(mode, "random")) {
		pct_zero = pct_text = pct_bin = pct_struct = 0;
		return run_fill_verify();
	}
	if (!strcmp(mode, "threads"))
		return run_threads(nthreads, ops);
	if (!strcmp(mode, "fork"))
		return run_fork();
	if (!strcmp(mode, "pageout"))
		return run_pageout();
	if (!strcmp(mode, "hotcold"))
		return run_hotcold(ops);
	if (!strcmp(mode, "churn"))
		return run_churn(ops);
	if (!strcmp(mode, "rezero"))
		return run_rezero();
	if (!strcmp(mode, "rewrite"))
		return run_rewrite();
	if (!strcmp(mode, "thp")) {
		use_thp = 1;
		return run_fill_verify();
	}
	fprintf(stderr, "swaptest: unknown mode %s\n", mode);
	return 2;
}
