// SPDX-License-Identifier: GPL-2.0
/*
 * Put zcache in front of the kernel's swap cache hooks
 *
 * The swap core only ever calls zswap.  zcache takes zswap's place the way
 * livepatch replaces a function: an ftrace_ops with IPMODIFY on each zswap
 * data-path function, whose handler does nothing but move the instruction
 * pointer to zcache's function of the same signature.  zswap's swapon and
 * swapoff functions are only observed (no IPMODIFY) so that zswap keeps
 * its own per-type state and works again once zcache is gone.
 *
 * Pages zswap already held when zcache attached stay zswap's: the load and
 * invalidate handlers redirect only offsets that zcache holds, every other
 * call runs zswap's own code.  No original function is ever called through
 * a pointer (IBT seals them).
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
#include <linux/kernel.h>
#include <linux/page-flags.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/swap.h>
#include <linux/swapops.h>

#include "compat.h"
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
 * @observe:	for an observer: called before the zswap function runs
 * @ops:	the ftrace_ops registered for @name
 * @registered:	@ops is registered with ftrace
 */
struct zcache_hook {
	const char *name;
	void *target;
	bool (*owns)(struct pt_regs *regs);
	void (*observe)(struct pt_regs *regs);
	struct ftrace_ops ops;
	bool registered;
};

DEFINE_STATIC_SRCU(zcache_attach_srcu);

/*********************************
 * redirected functions
 *********************************/
#if ZCACHE_ATTACH_FRONTSWAP || ZCACHE_ATTACH_ZSWAP_CALLS
/* swapon and swapoff take the swap type as their first argument. */
static void zcache_observe_swapon(struct pt_regs *regs)
{
	zcache_swapon(regs_get_kernel_argument(regs, 0));
}

static void zcache_observe_swapoff(struct pt_regs *regs)
{
	zcache_swapoff(regs_get_kernel_argument(regs, 0));
}

/*
 * zcache stores single pages only.  A large folio goes to disk, as with
 * zswap, and no older copy of any of its subpages may survive it.
 */
static int zcache_refuse_large(unsigned int type, pgoff_t offset, long nr)
{
	long i;

	for (i = 0; i < nr; i++)
		zcache_invalidate(type, offset + i);
	return -E2BIG;
}
#endif

#if ZCACHE_ATTACH_FRONTSWAP
/*
 * Linux up to 6.4: mm/frontswap.c calls zswap_frontswap_*() through the
 * frontswap_ops zswap registered at boot.  frontswap keeps a bitmap of the
 * offsets its backend holds, calls load and invalidate_page only for set
 * bits, and invalidates a duplicate before storing over it.
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
		ret = zcache_store(type, offset, page);
	}
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return ret;
}

static int zcache_frontswap_load(unsigned int type, pgoff_t offset,
				 struct page *page)
{
	int idx, ret;

	idx = srcu_read_lock(&zcache_attach_srcu);
	ret = zcache_load(type, offset, page, false);
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return ret;
}

static void zcache_frontswap_invalidate_page(unsigned int type,
					     pgoff_t offset)
{
	int idx;

	idx = srcu_read_lock(&zcache_attach_srcu);
	zcache_invalidate(type, offset);
	srcu_read_unlock(&zcache_attach_srcu, idx);
}

/* (type, offset) are the first two arguments of load and invalidate_page */
static bool zcache_owns_type_offset(struct pt_regs *regs)
{
	return zcache_holds(regs_get_kernel_argument(regs, 0),
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
	{ .name = "zswap_frontswap_load", .target = zcache_frontswap_load,
	  .owns = zcache_owns_type_offset },
	{ .name = "zswap_frontswap_store", .target = zcache_frontswap_store },
};

static const char zcache_method[] = "ftrace redirect of zswap_frontswap_*";

/* Pages zswap holds stay zswap's: frontswap drops a duplicate first. */
static int zcache_attach_preflight(void)
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
static bool zcache_zswap_store(struct folio *folio)
{
	swp_entry_t swp = folio->swap;
	int idx, ret;

	idx = srcu_read_lock(&zcache_attach_srcu);
	if (folio_test_large(folio)) {
		ret = zcache_refuse_large(swp_type(swp), swp_offset(swp),
					  folio_nr_pages(folio));
	} else {
		ret = zcache_store(swp_type(swp), swp_offset(swp),
				   folio_page(folio, 0));
	}
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return !ret;
}

/*
 * Returning true without marking the folio uptodate fails the read (the
 * fault gets SIGBUS), which beats reading a swap slot that was never
 * written.  A swap cache load is exclusive, as zswap's: the entry goes,
 * and the folio is dirtied so that it is written out again if needed.
 */
static bool zcache_zswap_load(struct folio *folio)
{
	swp_entry_t swp = folio->swap;
	bool swapcache = folio_test_swapcache(folio);
	int idx, ret;

	if (WARN_ON_ONCE(folio_test_large(folio)))
		return true;

	idx = srcu_read_lock(&zcache_attach_srcu);
	ret = zcache_load(swp_type(swp), swp_offset(swp), folio_page(folio, 0),
			  swapcache);
	srcu_read_unlock(&zcache_attach_srcu, idx);
	if (ret == -ENOENT)
		return false;
	if (ret)
		return true;
	if (swapcache)
		folio_mark_dirty(folio);
	folio_mark_uptodate(folio);
	return true;
}

static void zcache_zswap_invalidate(swp_entry_t swp)
{
	int idx;

	idx = srcu_read_lock(&zcache_attach_srcu);
	zcache_invalidate(swp_type(swp), swp_offset(swp));
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

static bool zcache_owns_folio(struct pt_regs *regs)
{
	struct folio *folio = (struct folio *)regs_get_kernel_argument(regs, 0);

	return zcache_holds(swp_type(folio->swap), swp_offset(folio->swap));
}

static bool zcache_owns_swp_entry(struct pt_regs *regs)
{
	swp_entry_t swp = { .val = regs_get_kernel_argument(regs, 0) };

	return zcache_holds(swp_type(swp), swp_offset(swp));
}

/* As above: observers, delegating redirects, then what lets pages in. */
static struct zcache_hook zcache_hooks[] = {
	{ .name = "zswap_swapon", .observe = zcache_observe_swapon },
	{ .name = "zswap_swapoff", .observe = zcache_observe_swapoff },
	{ .name = "zswap_invalidate", .target = zcache_zswap_invalidate,
	  .owns = zcache_owns_swp_entry },
	{ .name = "zswap_load", .target = zcache_zswap_load,
	  .owns = zcache_owns_folio },
	{ .name = "zswap_never_enabled",
	  .target = zcache_zswap_never_enabled },
	{ .name = "zswap_store", .target = zcache_zswap_store },
};

static const char zcache_method[] = "ftrace redirect of zswap_store/load/invalidate";

static int zcache_read_file(const char *path, char *buf, size_t size)
{
	struct file *file = filp_open(path, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t len;

	if (IS_ERR(file))
		return PTR_ERR(file);
	len = kernel_read(file, buf, size - 1, &pos);
	filp_close(file, NULL);
	if (len < 0)
		return len;
	buf[len] = '\0';
	return 0;
}

/*
 * Here it is zswap_store() that drops zswap's copy of a slot written
 * again, and zcache takes its place: a page zswap held could go stale and
 * be read back later.  So zcache attaches only while zswap is disabled
 * and holds no page.
 */
static int zcache_attach_preflight(void)
{
	const size_t size = PAGE_SIZE;
	unsigned long kb = 0;
	char *buf, *line;
	int ret = 0;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (!zcache_read_file("/sys/module/zswap/parameters/enabled", buf, size) &&
	    buf[0] == 'Y') {
		pr_err("cannot attach: stock zswap is enabled; disable it first (echo N > /sys/module/zswap/parameters/enabled)\n");
		ret = -EBUSY;
		goto free_buf;
	}
	if (zcache_read_file("/proc/meminfo", buf, size)) {
		pr_warn("cannot read /proc/meminfo to check that zswap holds no page\n");
		goto free_buf;
	}
	line = strstr(buf, "\nZswapped:");
	if (line && sscanf(line, "\nZswapped: %lu", &kb) == 1 && kb) {
		pr_err("cannot attach: stock zswap holds %lu kB of swapped-out pages; swapoff (or swap them in) first\n",
		       kb);
		ret = -EBUSY;
	}
free_buf:
	kfree(buf);
	return ret;
}
#else
/* No zswap, no frontswap: the swap core calls no hook at all. */
static struct zcache_hook zcache_hooks[] = { };
static const char zcache_method[] = "nothing (no zswap in this kernel)";

static int zcache_attach_preflight(void)
{
	pr_err("cannot attach: this kernel is built without zswap (CONFIG_ZSWAP, and CONFIG_FRONTSWAP before 6.5), so its swap core calls no hook zcache could take\n");
	return -ENODEV;
}
#endif

/*********************************
 * ftrace handlers
 *********************************/
static void notrace zcache_redirect_handler(unsigned long ip,
					    unsigned long parent_ip,
					    struct ftrace_ops *ops,
					    struct ftrace_regs *fregs)
{
	struct zcache_hook *hook = container_of(ops, struct zcache_hook, ops);

	if (hook->owns && !hook->owns(ftrace_get_regs(fregs)))
		return;
	zcache_set_ip(fregs, (unsigned long)hook->target);
}

static void notrace zcache_observe_handler(unsigned long ip,
					   unsigned long parent_ip,
					   struct ftrace_ops *ops,
					   struct ftrace_regs *fregs)
{
	struct zcache_hook *hook = container_of(ops, struct zcache_hook, ops);

	hook->observe(ftrace_get_regs(fregs));
}

/*********************************
 * attach and detach
 *********************************/
static int zcache_hook_register(struct zcache_hook *hook)
{
	int ret;

	hook->ops.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_RECURSION |
			  FTRACE_OPS_FL_PERMANENT;
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
	if (!hook->registered)
		return;
	WARN_ON_ONCE(unregister_ftrace_function(&hook->ops));
	ftrace_free_filter(&hook->ops);
	hook->registered = false;
}

static void zcache_wait_for_callers(void)
{
	synchronize_rcu_tasks();
	synchronize_srcu(&zcache_attach_srcu);
	synchronize_rcu_tasks();
}

/**
 * zcache_attach() - redirect the kernel's swap cache hooks to zcache
 *
 * Either every hook is in place, or none is and a message names what the
 * kernel is missing or what stands in the way.
 *
 * Context: process context, may sleep.
 * Return: 0 on success, a negative errno otherwise.
 */
int zcache_attach(void)
{
	int i, ret;

	ret = zcache_attach_preflight();
	if (ret)
		return ret;

	for (i = 0; i < ARRAY_SIZE(zcache_hooks); i++) {
		ret = zcache_hook_register(&zcache_hooks[i]);
		if (ret)
			goto unregister_hooks;
	}
	return 0;

unregister_hooks:
	while (--i >= 0)
		zcache_hook_unregister(&zcache_hooks[i]);
	zcache_wait_for_callers();
	return ret;
}

/**
 * zcache_detach() - give the swap cache hooks back to zswap
 *
 * On return no task runs or will run zcache code reached through a hook.
 *
 * Context: process context, may sleep.
 */
void zcache_detach(void)
{
	int i = ARRAY_SIZE(zcache_hooks);

	while (--i >= 0)
		zcache_hook_unregister(&zcache_hooks[i]);
	zcache_wait_for_callers();
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
