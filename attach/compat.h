/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels zcache attaches to
 *
 * Feature tests come first; a version test is used only where a kernel
 * change left nothing to test for.  Nothing outside attach/ includes this.
 */
#ifndef _ZCACHE_ATTACH_COMPAT_H
#define _ZCACHE_ATTACH_COMPAT_H

#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/shrinker.h>

/*
 * How the swap core reaches a swap cache backend.  Up to 6.4 it calls the
 * frontswap ops that zswap registered at boot (zswap selects frontswap):
 * frontswap_register_ops() is not exported and its single slot is taken.
 * 6.5 removed frontswap and calls zswap_store() and friends directly.  A
 * kernel with neither (Debian's cloud flavours) calls no hook at all:
 * there zcache takes the swap core's own functions instead
 * (ZCACHE_ATTACH_SWAP_CORE below).
 */
#if IS_ENABLED(CONFIG_FRONTSWAP)
#define ZCACHE_ATTACH_FRONTSWAP		1
#define ZCACHE_ATTACH_ZSWAP_CALLS	0
#elif IS_ENABLED(CONFIG_ZSWAP)
#define ZCACHE_ATTACH_FRONTSWAP		0
#define ZCACHE_ATTACH_ZSWAP_CALLS	1
#else
#define ZCACHE_ATTACH_FRONTSWAP		0
#define ZCACHE_ATTACH_ZSWAP_CALLS	0
#endif

/*
 * zswap_load()'s contract.  Up to 6.12 it returns bool, and the swap core
 * unlocks the folio after true (filled, or failed without uptodate).
 * Later kernels (7.3) have it return int and unlock the folio itself,
 * except on -ENOENT (read it from disk), which leaves it locked.  The
 * prototype is the only sign of the change, and a redirect is not type
 * checked: Kbuild's feature test reads it in linux/zswap.h.
 */
#ifdef ZCACHE_HAVE_ZSWAP_LOAD_INT
#define ZCACHE_ZSWAP_LOAD_UNLOCKS
#endif

/* The instruction pointer setter was renamed in 6.8. */
#ifdef ftrace_regs_set_instruction_pointer
#define zcache_set_ip(fregs, ip) ftrace_regs_set_instruction_pointer(fregs, ip)
#else
#define zcache_set_ip(fregs, ip) ftrace_instruction_pointer_set(fregs, ip)
#endif

/*
 * The swap cache functions writeback calls through stubs (attach.c, "swap
 * cache calls"), by the prototypes read in each kernel's mm/swap.h:
 * - 6.1:  struct page *__read_swap_cache_async(swp_entry_t, gfp_t,
 *             struct vm_area_struct *, unsigned long, bool *);
 * - 6.12: struct folio *__read_swap_cache_async(swp_entry_t, gfp_t,
 *             struct mempolicy *, pgoff_t, bool *, bool skip_if_exists);
 * - both: void delete_from_swap_cache(struct folio *);
 * - 7.3 (the swap table; every swap-in goes through the swap cache):
 *         struct folio *swap_cache_alloc_folio(swp_entry_t, gfp_t,
 *             unsigned long orders, struct vm_fault *, struct mempolicy *,
 *             pgoff_t);  (ERR_PTR: -EEXIST cached, -ENOENT free, -ENOMEM)
 *         struct folio *swap_cache_get_folio(swp_entry_t);
 *         void swap_cache_del_folio(struct folio *);
 *         bool swap_entry_swapped(struct swap_info_struct *, swp_entry_t);
 *         bool folio_free_swap(struct folio *);
 *         void __swap_writepage(struct swap_io_ctx *, struct folio *);
 *         void swap_write_submit(struct swap_io_ctx *);
 *         and int swap_writeout(struct swap_io_ctx *, struct folio *),
 *         which zcache redirects, and calls (attach.c);
 * - all:  struct swap_info_struct *get_swap_device(swp_entry_t).
 * A kernel outside these lines has no writeback.  A version test, the one
 * in zcache: mm/swap.h is not among the installed headers, so there is
 * nothing to test for.  Kbuild passes the kernel's VERSION and PATCHLEVEL.
 */
#define ZCACHE_SWAPCACHE_CALLS_PAGE	1
#define ZCACHE_SWAPCACHE_CALLS_FOLIO	2
#define ZCACHE_SWAPCACHE_CALLS_TABLE	3
#if !IS_ENABLED(CONFIG_KPROBES) || !IS_ENABLED(CONFIG_SWAP)
#define ZCACHE_SWAPCACHE_CALLS		0
#elif ZCACHE_KERNEL_VERSION == 6 && ZCACHE_KERNEL_PATCHLEVEL == 1
#define ZCACHE_SWAPCACHE_CALLS		ZCACHE_SWAPCACHE_CALLS_PAGE
#elif ZCACHE_KERNEL_VERSION == 6 && ZCACHE_KERNEL_PATCHLEVEL == 12
#define ZCACHE_SWAPCACHE_CALLS		ZCACHE_SWAPCACHE_CALLS_FOLIO
#elif ZCACHE_KERNEL_VERSION == 7 && ZCACHE_KERNEL_PATCHLEVEL == 3 && \
	IS_ENABLED(CONFIG_ZSWAP)
#define ZCACHE_SWAPCACHE_CALLS		ZCACHE_SWAPCACHE_CALLS_TABLE
#else
#define ZCACHE_SWAPCACHE_CALLS		0
#endif

/*
 * A stub's body must tell its callers nothing: __noipa (gcc 8 and later).
 * The kernel defines it empty for a compiler without the attribute: no
 * writeback there.
 */
#if !__has_attribute(__noipa__)
#undef ZCACHE_SWAPCACHE_CALLS
#define ZCACHE_SWAPCACHE_CALLS		0
#endif

/*
 * The zswap method drops zswap's copy of a slot at every store by a call
 * into zswap_invalidate() through a stub, as writeback calls the swap
 * cache: the address comes from a kprobe, and the stub must be __noipa.
 * Without them the attach is refused (attach.c).
 */
#if ZCACHE_ATTACH_ZSWAP_CALLS && IS_ENABLED(CONFIG_KPROBES) && \
	__has_attribute(__noipa__)
#define ZCACHE_ZSWAP_INVALIDATE_CALL	1
#else
#define ZCACHE_ZSWAP_INVALIDATE_CALL	0
#endif

/* Whether zcache calls any kernel function through a stub (attach.c) */
#define ZCACHE_KERNEL_CALLS \
	(ZCACHE_SWAPCACHE_CALLS || ZCACHE_ZSWAP_INVALIDATE_CALL)

/*
 * The swap-core method, for a kernel built without zswap and frontswap:
 * zcache takes swap_writepage() wholesale, the swap core's read function
 * for the slots it holds, and observes where slots are freed and where
 * swap types come and go.  Those are static functions whose names,
 * arguments and success contracts were read in each kernel line's
 * mm/page_io.c, mm/swapfile.c and mm/swap_state.c, and checked out of
 * line in Debian's cloud binaries:
 * - 6.1:  int swap_writepage(struct page *, struct writeback_control *);
 *         int swap_readpage(struct page *, bool, struct swap_iocb **);
 *         static void swap_range_free(struct swap_info_struct *,
 *             unsigned long offset, unsigned int nr);
 * - 6.12: int swap_writepage(struct page *, struct writeback_control *);
 *         void swap_read_folio(struct folio *, struct swap_iocb **);
 *         static void swap_entry_range_free(struct swap_info_struct *,
 *             swp_entry_t, unsigned int nr);
 *         and si->zeromap, which the store must keep true;
 * - both: init_swap_address_space(type, nr) at swapon and
 *         exit_swap_address_space(type) at swapoff.
 * The store asks get_swap_device() about the slot's device (its flags,
 * its swap count, its zeromap), one of writeback's swap cache calls: the
 * method needs those calls, and so the same kernel lines.  A version
 * test like theirs, for the same reason: mm/swap.h and mm/swapfile.c are
 * not among the installed headers.  x86-64 only: the store skips the
 * kernel's arch_prepare_to_swap(), a no-op there.
 */
#define ZCACHE_SWAP_CORE_PAGE		1	/* 6.1: pages, no zeromap */
#define ZCACHE_SWAP_CORE_FOLIO		2	/* 6.12: folios, a zeromap */
#if ZCACHE_ATTACH_FRONTSWAP || ZCACHE_ATTACH_ZSWAP_CALLS
#define ZCACHE_ATTACH_SWAP_CORE		0
#elif !IS_ENABLED(CONFIG_X86_64)
/* (the store skips arch_prepare_to_swap(): arm64's saves MTE tags) */
#define ZCACHE_ATTACH_SWAP_CORE		0
#elif ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_PAGE
#define ZCACHE_ATTACH_SWAP_CORE		ZCACHE_SWAP_CORE_PAGE
#elif ZCACHE_SWAPCACHE_CALLS == ZCACHE_SWAPCACHE_CALLS_FOLIO
#define ZCACHE_ATTACH_SWAP_CORE		ZCACHE_SWAP_CORE_FOLIO
#else
#define ZCACHE_ATTACH_SWAP_CORE		0
#endif

/* 6.7 made shrinkers allocated by the kernel (shrinker_alloc()). */
#ifdef SHRINKER_ALLOCATED
#define ZCACHE_SHRINKER_ALLOC
#endif

#if !IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS)
#error "zcache needs CONFIG_DYNAMIC_FTRACE_WITH_REGS to redirect the swap core's calls"
#endif

#endif /* _ZCACHE_ATTACH_COMPAT_H */
