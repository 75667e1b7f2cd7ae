// SPDX-License-Identifier: GPL-2.0
/*
 * A compressed cache for swap pages
 *
 * Pages on their way to swap are compressed into a pool in RAM instead of
 * being written out; a fault on one of them costs a decompression instead
 * of a disk read.  This file is the cache's policy: what is stored and
 * where it is looked up, the pool limit, the parameters and the stats.
 * How the swap core reaches it is the attach layer's business (attach/),
 * how pages are compressed is compress/zcomp.c's and where compressed
 * objects live is zpool_glue.c's.
 *
 * The index is one XArray per swap type, keyed by swap offset.  A slot
 * holds either ZCACHE_ZERO_ENTRY, for a page of zeroes (no allocation, no
 * compression), or the allocator handle of an object that starts with a
 * 16-bit header giving the compressed length and the compressor id.  That
 * header is all the metadata an entry has beyond its XArray slot.
 *
 * Lock order, outermost first:
 *   kernel_param_lock (parameter writes, init and exit)
 *     swap core locks (si->lock, the swap cache page lock)
 *       zcomp_cpu.lock (mutex, store and load only)
 *         xa_lock of a tree (spinlock)
 *           allocator locks
 * zcache_invalidate() takes only xa_lock and the allocator's locks and
 * never sleeps.  zcache_swapon(), zcache_swapoff() and zcache_holds() run
 * in ftrace handlers and take no lock at all, so that nothing in them can
 * sleep even on PREEMPT_RT, where spinlock_t sleeps: what a swapon or
 * swapoff finds left over is freed by a work item.  A compressor switch
 * and the release of a compressor no longer in use take
 *   kernel_param_lock (switch only)
 *     zcache_comp_lock
 *       zcomp_cpu.lock (one at a time, zcomp_cpu_sync())
 *       zcomp_prepare_lock > cpu_hotplug_lock > zcomp_cpu.lock
 *
 * A tree that holds entries holds a reference on the module, so rmmod is
 * refused while any page is stored; swapoff (or swapping the pages back
 * in) drains them, and so does writeback's drain (enabled=N, drain=Y).
 * The reference follows the tree's entry count, which changes only under
 * xa_lock (xarray_ext.c).
 *
 * Writeback (writeback.c) sits below the core: it gets the core's
 * callbacks as a table (zcache_wb_ops) and takes a folio lock, then
 * xa_lock, and the allocator's locks and a compressor context's mutex
 * through the callbacks; the store hook refuses the pages it writes.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/swap.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "compress/zcomp.h"
#include "writeback.h"
#include "xarray_ext.h"
#include "zcache.h"
#include "zpool_glue.h"

/*********************************
 * module parameters
 *********************************/
static bool zcache_enabled = true;
static int zcache_bool_set(const char *val, const struct kernel_param *kp);
static int zcache_enabled_set(const char *val, const struct kernel_param *kp);
static const struct kernel_param_ops zcache_enabled_ops = {
	.set = zcache_enabled_set,
	.get = param_get_bool,
};
module_param_cb(enabled, &zcache_enabled_ops, &zcache_enabled, 0644);
MODULE_PARM_DESC(enabled,
		 "Store new pages in zcache; stored pages stay readable (bool, default Y)");

/* Compressor id; the default is chosen at init (lz4, else lzo). */
static int zcache_comp_id = -1;
static int zcache_compressor_set(const char *val,
				 const struct kernel_param *kp);
static int zcache_compressor_get(char *buffer, const struct kernel_param *kp);
static const struct kernel_param_ops zcache_compressor_ops = {
	.set = zcache_compressor_set,
	.get = zcache_compressor_get,
};
module_param_cb(compressor, &zcache_compressor_ops, &zcache_comp_id, 0644);
MODULE_PARM_DESC(compressor,
		 "Compressor for new pages: lzo, lzo-rle, lz4, lz4hc, zstd, deflate or 842, as the kernel offers (default lz4, else lzo)");

static char zcache_allocator[16] = "zsmalloc";
static int zcache_allocator_set(const char *val,
				const struct kernel_param *kp);
static const struct kernel_param_ops zcache_allocator_ops = {
	.set = zcache_allocator_set,
	.get = param_get_string,
};

static struct kparam_string zcache_allocator_kps = {
	.maxlen = sizeof(zcache_allocator),
	.string = zcache_allocator,
};
module_param_cb(allocator, &zcache_allocator_ops, &zcache_allocator_kps,
		0644);
MODULE_PARM_DESC(allocator,
		 "Allocator of compressed objects: zsmalloc (default zsmalloc; chosen at load)");

static unsigned int zcache_max_pool_percent = 20;
static int zcache_max_pool_percent_set(const char *val,
				       const struct kernel_param *kp);
static const struct kernel_param_ops zcache_max_pool_percent_ops = {
	.set = zcache_max_pool_percent_set,
	.get = param_get_uint,
};
module_param_cb(max_pool_percent, &zcache_max_pool_percent_ops,
		&zcache_max_pool_percent, 0644);
MODULE_PARM_DESC(max_pool_percent,
		 "Pool size limit in percent of RAM (1-100, default 20)");

static unsigned int zcache_accept_threshold_percent = 90;
static int zcache_accept_threshold_set(const char *val,
				       const struct kernel_param *kp);
static const struct kernel_param_ops zcache_accept_threshold_ops = {
	.set = zcache_accept_threshold_set,
	.get = param_get_uint,
};
module_param_cb(accept_threshold_percent, &zcache_accept_threshold_ops,
		&zcache_accept_threshold_percent, 0644);
MODULE_PARM_DESC(accept_threshold_percent,
		 "After the pool was full, accept again below this percent of the limit (0-100, default 90)");

static unsigned int zcache_max_compressed_percent = 75;
static int zcache_max_compressed_set(const char *val,
				     const struct kernel_param *kp);
static const struct kernel_param_ops zcache_max_compressed_ops = {
	.set = zcache_max_compressed_set,
	.get = param_get_uint,
};
module_param_cb(max_compressed_percent, &zcache_max_compressed_ops,
		&zcache_max_compressed_percent, 0644);
MODULE_PARM_DESC(max_compressed_percent,
		 "Reject a page that compresses to more than this percent of a page (10-100, default 75); with keep_poor_pages, only while the pool is short of room");

static bool zcache_keep_poor_pages = true;
static const struct kernel_param_ops zcache_keep_poor_pages_ops = {
	.set = zcache_bool_set,
	.get = param_get_bool,
};
module_param_cb(keep_poor_pages, &zcache_keep_poor_pages_ops,
		&zcache_keep_poor_pages, 0644);
MODULE_PARM_DESC(keep_poor_pages,
		 "Keep pages that compress to more than max_compressed_percent while the pool has room to spare: until it fills, and again once it is below half its limit (bool, default Y)");

static bool zcache_zero_pages_enabled = true;
static const struct kernel_param_ops zcache_zero_pages_ops = {
	.set = zcache_bool_set,
	.get = param_get_bool,
};
module_param_cb(zero_pages_enabled, &zcache_zero_pages_ops,
		&zcache_zero_pages_enabled, 0644);
MODULE_PARM_DESC(zero_pages_enabled,
		 "Keep zero-filled pages as a sentinel, without compressing them (bool, default Y)");

static bool zcache_writeback_enabled = true;
static bool zcache_shrinker_enabled;
static int zcache_writeback_param_set(const char *val,
				      const struct kernel_param *kp);
static const struct kernel_param_ops zcache_writeback_param_ops = {
	.set = zcache_writeback_param_set,
	.get = param_get_bool,
};
module_param_cb(writeback_enabled, &zcache_writeback_param_ops,
		&zcache_writeback_enabled, 0644);
MODULE_PARM_DESC(writeback_enabled,
		 "When the pool is full, write its coldest pages to the swap device until it is below accept_threshold_percent (bool, default Y)");
module_param_cb(shrinker_enabled, &zcache_writeback_param_ops,
		&zcache_shrinker_enabled, 0644);
MODULE_PARM_DESC(shrinker_enabled,
		 "Also write back under memory pressure, before the pool is full (bool, default N)");

static int zcache_drain_set(const char *val, const struct kernel_param *kp);
static int zcache_drain_get(char *buffer, const struct kernel_param *kp);
static const struct kernel_param_ops zcache_drain_ops = {
	.set = zcache_drain_set,
	.get = zcache_drain_get,
};
module_param_cb(drain, &zcache_drain_ops, NULL, 0644);
MODULE_PARM_DESC(drain,
		 "Write Y, with enabled=N, to write every stored page back to the swap device (then rmmod needs no swapoff); N stops; reads Y while draining (bool, default N)");

/*********************************
 * data structures
 *********************************/
/* A page of zeroes: an XArray value entry, nothing allocated. */
#define ZCACHE_ZERO_ENTRY	xa_mk_value(0)

/*
 * Stores run inside reclaim (PF_MEMALLOC).  A compressed object is
 * allocated as zswap and zram allocate theirs: without waiting, and with
 * the reclaimer's access to the reserves, since storing the page frees
 * more than the object takes (kept out of the reserves, objects failed
 * for a quarter of all store attempts in the suite's mixed workload).
 * A page kept although it compressed poorly may free nothing (zsmalloc
 * gives an object above its huge class size a page of its own): its
 * object keeps out of the reserves (ZCACHE_GFP_POOR).
 *
 * The index slot is reserved first, before any work is spent on the page.
 * Its node, if the slot has none yet, comes from xas_store()'s own
 * attempt under the tree lock, which is GFP_NOWAIT and, inside reclaim,
 * may use the reserves like the object; if that fails, from a retry
 * outside the lock that may sleep and keeps out of the reserves
 * (ZCACHE_GFP_NODE).  If both fail the store is refused and the page goes
 * to disk, before it was compressed.
 */
#define ZCACHE_GFP_OBJECT	(__GFP_NORETRY | __GFP_NOWARN | \
				 __GFP_KSWAPD_RECLAIM | __GFP_HIGHMEM | \
				 __GFP_MOVABLE)
#define ZCACHE_GFP_POOR		(ZCACHE_GFP_OBJECT | __GFP_NOMEMALLOC)
#define ZCACHE_GFP_NODE		(GFP_KERNEL | __GFP_NOMEMALLOC | __GFP_NOWARN)

/* The header at the start of every compressed object */
#define ZCACHE_HDR_LEN		GENMASK(12, 0)
#define ZCACHE_HDR_COMP		GENMASK(15, 13)
#define ZCACHE_HDR_SIZE		sizeof(u16)

/* The pool reads an object's length from its header. */
static size_t zcache_obj_len(const void *head)
{
	u16 hdr;

	memcpy(&hdr, head, ZCACHE_HDR_SIZE);
	return ZCACHE_HDR_SIZE + FIELD_GET(ZCACHE_HDR_LEN, hdr);
}

/* The header goes in the compressor's headroom (zcache_compress()). */
static_assert(ZCACHE_HDR_SIZE <= ZCOMP_HEADROOM);
/* The length field (from bit 0) holds any length up to a page. */
static_assert(PAGE_SIZE <= ZCACHE_HDR_LEN);

static const struct zcache_pool_layout zcache_obj_layout = {
	.head = ZCACHE_HDR_SIZE,
	.len = zcache_obj_len,
};

/**
 * struct zcache_tree - what zcache holds for one swap type
 * @index:	swap offset -> entry
 * @stale:	a swapon or swapoff found entries of an earlier device of
 *		this type; until @drain_work has freed them the type is
 *		bypassed: nothing is stored or loaded
 * @drain_work:	frees what a swapon or swapoff left, in process context
 */
struct zcache_tree {
	struct xa_ext index;
	bool stale;
	struct work_struct drain_work;
};

static struct zcache_tree zcache_trees[MAX_SWAPFILES];
static struct zcache_pool *zcache_pool;

/* The swap core takes zero-filled pages before they reach zcache. */
static bool zcache_zero_filtered;

/* The pool hit its limit; refuse until it drops below the threshold. */
static bool zcache_pool_reached_full;

/* The pool hit its limit and has not been below half of it since. */
static bool zcache_pool_pressed;

/*
 * Under kernel_param_lock: parameters written before init or from exit on
 * only record their value; between the two they act on the live state.
 * From exit on the compressor is not even recorded: stores may still run
 * until the hooks are gone, and must not pick a compressor never set up.
 */
static bool zcache_initialized;
static bool zcache_exiting;

/*********************************
 * statistics
 *********************************/
enum zcache_stat_item {
	ZCACHE_STORED_PAGES,
	ZCACHE_ZERO_PAGES,
	ZCACHE_STORES,
	ZCACHE_LOADS,
	ZCACHE_INVALIDATES,
	ZCACHE_DUPLICATE_ENTRY,
	ZCACHE_POOL_LIMIT_HIT,
	ZCACHE_REJECT_COMPRESS_POOR,
	ZCACHE_REJECT_POOR_SAMPLED,
	ZCACHE_POOR_KEPT,
	ZCACHE_REJECT_COMPRESS_FAIL,
	ZCACHE_REJECT_ALLOC_FAIL,
	ZCACHE_REJECT_DISABLED,
	ZCACHE_DECOMPRESS_FAIL,
	ZCACHE_WRITTEN_BACK,
	ZCACHE_WRITTEN_BACK_POOR,
	ZCACHE_WRITEBACK_FAIL,
	ZCACHE_WRITEBACK_SKIP,
	ZCACHE_WRITEBACK_STALE,
	ZCACHE_NR_STATS,
};

static const char * const zcache_stat_names[ZCACHE_NR_STATS] = {
	[ZCACHE_STORED_PAGES] = "stored_pages",
	[ZCACHE_ZERO_PAGES] = "zero_pages",
	[ZCACHE_STORES] = "stores",
	[ZCACHE_LOADS] = "loads",
	[ZCACHE_INVALIDATES] = "invalidates",
	[ZCACHE_DUPLICATE_ENTRY] = "duplicate_entry",
	[ZCACHE_POOL_LIMIT_HIT] = "pool_limit_hit",
	[ZCACHE_REJECT_COMPRESS_POOR] = "reject_compress_poor",
	[ZCACHE_REJECT_POOR_SAMPLED] = "reject_poor_sampled",
	[ZCACHE_POOR_KEPT] = "poor_kept",
	[ZCACHE_REJECT_COMPRESS_FAIL] = "reject_compress_fail",
	[ZCACHE_REJECT_ALLOC_FAIL] = "reject_alloc_fail",
	[ZCACHE_REJECT_DISABLED] = "reject_disabled",
	[ZCACHE_DECOMPRESS_FAIL] = "decompress_fail",
	[ZCACHE_WRITTEN_BACK] = "written_back",
	[ZCACHE_WRITTEN_BACK_POOR] = "written_back_poor",
	[ZCACHE_WRITEBACK_FAIL] = "writeback_fail",
	[ZCACHE_WRITEBACK_SKIP] = "writeback_skip",
	[ZCACHE_WRITEBACK_STALE] = "writeback_stale",
};

/*
 * Exact per-CPU counters: a writer adds to its own CPU's slot, a reader
 * sums every slot.  Gauges (stored and zero pages) may go negative on one
 * CPU; their sum is exact.
 */
struct zcache_stats {
	long item[ZCACHE_NR_STATS];
};

static DEFINE_PER_CPU(struct zcache_stats, zcache_stats);

static inline void zcache_stat_add(enum zcache_stat_item item, long delta)
{
	this_cpu_add(zcache_stats.item[item], delta);
}

static inline void zcache_stat_inc(enum zcache_stat_item item)
{
	zcache_stat_add(item, 1);
}

static long zcache_stat_sum(enum zcache_stat_item item)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(zcache_stats.item[item], cpu));
	return sum;
}

/*********************************
 * compressors in use
 *********************************/
/*
 * A compressor's contexts cost memory on every online CPU (zstd's take
 * over 1 MB each), so zcache holds them (zcomp_prepare()) only while they
 * may be used: for the current compressor, and for an earlier one until
 * its last object is freed.
 *
 * zcache_comp_objects counts the live objects of each compressor in
 * per-CPU counters, exact when summed: zcache_compress() adds one when it
 * has made an object, zcache_object_free() takes one off.  The free path
 * learns the compressor from the object's header; while zcache holds a
 * single compressor, every object was made with it and the header is not
 * read.  Otherwise each free maps the object once more to read its two
 * header bytes (zsmalloc copies an object that straddles two pages into
 * a per-CPU buffer to map it): that is the price, paid only while objects
 * of an earlier compressor remain.
 *
 * The contexts are freed by zcache_comp_release_work, in process context:
 * the free path runs in atomic context and cannot free a transform.  The
 * work is queued 2 s after every compressor switch and queues itself again
 * every 2 s while a compressor that is not the current one still has
 * objects.  It releases compressor X only when, under zcache_comp_lock
 * (which a switch holds, so X cannot become current meanwhile):
 *
 * 1. X is not the current compressor;
 * 2. zcomp_cpu_sync() has returned.  A store reads the current compressor
 *    under its context's mutex and counts its object before it puts the
 *    context, so every store that read X has counted its object by now,
 *    and every later store reads another compressor;
 * 3. the sum of X's counters is 0.  After 2 no counter of X can grow, so
 *    a sum read while frees take objects off can only be too high: 0 means
 *    that no object of X exists, and that none will.
 *
 * A load needs the object it decompresses to exist from start to end (the
 * swap core never frees a slot while loading it), so no load of an X
 * object is in flight or can come either.  A switch back to X after the
 * release takes a new reference, which creates the contexts again.
 */
#define ZCACHE_COMP_RELEASE_DELAY	(2 * HZ)

struct zcache_comp_count {
	long objects[ZCOMP_MAX_ALGS];
};

static DEFINE_PER_CPU(struct zcache_comp_count, zcache_comp_count);
static DEFINE_MUTEX(zcache_comp_lock);
/* Ids zcache holds a reference on; written under zcache_comp_lock */
static unsigned long zcache_comp_held;
static void zcache_comp_release_unused(struct work_struct *work);
static DECLARE_DELAYED_WORK(zcache_comp_release_work,
			    zcache_comp_release_unused);

static long zcache_comp_objects(int id)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(zcache_comp_count.objects[id], cpu));
	return sum;
}

/* The compressor of an object that is being freed.  Never sleeps. */
static int zcache_object_comp(unsigned long handle)
{
	unsigned long held = READ_ONCE(zcache_comp_held);
	u16 hdr;

	/*
	 * The object's compressor was held before its store read the
	 * current id (acquire, paired with the release in
	 * zcache_comp_select()), the store published the object under the
	 * tree's lock, and the caller found it there: its bit is seen here,
	 * and stays set while the object exists.
	 */
	if (likely(hweight_long(held) == 1))
		return __ffs(held);
	zcache_pool_read_head(zcache_pool, handle, &hdr);
	return FIELD_GET(ZCACHE_HDR_COMP, hdr);
}

/* Free a compressed object that zcache_compress() counted. */
static void zcache_object_free(unsigned long handle)
{
	this_cpu_dec(zcache_comp_count.objects[zcache_object_comp(handle)]);
	zcache_pool_free(zcache_pool, handle);
}

/*
 * Make @id the compressor of new stores, taking a reference on its
 * contexts unless zcache holds one.  Called with kernel_param_lock held.
 */
static int zcache_comp_select(int id)
{
	int ret = 0;

	mutex_lock(&zcache_comp_lock);
	if (!(zcache_comp_held & BIT(id))) {
		ret = zcomp_prepare(id);
		if (ret)
			goto unlock;
		WRITE_ONCE(zcache_comp_held, zcache_comp_held | BIT(id));
	}
	/* Stores read the id with acquire: they see the bit set above. */
	smp_store_release(&zcache_comp_id, id);
	if (zcache_comp_held != BIT(id))
		queue_delayed_work(system_wq, &zcache_comp_release_work,
				   ZCACHE_COMP_RELEASE_DELAY);
unlock:
	mutex_unlock(&zcache_comp_lock);
	return ret;
}

/* Release the compressors that are not current and have no object. */
static void zcache_comp_release_unused(struct work_struct *work)
{
	unsigned long unused = 0;
	int id;

	mutex_lock(&zcache_comp_lock);
	/* A first look, to skip the sync while objects remain. */
	for (id = 0; id < ZCOMP_MAX_ALGS; id++)
		if ((zcache_comp_held & BIT(id)) && id != zcache_comp_id &&
		    !zcache_comp_objects(id))
			unused |= BIT(id);
	if (!unused)
		goto requeue;

	/* The reasoning is at the top of this section. */
	zcomp_cpu_sync();
	for (id = 0; id < ZCOMP_MAX_ALGS; id++) {
		if (!(unused & BIT(id)) || zcache_comp_objects(id))
			continue;
		WRITE_ONCE(zcache_comp_held, zcache_comp_held & ~BIT(id));
		zcomp_release(id);
		pr_debug("compressor %s released\n", zcomp_name(id));
	}

requeue:
	if (zcache_comp_held & ~BIT(zcache_comp_id))
		queue_delayed_work(system_wq, &zcache_comp_release_work,
				   ZCACHE_COMP_RELEASE_DELAY);
	mutex_unlock(&zcache_comp_lock);
}

/* Drop every reference.  No store, load or free may be left. */
static void zcache_comp_release_all(void)
{
	int id;

	cancel_delayed_work_sync(&zcache_comp_release_work);
	mutex_lock(&zcache_comp_lock);
	for (id = 0; id < ZCOMP_MAX_ALGS; id++)
		if (zcache_comp_held & BIT(id))
			zcomp_release(id);
	WRITE_ONCE(zcache_comp_held, 0);
	mutex_unlock(&zcache_comp_lock);
}

/*
 * At exit, once zcache_exit() has made parameter writes only record (they
 * queue no work then): the compressors and the contexts go.
 */
static void zcache_comp_exit(void)
{
	kernel_param_lock(THIS_MODULE);
	zcache_comp_release_all();
	kernel_param_unlock(THIS_MODULE);
	zcomp_exit();
}

/*********************************
 * parameter setters
 *********************************/
/*
 * Stricter than param_set_bool(), which takes "yes-no" for yes: the whole
 * value must be one of the words below, in any case, with an optional
 * trailing newline.  A bare "name" at load time means true.
 */
static int zcache_bool_set(const char *val, const struct kernel_param *kp)
{
	static const char * const words[] = {
		"1", "y", "yes", "on", "true", "0", "n", "no", "off", "false",
	};
	size_t len;
	int i;

	if (!val) {
		WRITE_ONCE(*(bool *)kp->arg, true);
		return 0;
	}
	len = strcspn(val, "\n");
	if (val[len] && strcmp(val + len, "\n"))
		goto invalid;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		if (len == strlen(words[i]) && !strncasecmp(val, words[i], len)) {
			WRITE_ONCE(*(bool *)kp->arg, i < ARRAY_SIZE(words) / 2);
			return 0;
		}
	}
invalid:
	pr_err("%s: '%.*s' is not one of 1/0, y/n, yes/no, on/off, true/false\n",
	       kp->name, (int)strcspn(val, "\n"), val);
	return -EINVAL;
}

/* zcache_bool_set()'s words, parsed into *@res; nothing is stored. */
static int zcache_bool_parse(const char *val, const struct kernel_param *kp,
			     bool *res)
{
	struct kernel_param word = *kp;

	word.arg = res;
	return zcache_bool_set(val, &word);
}

static int zcache_percent_set(const char *val, const struct kernel_param *kp,
			      unsigned int min, unsigned int max)
{
	int ret = param_set_uint_minmax(val, kp, min, max);

	if (ret)
		pr_err("%s: '%.*s' is not a number from %u to %u\n", kp->name,
		       (int)strcspn(val, "\n"), val, min, max);
	return ret;
}

static int zcache_max_pool_percent_set(const char *val,
				       const struct kernel_param *kp)
{
	return zcache_percent_set(val, kp, 1, 100);
}

static int zcache_accept_threshold_set(const char *val,
				       const struct kernel_param *kp)
{
	return zcache_percent_set(val, kp, 0, 100);
}

static int zcache_max_compressed_set(const char *val,
				     const struct kernel_param *kp)
{
	return zcache_percent_set(val, kp, 10, 100);
}

/*
 * enabled=Y ends a drain, before any new page is stored: a drain relies
 * on no store inserting while it runs.
 */
static int zcache_enabled_set(const char *val, const struct kernel_param *kp)
{
	bool enable;
	int ret;

	ret = zcache_bool_parse(val, kp, &enable);
	if (ret)
		return ret;
	if (enable && zcache_initialized && zcache_wb_draining())
		zcache_wb_drain(false);
	WRITE_ONCE(zcache_enabled, enable);
	return 0;
}

/* writeback_enabled and shrinker_enabled */
static int zcache_writeback_param_set(const char *val,
				      const struct kernel_param *kp)
{
	int ret = zcache_bool_set(val, kp);

	if (!ret && zcache_initialized)
		zcache_wb_configure(zcache_writeback_enabled,
				    zcache_shrinker_enabled);
	return ret;
}

static int zcache_drain_set(const char *val, const struct kernel_param *kp)
{
	bool start;
	int ret;

	ret = zcache_bool_parse(val, kp, &start);
	if (ret)
		return ret;
	if (!zcache_initialized) {
		pr_err("drain: only once zcache is loaded%s\n",
		       zcache_exiting ? " (it is being unloaded)" : "");
		return -EINVAL;
	}
	if (start && READ_ONCE(zcache_enabled)) {
		pr_err("drain: set enabled=N first, or new pages keep arriving\n");
		return -EBUSY;
	}
	/* No store may insert during a drain: wait for those in flight. */
	if (start)
		zcache_attach_sync();
	ret = zcache_wb_drain(start);
	if (ret)
		pr_err("drain: writeback is unavailable on this kernel (see writeback_available)\n");
	return ret;
}

static int zcache_drain_get(char *buffer, const struct kernel_param *kp)
{
	return sprintf(buffer, "%c\n", zcache_wb_draining() ? 'Y' : 'N');
}

/* Called with kernel_param_lock held, by sysfs and by init. */
static int zcache_compressor_set(const char *val,
				 const struct kernel_param *kp)
{
	char name[ZCOMP_NAME_MAX];
	int id, ret;

	strscpy(name, val, sizeof(name));
	id = zcomp_lookup(strim(name));
	if (id < 0) {
		pr_err("compressor: '%s' is not one of lzo, lzo-rle, lz4, lz4hc, zstd, deflate, 842\n",
		       name);
		return -EINVAL;
	}
	if (!zcomp_available(id)) {
		pr_err("compressor: %s is not available in this kernel\n",
		       name);
		return -EINVAL;
	}
	if (zcache_exiting) {
		pr_err("compressor: zcache is being unloaded\n");
		return -EBUSY;
	}
	if (zcache_initialized) {
		ret = zcache_comp_select(id);
		if (ret)
			pr_err("compressor: cannot set up %s (%d)\n", name, ret);
		return ret;
	}
	WRITE_ONCE(zcache_comp_id, id);
	return 0;
}

static int zcache_compressor_get(char *buffer, const struct kernel_param *kp)
{
	return sprintf(buffer, "%s\n", zcomp_name(READ_ONCE(zcache_comp_id)));
}

static int zcache_allocator_set(const char *val,
				const struct kernel_param *kp)
{
	char name[sizeof(zcache_allocator)];

	strscpy(name, val, sizeof(name));
	strim(name);
	if (!zcache_pool_known(name)) {
		pr_err("allocator: '%s' is not one of: zsmalloc\n", name);
		return -EINVAL;
	}
	if (zcache_initialized &&
	    strcmp(name, zcache_pool_allocator(zcache_pool))) {
		pr_err("allocator: the allocator is chosen at load time\n");
		return -EINVAL;
	}
	strscpy(zcache_allocator, name, sizeof(zcache_allocator));
	return 0;
}

/*********************************
 * pool limit
 *********************************/
static unsigned long zcache_max_pool_pages(void)
{
	return totalram_pages() * READ_ONCE(zcache_max_pool_percent) / 100;
}

static unsigned long zcache_accept_pool_pages(void)
{
	return zcache_max_pool_pages() *
	       READ_ONCE(zcache_accept_threshold_percent) / 100;
}

/*
 * The pool hit its limit: stores are refused until it is below
 * accept_threshold_percent of it, poorly compressing pages until it is
 * below half of it.
 */
static void zcache_pool_mark_full(void)
{
	WRITE_ONCE(zcache_pool_reached_full, true);
	WRITE_ONCE(zcache_pool_pressed, true);
}

/*
 * Whether a page that compressed above max_compressed_percent is kept.
 * Refused, it costs a disk write now and a disk read later, each a request
 * of its own when the slots beside it are in the cache (swap-in readahead
 * merges reads of adjacent slots only): a refusal saves pool room at the
 * price of disk I/O.  That is worth it only while room is short, so with
 * keep_poor_pages such a page is refused only from the moment the pool
 * hits its limit until it has fallen below half of it; otherwise it is
 * kept, stored to go first: once the pool fills, writeback takes such
 * pages before any other, each write freeing more room than one of a
 * page that compresses well.
 * The flag is a hint, read and written without a lock.
 */
static bool zcache_pool_keeps_poor(void)
{
	if (!READ_ONCE(zcache_keep_poor_pages))
		return false;
	if (READ_ONCE(zcache_pool_pressed)) {
		if (zcache_pool_total_pages(zcache_pool) * 2 >=
		    zcache_max_pool_pages())
			return false;
		WRITE_ONCE(zcache_pool_pressed, false);
	}
	return true;
}

/* Whether the pool is within its limit; counts every refusal. */
static bool zcache_pool_has_room(void)
{
	u64 total = zcache_pool_total_pages(zcache_pool);

	if (total > zcache_max_pool_pages()) {
		zcache_pool_mark_full();
		goto refuse;
	}
	if (READ_ONCE(zcache_pool_reached_full)) {
		if (total > zcache_accept_pool_pages())
			goto refuse;
		WRITE_ONCE(zcache_pool_reached_full, false);
	}
	return true;

refuse:
	zcache_stat_inc(ZCACHE_POOL_LIMIT_HIT);
	zcache_wb_kick();
	return false;
}

/*********************************
 * entries
 *********************************/
static bool zcache_tree_first_entry(struct xa_ext *index)
{
	/* Fails once rmmod has begun: the store goes to disk instead. */
	return try_module_get(THIS_MODULE);
}

static void zcache_tree_last_entry(struct xa_ext *index)
{
	module_put(THIS_MODULE);
}

static const struct xa_ext_occupancy zcache_tree_occupancy = {
	.first = zcache_tree_first_entry,
	.last = zcache_tree_last_entry,
};

static inline bool zcache_entry_is_zero(void *entry)
{
	return entry == ZCACHE_ZERO_ENTRY;
}

/* Free an entry that is no longer in any tree.  Never sleeps. */
static void zcache_entry_free(void *entry)
{
	if (zcache_entry_is_zero(entry))
		zcache_stat_add(ZCACHE_ZERO_PAGES, -1);
	else
		zcache_object_free((unsigned long)entry);
	zcache_stat_add(ZCACHE_STORED_PAGES, -1);
}

static void zcache_entry_drain_one(void *entry, void *arg)
{
	zcache_entry_free(entry);
}

/*
 * Free everything a tree holds; the work of zcache_tree_drain_later().
 * Then the tree's type is in use again.
 */
static void zcache_tree_drain_work(struct work_struct *work)
{
	struct zcache_tree *tree = container_of(work, struct zcache_tree,
						drain_work);
	unsigned long erased;

	erased = xa_ext_drain(&tree->index, zcache_entry_drain_one, NULL);
	zcache_stat_add(ZCACHE_INVALIDATES, erased);
	/* Pairs with zcache_tree_stale(): whoever sees false sees the drain. */
	smp_store_release(&tree->stale, false);
}

/*
 * Entries of an earlier device were left in @tree: bypass its type until
 * a work item has freed them.  Called where nothing may sleep, not even
 * on PREEMPT_RT (an ftrace handler), so the freeing cannot happen here.
 */
static void zcache_tree_drain_later(struct zcache_tree *tree)
{
	WRITE_ONCE(tree->stale, true);
	queue_work(system_wq, &tree->drain_work);
}

/* Whether a tree's type is bypassed while leftovers are freed. */
static bool zcache_tree_stale(struct zcache_tree *tree)
{
	/* Pairs with the release in zcache_tree_drain_work(). */
	return smp_load_acquire(&tree->stale);
}

static bool zcache_page_is_zero(struct page *page)
{
	void *addr = kmap_local_page(page);
	bool zero = !memchr_inv(addr, 0, PAGE_SIZE);

	kunmap_local(addr);
	return zero;
}

/*
 * Compress @page into a new pool object.  A page whose sampled bytes look
 * random is refused before any compression: it would only be compressed
 * to be thrown away.  One that compresses above max_compressed_percent is
 * kept only while the pool has room to spare (zcache_pool_keeps_poor()),
 * and *@poor says so.  Rejections are counted here.
 * Return: 0 and the object's handle, or a negative errno.
 */
static int zcache_compress(struct page *page, unsigned long *handle,
			   bool *poor)
{
	unsigned int max_dlen = PAGE_SIZE *
		READ_ONCE(zcache_max_compressed_percent) / 100;
	struct zcomp_cpu *zc;
	unsigned int dlen;
	const u8 *src;
	bool random;
	int id, ret;
	u8 *obj;
	u16 hdr;

	zc = zcomp_cpu_get();
	/* Under the context's mutex: see "compressors in use" */
	id = smp_load_acquire(&zcache_comp_id);
	src = kmap_local_page(page);
	random = zcomp_looks_incompressible(zc, src);
	kunmap_local(src);
	if (random) {
		zcache_stat_inc(ZCACHE_REJECT_COMPRESS_POOR);
		zcache_stat_inc(ZCACHE_REJECT_POOR_SAMPLED);
		ret = -E2BIG;
		goto put_zcomp;
	}

	ret = zcomp_compress(zc, id, page, &dlen);
	if (ret) {
		zcache_stat_inc(ZCACHE_REJECT_COMPRESS_FAIL);
		goto put_zcomp;
	}
	/* The pool and the loader take an object of a page at most. */
	*poor = dlen > max_dlen;
	if (dlen > PAGE_SIZE - ZCACHE_HDR_SIZE ||
	    (*poor && !zcache_pool_keeps_poor())) {
		zcache_stat_inc(ZCACHE_REJECT_COMPRESS_POOR);
		ret = -E2BIG;
		goto put_zcomp;
	}

	ret = zcache_pool_malloc(zcache_pool, ZCACHE_HDR_SIZE + dlen,
				 *poor ? ZCACHE_GFP_POOR : ZCACHE_GFP_OBJECT,
				 page_to_nid(page), handle);
	if (ret) {
		zcache_stat_inc(ret == -ENOSPC ? ZCACHE_REJECT_COMPRESS_POOR :
						 ZCACHE_REJECT_ALLOC_FAIL);
		goto put_zcomp;
	}
	/* The allocation may have grown the pool past its limit. */
	if (zcache_pool_total_pages(zcache_pool) > zcache_max_pool_pages()) {
		zcache_pool_free(zcache_pool, *handle);
		zcache_pool_mark_full();
		zcache_stat_inc(ZCACHE_POOL_LIMIT_HIT);
		zcache_wb_kick();
		ret = -ENOMEM;
		goto put_zcomp;
	}

	/* The header goes in front of the data: one piece, one copy. */
	hdr = FIELD_PREP(ZCACHE_HDR_LEN, dlen) | FIELD_PREP(ZCACHE_HDR_COMP, id);
	obj = zcomp_cpu_buffer(zc) + ZCOMP_HEADROOM - ZCACHE_HDR_SIZE;
	memcpy(obj, &hdr, ZCACHE_HDR_SIZE);
	zcache_pool_write(zcache_pool, *handle, obj, ZCACHE_HDR_SIZE + dlen);
	this_cpu_inc(zcache_comp_count.objects[id]);

put_zcomp:
	zcomp_cpu_put(zc);
	return ret;
}

/*
 * Decompress the object @handle into @page.  The compressor reads the
 * object where the allocator gives it (in place, or in the context's
 * buffer for one that spans two of its pages) if it cannot sleep, or if
 * the allocator lets its readers sleep (7.3's zsmalloc); otherwise
 * (acomp under 6.1's and 6.12's atomic mapping) it gets a copy of the
 * object in the context's buffer.
 */
static int zcache_decompress(unsigned long handle, struct page *page)
{
	struct zcomp_cpu *zc;
	const u8 *obj;
	size_t len;
	int id, ret;
	u8 *buf;
	u16 hdr;

	zc = zcomp_cpu_get();
	buf = zcomp_cpu_buffer(zc);
	obj = zcache_pool_read_begin(zcache_pool, handle, buf, &len);
	if (!obj) {
		ret = -EUCLEAN;
		goto put_zcomp;
	}
	memcpy(&hdr, obj, ZCACHE_HDR_SIZE);
	id = FIELD_GET(ZCACHE_HDR_COMP, hdr);
	if (!zcomp_ready(id)) {
		zcache_pool_read_end(zcache_pool, handle, len, obj);
		ret = -EUCLEAN;
	} else if (!zcomp_sleepable(zc, id) ||
		   zcache_pool_read_may_sleep(zcache_pool)) {
		ret = zcomp_decompress(zc, id, obj + ZCACHE_HDR_SIZE,
				       len - ZCACHE_HDR_SIZE, page);
		zcache_pool_read_end(zcache_pool, handle, len, obj);
	} else {
		if (obj != buf)
			memcpy(buf, obj, len);
		zcache_pool_read_end(zcache_pool, handle, len, obj);
		ret = zcomp_decompress(zc, id, buf + ZCACHE_HDR_SIZE,
				       len - ZCACHE_HDR_SIZE, page);
	}
put_zcomp:
	zcomp_cpu_put(zc);
	return ret;
}

/*
 * Fill @page from @entry: a zero entry clears it, an object is
 * decompressed.  A failure is counted here; the caller says why it
 * mattered.
 */
static int zcache_entry_fill(void *entry, struct page *page)
{
	int ret;

	if (zcache_entry_is_zero(entry)) {
		clear_highpage(page);
		return 0;
	}
	ret = zcache_decompress((unsigned long)entry, page);
	if (ret)
		zcache_stat_inc(ZCACHE_DECOMPRESS_FAIL);
	return ret;
}

/*********************************
 * swap cache operations
 *********************************/
/**
 * zcache_store() - store a page that is on its way to swap
 * @type:   swap type
 * @offset: swap offset
 * @page:   the page, locked and in the swap cache
 *
 * Whatever the outcome, no older copy of (@type, @offset) survives: a
 * successful store replaces it, a refused one erases it.  The slot is
 * reserved in the index before the page is compressed, so that a missing
 * index node refuses the store before any work was spent on it.
 *
 * Context: process context, may sleep.
 * Return: 0 if zcache now holds the page; a negative errno if the page
 * must go to the swap device.
 */
static int zcache_store(unsigned int type, pgoff_t offset, struct page *page)
{
	struct zcache_tree *tree = &zcache_trees[type];
	unsigned long handle;
	void *entry, *old;
	bool poor = false;
	int ret;

	/* Writeback's own page, which it took out of the index */
	if (zcache_wb_writing()) {
		ret = -EAGAIN;
		goto erase_stale;
	}
	if (!READ_ONCE(zcache_enabled) || zcache_tree_stale(tree)) {
		zcache_stat_inc(ZCACHE_REJECT_DISABLED);
		ret = -ENODEV;
		goto erase_stale;
	}
	if (!zcache_pool_has_room()) {
		ret = -ENOMEM;
		goto erase_stale;
	}

	ret = xa_ext_reserve(&tree->index, offset, ZCACHE_GFP_NODE);
	if (ret) {
		zcache_stat_inc(ZCACHE_REJECT_ALLOC_FAIL);
		goto erase_stale;
	}

	if (!zcache_zero_filtered && READ_ONCE(zcache_zero_pages_enabled) &&
	    zcache_page_is_zero(page)) {
		entry = ZCACHE_ZERO_ENTRY;
	} else {
		ret = zcache_compress(page, &handle, &poor);
		if (ret)
			goto release_slot;
		entry = (void *)handle;
	}

	/* The slot exists: only xa_ext_replace()'s fault injection fails. */
	ret = xa_ext_replace(&tree->index, offset, entry, poor,
			     ZCACHE_GFP_NODE, &old);
	if (ret) {
		if (ret == -ENOMEM)
			zcache_stat_inc(ZCACHE_REJECT_ALLOC_FAIL);
		else	/* -EBUSY: rmmod has begun */
			zcache_stat_inc(ZCACHE_REJECT_DISABLED);
		if (!zcache_entry_is_zero(entry))
			zcache_object_free(handle);
		goto release_slot;
	}

	zcache_stat_inc(ZCACHE_STORED_PAGES);
	if (zcache_entry_is_zero(entry))
		zcache_stat_inc(ZCACHE_ZERO_PAGES);
	zcache_stat_inc(ZCACHE_STORES);
	if (poor)
		zcache_stat_inc(ZCACHE_POOR_KEPT);
	if (old) {
		zcache_stat_inc(ZCACHE_DUPLICATE_ENTRY);
		zcache_entry_free(old);
	}
	return 0;

release_slot:
	/* The reservation, and the older copy the slot may still hold */
	old = xa_ext_remove(&tree->index, offset);
	goto free_old;
erase_stale:
	old = xa_ext_erase(&tree->index, offset);
free_old:
	if (old) {
		zcache_stat_inc(ZCACHE_INVALIDATES);
		zcache_entry_free(old);
	}
	return ret;
}

/**
 * zcache_load() - fill a page from the cache
 * @type:      swap type
 * @offset:    swap offset
 * @page:      the page, locked and in the swap cache
 * @exclusive: erase the entry once the page holds the data
 *
 * The lookup is lockless: the swap core never loads and frees one offset
 * at once (the locked swap cache page, or SWAP_HAS_CACHE, pins the slot).
 * An exclusive load then erases the entry with one locked walk.  A copy
 * that cannot be decompressed stays: every later read of the slot fails
 * as this one did, instead of reading a swap slot that was never written.
 *
 * Context: process context, may sleep.
 * Return: 0 if @page now holds the data; -ENOENT if zcache does not hold
 * the offset; another negative errno if the stored copy cannot be read.
 */
static int zcache_load(unsigned int type, pgoff_t offset, struct page *page,
		       bool exclusive)
{
	struct zcache_tree *tree = &zcache_trees[type];
	void *entry;
	int ret;

	if (zcache_tree_stale(tree))
		return -ENOENT;
	entry = xa_ext_load(&tree->index, offset);
	if (!entry)
		return -ENOENT;

	ret = zcache_entry_fill(entry, page);
	if (ret) {
		WARN_ONCE(1, pr_fmt("cannot decompress swap type %u offset %lu (%d)\n"),
			  type, offset, ret);
		return ret;
	}
	zcache_stat_inc(ZCACHE_LOADS);

	if (exclusive) {
		entry = xa_ext_remove(&tree->index, offset);
		if (entry)
			zcache_entry_free(entry);
	}
	return 0;
}

/**
 * zcache_invalidate() - forget a swap slot that was freed
 * @type:   swap type
 * @offset: swap offset
 *
 * Takes the tree lock only if zcache holds the offset.
 *
 * Context: may be called under the swap device's spinlock; never sleeps.
 */
static void zcache_invalidate(unsigned int type, pgoff_t offset)
{
	void *entry;

	entry = xa_ext_erase(&zcache_trees[type].index, offset);
	if (!entry)
		return;
	zcache_stat_inc(ZCACHE_INVALIDATES);
	zcache_entry_free(entry);
}

/**
 * zcache_holds() - whether zcache holds a swap slot
 * @type:   swap type
 * @offset: swap offset
 *
 * Context: any, including ftrace handlers; never sleeps, takes no lock.
 * Return: true if (@type, @offset) has an entry that may be loaded.
 */
static bool zcache_holds(unsigned int type, pgoff_t offset)
{
	struct zcache_tree *tree;

	if (type >= MAX_SWAPFILES)
		return false;
	tree = &zcache_trees[type];
	return !zcache_tree_stale(tree) && xa_ext_load(&tree->index, offset);
}

/**
 * zcache_entries() - how many entries zcache holds for a swap type
 * @type: swap type
 *
 * Context: any; never sleeps, takes no lock.
 * Return: the entries of @type, which may be stale by the time the caller
 * looks at them.
 */
static unsigned long zcache_entries(unsigned int type)
{
	if (type >= MAX_SWAPFILES)
		return 0;
	return xa_ext_entries(&zcache_trees[type].index);
}

/*
 * A swap type's device is gone, or a new one takes its place: it must
 * start empty.  The swap core invalidates every slot it frees, and
 * swapoff frees them all before it calls zswap's swapoff, so anything
 * still here is a bug; it is freed by a work item, and the type is
 * bypassed until then.
 */
static void zcache_tree_check_empty(unsigned int type, const char *when)
{
	struct zcache_tree *tree;
	unsigned long left;

	if (WARN_ON_ONCE(type >= MAX_SWAPFILES))
		return;
	tree = &zcache_trees[type];
	left = xa_ext_entries(&tree->index);
	if (!left || READ_ONCE(tree->stale))
		return;
	/* No bug of zcache's once the attach layer found frees unseen */
	if (zcache_attach_frees_missed())
		pr_err("swap type %u: %lu entries of freed slots left at %s; freeing them\n",
		       type, left, when);
	else
		WARN_ONCE(1, pr_fmt("swap type %u: %lu entries left at %s; freeing them\n"),
			  type, left, when);
	zcache_tree_drain_later(tree);
}

/**
 * zcache_swapoff() - a swap type was swapped off
 * @type: the swap type
 *
 * Context: any, including ftrace handlers; never sleeps, takes no lock.
 */
static void zcache_swapoff(unsigned int type)
{
	zcache_tree_check_empty(type, "swapoff");
}

/**
 * zcache_swapon() - a swap type was swapped on
 * @type: the swap type
 *
 * Trees exist for every type from init on, so devices swapped on before
 * zcache was loaded work too; this only makes sure a new device starts
 * empty.
 *
 * Context: any, including ftrace handlers; never sleeps, takes no lock.
 */
static void zcache_swapon(unsigned int type)
{
	zcache_tree_check_empty(type, "swapon");
}

/* What the attach layer calls, frontswap-style */
static const struct zcache_ops zcache_ops = {
	.swapon = zcache_swapon,
	.store = zcache_store,
	.load = zcache_load,
	.invalidate = zcache_invalidate,
	.swapoff = zcache_swapoff,
	.holds = zcache_holds,
	.entries = zcache_entries,
};

/*********************************
 * writeback callbacks
 *********************************/
static struct xa_ext *zcache_wb_index(unsigned int type)
{
	struct zcache_tree *tree = &zcache_trees[type];

	return zcache_tree_stale(tree) ? NULL : &tree->index;
}

/* Like a load, but the copy's failure is writeback's to count as such. */
static int zcache_wb_fill(void *entry, struct page *page)
{
	int ret = zcache_entry_fill(entry, page);

	if (ret)
		pr_err_ratelimited("writeback: cannot decompress an entry (%d); it stays\n",
				   ret);
	return ret;
}

static bool zcache_wb_over_target(void)
{
	return zcache_pool_total_pages(zcache_pool) > zcache_accept_pool_pages();
}

static unsigned long zcache_wb_pool_pages(void)
{
	return zcache_pool_total_pages(zcache_pool);
}

static void zcache_wb_count(enum zcache_wb_event event)
{
	static const enum zcache_stat_item item[] = {
		[ZCACHE_WB_WRITTEN] = ZCACHE_WRITTEN_BACK,
		[ZCACHE_WB_WRITTEN_FIRST] = ZCACHE_WRITTEN_BACK_POOR,
		[ZCACHE_WB_INVALIDATED] = ZCACHE_INVALIDATES,
		[ZCACHE_WB_FAIL] = ZCACHE_WRITEBACK_FAIL,
		[ZCACHE_WB_SKIP] = ZCACHE_WRITEBACK_SKIP,
		[ZCACHE_WB_STALE] = ZCACHE_WRITEBACK_STALE,
	};

	zcache_stat_inc(item[event]);
}

/* What writeback calls, frontswap-style */
static const struct zcache_wb_ops zcache_wb_ops = {
	.index = zcache_wb_index,
	.fill = zcache_wb_fill,
	.release = zcache_entry_free,
	.over_target = zcache_wb_over_target,
	.pool_pages = zcache_wb_pool_pages,
	.count = zcache_wb_count,
};

/*********************************
 * debugfs
 *********************************/
#ifdef CONFIG_DEBUG_FS
static struct dentry *zcache_debugfs_root;

static int zcache_debugfs_stat_get(void *data, u64 *val)
{
	long sum = zcache_stat_sum((enum zcache_stat_item)(uintptr_t)data);

	*val = sum > 0 ? sum : 0;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(zcache_debugfs_stat_fops, zcache_debugfs_stat_get,
			 NULL, "%llu\n");

static int zcache_debugfs_pool_size_get(void *data, u64 *val)
{
	*val = zcache_pool_total_pages(zcache_pool) << PAGE_SHIFT;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(zcache_debugfs_pool_size_fops,
			 zcache_debugfs_pool_size_get, NULL, "%llu\n");

static int zcache_debugfs_pool_limit_reached_get(void *data, u64 *val)
{
	*val = READ_ONCE(zcache_pool_reached_full);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(zcache_debugfs_pool_limit_reached_fops,
			 zcache_debugfs_pool_limit_reached_get, NULL, "%llu\n");

/*
 * What the index costs beyond the compressed data: the XArray's nodes and
 * each object's header.  A zero page costs nothing but its slot.
 */
static int zcache_debugfs_metadata_get(void *data, u64 *val)
{
	long objects = zcache_stat_sum(ZCACHE_STORED_PAGES) -
		       zcache_stat_sum(ZCACHE_ZERO_PAGES);
	unsigned long nodes = 0;
	int type;

	for (type = 0; type < MAX_SWAPFILES; type++)
		if (xa_ext_entries(&zcache_trees[type].index))
			nodes += xa_ext_count_nodes(&zcache_trees[type].index);
	*val = nodes * sizeof(struct xa_node) +
	       (objects > 0 ? objects : 0) * ZCACHE_HDR_SIZE;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(zcache_debugfs_metadata_fops,
			 zcache_debugfs_metadata_get, NULL, "%llu\n");

static int zcache_debugfs_writeback_available_get(void *data, u64 *val)
{
	*val = zcache_wb_available();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(zcache_debugfs_writeback_available_fops,
			 zcache_debugfs_writeback_available_get, NULL, "%llu\n");

static void zcache_debugfs_init(void)
{
	int item;

	zcache_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (item = 0; item < ZCACHE_NR_STATS; item++)
		debugfs_create_file_unsafe(zcache_stat_names[item], 0444,
					   zcache_debugfs_root,
					   (void *)(uintptr_t)item,
					   &zcache_debugfs_stat_fops);
	debugfs_create_file_unsafe("pool_total_size", 0444,
				   zcache_debugfs_root, NULL,
				   &zcache_debugfs_pool_size_fops);
	debugfs_create_file_unsafe("pool_limit_reached", 0444,
				   zcache_debugfs_root, NULL,
				   &zcache_debugfs_pool_limit_reached_fops);
	debugfs_create_file_unsafe("metadata_bytes", 0444,
				   zcache_debugfs_root, NULL,
				   &zcache_debugfs_metadata_fops);
	debugfs_create_file_unsafe("writeback_available", 0444,
				   zcache_debugfs_root, NULL,
				   &zcache_debugfs_writeback_available_fops);
}

static void zcache_debugfs_exit(void)
{
	debugfs_remove_recursive(zcache_debugfs_root);
}
#else
static void zcache_debugfs_init(void) { }
static void zcache_debugfs_exit(void) { }
#endif

/*********************************
 * module init and exit
 *********************************/
static int zcache_choose_default_compressor(void)
{
	int id;

	if (zcache_comp_id >= 0)
		return zcache_comp_id;
	id = zcomp_lookup("lz4");
	if (zcomp_available(id))
		return id;
	pr_warn("lz4 is not available, using lzo\n");
	return zcomp_lookup("lzo");
}

static int __init zcache_init(void)
{
	int type, ret;

	for (type = 0; type < MAX_SWAPFILES; type++) {
		xa_ext_init(&zcache_trees[type].index, &zcache_tree_occupancy);
		INIT_WORK(&zcache_trees[type].drain_work,
			  zcache_tree_drain_work);
	}
	zcache_zero_filtered = zcache_attach_zero_filtered();

	ret = zcomp_init();
	if (ret)
		return ret;

	kernel_param_lock(THIS_MODULE);
	zcache_comp_id = zcache_choose_default_compressor();
	ret = zcache_comp_select(zcache_comp_id);
	if (ret) {
		pr_err("cannot set up compressor %s (%d)\n",
		       zcomp_name(zcache_comp_id), ret);
		goto unlock_params;
	}
	zcache_pool = zcache_pool_create(zcache_allocator, KBUILD_MODNAME,
					 &zcache_obj_layout);
	if (!zcache_pool) {
		pr_err("cannot create a %s pool\n", zcache_allocator);
		ret = -ENOMEM;
		goto release_compressor;
	}
	ret = zcache_wb_init(&zcache_wb_ops);
	if (ret)
		goto stop_writeback;
	zcache_wb_configure(zcache_writeback_enabled, zcache_shrinker_enabled);
	zcache_initialized = true;
	kernel_param_unlock(THIS_MODULE);

	zcache_debugfs_init();

	/* Last: from here on pages arrive. */
	ret = zcache_attach(&zcache_ops);
	if (ret)
		goto remove_debugfs;
	zcache_wb_start();

	pr_info("attached by %s; compressor %s, allocator %s, pool limit %u%% of RAM, writeback %s; rmmod is refused while pages are stored: swapoff%s empties the cache\n",
		zcache_attach_method(), zcomp_name(zcache_comp_id),
		zcache_allocator, zcache_max_pool_percent,
		zcache_wb_available() ? "available" : "unavailable",
		zcache_wb_available() ? ", or a drain (enabled=N, then drain=Y)," : "");
	return 0;

remove_debugfs:
	zcache_debugfs_exit();
	kernel_param_lock(THIS_MODULE);
	zcache_initialized = false;
stop_writeback:
	zcache_wb_exit();
	zcache_pool_destroy(zcache_pool);
release_compressor:
	zcache_comp_release_all();
unlock_params:
	kernel_param_unlock(THIS_MODULE);
	zcomp_exit();
	return ret;
}

static void __exit zcache_exit(void)
{
	struct zcache_tree *tree;
	int type;

	/* Parameter writes from here on only record their value. */
	kernel_param_lock(THIS_MODULE);
	zcache_initialized = false;
	zcache_exiting = true;
	kernel_param_unlock(THIS_MODULE);

	/* Writeback first: it calls the swap core through the attach layer. */
	zcache_wb_exit();
	zcache_detach();

	/*
	 * A tree with entries holds a module reference: all are empty, but
	 * a drain may still be finishing, and a failed insert may have left
	 * empty nodes.
	 */
	for (type = 0; type < MAX_SWAPFILES; type++) {
		tree = &zcache_trees[type];
		flush_work(&tree->drain_work);
		if (WARN_ON_ONCE(xa_ext_entries(&tree->index))) {
			tree->index.occ = NULL;	/* no reference to drop */
			xa_ext_drain(&tree->index, zcache_entry_drain_one,
				     NULL);
		}
		xa_ext_destroy(&tree->index);
	}

	zcache_debugfs_exit();
	zcache_pool_destroy(zcache_pool);
	zcache_comp_exit();
	pr_info("detached\n");
}

module_init(zcache_init);
module_exit(zcache_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The zcache developers");
MODULE_DESCRIPTION("Compressed cache for swap pages, in front of zswap's hooks");
MODULE_SOFTDEP("pre: zsmalloc");
MODULE_VERSION(ZCACHE_VERSION);
