// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback: making room in the pool by writing its coldest pages to swap
 *
 * A store that finds the pool full goes to the swap device, and kicks the
 * writeback worker: it writes the coldest entries to their swap slots
 * until the pool is below its accept threshold again, so that the pool
 * keeps the pages most likely to be faulted in.  An optional shrinker
 * asks for writeback under memory pressure before the pool is full.  A
 * drain writes back every entry, so that rmmod needs no swapoff.
 *
 * Coldness.  Each index keeps two generations as XArray marks
 * (xarray_ext.c): an entry is young when stored, and victims are old
 * entries, met from a per-type cursor in offset order.  Once no old entry
 * is left the generations flip, and the entries stored since the previous
 * flip are the old ones.  An entry found busy is made young again: its
 * second chance.  That costs no memory beyond the marks' bits in the
 * index's nodes; the age it tells is one generation wide, and within one,
 * offset order (on a fresh device, the order slots were first written).
 * Zero-page entries are never marked, so never written back to make room
 * (they take no pool memory); a drain writes back those too.  Entries the
 * core stored to go first (pages that compressed poorly: they take the
 * most room for the disk I/O they save) are victims before any old entry
 * of any type, met from a cursor of their own.  An entry that is not
 * written back (busy, failed) is made young, and one that went first is
 * then an entry like any other.
 *
 * Writing one entry back is what mm/zswap.c does (zswap_writeback_entry()):
 * allocate a locked swap cache folio for the slot, which pins it: no
 * store or invalidation reaches the slot until the folio is unlocked, and
 * a swap-in or a swapoff that finds the folio waits for its lock, then
 * takes what it holds as the slot's data.  Under that lock check that the
 * index still holds the entry picked (a slot freed and written again
 * meanwhile has a new entry, or none: the old data is never written over
 * new), decompress into the folio, erase the entry, and write the folio
 * as reclaim does (on 7.3, which has no writepage for swap, as zswap's
 * writeback does).  The store hook refuses the worker's own pages
 * (zcache_wb_writing()).  On 6.12 a slot written again as zeroes went to
 * the zeromap behind zcache's back: its entry is stale and is dropped,
 * not written (7.3 lets no entry outlive a write of its slot: see
 * zcache_swapcache_zero_filled()).  A writeback given up once the folio
 * is in the swap cache leaves the slot's data in the folio
 * (zcache_wb_abandon()): a swapoff waiting for it would map a folio that
 * is not uptodate as a poisoned entry.  A folio that already existed is being swapped in or sits in
 * the swap cache: the entry is skipped; a drain hands the data over to
 * the folio instead, which it marks dirty so that reclaim writes it out
 * before dropping it.
 *
 * A drain runs while no store inserts (the core quiesces the stores
 * before it starts, and stops it before enabling them again): so it may
 * also drop the entries of slots no one refers to, which the swap slots
 * cache has not returned yet, and which would otherwise keep the module
 * pinned.
 *
 * Writeback never runs inside reclaim, only in its worker: Linux 6.1's
 * __read_swap_cache_async() waits in a loop for a slot whose cache bit is
 * set while its folio is not in the cache yet, and inside reclaim that
 * could wait for reclaim itself; the shrinker only asks the worker.  The
 * worker runs under memalloc_noio, so that the reclaim its own
 * allocations enter does not swap: that would call the store hook, and
 * writeback, from writeback.
 *
 * Locking: the worker is one work item on an ordered workqueue, so writes
 * back one entry at a time and needs no lock of its own; its state is
 * read locklessly by the store path.  It takes a folio lock, then xa_lock
 * of an index (see the core's lock order); the core's callbacks take the
 * allocator's locks and a compressor context's mutex.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/error-injection.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/shrinker.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/workqueue.h>

#include "writeback.h"
#include "xarray_ext.h"
#include "zcache.h"

/*********************************
 * state
 *********************************/
/*
 * Consecutive entries that were not written back (busy, stale, failed)
 * after which the worker gives up until the next kick; a drain instead
 * waits ZCACHE_WB_DRAIN_WAIT_MS and tries again, up to
 * ZCACHE_WB_DRAIN_TRIES times in a row.
 */
#define ZCACHE_WB_MAX_MISSES	64
#define ZCACHE_WB_DRAIN_WAIT_MS	20
#define ZCACHE_WB_DRAIN_TRIES	100

/*
 * The worker submits its writes under a block plug, flushed every
 * ZCACHE_WB_BATCH victims tried, as reclaim submits its own
 * (shrink_lruvec()): victims come in offset order, so the writes of a run
 * of neighbouring slots merge into one request instead of one each.
 */
#define ZCACHE_WB_BATCH		32

static const struct zcache_wb_ops *zcache_wb_ops;
static struct workqueue_struct *zcache_wb_wq;
static struct shrinker *zcache_wb_shrinker;

/* The swap cache calls work: writeback can run at all */
static bool zcache_wb_usable;
/* From zcache_wb_start() to zcache_wb_exit(): the worker may be queued */
static bool zcache_wb_running;
/* The parameters writeback_enabled and shrinker_enabled */
static bool zcache_wb_enabled;
static bool zcache_wb_shrinker_enabled;
/* A drain was asked for and has not ended */
static bool zcache_wb_drain_on;
/*
 * Entries the shrinker asked to be written back, at most a pool's pages
 * at a time, and when it last asked: a request older than
 * ZCACHE_WB_SHRINK_TTL is dropped (reclaim asks again while the pressure
 * lasts).
 */
#define ZCACHE_WB_SHRINK_TTL	HZ
static atomic_long_t zcache_wb_shrink_pending;
static unsigned long zcache_wb_shrink_asked;

/* The task running the worker, whose stores the core refuses */
static struct task_struct *zcache_wb_task;

/*
 * A run that gave up on ZCACHE_WB_MAX_MISSES entries in a row (all busy,
 * or their cgroups forbid writeback, or no memory) makes the pool's kicks
 * wait ZCACHE_WB_BACKOFF before the next run.
 */
#define ZCACHE_WB_BACKOFF	(HZ / 10)
static unsigned long zcache_wb_backoff_until;

/*
 * Where the next victim is looked for: a type, and per type a cursor for
 * the entries to go first and one for the others, so that each kind is
 * met in offset order
 */
static unsigned int zcache_wb_type;
static unsigned long zcache_wb_first_cursor[MAX_SWAPFILES];
static unsigned long zcache_wb_cursor[MAX_SWAPFILES];

static void zcache_wb_work_fn(struct work_struct *work);
static DECLARE_WORK(zcache_wb_work, zcache_wb_work_fn);

/*********************************
 * test points
 *********************************/
/*
 * Three points on the path of one entry, for the VM suite: after the
 * victim is picked, after its folio is locked (the entry is pinned), and
 * after the write is submitted.  Each can be delayed through debugfs
 * (zcache-test/writeback_delay_ms, and writeback_delay_points, a mask of
 * BIT(point)), and made to fail by fail_function (the first two: the
 * entry is then not written back, and stays).  Not for production use.
 */
enum zcache_wb_point {
	ZCACHE_WB_POINT_PICKED,
	ZCACHE_WB_POINT_LOCKED,
	ZCACHE_WB_POINT_SUBMITTED,
};

static u32 zcache_wb_delay_ms;
static u32 zcache_wb_delay_points;
static struct dentry *zcache_wb_debugfs;

static void zcache_wb_delay(enum zcache_wb_point point)
{
	u32 ms = READ_ONCE(zcache_wb_delay_ms);

	if (unlikely(ms) && (READ_ONCE(zcache_wb_delay_points) & BIT(point)))
		msleep(min_t(u32, ms, 10000));
}

static noinline int zcache_wb_victim_picked(unsigned int type, pgoff_t offset)
{
	zcache_wb_delay(ZCACHE_WB_POINT_PICKED);
	return 0;
}

ALLOW_ERROR_INJECTION(zcache_wb_victim_picked, ERRNO);

static noinline int zcache_wb_folio_locked(struct folio *folio)
{
	zcache_wb_delay(ZCACHE_WB_POINT_LOCKED);
	return 0;
}

ALLOW_ERROR_INJECTION(zcache_wb_folio_locked, ERRNO);

static noinline void zcache_wb_write_submitted(struct folio *folio)
{
	zcache_wb_delay(ZCACHE_WB_POINT_SUBMITTED);
}

/*********************************
 * writing one entry back
 *********************************/
/* Free an entry taken out of its index whose page was not written */
static void zcache_wb_drop(void *entry)
{
	zcache_wb_ops->release(entry);
	zcache_wb_ops->count(ZCACHE_WB_INVALIDATED);
}

/*
 * The entry's folio exists: a swap-in has it, or it sits in the swap
 * cache (on 6.1 a page read back keeps its slot, and zcache its copy,
 * until the slot is freed).  Writeback to make room gives the entry a
 * second chance.  A drain hands the data over to the folio if it holds
 * it, uptodate, for the same slot: marked dirty, it is written out before
 * reclaim may drop it, and the entry is freed.
 */
static int zcache_wb_busy(struct xa_ext *index, swp_entry_t swp, void *entry,
			  struct folio *folio, bool drain)
{
	pgoff_t offset = swp_offset(swp);
	int ret = -EEXIST;

	if (!drain) {
		if (!xa_ext_make_young(index, offset, entry))
			goto stale;
		goto skip;
	}
	folio_lock(folio);
	if (xa_ext_load(index, offset) != entry) {
		folio_unlock(folio);
		goto stale;
	}
	if (folio_test_swapcache(folio) &&
	    zcache_swapcache_entry(folio).val == swp.val &&
	    folio_test_uptodate(folio)) {
		folio_mark_dirty(folio);
		if (xa_ext_remove_entry(index, offset, entry)) {
			zcache_wb_drop(entry);
			ret = 0;
		}
	}
	folio_unlock(folio);
	if (!ret)
		return 0;
skip:
	zcache_wb_ops->count(ZCACHE_WB_SKIP);
	return ret;
stale:
	/* Loaded and erased, or its slot freed, since it was picked */
	zcache_wb_ops->count(ZCACHE_WB_STALE);
	return -ESTALE;
}

/*
 * An entry that stays after a failure goes among the young, and no longer
 * first (outside a drain, which walks every entry its own way): were it the
 * last old entry, or the last to go first, it would be picked again and
 * again, and no other ever.  Busy entries are made young where they are
 * found busy.
 */
static void zcache_wb_keep(struct xa_ext *index, pgoff_t offset, void *entry,
			   bool drain)
{
	if (!drain)
		xa_ext_make_young(index, offset, entry);
}

/*
 * Give up on writing back the slot of @folio, a new swap cache folio,
 * locked and not uptodate, and leave the slot as it was.  From the moment
 * the folio was added, a swapoff may hold a reference to it and wait for
 * its lock: it then maps what the folio holds, or, if the folio is not
 * uptodate, a poisoned entry (unuse_pte()), and frees the slot.  So the
 * folio gets the slot's data and stays in the swap cache, clean: zeroes
 * if @zero is 1 (the slot is in 6.12's zeromap: an entry the index still
 * holds for it is stale, and goes), or if @zero is 0 the data of the
 * entry the index holds now, which stays (reclaim may drop the folio, as
 * any clean one).  Only a folio whose data zcache cannot give is deleted:
 * the slot has no entry (it was freed, or written to the disk since the
 * pick, as when zswap_writeback_entry() finds its entry gone), or the
 * zeromap could not be read (@zero negative).
 */
static void zcache_wb_abandon(unsigned int type, swp_entry_t swp,
			      struct folio *folio, int zero)
{
	struct xa_ext *index = zcache_wb_ops->index(type);
	pgoff_t offset = swp_offset(swp);
	void *cur = index ? xa_ext_load(index, offset) : NULL;

	if (zero > 0) {
		if (cur && xa_ext_remove_entry(index, offset, cur))
			zcache_wb_drop(cur);
		clear_highpage(folio_page(folio, 0));
		folio_mark_uptodate(folio);
	} else if (!zero && cur && !zcache_wb_ops->fill(cur, folio_page(folio, 0))) {
		folio_mark_uptodate(folio);
	} else {
		zcache_swapcache_delete(folio);
	}
	folio_unlock(folio);
	folio_put(folio);
}

/*
 * Write back the entry of (@type, @offset), if it is still @entry.
 * Return: 0 if the entry is gone from the index (written back, handed
 * over, or its slot freed), a negative errno if it was not written back.
 */
static int zcache_wb_entry(struct xa_ext *index, unsigned int type,
			   pgoff_t offset, void *entry, bool drain, bool first)
{
	swp_entry_t swp = swp_entry(type, offset);
	struct folio *folio;
	bool allocated;
	int ret, zero = 0;

	ret = zcache_wb_victim_picked(type, offset);
	if (ret) {
		zcache_wb_keep(index, offset, entry, drain);
		goto fail;
	}

	folio = zcache_swapcache_get(swp, &allocated);
	if (!folio) {
		enum zcache_slot slot;

		/*
		 * The slot was freed (its entry is gone, or goes: on 6.1 when
		 * the swap slots cache next returns the slot, on 6.12 as soon
		 * as the freeing CPU invalidates it), no memory, or the
		 * slot's cache bit is held with no folio in the swap cache.
		 */
		if (xa_ext_load(index, offset) != entry) {
			zcache_wb_ops->count(ZCACHE_WB_STALE);
			return -ESTALE;
		}
		/*
		 * A drain cannot wait for the swap slots cache: a slot no one
		 * refers to can never be read, and its entry goes.  Only a
		 * drain, during which no store inserts (the core quiesced the
		 * stores after enabled=N, and stops the drain before
		 * enabled=Y): the entry cannot have been replaced by an equal
		 * handle for a new user of the slot meanwhile.
		 */
		slot = zcache_swapcache_slot(swp);
		if (drain && slot == ZCACHE_SLOT_FREE &&
		    xa_ext_remove_entry(index, offset, entry)) {
			zcache_wb_drop(entry);
			zcache_wb_ops->count(ZCACHE_WB_STALE);
			return 0;
		}
		/* Not again before the next flip */
		xa_ext_make_young(index, offset, entry);
		if (slot == ZCACHE_SLOT_FREE) {
			/* its invalidation is on the way */
			zcache_wb_ops->count(ZCACHE_WB_STALE);
			return -ESTALE;
		}
		if (slot == ZCACHE_SLOT_BUSY) {
			zcache_wb_ops->count(ZCACHE_WB_SKIP);
			return -EBUSY;
		}
		ret = -ENOMEM;
		goto fail;
	}
	if (!allocated) {
		ret = zcache_wb_busy(index, swp, entry, folio, drain);
		folio_put(folio);
		return ret;
	}

	/*
	 * The folio pins the slot: what the index and 6.12's zeromap hold for
	 * it is final.  The zeromap first: a slot written again as zeroes went
	 * there without the store hook, and an entry the index still holds
	 * for it is stale (or the zeromap cannot be read: then nothing is
	 * written over the slot).
	 */
	zero = zcache_swapcache_zero_filled(swp);
	ret = zcache_wb_folio_locked(folio);
	if (ret) {
		zcache_wb_keep(index, offset, entry, drain);
		zcache_wb_ops->count(ZCACHE_WB_FAIL);
		goto abandon;
	}
	if (zero) {
		zcache_wb_ops->count(ZCACHE_WB_STALE);
		ret = -ESTALE;
		goto abandon;
	}
	/* (a swapoff and swapon may have replaced the index since the pick) */
	if (zcache_wb_ops->index(type) != index ||
	    xa_ext_load(index, offset) != entry) {
		zcache_wb_ops->count(ZCACHE_WB_STALE);
		ret = -ESTALE;
		goto abandon;
	}
	/*
	 * memory.zswap.writeback=0 keeps the cgroup's pages compressed, but
	 * not from a drain: zcache is asked to go, and with zswap disabled
	 * the kernel writes such a cgroup's pages to the swap device anyway.
	 */
	if (!drain && !zcache_swapcache_writeback_allowed(folio)) {
		xa_ext_make_young(index, offset, entry);
		zcache_wb_ops->count(ZCACHE_WB_SKIP);
		ret = -EPERM;
		goto abandon;
	}
	/*
	 * A copy that cannot be read stays, and fails its loads as before;
	 * the folio cannot have the slot's data and goes.
	 */
	ret = zcache_wb_ops->fill(entry, folio_page(folio, 0));
	if (ret) {
		zcache_wb_keep(index, offset, entry, drain);
		goto delete_folio;
	}
	if (WARN_ON_ONCE(!xa_ext_remove_entry(index, offset, entry))) {
		zcache_wb_ops->count(ZCACHE_WB_FAIL);
		ret = -ESTALE;
		goto abandon;
	}
	/* The data is in the folio: the entry goes now, as zswap's does. */
	zcache_wb_ops->release(entry);
	folio_mark_uptodate(folio);
	/* To the tail of the inactive list once written, like zswap's */
	folio_set_reclaim(folio);

	ret = zcache_swapcache_write(folio);
	/* As pageout(): no write under way, no rotation wanted */
	if (!folio_test_writeback(folio))
		folio_clear_reclaim(folio);
	zcache_wb_write_submitted(folio);
	/*
	 * A folio neither in the swap cache nor under writeback was not
	 * written: its slot was free (or, rarely, it was written and already
	 * reclaimed: then written_back undercounts).  written_back counts the
	 * writes submitted: one that the device fails later leaves the folio
	 * dirty in the swap cache (the bio's end redirties it), with the data.
	 */
	if (!ret &&
	    (folio_test_swapcache(folio) || folio_test_writeback(folio))) {
		zcache_wb_ops->count(ZCACHE_WB_WRITTEN);
		if (first)
			zcache_wb_ops->count(ZCACHE_WB_WRITTEN_FIRST);
	} else {
		zcache_wb_ops->count(ZCACHE_WB_INVALIDATED);
	}
	folio_put(folio);
	if (ret) {
		/* Kept in memory, dirty (a cgroup without writeback), or an I/O error */
		zcache_wb_ops->count(ZCACHE_WB_FAIL);
	}
	return 0;

abandon:
	zcache_wb_abandon(type, swp, folio, zero);
	return ret;
delete_folio:
	zcache_wb_ops->count(ZCACHE_WB_FAIL);
	zcache_swapcache_delete(folio);
	folio_unlock(folio);
	folio_put(folio);
	return ret;
fail:
	zcache_wb_ops->count(ZCACHE_WB_FAIL);
	return ret;
}

/*
 * Find the next victim and write it back: an entry stored to go first,
 * of any type, else an old entry; for a drain any entry.  Each kind is
 * met from a cursor of its own per type; one type is worked on until it
 * has no victim of that kind left, then the next.
 * Return: as zcache_wb_entry(), or -ENOENT if there was no victim at all.
 */
static int zcache_wb_next(bool drain)
{
	unsigned long *cursor, offset;
	unsigned int n, type, pass;
	struct xa_ext *index;
	bool first;
	void *entry;
	int ret;

	/* (A drain takes every entry alike: it skips the first pass.) */
	for (pass = drain; pass < 2; pass++) {
		first = pass == 0;
		cursor = first ? zcache_wb_first_cursor : zcache_wb_cursor;
		for (n = 0; n < MAX_SWAPFILES; n++) {
			type = (zcache_wb_type + n) % MAX_SWAPFILES;
			index = zcache_wb_ops->index(type);
			if (!index || !xa_ext_entries(index))
				continue;
			offset = cursor[type];
			if (first) {
				entry = xa_ext_find_first(index, &offset);
			} else if (drain) {
				entry = xa_ext_find_from(index, &offset);
			} else {
				entry = xa_ext_find_old(index, &offset);
				/* None was old: the generations flipped. */
				if (!entry)
					entry = xa_ext_find_old(index, &offset);
			}
			if (!entry)
				continue;
			zcache_wb_type = type;
			cursor[type] = offset + 1;
			ret = zcache_wb_entry(index, type, offset, entry, drain,
					      first);
			if (!ret)
				atomic_long_dec_if_positive(&zcache_wb_shrink_pending);
			return ret;
		}
	}
	return -ENOENT;
}

/*********************************
 * the worker
 *********************************/
/* Whether writeback (not a drain) is wanted now */
static bool zcache_wb_wanted(void)
{
	if (!READ_ONCE(zcache_wb_enabled))
		return false;
	if (zcache_wb_ops->over_target())
		return true;
	if (!READ_ONCE(zcache_wb_shrinker_enabled) ||
	    atomic_long_read(&zcache_wb_shrink_pending) <= 0)
		return false;
	if (time_after(jiffies, READ_ONCE(zcache_wb_shrink_asked) +
			       ZCACHE_WB_SHRINK_TTL)) {
		atomic_long_set(&zcache_wb_shrink_pending, 0);
		return false;
	}
	return true;
}

static void zcache_wb_work_fn(struct work_struct *work)
{
	unsigned int noio, misses = 0, tries = 0, batch = 0;
	struct blk_plug plug;
	bool drain;
	int ret;

	noio = memalloc_noio_save();
	WRITE_ONCE(zcache_wb_task, current);
	/*
	 * A plugged write is submitted when its batch ends, or before the
	 * worker sleeps (on a folio lock, a mutex, a drain's wait): the
	 * scheduler flushes the plug of a task that blocks.  Preemption and,
	 * on PREEMPT_RT, a wait for a spinlock_t do not flush it, but neither
	 * waits for I/O: the worker never waits for a write in its own plug.
	 */
	blk_start_plug(&plug);
	while (READ_ONCE(zcache_wb_running)) {
		drain = READ_ONCE(zcache_wb_drain_on);
		if (!drain && !zcache_wb_wanted())
			break;
		ret = zcache_wb_next(drain);
		if (ret == -ENOENT) {
			if (drain)
				WRITE_ONCE(zcache_wb_drain_on, false);
			break;
		}
		if (!ret) {
			misses = 0;
			tries = 0;
		} else if (++misses >= ZCACHE_WB_MAX_MISSES) {
			if (!drain) {
				WRITE_ONCE(zcache_wb_backoff_until,
					   jiffies + ZCACHE_WB_BACKOFF);
				break;
			}
			if (++tries >= ZCACHE_WB_DRAIN_TRIES) {
				pr_info("drain: gave up, %u entries in a row could not be written back %u times\n",
					misses, tries);
				WRITE_ONCE(zcache_wb_drain_on, false);
				break;
			}
			misses = 0;
			msleep(ZCACHE_WB_DRAIN_WAIT_MS);
		}
		if (++batch == ZCACHE_WB_BATCH) {
			blk_finish_plug(&plug);
			blk_start_plug(&plug);
			batch = 0;
		}
		cond_resched();
	}
	blk_finish_plug(&plug);
	WRITE_ONCE(zcache_wb_task, NULL);
	memalloc_noio_restore(noio);
}

/*
 * Queue the worker unless writeback has stopped.  Under RCU, so that
 * zcache_wb_exit() can wait for every queuer that saw it running.
 */
static void zcache_wb_queue(void)
{
	rcu_read_lock();
	if (READ_ONCE(zcache_wb_running))
		queue_work(zcache_wb_wq, &zcache_wb_work);
	rcu_read_unlock();
}

/*********************************
 * shrinker
 *********************************/
/*
 * The shrinker counts the pool's pages while it is enabled, and asks the
 * worker to write back as many entries as it is asked to scan, a pool's
 * pages at most: writeback never runs inside reclaim (see the top of this
 * file), so it reports nothing freed and stops the scan.
 */
static unsigned long zcache_wb_shrinker_count(struct shrinker *shrinker,
					      struct shrink_control *sc)
{
	unsigned long pages;

	if (!READ_ONCE(zcache_wb_shrinker_enabled) ||
	    !READ_ONCE(zcache_wb_enabled))
		return 0;
	pages = zcache_wb_ops->pool_pages();
	return pages ? pages : SHRINK_EMPTY;
}

static unsigned long zcache_wb_shrinker_scan(struct shrinker *shrinker,
					     struct shrink_control *sc)
{
	long cap = zcache_wb_ops->pool_pages();

	WRITE_ONCE(zcache_wb_shrink_asked, jiffies);
	if (atomic_long_add_return(sc->nr_to_scan, &zcache_wb_shrink_pending) > cap)
		atomic_long_set(&zcache_wb_shrink_pending, cap);
	zcache_wb_queue();
	return SHRINK_STOP;
}

/*********************************
 * interface
 *********************************/
/**
 * zcache_wb_kick() - the pool is full: write back until it is not
 *
 * Context: any that may queue work; never sleeps.
 */
void zcache_wb_kick(void)
{
	if (READ_ONCE(zcache_wb_enabled) &&
	    !time_before(jiffies, READ_ONCE(zcache_wb_backoff_until)))
		zcache_wb_queue();
}

/**
 * zcache_wb_writing() - whether the caller is the writeback worker
 *
 * The store hook asks: the worker's own pages go to the swap device.
 *
 * Context: any.
 * Return: true in the task that runs the worker, while it runs.
 */
bool zcache_wb_writing(void)
{
	return READ_ONCE(zcache_wb_task) == current;
}

/**
 * zcache_wb_available() - whether this kernel allows writeback
 *
 * Context: any.
 * Return: true from zcache_wb_start() on, if the swap cache calls work.
 */
bool zcache_wb_available(void)
{
	return READ_ONCE(zcache_wb_usable);
}

/**
 * zcache_wb_configure() - set the parameters writeback follows
 * @writeback: write back when the pool is full
 * @shrinker:  write back under memory pressure as well
 *
 * Context: process context; the core's parameter lock held.
 */
void zcache_wb_configure(bool writeback, bool shrinker)
{
	WRITE_ONCE(zcache_wb_enabled, writeback);
	WRITE_ONCE(zcache_wb_shrinker_enabled, shrinker);
	if (!writeback || !shrinker)
		atomic_long_set(&zcache_wb_shrink_pending, 0);
}

/**
 * zcache_wb_drain() - start or stop writing back every entry
 * @start: true to start, false to stop a drain in progress
 *
 * The drain runs in the worker and ends by itself once no entry is left,
 * or once entries kept failing for about two seconds.  The caller has
 * made stores refuse and waited for those in flight: no entry may be
 * inserted while a drain runs.  Stopping waits for the worker, so that
 * stores may insert again on return.
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENODEV if writeback is unavailable.
 */
int zcache_wb_drain(bool start)
{
	if (!zcache_wb_available())
		return -ENODEV;
	WRITE_ONCE(zcache_wb_drain_on, start);
	if (start)
		zcache_wb_queue();
	else
		flush_work(&zcache_wb_work);
	return 0;
}

/**
 * zcache_wb_draining() - whether a drain is in progress
 *
 * Context: any.
 * Return: true from zcache_wb_drain(true) until the drain has ended.
 */
bool zcache_wb_draining(void)
{
	return READ_ONCE(zcache_wb_drain_on);
}

/**
 * zcache_wb_init() - prepare writeback, before pages arrive
 * @ops: the core's callbacks, valid until zcache_wb_exit() has returned
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENOMEM.
 */
int zcache_wb_init(const struct zcache_wb_ops *ops)
{
	zcache_wb_ops = ops;
	zcache_wb_wq = alloc_ordered_workqueue("zcache_writeback",
					       WQ_MEM_RECLAIM);
	if (!zcache_wb_wq)
		return -ENOMEM;
	zcache_wb_debugfs = debugfs_create_dir(KBUILD_MODNAME "-test", NULL);
	debugfs_create_u32("writeback_delay_ms", 0600, zcache_wb_debugfs,
			   &zcache_wb_delay_ms);
	debugfs_create_u32("writeback_delay_points", 0600, zcache_wb_debugfs,
			   &zcache_wb_delay_points);
	return 0;
}

/**
 * zcache_wb_start() - let writeback run, once zcache is attached
 *
 * Writeback is available if the attach layer's swap cache calls are; if
 * not, the attach layer has said why, and the cache works without it.
 * The shrinker, if it cannot be registered, is missing and said so.
 *
 * Context: process context, may sleep.
 */
void zcache_wb_start(void)
{
	if (!zcache_swapcache_ready())
		return;
	/* (jiffies start near the wrap: a zero would be in the future) */
	zcache_wb_backoff_until = jiffies;
	zcache_wb_shrink_asked = jiffies;
	zcache_wb_shrinker = zcache_shrinker_create(zcache_wb_shrinker_count,
						    zcache_wb_shrinker_scan);
	if (!zcache_wb_shrinker)
		pr_warn("cannot register the writeback shrinker\n");
	WRITE_ONCE(zcache_wb_usable, true);
	WRITE_ONCE(zcache_wb_running, true);
}

/**
 * zcache_wb_exit() - stop writeback for good
 *
 * On return the worker is not running and will not run again, and the
 * shrinker is gone: the swap cache calls are no longer used.
 *
 * Context: process context, may sleep.
 */
void zcache_wb_exit(void)
{
	WRITE_ONCE(zcache_wb_running, false);
	WRITE_ONCE(zcache_wb_drain_on, false);
	zcache_shrinker_destroy(zcache_wb_shrinker);
	zcache_wb_shrinker = NULL;
	/* No store or parameter write queues the worker after this. */
	synchronize_rcu();
	if (zcache_wb_wq) {
		cancel_work_sync(&zcache_wb_work);
		destroy_workqueue(zcache_wb_wq);
		zcache_wb_wq = NULL;
	}
	WRITE_ONCE(zcache_wb_usable, false);
	debugfs_remove_recursive(zcache_wb_debugfs);
}
