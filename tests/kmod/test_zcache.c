// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel self-test of zcache's helpers
 *
 * In the style of lib/test_xarray.c: every check_*() function is one KTAP
 * test case made of ZC_FAIL_IF() assertions.  It covers the XArray helpers
 * of xarray_ext.c, including lockless loads racing erases, a compression
 * round trip for every compressor the kernel offers, the reference counts
 * of the compressors' contexts, and contexts following CPU hotplug (a CPU
 * taken down and up again while a thread compresses).  zcache must be
 * loaded; the module refuses to load if any assertion fails.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/acompress.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/crypto.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "../../compress/zcomp.h"
#include "../../xarray_ext.h"

MODULE_IMPORT_NS(ZCACHE_NS);

static unsigned int tests_run;
static unsigned int tests_passed;
static unsigned int failed_in_case;

#define ZC_FAIL_IF(x) do {						\
	tests_run++;							\
	if (x) {							\
		pr_err("BUG at %s:%d: %s\n", __func__, __LINE__, #x);	\
		failed_in_case++;						\
	} else {							\
		tests_passed++;						\
	}								\
} while (0)

/*********************************
 * occupancy bookkeeping
 *********************************/
static unsigned int first_calls, last_calls;
static bool refuse_first;

static bool count_first(struct xa_ext *xe)
{
	if (refuse_first)
		return false;
	first_calls++;
	return true;
}

static void count_last(struct xa_ext *xe)
{
	last_calls++;
}

static const struct xa_ext_occupancy counting = {
	.first = count_first,
	.last = count_last,
};

static void reset_counts(void)
{
	first_calls = 0;
	last_calls = 0;
	refuse_first = false;
}

/*********************************
 * XArray helpers
 *********************************/
static void check_replace(struct xa_ext *xe)
{
	void *old = (void *)0x1234;

	ZC_FAIL_IF(xa_ext_replace(xe, 5, xa_mk_value(1), false, GFP_KERNEL,
				  &old));
	ZC_FAIL_IF(old);
	ZC_FAIL_IF(first_calls != 1);
	ZC_FAIL_IF(xa_ext_replace(xe, 5, xa_mk_value(2), false, GFP_KERNEL,
				  &old));
	ZC_FAIL_IF(old != xa_mk_value(1));
	ZC_FAIL_IF(xa_ext_load(xe, 5) != xa_mk_value(2));
	ZC_FAIL_IF(xa_ext_replace(xe, 1UL << 40, xa_mk_value(3), false,
				  GFP_KERNEL, &old));
	ZC_FAIL_IF(old);
	ZC_FAIL_IF(first_calls != 1);
	ZC_FAIL_IF(xa_ext_entries(xe) != 2);

	ZC_FAIL_IF(xa_ext_erase(xe, 5) != xa_mk_value(2));
	ZC_FAIL_IF(last_calls != 0);
	ZC_FAIL_IF(xa_ext_erase(xe, 1UL << 40) != xa_mk_value(3));
	ZC_FAIL_IF(last_calls != 1);
	ZC_FAIL_IF(xa_ext_entries(xe) != 0);
	ZC_FAIL_IF(!xa_empty(&xe->xa));
}

static void check_refused_first(struct xa_ext *xe)
{
	void *old;

	refuse_first = true;
	ZC_FAIL_IF(xa_ext_replace(xe, 7, xa_mk_value(7), false, GFP_KERNEL,
				  &old) != -EBUSY);
	ZC_FAIL_IF(!xa_empty(&xe->xa));
	ZC_FAIL_IF(xa_ext_entries(xe) != 0);
	ZC_FAIL_IF(last_calls != 0);
}

/* Erasing an absent index must not take the lock: we hold it. */
static void check_erase_absent_is_lockless(struct xa_ext *xe)
{
	void *old;

	ZC_FAIL_IF(xa_ext_replace(xe, 100, xa_mk_value(100), false,
				  GFP_KERNEL, &old));
	xa_lock(&xe->xa);
	ZC_FAIL_IF(xa_ext_erase(xe, 101));
	ZC_FAIL_IF(xa_ext_erase(xe, 1UL << 30));
	xa_unlock(&xe->xa);
	ZC_FAIL_IF(xa_ext_erase(xe, 100) != xa_mk_value(100));
	ZC_FAIL_IF(last_calls != 1);
}

/*
 * Link the nodes down to @index without storing anything there: what
 * xas_store() leaves behind when one of its node allocations fails part
 * way down a tree of two or more levels.
 */
static void make_empty_nodes(struct xa_ext *xe, unsigned long index)
{
	XA_STATE(xas, &xe->xa, index);

	do {
		xas_lock(&xas);
		xas_create_range(&xas);
		xas_unlock(&xas);
	} while (xas_nomem(&xas, GFP_KERNEL));
	ZC_FAIL_IF(xas_error(&xas));
}

/*
 * The occupancy follows the entries, not the nodes: empty nodes left by a
 * failed insert neither stand for an entry (the first store still takes
 * the reference) nor keep the last erase from dropping it.
 */
static void check_partial_insert(struct xa_ext *xe)
{
	void *old;

	make_empty_nodes(xe, 1UL << 20);
	ZC_FAIL_IF(xa_empty(&xe->xa));
	ZC_FAIL_IF(xa_ext_entries(xe) != 0);

	ZC_FAIL_IF(xa_ext_replace(xe, (1UL << 20) + 1, xa_mk_value(1),
				  false, GFP_KERNEL, &old));
	ZC_FAIL_IF(first_calls != 1);
	ZC_FAIL_IF(xa_ext_erase(xe, (1UL << 20) + 1) != xa_mk_value(1));
	ZC_FAIL_IF(last_calls != 1);

	/* An entry elsewhere, then empty nodes, then the entry goes. */
	ZC_FAIL_IF(xa_ext_replace(xe, 5, xa_mk_value(5), false, GFP_KERNEL,
				  &old));
	ZC_FAIL_IF(first_calls != 2);
	make_empty_nodes(xe, 1UL << 30);
	ZC_FAIL_IF(xa_ext_erase(xe, 5) != xa_mk_value(5));
	ZC_FAIL_IF(last_calls != 2);
	ZC_FAIL_IF(xa_ext_entries(xe) != 0);
	ZC_FAIL_IF(xa_empty(&xe->xa));	/* the empty nodes are still there */
}

/* A reservation is a slot, not an entry. */
static void check_reserve(struct xa_ext *xe)
{
	void *old;

	ZC_FAIL_IF(xa_ext_reserve(xe, 1UL << 16, GFP_KERNEL));
	ZC_FAIL_IF(xa_ext_entries(xe) != 0 || first_calls != 0);
	ZC_FAIL_IF(xa_ext_load(xe, 1UL << 16));
	ZC_FAIL_IF(xa_ext_erase(xe, 1UL << 16));	/* left alone */
	ZC_FAIL_IF(xa_empty(&xe->xa));
	ZC_FAIL_IF(xa_ext_replace(xe, 1UL << 16, xa_mk_value(16), false,
				  GFP_NOWAIT, &old));
	ZC_FAIL_IF(old);
	ZC_FAIL_IF(xa_ext_entries(xe) != 1 || first_calls != 1);

	/* Reserving over an entry keeps it. */
	ZC_FAIL_IF(xa_ext_reserve(xe, 1UL << 16, GFP_KERNEL));
	ZC_FAIL_IF(xa_ext_load(xe, 1UL << 16) != xa_mk_value(16));
	ZC_FAIL_IF(xa_ext_remove(xe, 1UL << 16) != xa_mk_value(16));
	ZC_FAIL_IF(xa_ext_entries(xe) != 0 || last_calls != 1);

	/* A reservation taken back counts nothing and leaves nothing. */
	ZC_FAIL_IF(xa_ext_reserve(xe, 1UL << 24, GFP_KERNEL));
	ZC_FAIL_IF(xa_ext_remove(xe, 1UL << 24));
	ZC_FAIL_IF(xa_ext_entries(xe) != 0 || last_calls != 1);
	ZC_FAIL_IF(!xa_empty(&xe->xa));
}

static unsigned long released, released_sum;

static void count_release(void *entry, void *arg)
{
	released++;
	released_sum += xa_to_value(entry);
}

static void check_drain(struct xa_ext *xe)
{
	unsigned long i, sum = 0;
	void *old;

	for (i = 0; i < 1000; i++) {
		unsigned long index = i * 977 + (i & 7);

		ZC_FAIL_IF(xa_ext_replace(xe, index, xa_mk_value(i), false,
					  GFP_KERNEL, &old));
		sum += i;
	}
	ZC_FAIL_IF(xa_ext_reserve(xe, 1UL << 33, GFP_KERNEL));
	released = 0;
	released_sum = 0;
	ZC_FAIL_IF(xa_ext_drain(xe, count_release, NULL) != 1000);
	ZC_FAIL_IF(released != 1000);
	ZC_FAIL_IF(released_sum != sum);
	ZC_FAIL_IF(first_calls != 1 || last_calls != 1);
	ZC_FAIL_IF(xa_ext_entries(xe) != 0);
	ZC_FAIL_IF(!xa_empty(&xe->xa));
	ZC_FAIL_IF(xa_ext_drain(xe, count_release, NULL) != 0);
	ZC_FAIL_IF(last_calls != 1);
}

/* Pointer entries are allocator handles: 8-byte aligned kernel pointers. */
static void check_pointer_entries(struct xa_ext *xe)
{
	unsigned long *obj = kmalloc(sizeof(*obj), GFP_KERNEL);
	void *old;

	ZC_FAIL_IF(!obj);
	if (!obj)
		return;
	ZC_FAIL_IF(xa_ext_replace(xe, 0, obj, false, GFP_KERNEL, &old));
	ZC_FAIL_IF(xa_ext_load(xe, 0) != obj);
	ZC_FAIL_IF(xa_is_value(xa_ext_load(xe, 0)));
	ZC_FAIL_IF(xa_ext_replace(xe, 0, xa_mk_value(0), false, GFP_KERNEL,
				  &old));
	ZC_FAIL_IF(old != obj);
	ZC_FAIL_IF(!xa_is_value(xa_ext_load(xe, 0)) ||
		   xa_to_value(xa_ext_load(xe, 0)) != 0);
	ZC_FAIL_IF(xa_ext_erase(xe, 0) != xa_mk_value(0));
	kfree(obj);
}

/*
 * Generations: stored entries are young; with no old entry left,
 * xa_ext_find_old() flips and then hands the former young ones out in
 * index order from its cursor, wrapping; a rewrite or a second chance
 * makes an entry young again; value entries are never old; and
 * xa_ext_remove_entry() erases only the entry it was given.
 */
static void check_generations(struct xa_ext *xe)
{
	unsigned long *obj = kmalloc_array(4, sizeof(*obj), GFP_KERNEL);
	unsigned long index;
	void *old;
	int i;

	ZC_FAIL_IF(!obj);
	if (!obj)
		return;
	for (i = 0; i < 3; i++)
		ZC_FAIL_IF(xa_ext_replace(xe, 10 * i + 10, &obj[i], false,
					  GFP_KERNEL, &old));
	ZC_FAIL_IF(xa_ext_replace(xe, 5, xa_mk_value(0), false, GFP_KERNEL,
				  &old));
	ZC_FAIL_IF(xa_ext_entries(xe) != 4);

	/* All young: the first call flips, finding nothing. */
	index = 0;
	ZC_FAIL_IF(xa_ext_find_old(xe, &index));
	index = 15;
	ZC_FAIL_IF(xa_ext_find_old(xe, &index) != &obj[1] || index != 20);
	index = 31;
	ZC_FAIL_IF(xa_ext_find_old(xe, &index) != &obj[0] || index != 10);

	/* Rewritten and second-chanced entries are young again. */
	ZC_FAIL_IF(xa_ext_replace(xe, 10, &obj[3], false, GFP_KERNEL, &old));
	ZC_FAIL_IF(old != &obj[0]);
	ZC_FAIL_IF(!xa_ext_make_young(xe, 20, &obj[1]));
	ZC_FAIL_IF(xa_ext_make_young(xe, 20, &obj[0]));
	index = 0;
	ZC_FAIL_IF(xa_ext_find_old(xe, &index) != &obj[2] || index != 30);

	/* Only the entry given is erased. */
	ZC_FAIL_IF(xa_ext_remove_entry(xe, 30, &obj[1]));
	ZC_FAIL_IF(!xa_ext_remove_entry(xe, 30, &obj[2]));
	ZC_FAIL_IF(xa_ext_remove_entry(xe, 30, &obj[2]));
	ZC_FAIL_IF(xa_ext_entries(xe) != 3);

	/* Old is empty: flip; the value entry at 5 is never handed out. */
	index = 0;
	ZC_FAIL_IF(xa_ext_find_old(xe, &index));
	index = 0;
	ZC_FAIL_IF(xa_ext_find_old(xe, &index) != &obj[3] || index != 10);
	index = 11;
	ZC_FAIL_IF(xa_ext_find_old(xe, &index) != &obj[1] || index != 20);
	index = 0;
	ZC_FAIL_IF(xa_ext_find_from(xe, &index) != xa_mk_value(0) || index != 5);
	index = 21;
	ZC_FAIL_IF(xa_ext_find_from(xe, &index) != xa_mk_value(0) || index != 5);

	ZC_FAIL_IF(!xa_ext_remove_entry(xe, 10, &obj[3]));
	ZC_FAIL_IF(!xa_ext_remove_entry(xe, 20, &obj[1]));
	ZC_FAIL_IF(xa_ext_erase(xe, 5) != xa_mk_value(0));
	index = 0;
	ZC_FAIL_IF(xa_ext_find_from(xe, &index));
	kfree(obj);
}

/*
 * Entries stored to go first: xa_ext_find_first() finds them, and no
 * other, from its cursor, wrapping; the mark of an entry at the root
 * survives the tree's growth; a value entry never goes first; a second
 * chance, a rewrite (without @first, or by a value entry) and an erase
 * each end it.
 */
static void check_first(struct xa_ext *xe)
{
	unsigned long *obj = kmalloc_array(3, sizeof(*obj), GFP_KERNEL);
	unsigned long index;
	void *old;

	ZC_FAIL_IF(!obj);
	if (!obj)
		return;
	ZC_FAIL_IF(xa_ext_replace(xe, 0, &obj[0], true, GFP_KERNEL, &old));
	ZC_FAIL_IF(xa_ext_replace(xe, 1000, &obj[1], false, GFP_KERNEL, &old));
	index = 1;
	ZC_FAIL_IF(xa_ext_find_first(xe, &index) != &obj[0] || index != 0);
	ZC_FAIL_IF(xa_ext_replace(xe, 0, xa_mk_value(0), false, GFP_KERNEL,
				  &old));
	ZC_FAIL_IF(old != &obj[0]);
	index = 0;
	ZC_FAIL_IF(xa_ext_find_first(xe, &index));
	ZC_FAIL_IF(xa_ext_erase(xe, 0) != xa_mk_value(0));
	ZC_FAIL_IF(!xa_ext_remove_entry(xe, 1000, &obj[1]));

	ZC_FAIL_IF(xa_ext_replace(xe, 10, &obj[0], false, GFP_KERNEL, &old));
	ZC_FAIL_IF(xa_ext_replace(xe, 20, &obj[1], true, GFP_KERNEL, &old));
	ZC_FAIL_IF(xa_ext_replace(xe, 30, &obj[2], true, GFP_KERNEL, &old));
	ZC_FAIL_IF(xa_ext_replace(xe, 40, xa_mk_value(4), true, GFP_KERNEL,
				  &old));
	index = 0;
	ZC_FAIL_IF(xa_ext_find_first(xe, &index) != &obj[1] || index != 20);
	index = 21;
	ZC_FAIL_IF(xa_ext_find_first(xe, &index) != &obj[2] || index != 30);
	index = 31;
	ZC_FAIL_IF(xa_ext_find_first(xe, &index) != &obj[1] || index != 20);

	ZC_FAIL_IF(!xa_ext_make_young(xe, 20, &obj[1]));
	ZC_FAIL_IF(xa_ext_replace(xe, 30, &obj[2], false, GFP_KERNEL, &old));
	ZC_FAIL_IF(old != &obj[2]);
	index = 0;
	ZC_FAIL_IF(xa_ext_find_first(xe, &index));

	ZC_FAIL_IF(xa_ext_replace(xe, 10, &obj[0], true, GFP_KERNEL, &old));
	index = 11;
	ZC_FAIL_IF(xa_ext_find_first(xe, &index) != &obj[0] || index != 10);
	ZC_FAIL_IF(!xa_ext_remove_entry(xe, 10, &obj[0]));
	index = 0;
	ZC_FAIL_IF(xa_ext_find_first(xe, &index));

	ZC_FAIL_IF(!xa_ext_remove_entry(xe, 20, &obj[1]));
	ZC_FAIL_IF(!xa_ext_remove_entry(xe, 30, &obj[2]));
	ZC_FAIL_IF(xa_ext_erase(xe, 40) != xa_mk_value(4));
	ZC_FAIL_IF(xa_ext_entries(xe) != 0);
	kfree(obj);
}

/*
 * Lockless loads racing stores, reservations and erases: a loader may see
 * an index empty or holding a value made for that index, never anything
 * else; the count ends where the entries say.
 */
#define RACE_INDICES	512
static atomic_t race_bad;

static int race_writer(void *data)
{
	struct xa_ext *xe = data;
	unsigned long n = 0;
	void *old;

	while (!kthread_should_stop()) {
		unsigned long index = get_random_u32() % RACE_INDICES;

		switch (n++ % 3) {
		case 0:
			xa_ext_reserve(xe, index, GFP_KERNEL);
			xa_ext_replace(xe, index, xa_mk_value(index * 3 + 1),
				       false, GFP_KERNEL, &old);
			break;
		case 1:
			xa_ext_erase(xe, index);
			break;
		default:
			xa_ext_reserve(xe, index, GFP_KERNEL);
			xa_ext_remove(xe, index);
		}
		if (!(n & 255))
			cond_resched();
	}
	return 0;
}

static int race_reader(void *data)
{
	struct xa_ext *xe = data;
	unsigned long n = 0;

	while (!kthread_should_stop()) {
		unsigned long index = get_random_u32() % RACE_INDICES;
		void *entry = xa_ext_load(xe, index);

		if (entry && (!xa_is_value(entry) ||
			      xa_to_value(entry) != index * 3 + 1))
			atomic_inc(&race_bad);
		if (!(++n & 255))
			cond_resched();
	}
	return 0;
}

static void check_load_erase_race(struct xa_ext *xe)
{
	struct task_struct *writer, *reader;
	unsigned long i, held = 0;

	atomic_set(&race_bad, 0);
	writer = kthread_run(race_writer, xe, "test_zcache_w");
	reader = kthread_run(race_reader, xe, "test_zcache_r");
	ZC_FAIL_IF(IS_ERR(writer) || IS_ERR(reader));
	msleep(300);
	if (!IS_ERR(writer))
		kthread_stop(writer);
	if (!IS_ERR(reader))
		kthread_stop(reader);
	ZC_FAIL_IF(atomic_read(&race_bad));
	for (i = 0; i < RACE_INDICES; i++)
		held += !!xa_ext_load(xe, i);
	ZC_FAIL_IF(xa_ext_entries(xe) != held);
	ZC_FAIL_IF(xa_ext_drain(xe, count_release, NULL) != held);
	ZC_FAIL_IF(first_calls != last_calls);
}

/*********************************
 * compression
 *********************************/
static void fill_text(u8 *p)
{
	static const char words[] =
		"the quick brown fox jumps over the lazy dog while the swap cache compresses ";
	size_t i;

	for (i = 0; i < PAGE_SIZE; i++)
		p[i] = words[(i * 7 + i / 64) % (sizeof(words) - 1)];
}

/*
 * Decompress as zcache does: a synchronous algorithm's object in the
 * allocator's atomic mapping, where a decompressor that slept would be
 * reported (CONFIG_DEBUG_ATOMIC_SLEEP, the debug kernels).  The section is
 * kmap_atomic()'s: on PREEMPT_RT it disables migration, not preemption.
 */
static int decompress(struct zcomp_cpu *zc, int id, unsigned int slen,
		      struct page *dst)
{
	bool atomic = !zcomp_sleepable(zc, id);
	int ret;

	if (atomic) {
		if (IS_ENABLED(CONFIG_PREEMPT_RT))
			migrate_disable();
		else
			preempt_disable();
		pagefault_disable();
	}
	ret = zcomp_decompress(zc, id, zcomp_cpu_buffer(zc) + ZCOMP_HEADROOM,
			       slen, dst);
	if (atomic) {
		pagefault_enable();
		if (IS_ENABLED(CONFIG_PREEMPT_RT))
			migrate_enable();
		else
			preempt_enable();
	}
	return ret;
}

static int roundtrip(int id, struct page *src, struct page *dst)
{
	struct zcomp_cpu *zc;
	unsigned int dlen;
	int ret;

	zc = zcomp_cpu_get();
	ret = zcomp_compress(zc, id, src, &dlen);
	if (!ret) {
		memset(page_address(dst), 0x5a, PAGE_SIZE);
		ret = decompress(zc, id, dlen, dst);
	}
	zcomp_cpu_put(zc);
	if (ret)
		return ret;
	return memcmp(page_address(src), page_address(dst), PAGE_SIZE) ? -EIO : 0;
}

/*
 * Whether zcomp should call @id's synchronous interface (zcomp.c's rule):
 * never on a kernel without crypto_comp.
 */
static bool expect_sync(int id)
{
#ifdef ZCACHE_HAVE_CRYPTO_COMP
	const char *name = zcomp_name(id);

	return crypto_has_comp(name, 0, 0) &&
	       !crypto_has_acomp(name, CRYPTO_ALG_ASYNC,
				 CRYPTO_ALG_ASYNC | CRYPTO_NOLOAD);
#else
	return false;
#endif
}

/* The compressors this test holds a reference on */
static unsigned long held;

static void check_compressor(int id, struct page *src, struct page *dst)
{
	struct zcomp_cpu *zc;
	bool sync;
	int ret;

	ret = zcomp_prepare(id);
	ZC_FAIL_IF(ret);
	if (ret)
		return;
	held |= BIT(id);
	ZC_FAIL_IF(!zcomp_ready(id));
	/*
	 * An algorithm with a synchronous implementation (all of them on
	 * 6.1 and 6.12) and no asynchronous one is called directly, without
	 * acomp's copies.  (The rule's lookups allocate: not under @zc.)
	 */
	sync = expect_sync(id);
	zc = zcomp_cpu_get();
	ZC_FAIL_IF(zcomp_sleepable(zc, id) == sync);
	zcomp_cpu_put(zc);

	fill_text(page_address(src));
	ZC_FAIL_IF(roundtrip(id, src, dst));
	memset(page_address(src), 0, PAGE_SIZE);
	ZC_FAIL_IF(roundtrip(id, src, dst));
	get_random_bytes(page_address(src), PAGE_SIZE);
	ZC_FAIL_IF(roundtrip(id, src, dst));

	/* Garbage must fail cleanly, not crash or fill the page. */
	zc = zcomp_cpu_get();
	get_random_bytes(zcomp_cpu_buffer(zc) + ZCOMP_HEADROOM, 200);
	ret = decompress(zc, id, 200, dst);
	zcomp_cpu_put(zc);
	ZC_FAIL_IF(!ret);
}

static bool looks_incompressible(struct page *page)
{
	struct zcomp_cpu *zc = zcomp_cpu_get();
	bool random = zcomp_looks_incompressible(zc, page_address(page));

	zcomp_cpu_put(zc);
	return random;
}

/* Random data looks random; whatever compresses does not. */
static void check_incompressible_estimate(struct page *src)
{
	u8 *p = page_address(src);
	unsigned int dlen;
	struct zcomp_cpu *zc;
	int id, round;

	for (round = 0; round < 16; round++) {
		get_random_bytes(p, PAGE_SIZE);
		ZC_FAIL_IF(!looks_incompressible(src));
	}
	/* Every compressor agrees that such a page does not compress. */
	for (id = 0; id < ZCOMP_MAX_ALGS; id++) {
		if (!(held & BIT(id)))
			continue;
		zc = zcomp_cpu_get();
		ZC_FAIL_IF(zcomp_compress(zc, id, src, &dlen) == 0 &&
			   dlen <= PAGE_SIZE * 3 / 4);
		zcomp_cpu_put(zc);
	}

	fill_text(p);
	ZC_FAIL_IF(looks_incompressible(src));
	memset(p, 0, PAGE_SIZE);
	ZC_FAIL_IF(looks_incompressible(src));
	/* Half random, half zeroes: compresses to about half a page. */
	get_random_bytes(p, PAGE_SIZE / 2);
	ZC_FAIL_IF(looks_incompressible(src));
	/* A random block written twice: the compressor finds the repeat. */
	memcpy(p + PAGE_SIZE / 2, p, PAGE_SIZE / 2);
	ZC_FAIL_IF(looks_incompressible(src));
	/* An array of counters, as swaptest's structured pages have. */
	for (round = 0; round < PAGE_SIZE / 4; round++)
		((u32 *)p)[round] = 0x40 + round / 8;
	ZC_FAIL_IF(looks_incompressible(src));
	/* Random bytes from a small alphabet: 4 bits per byte. */
	get_random_bytes(p, PAGE_SIZE);
	for (round = 0; round < PAGE_SIZE; round++)
		p[round] &= 0x0f;
	ZC_FAIL_IF(looks_incompressible(src));
}

/*
 * An algorithm nobody uses: its contexts come with the first reference,
 * stay while any is held, go with the last, and come back with a new one,
 * through acomp if zcomp is asked to prefer it.
 */
static void check_prepare_release(struct page *src, struct page *dst)
{
	unsigned int online = num_online_cpus();
	struct zcomp_cpu *zc;
	int id, ret;

	for (id = 0; id < ZCOMP_MAX_ALGS; id++)
		if (zcomp_lookup(zcomp_name(id)) == id && !zcomp_ready(id) &&
		    zcomp_available(id))
			break;
	if (id == ZCOMP_MAX_ALGS) {
		pr_info("    # every compressor is in use\n");
		return;
	}
	ZC_FAIL_IF(zcomp_nr_contexts(id) != 0);
	ZC_FAIL_IF(zcomp_prepare(id));
	ZC_FAIL_IF(!zcomp_ready(id));
	ZC_FAIL_IF(zcomp_nr_contexts(id) != online);
	ZC_FAIL_IF(zcomp_prepare(id));
	zcomp_release(id);
	ZC_FAIL_IF(!zcomp_ready(id));
	ZC_FAIL_IF(zcomp_nr_contexts(id) != online);
	fill_text(page_address(src));
	ZC_FAIL_IF(roundtrip(id, src, dst));
	zcomp_release(id);
	ZC_FAIL_IF(zcomp_ready(id));
	ZC_FAIL_IF(zcomp_nr_contexts(id) != 0);

	ZC_FAIL_IF(zcomp_prepare(id));
	ZC_FAIL_IF(!zcomp_ready(id));
	ZC_FAIL_IF(zcomp_nr_contexts(id) != online);
	ZC_FAIL_IF(roundtrip(id, src, dst));
	zcomp_release(id);
	ZC_FAIL_IF(zcomp_nr_contexts(id) != 0);

	/* Once more through acomp, which zcache uses only where it must. */
	zcomp_prefer_acomp(true);
	ret = zcomp_prepare(id);
	zcomp_prefer_acomp(false);
	ZC_FAIL_IF(ret);
	if (!ret) {
		ZC_FAIL_IF(zcomp_nr_contexts(id) != online);
		zc = zcomp_cpu_get();
		ZC_FAIL_IF(!zcomp_sleepable(zc, id));
		zcomp_cpu_put(zc);
		ZC_FAIL_IF(roundtrip(id, src, dst));
		zcomp_release(id);
	}
	ZC_FAIL_IF(zcomp_nr_contexts(id) != 0);
	pr_info("    # %s: contexts on %u CPUs, then none; acomp too\n",
		zcomp_name(id), online);
}

/*
 * CPU hotplug: contexts exist for online CPUs only, and a thread that
 * compresses all along, migrated off a CPU that goes down, never gets a
 * context that is being freed.
 */
static atomic_t hotplug_bad, hotplug_rounds;

static int hotplug_worker(void *data)
{
	struct page *src = alloc_page(GFP_KERNEL), *dst = alloc_page(GFP_KERNEL);
	int id = 0;

	if (src && dst)
		fill_text(page_address(src));
	while (!kthread_should_stop()) {
		if (!src || !dst) {
			msleep(20);
			continue;
		}
		id = find_next_bit(&held, ZCOMP_MAX_ALGS, id + 1);
		if (id >= ZCOMP_MAX_ALGS)
			id = find_first_bit(&held, ZCOMP_MAX_ALGS);
		if (id >= ZCOMP_MAX_ALGS || roundtrip(id, src, dst))
			atomic_inc(&hotplug_bad);
		atomic_inc(&hotplug_rounds);
		/*
		 * Sleep, not cond_resched(): on PREEMPT_RT that is a no-op,
		 * and a thread that never sleeps starves the tasks the
		 * hotplug callbacks wait for.  The worker still compresses
		 * most of the time.
		 */
		usleep_range(20, 50);
	}
	if (src)
		__free_page(src);
	if (dst)
		__free_page(dst);
	return 0;
}

struct bound_run {
	struct completion done;
	int bad;
};

static int bound_roundtrip(void *data)
{
	struct page *src = alloc_page(GFP_KERNEL), *dst = alloc_page(GFP_KERNEL);
	struct bound_run *run = data;
	int id;

	if (!src || !dst) {
		run->bad++;
	} else {
		fill_text(page_address(src));
		for (id = 0; id < ZCOMP_MAX_ALGS; id++)
			if ((held & BIT(id)) && roundtrip(id, src, dst))
				run->bad++;
	}
	if (src)
		__free_page(src);
	if (dst)
		__free_page(dst);
	complete(&run->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void check_cpu_hotplug(void)
{
	unsigned int cpu = cpumask_last(cpu_online_mask);
	struct task_struct *worker, *bound;
	struct bound_run run = { .bad = 0 };
	int id, round, ret;

	id = find_first_bit(&held, ZCOMP_MAX_ALGS);
	if (num_online_cpus() < 2 || cpu == 0 || id >= ZCOMP_MAX_ALGS) {
		pr_info("    # needs 2 CPUs and a compressor\n");
		return;
	}
	atomic_set(&hotplug_bad, 0);
	atomic_set(&hotplug_rounds, 0);
	worker = kthread_run(hotplug_worker, NULL, "test_zcache_hp");
	ZC_FAIL_IF(IS_ERR(worker));
	for (round = 0; round < 3; round++) {
		ret = remove_cpu(cpu);
		if (ret) {
			pr_info("    # CPU %u cannot go down (%d)\n", cpu, ret);
			break;
		}
		ZC_FAIL_IF(zcomp_nr_contexts(id) != num_online_cpus());
		msleep(50);
		ret = add_cpu(cpu);
		ZC_FAIL_IF(ret);
		if (ret)
			break;
		ZC_FAIL_IF(zcomp_nr_contexts(id) != num_online_cpus());
		msleep(50);
	}
	if (!IS_ERR(worker))
		kthread_stop(worker);
	ZC_FAIL_IF(atomic_read(&hotplug_bad));
	ZC_FAIL_IF(!atomic_read(&hotplug_rounds));

	/* The CPU that came back has working contexts of its own. */
	ZC_FAIL_IF(!cpu_online(cpu));
	if (!cpu_online(cpu))
		return;
	init_completion(&run.done);
	bound = kthread_create(bound_roundtrip, &run, "test_zcache_cpu");
	ZC_FAIL_IF(IS_ERR(bound));
	if (!IS_ERR(bound)) {
		kthread_bind(bound, cpu);
		wake_up_process(bound);
		ZC_FAIL_IF(!wait_for_completion_timeout(&run.done, 30 * HZ));
		kthread_stop(bound);
		ZC_FAIL_IF(run.bad);
	}
	pr_info("    # CPU %u down and up %d times, %d round trips meanwhile\n",
		cpu, round, atomic_read(&hotplug_rounds));
}

/*********************************
 * runner
 *********************************/
static unsigned int case_no;

/* Each index case starts from an empty index and must leave it empty. */
static void ktap_case(const char *name, void (*fn)(struct xa_ext *))
{
	struct xa_ext xe;

	failed_in_case = 0;
	reset_counts();
	xa_ext_init(&xe, &counting);
	fn(&xe);
	ZC_FAIL_IF(xa_ext_entries(&xe));
	ZC_FAIL_IF(first_calls != last_calls);
	xa_ext_destroy(&xe);
	pr_info("%sok %u %s\n", failed_in_case ? "not " : "", ++case_no, name);
}

#define RUN(fn) ktap_case(#fn, fn)

static int __init test_zcache_init(void)
{
	struct page *src, *dst;
	int id, ncases = 13;

	for (id = 0; id < ZCOMP_MAX_ALGS; id++)
		if (zcomp_lookup(zcomp_name(id)) == id && zcomp_available(id))
			ncases++;

	pr_info("KTAP version 1\n");
	pr_info("1..%d\n", ncases);
	RUN(check_replace);
	RUN(check_refused_first);
	RUN(check_erase_absent_is_lockless);
	RUN(check_partial_insert);
	RUN(check_reserve);
	RUN(check_drain);
	RUN(check_pointer_entries);
	RUN(check_generations);
	RUN(check_first);
	RUN(check_load_erase_race);

	src = alloc_page(GFP_KERNEL);
	dst = alloc_page(GFP_KERNEL);
	failed_in_case = 0;
	ZC_FAIL_IF(!src || !dst);
	if (src && dst)
		check_prepare_release(src, dst);
	pr_info("%sok %u compressor_references\n",
		failed_in_case ? "not " : "", ++case_no);

	for (id = 0; id < ZCOMP_MAX_ALGS; id++) {
		if (zcomp_lookup(zcomp_name(id)) != id || !zcomp_available(id))
			continue;
		failed_in_case = 0;
		ZC_FAIL_IF(!src || !dst);
		if (src && dst)
			check_compressor(id, src, dst);
		pr_info("%sok %u compress_roundtrip_%s\n",
			failed_in_case ? "not " : "", ++case_no, zcomp_name(id));
	}
	failed_in_case = 0;
	ZC_FAIL_IF(!src);
	if (src)
		check_incompressible_estimate(src);
	pr_info("%sok %u incompressible_estimate\n",
		failed_in_case ? "not " : "", ++case_no);

	failed_in_case = 0;
	check_cpu_hotplug();
	pr_info("%sok %u contexts_follow_cpu_hotplug\n",
		failed_in_case ? "not " : "", ++case_no);

	for (id = 0; id < ZCOMP_MAX_ALGS; id++)
		if (held & BIT(id))
			zcomp_release(id);
	if (src)
		__free_page(src);
	if (dst)
		__free_page(dst);

	pr_info("%u of %u tests passed\n", tests_passed, tests_run);
	return (tests_run == tests_passed) ? 0 : -EINVAL;
}

static void __exit test_zcache_exit(void)
{
}

module_init(test_zcache_init);
module_exit(test_zcache_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Self-test of zcache's index helpers and compressors");
