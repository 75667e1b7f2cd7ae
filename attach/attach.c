// SPDX-License-Identifier: GPL-2.0
/*
 * Put zcache in front of the kernel's swap cache hooks
 *
 * The swap core only ever calls zswap.  zcache takes zswap's place the way
 * livepatch replaces a function: an ftrace_ops with IPMODIFY on each zswap
 * data-path function, whose handler does nothing but move the instruction
 * pointer to zcache's function of the same signature.  zswap's swapon and
 * swapoff functions are only observed (no IPMODIFY) so that zswap keeps
 * its own per-type state and works again once zcache is gone.  A kernel
 * built without zswap calls no hook at all: there zcache takes the swap
 * core's own swap_writepage() and read function, and observes where slots
 * are freed (the swap-core method, compat.h).
 *
 * On 6.1, pages zswap already held when zcache attached stay zswap's: the
 * load and invalidate handlers redirect only offsets that zcache holds,
 * every other call runs zswap's own code.  On 6.12 and 7.3 zcache attaches
 * only while zswap holds nothing and takes every store, dropping zswap's
 * copy of the folio's slots first; loads and invalidations, as on 6.1,
 * only for the offsets it holds.  No original
 * function is ever called through a pointer (IBT seals them), except
 * swap_writepage() as the swap address space's writepage, whose address
 * the kernel itself takes.
 *
 * The core is reached only through the struct zcache_ops it handed to
 * zcache_attach(): this layer sits below the core and never calls it by
 * name.
 *
 * The handlers take ftrace's recursion lock themselves instead of letting
 * ftrace skip them on recursion: a skipped redirect would run zswap's code
 * for a slot zcache holds (on 6.12, zswap_store() would leave zcache's
 * older copy in place).  A recursion is warned about and the call is
 * redirected all the same; the handlers themselves call nothing that could
 * recurse into a hooked function.
 *
 * Detaching is safe against callers in flight: every redirected function
 * runs inside an SRCU read section, and zcache_detach() waits for
 * RCU-tasks (a task preempted between the ftrace trampoline and our first
 * instruction), then for SRCU (a task inside zcache), then for RCU-tasks
 * again (a task between srcu_read_unlock() and its return).
 *
 * This file and compat.h are the only places that know kernel versions.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/memcontrol.h>
#include <linux/mempolicy.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/page-flags.h>
#include <linux/pagemap.h>
#include <linux/psi.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/trace_recursion.h>
#include <linux/writeback.h>

#include "compat.h"
#if ZCACHE_ATTACH_ZSWAP_CALLS
#include <linux/zswap.h>	/* (6.5 on: the prototypes the hooks match) */
#endif
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
#include <linux/swap_ops.h>	/* (7.3: struct swap_io_ctx) */
#endif
#include "../zcache.h"

/*********************************
 * hook descriptions
 *********************************/
/**
 * struct zcache_hook - one zswap function zcache redirects or observes
 * @name:	the zswap function, as in available_filter_functions
 * @target:	zcache's function of the same signature, or NULL to observe
 * @owns:	for a redirect: true if zcache holds what this call is about;
 *		NULL redirects every call
 * @not_own:	for a redirect: leave the calls made from zcache's own
 *		text to the kernel function
 * @observe:	for an observer: called before the zswap function runs
 * @ops:	the ftrace_ops registered for @name
 * @registered:	@ops is registered with ftrace
 */
struct zcache_hook {
	const char *name;
	void *target;
	bool (*owns)(struct pt_regs *regs);
	bool not_own;
	void (*observe)(struct pt_regs *regs);
	struct ftrace_ops ops;
	bool registered;
};

/**
 * struct zcache_call - a kernel function zcache calls through a stub
 * @name:	the kernel function
 * @stub:	zcache's stub with @name's prototype
 * @addr:	@name's address, found at attach
 * @ops:	the ftrace_ops that sends @stub's calls to @addr
 * @registered:	@ops is registered with ftrace
 */
struct zcache_call {
	const char *name;
	void *stub;
	unsigned long addr;
	struct ftrace_ops ops;
	bool registered;
};

DEFINE_STATIC_SRCU(zcache_attach_srcu);

/*
 * A hook's calls that may sleep on PREEMPT_RT (a folio's unlock takes its
 * wait queue's lock) are made inside the SRCU section: a task asleep after
 * srcu_read_unlock() but still in zcache's text would count as quiescent
 * for zcache_detach()'s RCU-tasks wait, and rmmod could free the text it
 * returns to.  Kernels with lockdep check it.  (Dirtying a swap cache
 * folio takes no lock, noop_dirty_folio() on every kernel zcache attaches
 * to; it comes before the unlock, so inside the section too.)
 */
static __always_inline void zcache_assert_attached(void)
{
	RCU_LOCKDEP_WARN(!srcu_read_lock_held(&zcache_attach_srcu),
			 pr_fmt("a folio call that may sleep, outside the attach's SRCU section"));
}

/* The core's entry points, from zcache_attach() to zcache_detach() */
static const struct zcache_ops *zcache_core;

/*
 * Set once every hook is in place and the postflight has passed: until
 * then no page is stored (zswap's own store runs), so that refusing the
 * attach at the last moment loses nothing.
 */
static bool zcache_open;

/*********************************
 * redirected functions
 *********************************/
#if ZCACHE_ATTACH_FRONTSWAP || ZCACHE_ATTACH_ZSWAP_CALLS || ZCACHE_ATTACH_SWAP_CORE
/* The owns() of the hooks that let pages in: whether zcache is open yet */
static bool zcache_owns_once_open(struct pt_regs *regs)
{
	return READ_ONCE(zcache_open);
}

/* swapon and swapoff take the swap type as their first argument. */
static void zcache_observe_swapon(struct pt_regs *regs)
{
	zcache_core->swapon(regs_get_kernel_argument(regs, 0));
}

static void zcache_observe_swapoff(struct pt_regs *regs)
{
	zcache_core->swapoff(regs_get_kernel_argument(regs, 0));
}

/* Forget @nr slots from (@type, @offset) on. */
static void zcache_invalidate_range(unsigned int type, pgoff_t offset, long nr)
{
	long i;

	for (i = 0; i < nr; i++)
		zcache_core->invalidate(type, offset + i);
}

/*
 * zcache stores single pages only.  A large folio goes to disk, as with
 * zswap, and no older copy of any of its subpages may survive it.
 */
static int zcache_refuse_large(unsigned int type, pgoff_t offset, long nr)
{
	zcache_invalidate_range(type, offset, nr);
	return -E2BIG;
}
#endif

#if ZCACHE_ATTACH_ZSWAP_CALLS || ZCACHE_ATTACH_SWAP_CORE == ZCACHE_SWAP_CORE_FOLIO
/* Whether zcache holds any slot of a large folio. */
static bool zcache_holds_any(swp_entry_t swp, long nr)
{
	long i;

	for (i = 0; i < nr; i++)
		if (zcache_core->holds(swp_type(swp), swp_offset(swp) + i))
			return true;
	return false;
}
#endif

#if ZCACHE_ATTACH_FRONTSWAP || ZCACHE_ATTACH_SWAP_CORE == ZCACHE_SWAP_CORE_PAGE
/*
 * swap_readpage() for a slot zcache holds (the page is locked, and in the
 * swap cache or pinned by SWAP_HAS_CACHE for a synchronous read).  As
 * 6.1's mm/page_io.c does for a frontswap hit, with frontswap or without
 * (the load leaves the entry, and the page clean): the page becomes
 * uptodate and is unlocked, the time counted as a memory stall if it is a
 * refault of the working set; delay accounting, which is not exported, is
 * left out.  A failed load unlocks the page without marking it uptodate:
 * the fault gets SIGBUS (do_swap_page() checks PageUptodate) and the
 * slot, which was never written, is not read.  So does a slot that
 * vanished since the handler saw it, which the pinned slot rules out.
 */
static int zcache_swap_readpage(struct page *page, bool synchronous,
				struct swap_iocb **plug)
{
	swp_entry_t swp = { .val = page_private(page) };
	bool workingset = PageWorkingset(page);
	unsigned long pflags;
	int idx, ret;

	/* Everything, the unlock included, inside the SRCU section */
	idx = srcu_read_lock(&zcache_attach_srcu);
	if (workingset)
		psi_memstall_enter(&pflags);
	ret = zcache_core->load(swp_type(swp), swp_offset(swp), page, false);
	if (!ret)
		SetPageUptodate(page);
	zcache_assert_attached();
	unlock_page(page);
	if (workingset)
		psi_memstall_leave(&pflags);
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return ret;
}

/* swap_readpage()'s page has its swap entry in page->private. */
static bool zcache_owns_page(struct pt_regs *regs)
{
	struct page *page = (struct page *)regs_get_kernel_argument(regs, 0);
	swp_entry_t swp = { .val = page_private(page) };

	return zcache_core->holds(swp_type(swp), swp_offset(swp));
}

#endif

#if ZCACHE_ATTACH_FRONTSWAP
/*
 * Linux up to 6.4: mm/frontswap.c calls zswap_frontswap_*() through the
 * frontswap_ops zswap registered at boot.  frontswap keeps a bitmap of the
 * offsets its backend holds, calls invalidate_page only for set bits, and
 * invalidates a duplicate before storing over it.
 *
 * Loads are not taken at zswap_frontswap_load(): when it fails,
 * swap_readpage() reads the swap slot from disk, and a slot zcache holds
 * was never written there.  zcache takes swap_readpage() itself for the
 * slots it holds, and fails the read if the load fails.
 */
static int zcache_frontswap_store(unsigned int type, pgoff_t offset,
				  struct page *page)
{
	int idx, ret;

	idx = srcu_read_lock(&zcache_attach_srcu);
	if (PageTransHuge(page)) {
		/* frontswap hands over a THP by its head page. */
		ret = zcache_refuse_large(type, offset, thp_nr_pages(page));
	} else {
		ret = zcache_core->store(type, offset, page);
	}
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return ret;
}

static void zcache_frontswap_invalidate_page(unsigned int type,
					     pgoff_t offset)
{
	int idx;

	idx = srcu_read_lock(&zcache_attach_srcu);
	zcache_core->invalidate(type, offset);
	srcu_read_unlock(&zcache_attach_srcu, idx);
}

/* (type, offset) are the first two arguments of invalidate_page. */
static bool zcache_owns_type_offset(struct pt_regs *regs)
{
	return zcache_core->holds(regs_get_kernel_argument(regs, 0),
				  regs_get_kernel_argument(regs, 1));
}

/*
 * Registration order: observers first, then the delegating redirects,
 * the store redirect last, so that nothing can be stored before every
 * path that frees it is in place.  Unregistration runs backwards.
 */
static struct zcache_hook zcache_hooks[] = {
	{ .name = "zswap_frontswap_init", .observe = zcache_observe_swapon },
	{ .name = "zswap_frontswap_invalidate_area",
	  .observe = zcache_observe_swapoff },
	{ .name = "zswap_frontswap_invalidate_page",
	  .target = zcache_frontswap_invalidate_page,
	  .owns = zcache_owns_type_offset },
	{ .name = "swap_readpage", .target = zcache_swap_readpage,
	  .owns = zcache_owns_page },
	{ .name = "zswap_frontswap_store", .target = zcache_frontswap_store,
	  .owns = zcache_owns_once_open },
};

/* None: frontswap drops zswap's copy of a slot before a store itself. */
static struct zcache_call zcache_hook_calls[] = { };

static const char zcache_method[] =
	"ftrace redirect of zswap_frontswap_store/invalidate_page and swap_readpage";

/* zswap sees every page: zero-filled ones are zcache's to spot. */
static const bool zcache_zero_filtered;

/* Pages zswap holds stay zswap's: frontswap drops a duplicate first. */
static int zcache_attach_preflight(void)
{
	return 0;
}

static int zcache_attach_postflight(void)
{
	return 0;
}
#elif ZCACHE_ATTACH_ZSWAP_CALLS
/*
 * Linux 6.5 and later: no frontswap; mm/page_io.c and mm/swapfile.c call
 * zswap_store(), zswap_load() and zswap_invalidate() directly, and
 * swapon/swapoff call zswap_swapon()/zswap_swapoff().  Zero-filled pages
 * never get here: the swap core's zeromap takes them first.
 */

/*
 * zswap_invalidate(), called through a stub ("calls into the kernel"
 * below): zcache's redirect of it leaves the calls that return into
 * zcache's text to zswap (.not_own in zcache_hooks).  Were that call sent
 * to zcache_zswap_invalidate() all the same (a tracer that rewrites the
 * stub's return address), it would only drop zcache's copy, if any, of a
 * slot it is about to store again.  The body never runs while the
 * redirect is registered, which it is from zcache_attach() until every
 * store has left zcache.
 */
static noinline __noipa void zcache_call_zswap_invalidate(swp_entry_t swp)
{
	WARN_ONCE(1, pr_fmt("zswap_invalidate() was not redirected\n"));
}

#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
/*
 * 7.3's swap_writeout(), called the same way by zcache_swap_writeout()
 * once it has dropped its copies of the folio's slots: the redirect of
 * swap_writeout() leaves the calls that return into zcache's text to the
 * kernel (.not_own in zcache_hooks).  Should a tracer have rewritten the
 * stub's return address (function_graph, a kretprobe), the redirect's
 * ->owns() still finds no copy: the folio is locked, so no store can have
 * made one since.  Were the body to run, the folio would stay dirty and
 * locked with AOP_WRITEPAGE_ACTIVATE, as swap_writeout() leaves a folio
 * whose cgroup forbids writeback, for a later reclaim to write.
 */
static noinline __noipa int zcache_call_swap_writeout(struct swap_io_ctx *ctx,
						      struct folio *folio)
{
	WARN_ONCE(1, pr_fmt("swap_writeout() was not redirected\n"));
	folio_mark_dirty(folio);
	return AOP_WRITEPAGE_ACTIVATE;
}
#endif

/* The calls the hooks make; without them zcache_attach() refuses. */
static struct zcache_call zcache_hook_calls[] = {
#if ZCACHE_ZSWAP_INVALIDATE_CALL
	{ .name = "zswap_invalidate", .stub = zcache_call_zswap_invalidate },
#endif
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
	{ .name = "swap_writeout", .stub = zcache_call_swap_writeout },
#endif
};

/*
 * Every store drops zswap's copy of the folio's slots first, as
 * zswap_store() does when it stores or refuses a page (7.3: each page of
 * a large folio; 6.12's returns early for a large folio, whose slots zswap
 * cannot hold): zswap may still hold one (see zcache_hooks).  The folio is
 * locked in the swap cache, which keeps zswap_swapoff() from freeing the
 * slots' tree meanwhile.
 */
static bool zcache_zswap_store(struct folio *folio)
{
	swp_entry_t swp = folio->swap;
	long i, nr = folio_nr_pages(folio);
	int idx, ret;

	idx = srcu_read_lock(&zcache_attach_srcu);
	for (i = 0; i < nr; i++)
		zcache_call_zswap_invalidate(swp_entry(swp_type(swp),
						       swp_offset(swp) + i));
	if (folio_test_large(folio)) {
		ret = zcache_refuse_large(swp_type(swp), swp_offset(swp), nr);
	} else {
		ret = zcache_core->store(swp_type(swp), swp_offset(swp),
					 folio_page(folio, 0));
	}
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return !ret;
}

/*
 * Called for the slots zcache holds, and for every large folio.
 *
 * A large folio is read from disk: zcache stores none (and answers
 * zswap_never_enabled() with false, so that none is swapped in), but a
 * fault that asked before the hook was in place may still bring one.
 * Its slots were written before zcache opened, so zcache holds none of
 * them; if it did, the read fails instead.
 *
 * A failed read leaves the folio without uptodate (the fault gets
 * SIGBUS), which beats reading a swap slot that was never written.  A
 * swap cache load is exclusive, as zswap's: the entry goes, and the folio
 * is dirtied so that it is written out again if needed.  With @unlock the
 * folio is unlocked too, unless the disk has the data.  All of it runs
 * inside the SRCU section (zcache_assert_attached()).
 *
 * Return: 0 if the folio was filled, -ENOENT if the disk has the data, or
 * another negative errno if the read failed.
 */
static int zcache_zswap_fill(struct folio *folio, bool unlock)
{
	swp_entry_t swp = folio->swap;
	bool swapcache = folio_test_swapcache(folio);
	int idx, ret;

	idx = srcu_read_lock(&zcache_attach_srcu);
	if (folio_test_large(folio)) {
		ret = WARN_ONCE(zcache_holds_any(swp, folio_nr_pages(folio)),
				pr_fmt("a large folio swapped in over slots zcache holds\n")) ?
		      -EINVAL : -ENOENT;
		goto out;
	}
	ret = zcache_core->load(swp_type(swp), swp_offset(swp),
				folio_page(folio, 0), swapcache);
	if (ret)
		goto out;
	zcache_assert_attached();
	if (swapcache)
		folio_mark_dirty(folio);
	folio_mark_uptodate(folio);
out:
	if (unlock && ret != -ENOENT) {
		zcache_assert_attached();
		folio_unlock(folio);
	}
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return ret;
}

#ifdef ZCACHE_ZSWAP_LOAD_UNLOCKS
/* zswap_load() unlocks the folio unless the disk has the data. */
static int zcache_zswap_load(struct folio *folio)
{
	int ret = zcache_zswap_fill(folio, true);

	if (ret == -ENOENT)
		return ret;
	return ret ? -EIO : 0;
}
#else
/* true: the caller unlocks the folio, filled or not. */
static bool zcache_zswap_load(struct folio *folio)
{
	return zcache_zswap_fill(folio, false) != -ENOENT;
}
#endif

static void zcache_zswap_invalidate(swp_entry_t swp)
{
	int idx;

	idx = srcu_read_lock(&zcache_attach_srcu);
	zcache_core->invalidate(swp_type(swp), swp_offset(swp));
	srcu_read_unlock(&zcache_attach_srcu, idx);
}

/*
 * do_swap_page() swaps in large folios only while zswap was never
 * enabled; zcache cannot load a large folio, so while attached it says
 * "enabled" and every swap-in is order 0.
 */
static bool zcache_zswap_never_enabled(void)
{
	return false;
}

/*
 * A redirect is not type checked: the compiler checks each target against
 * the prototype the swap core calls (zswap_load()'s changed in 7.3).
 */
static_assert(__same_type(&zcache_zswap_store, &zswap_store));
static_assert(__same_type(&zcache_zswap_load, &zswap_load));
static_assert(__same_type(&zcache_zswap_invalidate, &zswap_invalidate));
static_assert(__same_type(&zcache_call_zswap_invalidate, &zswap_invalidate));
static_assert(__same_type(&zcache_zswap_never_enabled, &zswap_never_enabled));

/* zswap_invalidate(swp): the slots zcache holds are zcache's to free. */
static bool zcache_owns_swp(struct pt_regs *regs)
{
	swp_entry_t swp = { .val = regs_get_kernel_argument(regs, 0) };

	return zcache_core->holds(swp_type(swp), swp_offset(swp));
}

/* zswap_load(folio): the slots zcache holds, and every large folio */
static bool zcache_owns_folio(struct pt_regs *regs)
{
	struct folio *folio = (struct folio *)regs_get_kernel_argument(regs, 0);

	if (folio_test_large(folio))
		return READ_ONCE(zcache_open);
	return zcache_core->holds(swp_type(folio->swap),
				  swp_offset(folio->swap));
}

#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
/*
 * 7.3's swap_writeout() marks a zero-filled folio's slots as zero in the
 * swap table without calling zswap_store(), so that a copy zcache holds
 * of such a slot would be stale from then on.  Reads never reach it (they
 * look at the zero mark first), but writeback would put it in a swap
 * cache folio, which a fault maps as it is.  6.12's writeback asks the
 * zeromap (zcache_swapcache_zero_filled()); 7.3's zero mark lives in the
 * swap table, which no module can read.  So no copy may survive a write of
 * its slot: swap_writeout() is redirected for a folio any of whose slots
 * zcache holds: it stayed in the swap cache after its store (a fault
 * took it before reclaim could free it) and was written again.  Its older
 * copies go, and the kernel's swap_writeout() then writes it as any other
 * (zero mark, store or disk), called through its stub.  (Sending it back
 * to the active list instead, dirty, kept it in memory for another round
 * of reclaim: the zswap group's rewrite_held.)  The folio is locked, so
 * that no store can give its slots a copy again in between.
 */
static int zcache_swap_writeout(struct swap_io_ctx *ctx, struct folio *folio)
{
	swp_entry_t swp = folio->swap;
	int idx, ret;

	idx = srcu_read_lock(&zcache_attach_srcu);
	zcache_invalidate_range(swp_type(swp), swp_offset(swp),
				folio_nr_pages(folio));
	/*
	 * A real call inside the section, as zcache_zswap_store()'s: the
	 * kernel's function may unlock the folio, and detach waits for
	 * tasks on their way back into zcache.
	 */
	ret = zcache_call_swap_writeout(ctx, folio);
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return ret;
}

/*
 * swap_writeout(ctx, folio): a folio in the swap cache, locked.  One
 * lockless lookup per page of the folio (a large folio's slots are new:
 * zcache holds none of them).
 */
static bool zcache_owns_writeout(struct pt_regs *regs)
{
	struct folio *folio = (struct folio *)regs_get_kernel_argument(regs, 1);

	return zcache_holds_any(folio->swap, folio_nr_pages(folio));
}
#endif

/*
 * Once zcache is open every store is zcache's.  Loads and invalidations
 * are zcache's only for the slots it holds: zswap's own code runs for the
 * others, and finds nothing, unless a zswap_store() that began before
 * zswap was disabled finished after the postflight had looked (nothing
 * can wait for it): that page stays zswap's, is read back and freed by
 * zswap, instead of being read from a swap slot never written.  Should
 * its folio stay in the swap cache after that store (a read fault mapped
 * it again before reclaim freed it) and be written out again, zcache
 * takes the store, and zswap's copy would be stale: a refused store, a
 * writeback or the slot's free (whose invalidation is zcache's) would let
 * a later read, or zswap's shrinker, find it.  So zcache_zswap_store()
 * drops zswap's copy first, as zswap_store() does, by a call into
 * zswap_invalidate() from zcache's text, which the invalidation hook
 * leaves to zswap.
 */
static struct zcache_hook zcache_hooks[] = {
	{ .name = "zswap_swapon", .observe = zcache_observe_swapon },
	{ .name = "zswap_swapoff", .observe = zcache_observe_swapoff },
	{ .name = "zswap_invalidate", .target = zcache_zswap_invalidate,
	  .owns = zcache_owns_swp, .not_own = true },
	{ .name = "zswap_load", .target = zcache_zswap_load,
	  .owns = zcache_owns_folio },
	{ .name = "zswap_never_enabled",
	  .target = zcache_zswap_never_enabled },
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
	{ .name = "swap_writeout", .target = zcache_swap_writeout,
	  .owns = zcache_owns_writeout, .not_own = true },
#endif
	{ .name = "zswap_store", .target = zcache_zswap_store,
	  .owns = zcache_owns_once_open },
};

static const char zcache_method[] = "ftrace redirect of zswap_store/load/invalidate";

/* swap_writepage() sends zero-filled pages to the zeromap, not to zswap. */
static const bool zcache_zero_filtered = true;

/*
 * Read a file of a filesystem mounted privately for this one read: what
 * the caller's mount namespace shows at that path (a container's
 * LXCFS-made /proc/meminfo, say) does not count.  Only proc and sysfs are
 * read, which are built in: get_fs_type() takes no module reference on
 * them (put_filesystem() is not exported).
 */
static int zcache_read_kernel_file(const char *fstype, const char *path,
				   char *buf, size_t size)
{
	struct file_system_type *type;
	struct vfsmount *mnt;
	struct file *file;
	loff_t pos = 0;
	ssize_t len;
	int ret = 0;

	type = get_fs_type(fstype);
	if (!type)
		return -ENODEV;
	mnt = kern_mount(type);
	if (IS_ERR(mnt))
		return PTR_ERR(mnt);
	file = file_open_root_mnt(mnt, path, O_RDONLY, 0);
	if (IS_ERR(file)) {
		ret = PTR_ERR(file);
		goto unmount;
	}
	len = kernel_read(file, buf, size - 1, &pos);
	filp_close(file, NULL);
	if (len < 0) {
		ret = len;
		goto unmount;
	}
	buf[len] = '\0';
unmount:
	kern_unmount(mnt);
	return ret;
}

/*
 * How many kB of pages zswap holds, from the kernel's own /proc/meminfo.
 * Return: 0 and *@kb, or a negative errno if that cannot be known.
 */
static int zcache_zswapped_kb(char *buf, size_t size, unsigned long *kb)
{
	const char *line;
	int ret;

	ret = zcache_read_kernel_file("proc", "meminfo", buf, size);
	if (ret)
		return ret;
	line = strstr(buf, "\nZswapped:");
	if (!line || sscanf(line, "\nZswapped: %lu", kb) != 1)
		return -ENODATA;
	return 0;
}

/*
 * Here it is zswap_store() that drops zswap's copy of a slot written
 * again, and zcache takes its place: a page zswap held could go stale and
 * be read back once zcache is gone.  So zcache attaches only while zswap
 * is disabled and holds no page, and refuses whenever it cannot tell.
 */
static int zcache_zswap_idle(void)
{
	const size_t size = PAGE_SIZE;
	unsigned long kb;
	char *buf;
	int ret;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = zcache_read_kernel_file("sysfs", "module/zswap/parameters/enabled",
				      buf, size);
	if (ret) {
		pr_err("cannot attach: cannot tell whether stock zswap is enabled (%d)\n",
		       ret);
		goto free_buf;
	}
	if (buf[0] != 'N') {
		pr_err("cannot attach: stock zswap is enabled; disable it first (echo N > /sys/module/zswap/parameters/enabled)\n");
		ret = -EBUSY;
		goto free_buf;
	}
	ret = zcache_zswapped_kb(buf, size, &kb);
	if (ret) {
		pr_err("cannot attach: cannot tell whether stock zswap holds pages: no Zswapped in the kernel's meminfo (%d)\n",
		       ret);
		goto free_buf;
	}
	if (kb) {
		pr_err("cannot attach: stock zswap holds %lu kB of swapped-out pages; swapoff (or swap them in) first\n",
		       kb);
		ret = -EBUSY;
	}
free_buf:
	kfree(buf);
	return ret;
}

static int zcache_attach_preflight(void)
{
	if (!ZCACHE_ZSWAP_INVALIDATE_CALL) {
		pr_err("cannot attach: dropping zswap's copy of a slot at each store needs kprobes (CONFIG_KPROBES) and a compiler with __attribute__((noipa))\n");
		return -EOPNOTSUPP;
	}
	return zcache_zswap_idle();
}

/*
 * Every hook is in place, zcache not open yet: zswap's own (disabled)
 * store still runs, and stores nothing.  A store zswap began while it was
 * still enabled may have finished since the preflight, or zswap may have
 * been enabled again: look once more before zcache takes the pages.  A
 * zswap_store() still running from before zswap was disabled is the one
 * case this cannot see; the load and invalidate hooks leave what it
 * stores to zswap (see zcache_hooks).
 */
static int zcache_attach_postflight(void)
{
	return zcache_zswap_idle();
}
#elif ZCACHE_ATTACH_SWAP_CORE
/*
 * A kernel built without zswap and frontswap (Debian's cloud flavours):
 * the swap core calls no hook, so zcache takes its own functions.
 *
 * swap_writepage() is redirected wholesale.  zcache either stores the
 * page and completes it as that kernel's own frontswap (6.1) or zswap
 * (6.12) success path does, or erases every older copy of the page's
 * slots and hands it to the kernel's swap_writepage() with a real call
 * through the swap address space's writepage: swap_aops takes its
 * address, so it keeps its ENDBR under IBT.  The handler leaves every
 * call made from zcache's own text to the kernel: that fallback, and
 * writeback's writes (zcache_swapcache_write()).
 *
 * Reads (swap_readpage() on 6.1, swap_read_folio() on 6.12) are taken
 * for the slots zcache holds only.  Freed slots are observed where the
 * swap core zeroes their swap map (swap_range_free() on 6.1,
 * swap_entry_range_free() on 6.12), under the device's lock, maybe with
 * interrupts off.  Swapon and swapoff are observed where the swap
 * address space of a type is set up and torn down: the latter after
 * try_to_unuse() succeeded, never after a swapoff that failed.
 *
 * The store asks get_swap_device() (writeback's stub, "swap cache calls"
 * below) for the slot's device: the method needs those calls, and the
 * postflight refuses the attach without them.
 */
static noinline __noipa struct swap_info_struct *
zcache_call_get_swap_device(swp_entry_t entry);

#if ZCACHE_ATTACH_SWAP_CORE == ZCACHE_SWAP_CORE_FOLIO
#define ZCACHE_SWAP_CORE_FREE	"swap_entry_range_free"
#define ZCACHE_SWAP_CORE_READ	"swap_read_folio"
#else
#define ZCACHE_SWAP_CORE_FREE	"swap_range_free"
#define ZCACHE_SWAP_CORE_READ	"swap_readpage"
#endif

/*
 * Whether a page on its way to (@si, @offset) may be stored:
 * - never on a SWP_SYNCHRONOUS_IO device (zram, brd, pmem): 6.12 swaps
 *   large folios in from those, and both kernels read single pages there
 *   without the swap cache; zcache wants neither;
 * - not when no page table or shmem refers to the slot any more: the
 *   kernel's swap_writepage() frees such a slot instead of writing it
 *   (folio_free_swap(), sealed on 6.12 and not exported).  Read without
 *   the cluster lock: a count that drops meanwhile costs only a store that
 *   the slot's free invalidates.
 */
static bool zcache_swap_core_may_store(struct swap_info_struct *si,
				       pgoff_t offset)
{
	/* Set before swapon ends; other bits change under swap_lock */
	if (data_race(si->flags & SWP_SYNCHRONOUS_IO))
		return false;
	return READ_ONCE(si->swap_map[offset]) & ~SWAP_HAS_CACHE;
}

#if ZCACHE_ATTACH_SWAP_CORE == ZCACHE_SWAP_CORE_FOLIO
/*
 * 6.12's swap_writepage() sends a zero-filled folio to its device's
 * zeromap instead of storing it: zcache leaves such a page to the kernel
 * (the fallback does exactly that).  The check is the kernel's own
 * is_folio_zero_filled() for one page, which the redirect skips.
 */
static bool zcache_swap_core_zero_filled(struct page *page)
{
	void *data = kmap_local_page(page);
	bool zero = !memchr_inv(data, 0, PAGE_SIZE);

	kunmap_local(data);
	return zero;
}

/*
 * A slot once written as zeroes keeps its zeromap bit until written
 * again, and reads look at the zeromap first: as the kernel does before
 * every store, clear it, or the slot would read back as zeroes.  The
 * locked swap cache folio protects the bit.
 */
static void zcache_swap_core_stored(struct swap_info_struct *si,
				    pgoff_t offset)
{
	if (si->zeromap)
		clear_bit(offset, si->zeromap);
}

/*
 * As 6.12's zswap store success path: the folio is only unlocked, with no
 * writeback flag; pageout() then frees it at once.
 */
static void zcache_swap_core_complete(struct folio *folio)
{
	zcache_assert_attached();
	folio_unlock(folio);
}
#else
/* 6.1 has no zeromap: zero-filled pages are the core's to spot. */
static bool zcache_swap_core_zero_filled(struct page *page)
{
	return false;
}

static void zcache_swap_core_stored(struct swap_info_struct *si,
				    pgoff_t offset)
{
}

/*
 * As 6.1's frontswap store success path: a writeback begun and ended
 * with the folio unlocked in between, which keeps nr_writeback balanced
 * and lets pageout() free the folio at once.
 */
static void zcache_swap_core_complete(struct folio *folio)
{
	zcache_assert_attached();
	folio_start_writeback(folio);
	folio_unlock(folio);
	folio_end_writeback(folio);
}
#endif

/*
 * Whether frees are seen.  Every free of a slot passes the free observer
 * under si->lock before the device's count of slots in use falls, under
 * the same hold, and zcache stores only into slots in use: with si->lock
 * held, zcache never holds more entries of a type than the device has
 * slots in use.  A kernel that inlined the observed function into some of
 * its callers would break that without a sound, and the entries of freed
 * slots would pile up.  So every ZCACHE_AUDIT_STORES-th store on a CPU
 * compares the two under si->lock (taken after the folio lock, as the
 * kernel does); if zcache holds more, it says so once and stores nothing
 * more.  What it holds stays loadable, and swapoff frees the rest.  (Slots
 * on disk count as in use too: unseen frees show once they outnumber
 * those.)
 */
#define ZCACHE_AUDIT_STORES	1024
static DEFINE_PER_CPU(unsigned int, zcache_audit_stores);
static bool zcache_frees_missed;

static void zcache_swap_core_audit(struct swap_info_struct *si,
				   unsigned int type)
{
	unsigned long held, inuse;

	if (this_cpu_inc_return(zcache_audit_stores) % ZCACHE_AUDIT_STORES)
		return;
	spin_lock(&si->lock);
	held = zcache_core->entries(type);
	inuse = si->inuse_pages;
	spin_unlock(&si->lock);
	if (held <= inuse || READ_ONCE(zcache_frees_missed))
		return;
	WRITE_ONCE(zcache_frees_missed, true);
	pr_err("swap type %u: %lu entries, %lu slots in use: frees are not all seen at %s (inlined into a caller?); zcache stores no more pages\n",
	       type, held, inuse, ZCACHE_SWAP_CORE_FREE);
}

/*
 * A free the observer does not see, on demand: fail_function makes this
 * return an error (the faults group, to prove the audit above).  It is
 * called inside an ftrace handler: fail_function's ftrace-based kprobe
 * runs there as the one nested level ftrace's recursion guard allows.
 * (Not notrace: an int3 kprobe runs as NMI, where fail_function's random
 * draw is not allowed.)
 */
static noinline __noipa int zcache_swap_core_free_seen(void)
{
	return 0;
}

ALLOW_ERROR_INJECTION(zcache_swap_core_free_seen, ERRNO);

/*
 * swap_writepage(), for every caller outside zcache: pageout() through
 * swap_aops, and shmem_writepage().  The page is locked and in the swap
 * cache.  Whatever happens, no older copy of its slots survives.  A
 * stored page is unlocked here; a page given to the kernel leaves as the
 * kernel's swap_writepage() leaves it (unlocked, or locked with
 * AOP_WRITEPAGE_ACTIVATE), and is not touched again.  PSWPOUT is left to
 * the kernel: it counts only real writes.
 */
static int zcache_swap_writepage(struct page *page,
				 struct writeback_control *wbc)
{
	struct folio *folio = page_folio(page);
	swp_entry_t swp = zcache_swapcache_entry(folio);
	unsigned int type = swp_type(swp);
	pgoff_t offset = swp_offset(swp);
	struct swap_info_struct *si = NULL;
	int idx, ret;

	/* Everything, the fallback's call included, inside the section */
	idx = srcu_read_lock(&zcache_attach_srcu);
	if (folio_test_large(folio)) {
		zcache_refuse_large(type, offset, folio_nr_pages(folio));
		goto fallback;
	}
	if (zcache_swapcache_ready())
		si = zcache_call_get_swap_device(swp);
	if (!si)
		goto erase_old;
	if (READ_ONCE(zcache_frees_missed) ||
	    !zcache_swap_core_may_store(si, offset) ||
	    zcache_swap_core_zero_filled(page))
		goto put_device;
	ret = zcache_core->store(type, offset, page);
	if (ret)
		goto put_device;	/* the core erased any older copy */
	zcache_swap_core_stored(si, offset);
	zcache_swap_core_audit(si, type);
	put_swap_device(si);
	zcache_swap_core_complete(folio);
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return 0;

put_device:
	put_swap_device(si);
erase_old:
	zcache_core->invalidate(type, offset);
fallback:
	/*
	 * A real call, never a tail call: the handler must see zcache's own
	 * text as the caller, or it would send this call back here forever.
	 * The srcu_read_unlock() after it keeps the compiler from turning it
	 * into a jump, and must come after it anyway: detach waits for tasks
	 * on their way back into zcache.
	 */
	ret = folio_mapping(folio)->a_ops->writepage(page, wbc);
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return ret;
}

#if ZCACHE_ATTACH_SWAP_CORE == ZCACHE_SWAP_CORE_FOLIO
/*
 * swap_read_folio() for the slots zcache holds (and a large folio over
 * any of them).  The folio is locked, not uptodate, in the swap cache or
 * pinned by SWAP_HAS_CACHE.  As 6.12's zswap hit: a swap cache load is
 * exclusive (the entry goes, and the folio, now the only copy, is
 * dirtied), the folio becomes uptodate and is unlocked.  A failed load,
 * or a large folio (zcache stores none and never stores on the devices
 * that swap them in), leaves it unlocked and not uptodate: SIGBUS for a
 * fault, -EIO for shmem, a poisoned entry for swapoff; never a read of a
 * slot that was not written.  The stall is counted for PSI as the kernel
 * counts it; delay accounting is not exported.  Everything runs inside
 * the SRCU section (zcache_assert_attached()).
 */
static void zcache_swap_read_folio(struct folio *folio,
				   struct swap_iocb **plug)
{
	swp_entry_t swp = folio->swap;
	bool swapcache = folio_test_swapcache(folio);
	bool workingset = folio_test_workingset(folio);
	unsigned long pflags;
	int idx;

	idx = srcu_read_lock(&zcache_attach_srcu);
	if (workingset)
		psi_memstall_enter(&pflags);
	if (folio_test_large(folio)) {
		WARN_ONCE(1, pr_fmt("a large folio swapped in over slots zcache holds\n"));
		goto unlock;
	}
	if (zcache_core->load(swp_type(swp), swp_offset(swp),
			      folio_page(folio, 0), swapcache))
		goto unlock;
	if (swapcache)
		folio_mark_dirty(folio);
	folio_mark_uptodate(folio);
unlock:
	zcache_assert_attached();
	folio_unlock(folio);
	if (workingset)
		psi_memstall_leave(&pflags);
	srcu_read_unlock(&zcache_attach_srcu, idx);
}

/* swap_read_folio(folio, plug): any slot of the folio zcache holds */
static bool zcache_owns_read_folio(struct pt_regs *regs)
{
	struct folio *folio = (struct folio *)regs_get_kernel_argument(regs, 0);

	return zcache_holds_any(folio->swap, folio_nr_pages(folio));
}

/* swap_entry_range_free(si, entry, nr), under si->lock, maybe IRQs off */
static void zcache_observe_range_free(struct pt_regs *regs)
{
	swp_entry_t swp = { .val = regs_get_kernel_argument(regs, 1) };

	if (zcache_swap_core_free_seen())
		return;

	zcache_invalidate_range(swp_type(swp), swp_offset(swp),
				(unsigned int)regs_get_kernel_argument(regs, 2));
}

#define zcache_swap_core_read	zcache_swap_read_folio
#define zcache_owns_read	zcache_owns_read_folio
#else
/* swap_range_free(si, offset, nr), under si->lock, maybe IRQs off */
static void zcache_observe_range_free(struct pt_regs *regs)
{
	struct swap_info_struct *si;

	if (zcache_swap_core_free_seen())
		return;
	si = (struct swap_info_struct *)regs_get_kernel_argument(regs, 0);
	zcache_invalidate_range(si->type, regs_get_kernel_argument(regs, 1),
				(unsigned int)regs_get_kernel_argument(regs, 2));
}

#define zcache_swap_core_read	zcache_swap_readpage
#define zcache_owns_read	zcache_owns_page
#endif

/*
 * Registration order as for zswap: observers first, then the read
 * redirect, the store redirect last, so that nothing can be stored
 * before every path that frees or reads it is in place.
 */
static struct zcache_hook zcache_hooks[] = {
	{ .name = "init_swap_address_space", .observe = zcache_observe_swapon },
	{ .name = "exit_swap_address_space", .observe = zcache_observe_swapoff },
	{ .name = ZCACHE_SWAP_CORE_FREE, .observe = zcache_observe_range_free },
	{ .name = ZCACHE_SWAP_CORE_READ, .target = zcache_swap_core_read,
	  .owns = zcache_owns_read },
	{ .name = "swap_writepage", .target = zcache_swap_writepage,
	  .owns = zcache_owns_once_open, .not_own = true },
};

/*
 * None: the store's one call, get_swap_device(), is among writeback's,
 * which the postflight requires.
 */
static struct zcache_call zcache_hook_calls[] = { };

static const char zcache_method[] =
	"ftrace redirect of swap_writepage and " ZCACHE_SWAP_CORE_READ
	", observing " ZCACHE_SWAP_CORE_FREE " (no zswap in this kernel)";

/* 6.12: zero-filled pages go to the kernel's zeromap (see above). */
static const bool zcache_zero_filtered =
	ZCACHE_ATTACH_SWAP_CORE == ZCACHE_SWAP_CORE_FOLIO;

/*
 * A hooked function that the compiler also cloned (name.constprop.0,
 * name.isra.0, name.part.0) is reached through the clone by some callers,
 * which a filter on its name never sees.  A filter on "name.*" matches
 * only such clones: ftrace_set_filter() fails where nothing matches.
 */
static int zcache_attach_preflight(void)
{
	static struct ftrace_ops probe;
	char glob[64];
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(zcache_hooks); i++) {
		snprintf(glob, sizeof(glob), "%s.*", zcache_hooks[i].name);
		ret = ftrace_set_filter(&probe, glob, strlen(glob), 1);
		ftrace_free_filter(&probe);
		if (!ret) {
			pr_err("cannot attach: this kernel's %s has compiler clones (%s), whose callers zcache would not see\n",
			       zcache_hooks[i].name, glob);
			return -ENOENT;
		}
	}
	return 0;
}

/*
 * Every hook is in place, and writeback's swap cache calls were set up:
 * the store needs their get_swap_device().
 */
static int zcache_attach_postflight(void)
{
	if (zcache_swapcache_ready())
		return 0;
	pr_err("cannot attach: without zswap zcache needs the swap core's get_swap_device(), which could not be redirected (see above)\n");
	return -ENOENT;
}
#else
/* No zswap, no frontswap: the swap core calls no hook at all. */
static struct zcache_hook zcache_hooks[] = { };
static struct zcache_call zcache_hook_calls[] = { };

static const char zcache_method[] = "nothing (no zswap in this kernel)";

static const bool zcache_zero_filtered;

static int zcache_attach_preflight(void)
{
	pr_err("cannot attach: this kernel is built without zswap (CONFIG_ZSWAP, and CONFIG_FRONTSWAP before 6.5), and its swap core's own functions were checked for Linux 6.1 and 6.12 only\n");
	return -ENODEV;
}

static int zcache_attach_postflight(void)
{
	return 0;
}
#endif

/*********************************
 * ftrace handlers
 *********************************/
/*
 * ftrace's recursion lock, taken by the handler itself: it also disables
 * preemption, as the RCU walks in ->owns() and ->swapon()/->swapoff()
 * want.  A recursion is a bug worth a warning, but skipping the handler
 * would be worse (see the top of this file): the handler runs anyway.
 * (On 6.12 the trylock also fails where RCU is not watching, which the
 * hooked functions never run in.  If another ftrace user traces the same
 * function, ftrace's list function applies its own recursion check
 * before calling this handler.)
 */
static int notrace zcache_handler_enter(struct zcache_hook *hook,
					unsigned long ip,
					unsigned long parent_ip)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (unlikely(bit < 0)) {
		WARN_ONCE(1, pr_fmt("recursion into the handler of %s\n"),
			  hook->name);
		preempt_disable_notrace();
	}
	return bit;
}

static void notrace zcache_handler_exit(int bit)
{
	if (unlikely(bit < 0))
		preempt_enable_notrace();
	else
		ftrace_test_recursion_unlock(bit);
}

static void notrace zcache_redirect_handler(unsigned long ip,
					    unsigned long parent_ip,
					    struct ftrace_ops *ops,
					    struct ftrace_regs *fregs)
{
	struct zcache_hook *hook = container_of(ops, struct zcache_hook, ops);
	int bit = zcache_handler_enter(hook, ip, parent_ip);

	/* parent_ip: where the hooked function returns to, in its caller */
	if (hook->not_own && within_module(parent_ip, THIS_MODULE))
		goto unlock;
	if (!hook->owns || hook->owns(ftrace_get_regs(fregs)))
		zcache_set_ip(fregs, (unsigned long)hook->target);
unlock:
	zcache_handler_exit(bit);
}

static void notrace zcache_observe_handler(unsigned long ip,
					   unsigned long parent_ip,
					   struct ftrace_ops *ops,
					   struct ftrace_regs *fregs)
{
	struct zcache_hook *hook = container_of(ops, struct zcache_hook, ops);
	int bit = zcache_handler_enter(hook, ip, parent_ip);

	hook->observe(ftrace_get_regs(fregs));
	zcache_handler_exit(bit);
}

/* Undo a registration, if *@registered says it was made. */
static void zcache_ftrace_ops_unregister(struct ftrace_ops *ops,
					 bool *registered)
{
	if (!*registered)
		return;
	WARN_ON_ONCE(unregister_ftrace_function(ops));
	ftrace_free_filter(ops);
	*registered = false;
}

/*********************************
 * calls into the kernel
 *********************************/
/*
 * zcache calls a few kernel functions that no module may call: the zswap
 * method's zswap_invalidate(), at every store, and on 7.3 swap_writeout(),
 * after dropping a written folio's old copies (zcache_hook_calls), and
 * the swap cache functions writeback needs (zcache_writeback_calls,
 * below).  Why each call is safe under IBT, which from 6.12 on seals every
 * function whose address the kernel never takes (its ENDBR is overwritten,
 * and an indirect call to it traps on a CPU that enforces IBT):
 *
 * - zswap_invalidate(), __read_swap_cache_async(), delete_from_swap_cache(),
 *   get_swap_device(), 7.3's swap_writeout() and all of 7.3's swap table
 *   calls are sealed.
 *   zcache never calls them through a pointer.  Each has a stub here with
 *   the kernel function's prototype, which zcache calls directly.  The
 *   stub is traced by an ftrace_ops with IPMODIFY whose handler moves the
 *   instruction pointer to the kernel function, exactly as the zswap hooks
 *   above move it to zcache's: the ftrace trampoline reaches the kernel
 *   function with RET, which IBT does not check, and the kernel function
 *   returns to the stub's caller.  The kernel function's address comes
 *   from a kprobe registered by name (kallsyms_lookup_name() is neither
 *   exported nor callable) and is checked with sprint_symbol().
 * - swap_writepage() (6.1, 6.12) is reached as
 *   folio_mapping(folio)->a_ops->writepage, the indirect call the kernel
 *   itself makes from pageout(): swap_aops takes its address, so it keeps
 *   its ENDBR.
 *
 * The stubs' bodies never run while their redirect is registered, and
 * zcache calls them only then.  They are __noipa so that the compiler
 * cannot draw conclusions from the bodies at the call sites (without it,
 * and without kprobes, there is no writeback, and the zswap method
 * refuses to attach).  If another ftrace user traces a stub too, ftrace's
 * list function calls the handler unless it finds itself recursing, which
 * it cannot from a store, from reclaim's writeout or from the writeback
 * worker (none runs inside an ftrace callback), or ftrace_kill() after a
 * fault in ftrace
 * itself stops every redirect.  A body that ran then would warn and do
 * nothing: zswap's copy of a slot stays (as before zcache dropped it), a
 * read fails (no folio), and the device lookup (NULL) makes
 * zcache_swapcache_zero_filled() say it cannot tell, so that nothing is
 * written over the slot; but the delete stub's would leave a folio that is
 * not uptodate in the swap cache: a fault on that slot would get SIGBUS.
 * 7.3's write stubs leave their folio dirty in the swap cache, for reclaim
 * to write; swap_writeout()'s returns AOP_WRITEPAGE_ACTIVATE, as for a
 * cgroup that forbids writeback (reclaim keeps the folio on the active
 * list, shmem takes it back into the page cache).
 *
 * QEMU does not emulate IBT, and the suite's debug kernels are built
 * without it: all of this is reasoned, not tested.
 *
 * The prototypes are those of mm/swap.h, include/linux/swap.h and
 * include/linux/zswap.h in the kernels read (compat.h): on any other
 * kernel writeback is unavailable.
 */
#if ZCACHE_KERNEL_CALLS
static void notrace zcache_call_handler(unsigned long ip,
					unsigned long parent_ip,
					struct ftrace_ops *ops,
					struct ftrace_regs *fregs)
{
	struct zcache_call *call = container_of(ops, struct zcache_call, ops);

	zcache_set_ip(fregs, call->addr);
}

/* Why a call cannot be made: the attach fails, or writeback goes without. */
static __printf(2, 3) void zcache_call_failed(bool required,
					      const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (required)
		pr_err("cannot attach: %pV", &vaf);
	else
		pr_info("writeback unavailable: %pV", &vaf);
	va_end(args);
}

/*
 * The address of a kernel function, by a kprobe registered on its name and
 * removed at once.  The kprobe may sit past the function's ENDBR: the
 * start is what sprint_symbol() says the offset is from, and sprint_symbol()
 * must name the function at offset 0 there.
 * Return: the function's address, or 0 after saying why.
 */
static unsigned long zcache_call_lookup(const char *name, bool required)
{
	struct kprobe kp = { .symbol_name = name };
	char sym[KSYM_SYMBOL_LEN], want[KSYM_NAME_LEN + 8];
	unsigned long addr, off, size;
	const char *at;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		zcache_call_failed(required, "no kprobe can be placed on %s (%d)\n",
				   name, ret);
		return 0;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);

	sprint_symbol(sym, addr);
	snprintf(want, sizeof(want), "%s+", name);
	at = sym + strlen(want);
	if (strncmp(sym, want, strlen(want)) ||
	    sscanf(at, "%lx/%lx", &off, &size) != 2 || off > 16)
		goto mismatch;
	addr -= off;
	sprint_symbol(sym, addr);
	if (strncmp(sym, want, strlen(want)) || strncmp(at, "0x0/", 4))
		goto mismatch;
	return addr;

mismatch:
	zcache_call_failed(required, "the kprobe on %s landed in %s\n", name,
			   sym);
	return 0;
}

static int zcache_call_register(struct zcache_call *call, bool required)
{
	int ret;

	call->addr = zcache_call_lookup(call->name, required);
	if (!call->addr)
		return -ENOENT;
	call->ops.func = zcache_call_handler;
	call->ops.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
			  FTRACE_OPS_FL_PERMANENT;
	ret = ftrace_set_filter_ip(&call->ops, (unsigned long)call->stub, 0, 0);
	if (ret) {
		zcache_call_failed(required, "cannot trace the stub for %s (%d)\n",
				   call->name, ret);
		return ret;
	}
	ret = register_ftrace_function(&call->ops);
	if (ret) {
		zcache_call_failed(required, "cannot redirect the stub for %s (%d)\n",
				   call->name, ret);
		ftrace_free_filter(&call->ops);
		return ret;
	}
	call->registered = true;
	return 0;
}

/* Undo the registrations of @calls that were made, last first. */
static void zcache_calls_undo(struct zcache_call *calls, int n)
{
	while (--n >= 0)
		zcache_ftrace_ops_unregister(&calls[n].ops, &calls[n].registered);
}

/*
 * Redirect every stub of @calls, or none; if @required, a failure is
 * the attach's.
 * Return: 0, or a negative errno after saying why.
 */
static int zcache_calls_register(struct zcache_call *calls, int n,
				 bool required)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = zcache_call_register(&calls[i], required);
		if (ret) {
			zcache_calls_undo(calls, i);
			return ret;
		}
	}
	return 0;
}
#else	/* !ZCACHE_KERNEL_CALLS: no kernel calls a method needs (compat.h) */
static void zcache_calls_undo(struct zcache_call *calls, int n)
{
}

static int zcache_calls_register(struct zcache_call *calls, int n,
				 bool required)
{
	return 0;
}
#endif	/* ZCACHE_KERNEL_CALLS */

/*********************************
 * swap cache calls, for writeback
 *********************************/
/*
 * Writeback needs swap core functions that no module may call:
 * __read_swap_cache_async(), which finds the swap cache folio of a slot
 * or adds a new, locked one (and so pins the slot); delete_from_swap_cache(),
 * which takes such a folio out again; get_swap_device(), which pins a
 * slot's device against swapoff to read its swap_map (how many users the
 * slot has) and, on 6.12, its zeromap; and the swap device's writepage.
 * 7.3's swap table replaced them: swap_cache_alloc_folio() adds the new
 * folio (or says why not), swap_cache_get_folio() finds an existing one,
 * swap_cache_del_folio() takes it out, swap_entry_swapped() reads the
 * swap count, folio_free_swap() frees a slot no one refers to, and
 * __swap_writepage() with swap_write_submit() write the folio, as zswap's
 * writeback does (7.3 has no writepage for swap).  Each is called through
 * a stub, as above.
 */
#if ZCACHE_SWAPCACHE_CALLS
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_PAGE
static noinline __noipa struct page *
zcache_call_read_swap_cache_async(swp_entry_t entry, gfp_t gfp_mask,
				  struct vm_area_struct *vma,
				  unsigned long addr, bool *new_page_allocated)
{
	*new_page_allocated = false;
	return NULL;
}
#elif ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_FOLIO
static noinline __noipa struct folio *
zcache_call_read_swap_cache_async(swp_entry_t entry, gfp_t gfp_mask,
				  struct mempolicy *mpol, pgoff_t ilx,
				  bool *new_page_allocated, bool skip_if_exists)
{
	*new_page_allocated = false;
	return NULL;
}
#else
static noinline __noipa struct folio *
zcache_call_swap_cache_alloc_folio(swp_entry_t targ_entry, gfp_t gfp,
				   unsigned long orders, struct vm_fault *vmf,
				   struct mempolicy *mpol, pgoff_t ilx)
{
	return ERR_PTR(-ENOMEM);
}

static noinline __noipa struct folio *
zcache_call_swap_cache_get_folio(swp_entry_t entry)
{
	return NULL;
}

static noinline __noipa bool
zcache_call_swap_entry_swapped(struct swap_info_struct *si, swp_entry_t entry)
{
	return true;
}

static noinline __noipa bool zcache_call_folio_free_swap(struct folio *folio)
{
	return false;
}

static noinline __noipa void
zcache_call___swap_writepage(struct swap_io_ctx *ctx, struct folio *folio)
{
	WARN_ONCE(1, pr_fmt("__swap_writepage() was not redirected\n"));
	folio_mark_dirty(folio);
	folio_unlock(folio);
}

static noinline __noipa void zcache_call_swap_write_submit(struct swap_io_ctx *ctx)
{
}
#endif

#if ZCACHE_SWAPCACHE_CALLS != ZCACHE_SWAPCACHE_CALLS_PAGE
/*
 * The policy writeback allocates its folios by: local allocation, as the
 * kernel's default_policy (static in mm/mempolicy.c) and as a kworker's
 * own policy give.
 */
static struct mempolicy zcache_local_policy = {
#ifdef CONFIG_NUMA
	.refcnt = ATOMIC_INIT(1),
	.mode = MPOL_LOCAL,
#endif
};
#endif

static noinline __noipa void zcache_call_delete_from_swap_cache(struct folio *folio)
{
	WARN_ONCE(1, pr_fmt("the swap cache's delete was not redirected\n"));
}

static noinline __noipa struct swap_info_struct *
zcache_call_get_swap_device(swp_entry_t entry)
{
	return NULL;
}

static struct zcache_call zcache_writeback_calls[] = {
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
	{ .name = "swap_cache_alloc_folio",
	  .stub = zcache_call_swap_cache_alloc_folio },
	{ .name = "swap_cache_get_folio",
	  .stub = zcache_call_swap_cache_get_folio },
	{ .name = "swap_cache_del_folio",
	  .stub = zcache_call_delete_from_swap_cache },
	{ .name = "swap_entry_swapped",
	  .stub = zcache_call_swap_entry_swapped },
	{ .name = "folio_free_swap", .stub = zcache_call_folio_free_swap },
	{ .name = "__swap_writepage", .stub = zcache_call___swap_writepage },
	{ .name = "swap_write_submit", .stub = zcache_call_swap_write_submit },
#else
	{ .name = "__read_swap_cache_async",
	  .stub = zcache_call_read_swap_cache_async },
	{ .name = "delete_from_swap_cache",
	  .stub = zcache_call_delete_from_swap_cache },
#endif
	{ .name = "get_swap_device", .stub = zcache_call_get_swap_device },
};

/* Set once every stub is redirected; cleared before they are undone */
static bool zcache_writeback_ready;

static void zcache_writeback_calls_undo(void)
{
	WRITE_ONCE(zcache_writeback_ready, false);
	zcache_calls_undo(zcache_writeback_calls,
			  ARRAY_SIZE(zcache_writeback_calls));
}

/* Redirect every stub, or none: then zcache goes without writeback. */
static void zcache_writeback_calls_set_up(void)
{
	if (!zcache_calls_register(zcache_writeback_calls,
				   ARRAY_SIZE(zcache_writeback_calls), false))
		WRITE_ONCE(zcache_writeback_ready, true);
}

/**
 * zcache_swapcache_ready() - whether writeback can use the swap cache calls
 *
 * Context: any.
 * Return: true from a successful zcache_attach() on to zcache_detach(), if
 * this kernel's swap cache functions were found and redirected.
 */
bool zcache_swapcache_ready(void)
{
	return READ_ONCE(zcache_writeback_ready);
}

/**
 * zcache_swapcache_get() - the swap cache folio of a slot, new if need be
 * @swp:       the slot
 * @allocated: out: true if the folio is new
 *
 * A new folio is locked, in the swap cache and on the LRU, not uptodate:
 * it pins the slot (SWAP_HAS_CACHE) until it leaves the swap cache, so
 * the slot can be neither freed nor written by anyone else meanwhile.  An
 * existing folio is returned with a reference, not locked.  On 6.1 a slot
 * whose cache bit is set while no folio is in the cache yet (or any more)
 * makes the kernel function wait for it; 6.12 gives up at once.  7.3 has
 * no such state: a slot has a folio in its swap table or none.
 *
 * Context: process context, may sleep; never called inside reclaim.
 * Return: the folio, with a reference, or NULL if the slot is free or
 * there was no memory.
 */
struct folio *zcache_swapcache_get(swp_entry_t swp, bool *allocated)
{
	/*
	 * No OOM kill for a writeback: the memory cgroup the slot is
	 * charged to may be at its limit, and the worker cannot swap.
	 */
	const gfp_t gfp = GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN;

	if (WARN_ON_ONCE(!zcache_swapcache_ready())) {
		*allocated = false;
		return NULL;
	}
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_PAGE
	{
		struct page *page;

		page = zcache_call_read_swap_cache_async(swp, gfp, NULL, 0,
							 allocated);
		return page ? page_folio(page) : NULL;
	}
#elif ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_FOLIO
	return zcache_call_read_swap_cache_async(swp, gfp,
						 &zcache_local_policy,
						 NO_INTERLEAVE_INDEX,
						 allocated, true);
#else
	{
		struct swap_info_struct *si;
		struct folio *folio;

		/* The swap table's calls want the device pinned. */
		*allocated = false;
		si = zcache_call_get_swap_device(swp);
		if (!si)
			return NULL;
		/*
		 * A folio found in the way may leave the swap cache before
		 * it is looked up: then try again, as the kernel's
		 * swap_cache_read_folio() does.
		 */
		for (;;) {
			folio = zcache_call_swap_cache_alloc_folio(swp, gfp, BIT(0),
								   NULL,
								   &zcache_local_policy,
								   NO_INTERLEAVE_INDEX);
			if (!IS_ERR(folio)) {
				*allocated = true;
				break;
			}
			if (PTR_ERR(folio) != -EEXIST) {
				folio = NULL;	/* -ENOENT: slot free; -ENOMEM */
				break;
			}
			folio = zcache_call_swap_cache_get_folio(swp);
			if (folio)
				break;
			cond_resched();
		}
		put_swap_device(si);
		return folio;
	}
#endif
}

/**
 * zcache_swapcache_writeback_allowed() - whether a folio's cgroup allows it
 * @folio: a locked folio in the swap cache, charged to its memory cgroup
 *
 * 6.12's memory.zswap.writeback=0, in the folio's cgroup or an ancestor,
 * keeps that cgroup's compressed pages off the swap device.  The kernel's
 * own check (mem_cgroup_zswap_writeback_enabled()) passes everything while
 * zswap is disabled, as it is when zcache attaches: zcache reads the
 * setting itself.  (If zswap is enabled again meanwhile, swap_writepage()
 * keeps such a cgroup's folios in memory even during a drain: counted as
 * failed writebacks, and the drain gives up on them.)  6.1 has no such
 * setting.
 *
 * Context: any.
 * Return: false if the folio's cgroup forbids writeback.
 */
bool zcache_swapcache_writeback_allowed(struct folio *folio)
{
#if ZCACHE_ATTACH_ZSWAP_CALLS && IS_ENABLED(CONFIG_MEMCG)
	struct mem_cgroup *memcg;
	bool allowed = true;

	rcu_read_lock();
	for (memcg = folio_memcg(folio); memcg; memcg = parent_mem_cgroup(memcg)) {
		if (!READ_ONCE(memcg->zswap_writeback)) {
			allowed = false;
			break;
		}
	}
	rcu_read_unlock();
	return allowed;
#else
	return true;
#endif
}

/**
 * zcache_swapcache_slot() - what holds a slot for which no folio could be had
 * @swp: the slot, for which zcache_swapcache_get() found no folio
 *
 * A slot whose last user went has a swap count of 0 before its entry is
 * invalidated: on 6.1 the swap slots cache frees slots later, in batches
 * (up to 64 a CPU wait there), and invalidates them then; on 6.12 the
 * freeing CPU invalidates the slot right after its count drops, except
 * by the swap-core method, which sees the free only where 6.1 does.  No one
 * can read such a slot, and __read_swap_cache_async() declines it.  A
 * slot whose SWAP_HAS_CACHE bit is held with no folio in the swap cache
 * is being swapped in without the swap cache (6.12's synchronous
 * devices), or its folio is being added or deleted; 6.12's
 * __read_swap_cache_async() gives up on it, 6.1's waits for the bit, so
 * that on 6.1 a busy reading is only a race with a failure of another
 * cause.  On 7.3 freeing a slot invalidates it under the cluster lock
 * that its swap count drops under, and a slot with users and no folio is
 * never busy.  Read once: a snapshot, which only chooses what a failure
 * is counted as.
 *
 * Context: process context.
 * Return: %ZCACHE_SLOT_FREE if the slot has no user (page table, shmem or
 * swap cache reference counted in its swap count), %ZCACHE_SLOT_BUSY if it
 * has one and its cache bit is held, %ZCACHE_SLOT_USED otherwise, or if its
 * device is going (by then swapoff has freed every slot).
 */
enum zcache_slot zcache_swapcache_slot(swp_entry_t swp)
{
	struct swap_info_struct *si;
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
	bool swapped;
#else
	unsigned char map;
#endif

	if (!zcache_swapcache_ready())
		return ZCACHE_SLOT_USED;
	si = zcache_call_get_swap_device(swp);
	if (!si)
		return ZCACHE_SLOT_USED;
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
	swapped = zcache_call_swap_entry_swapped(si, swp);
	put_swap_device(si);
	return swapped ? ZCACHE_SLOT_USED : ZCACHE_SLOT_FREE;
#else
	map = READ_ONCE(si->swap_map[swp_offset(swp)]);
	put_swap_device(si);
	/* The count, with its continuation bit; the cache bit aside */
	if (!(map & ~SWAP_HAS_CACHE))
		return ZCACHE_SLOT_FREE;
	return map & SWAP_HAS_CACHE ? ZCACHE_SLOT_BUSY : ZCACHE_SLOT_USED;
#endif
}

/**
 * zcache_swapcache_zero_filled() - whether a slot was last written as zeroes
 * @swp: the slot, pinned by a locked folio in the swap cache
 *
 * 6.12's swap_writepage() sends a zero-filled page to its device's zeromap
 * without calling the store hook: an entry zcache holds for that slot is
 * stale from then on, and reads never reach it (they look at the zeromap
 * first), but writing it back would put the old data on the disk and
 * clear the zeromap bit.  The bits change only under the slot's locked
 * swap cache folio, or when it is freed.  6.1 has no zeromap.  7.3 keeps
 * its zero marks in the swap table, which a module cannot read; there no
 * entry outlives a write of its slot (zcache_swap_writeout()), so none is
 * stale this way.
 *
 * Context: process context, the folio locked.
 * Return: 1 if the zeromap says the slot holds zeroes, 0 if not,
 * -ENODEV if the slot's device cannot be had (which the folio's pin on
 * the slot rules out while the redirects work).
 */
int zcache_swapcache_zero_filled(swp_entry_t swp)
{
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_FOLIO
	struct swap_info_struct *si = zcache_call_get_swap_device(swp);
	int zero;

	if (!si)
		return -ENODEV;
	zero = si->zeromap && test_bit(swp_offset(swp), si->zeromap);
	put_swap_device(si);
	return zero;
#else
	return 0;
#endif
}

/**
 * zcache_swapcache_entry() - the swap slot of a folio in the swap cache
 * @folio: the folio, locked
 *
 * Context: any.
 * Return: the slot; meaningless unless folio_test_swapcache(@folio).
 */
swp_entry_t zcache_swapcache_entry(struct folio *folio)
{
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_PAGE
	return folio_swap_entry(folio);
#else	/* 6.12, 7.3 */
	return folio->swap;
#endif
}

/**
 * zcache_swapcache_delete() - take a new folio back out of the swap cache
 * @folio: a folio zcache_swapcache_get() allocated, locked, not uptodate
 *
 * The slot's cache pin goes with it.  The caller still unlocks and puts
 * the folio.  Only for a slot whose data the caller cannot give: a
 * swapoff that found the folio maps it, not uptodate, as a poisoned entry.
 *
 * Context: process context.
 */
void zcache_swapcache_delete(struct folio *folio)
{
	if (!WARN_ON_ONCE(!zcache_swapcache_ready()))
		zcache_call_delete_from_swap_cache(folio);
}

/**
 * zcache_swapcache_write() - write a swap cache folio to its swap device
 * @folio: a locked, uptodate folio in the swap cache
 *
 * Through the swap address space's writepage (swap_writepage()), as
 * pageout() writes: a slot no page table refers to any more is freed
 * instead, a zero-filled page goes to 6.12's zeromap, and a memory cgroup
 * whose zswap.writeback is 0 keeps the folio in memory, dirty.  The store
 * hook it calls must refuse the folio (zcache's writeback task is known to
 * the core); by the swap-core method the kernel's swap_writepage() runs
 * unredirected, as this call comes from zcache's own text.  7.3 has no
 * writepage for swap: there the slot is freed by folio_free_swap() if it
 * has no user, as swap_writeout() would, and otherwise the folio goes to
 * __swap_writepage() as in zswap's writeback (the entry's data is no zero
 * page, which 7.3 never lets through to zcache, and writeback asked the
 * cgroup).  The folio is unlocked on return.
 *
 * Context: process context, may sleep.
 * Return: 0 if the folio's write was submitted (a device error reported
 * later leaves it dirty in the swap cache) or its slot freed; 1 if it
 * stays in memory, dirty; a negative errno if it could not be submitted.
 */
int zcache_swapcache_write(struct folio *folio)
{
#if ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_TABLE
	struct swap_io_ctx ctx = {};

	/* A slot no page table refers to any more is freed, as by swap_writeout() */
	if (zcache_call_folio_free_swap(folio)) {
		folio_unlock(folio);
		return 0;
	}
	zcache_call___swap_writepage(&ctx, folio);
	zcache_call_swap_write_submit(&ctx);
	return 0;
#else
	struct writeback_control wbc = {
		.sync_mode = WB_SYNC_NONE,
	};
	int ret;

	ret = folio_mapping(folio)->a_ops->writepage(&folio->page, &wbc);
	if (ret == AOP_WRITEPAGE_ACTIVATE) {
		folio_unlock(folio);
		return 1;
	}
	return ret;
#endif
}

#else	/* !ZCACHE_SWAPCACHE_CALLS */
static void zcache_writeback_calls_set_up(void)
{
	pr_info("writeback unavailable: the swap cache functions it calls were checked for Linux 6.1, 6.12 and 7.3 only\n");
}

static void zcache_writeback_calls_undo(void)
{
}

bool zcache_swapcache_ready(void)
{
	return false;
}

struct folio *zcache_swapcache_get(swp_entry_t swp, bool *allocated)
{
	*allocated = false;
	return NULL;
}

swp_entry_t zcache_swapcache_entry(struct folio *folio)
{
	return (swp_entry_t){ 0 };
}

bool zcache_swapcache_writeback_allowed(struct folio *folio)
{
	return true;
}

int zcache_swapcache_zero_filled(swp_entry_t swp)
{
	return 0;
}

enum zcache_slot zcache_swapcache_slot(swp_entry_t swp)
{
	return ZCACHE_SLOT_USED;
}

void zcache_swapcache_delete(struct folio *folio)
{
}

int zcache_swapcache_write(struct folio *folio)
{
	folio_unlock(folio);
	return -EOPNOTSUPP;
}
#endif	/* ZCACHE_SWAPCACHE_CALLS */

/*********************************
 * shrinker registration
 *********************************/
/**
 * zcache_shrinker_create() - register a shrinker
 * @count: its count_objects
 * @scan:  its scan_objects
 *
 * Context: process context, may sleep.
 * Return: the shrinker, or NULL.
 */
struct shrinker *zcache_shrinker_create(unsigned long (*count)(struct shrinker *,
							       struct shrink_control *),
					unsigned long (*scan)(struct shrinker *,
							      struct shrink_control *))
{
	struct shrinker *shrinker;

#ifdef ZCACHE_SHRINKER_ALLOC
	shrinker = shrinker_alloc(0, KBUILD_MODNAME);
	if (!shrinker)
		return NULL;
	shrinker->count_objects = count;
	shrinker->scan_objects = scan;
	shrinker->seeks = DEFAULT_SEEKS;
	shrinker_register(shrinker);
#else
	shrinker = kzalloc(sizeof(*shrinker), GFP_KERNEL);
	if (!shrinker)
		return NULL;
	shrinker->count_objects = count;
	shrinker->scan_objects = scan;
	shrinker->seeks = DEFAULT_SEEKS;
	if (register_shrinker(shrinker, KBUILD_MODNAME)) {
		kfree(shrinker);
		return NULL;
	}
#endif
	return shrinker;
}

/**
 * zcache_shrinker_destroy() - unregister and free a shrinker
 * @shrinker: from zcache_shrinker_create(), or NULL
 *
 * On return no call of its callbacks is running.
 *
 * Context: process context, may sleep.
 */
void zcache_shrinker_destroy(struct shrinker *shrinker)
{
	if (!shrinker)
		return;
#ifdef ZCACHE_SHRINKER_ALLOC
	shrinker_free(shrinker);
#else
	unregister_shrinker(shrinker);
	kfree(shrinker);
#endif
}

/*********************************
 * attach and detach
 *********************************/
static int zcache_hook_register(struct zcache_hook *hook)
{
	int ret;

	/* No FTRACE_OPS_FL_RECURSION: the handlers lock recursion themselves. */
	hook->ops.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_PERMANENT;
	if (hook->target) {
		hook->ops.func = zcache_redirect_handler;
		hook->ops.flags |= FTRACE_OPS_FL_IPMODIFY;
	} else {
		hook->ops.func = zcache_observe_handler;
	}

	ret = ftrace_set_filter(&hook->ops, (unsigned char *)hook->name,
				strlen(hook->name), 1);
	if (ret) {
		pr_err("cannot attach: %s is not a traceable function of this kernel (%d)\n",
		       hook->name, ret);
		return ret;
	}

	ret = register_ftrace_function(&hook->ops);
	if (ret) {
		if (ret == -EBUSY && hook->target)
			pr_err("cannot attach: %s is already modified by another ftrace user (a livepatch?) or ftrace is disabled (%d)\n",
			       hook->name, ret);
		else
			pr_err("cannot attach: registering ftrace on %s failed (%d)\n",
			       hook->name, ret);
		ftrace_free_filter(&hook->ops);
		return ret;
	}
	hook->registered = true;
	return 0;
}

static void zcache_hook_unregister(struct zcache_hook *hook)
{
	zcache_ftrace_ops_unregister(&hook->ops, &hook->registered);
}

static void zcache_wait_for_callers(void)
{
	synchronize_rcu_tasks();
	synchronize_srcu(&zcache_attach_srcu);
	synchronize_rcu_tasks();
}

/**
 * zcache_attach() - redirect the kernel's swap cache hooks to zcache
 * @ops: the core's entry points; they must stay valid until
 *       zcache_detach() has returned
 *
 * Either every hook is in place, or none is and a message names what the
 * kernel is missing or what stands in the way.
 *
 * Context: process context, may sleep.
 * Return: 0 on success, a negative errno otherwise.
 */
int zcache_attach(const struct zcache_ops *ops)
{
	int i, ret;

	ret = zcache_attach_preflight();
	if (ret)
		return ret;
	/* The calls the hooks make, before any hook can make them */
	ret = zcache_calls_register(zcache_hook_calls,
				    ARRAY_SIZE(zcache_hook_calls), true);
	if (ret)
		return ret;

	zcache_core = ops;
	for (i = 0; i < ARRAY_SIZE(zcache_hooks); i++) {
		ret = zcache_hook_register(&zcache_hooks[i]);
		if (ret)
			goto unregister_hooks;
	}
	/*
	 * Writeback's calls; without them zcache works without writeback,
	 * except by the swap-core method, whose postflight refuses then.
	 */
	zcache_writeback_calls_set_up();
	ret = zcache_attach_postflight();
	if (ret)
		goto undo_writeback_calls;
	WRITE_ONCE(zcache_open, true);
	return 0;

undo_writeback_calls:
	zcache_writeback_calls_undo();
unregister_hooks:
	while (--i >= 0)
		zcache_hook_unregister(&zcache_hooks[i]);
	zcache_wait_for_callers();
	zcache_core = NULL;
	zcache_calls_undo(zcache_hook_calls, ARRAY_SIZE(zcache_hook_calls));
	return ret;
}

/**
 * zcache_detach() - give the swap cache hooks back to zswap
 *
 * The caller has stopped writeback: no task may be inside a swap cache
 * call.  On return no task runs or will run zcache code reached through a
 * hook.
 *
 * Context: process context, may sleep.
 */
void zcache_detach(void)
{
	int i = ARRAY_SIZE(zcache_hooks);

	zcache_writeback_calls_undo();
	while (--i >= 0)
		zcache_hook_unregister(&zcache_hooks[i]);
	zcache_wait_for_callers();
	WRITE_ONCE(zcache_open, false);
	zcache_core = NULL;
	/* No store or writeout is left in zcache to call them */
	zcache_calls_undo(zcache_hook_calls, ARRAY_SIZE(zcache_hook_calls));
}

/**
 * zcache_attach_sync() - wait for every call in flight through a hook
 *
 * A store that began before the caller changed what stores do has
 * finished on return.
 *
 * Context: process context, may sleep.
 */
void zcache_attach_sync(void)
{
	synchronize_srcu(&zcache_attach_srcu);
}

/**
 * zcache_attach_zero_filtered() - whether zero-filled pages reach zcache
 *
 * Context: any.
 * Return: true if the swap core keeps zero-filled pages from the hooks
 * (6.12's zeromap), so that zcache need not look for them.
 */
bool zcache_attach_zero_filtered(void)
{
	return zcache_zero_filtered;
}

/**
 * zcache_attach_frees_missed() - whether frees of slots went unseen
 *
 * Only the swap-core method can find out (its audit of entries against
 * slots in use); zcache then stores no more pages, and entries of freed
 * slots are left until swapoff.
 *
 * Context: any.
 * Return: true once the audit found more entries than slots in use.
 */
bool zcache_attach_frees_missed(void)
{
#if ZCACHE_ATTACH_SWAP_CORE
	return READ_ONCE(zcache_frees_missed);
#else
	return false;
#endif
}

/**
 * zcache_attach_method() - how zcache attaches to this kernel, for humans
 *
 * Context: any.
 * Return: a constant string.
 */
const char *zcache_attach_method(void)
{
	return zcache_method;
}
