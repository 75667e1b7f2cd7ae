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
 * On 6.1, pages zswap already held when zcache attached stay zswap's: the
 * load and invalidate handlers redirect only offsets that zcache holds,
 * every other call runs zswap's own code.  On 6.12 zcache attaches only
 * while zswap holds nothing and takes every store; loads and
 * invalidations, as on 6.1, only for the offsets it holds.  No original
 * function is ever called through a pointer (IBT seals them).
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
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/page-flags.h>
#include <linux/pagemap.h>
#include <linux/psi.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/trace_recursion.h>

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
#if ZCACHE_ATTACH_FRONTSWAP || ZCACHE_ATTACH_ZSWAP_CALLS
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

/*
 * zcache stores single pages only.  A large folio goes to disk, as with
 * zswap, and no older copy of any of its subpages may survive it.
 */
static int zcache_refuse_large(unsigned int type, pgoff_t offset, long nr)
{
	long i;

	for (i = 0; i < nr; i++)
		zcache_core->invalidate(type, offset + i);
	return -E2BIG;
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

/*
 * swap_readpage() for a slot zcache holds (the page is locked, and in the
 * swap cache or pinned by SWAP_HAS_CACHE for a synchronous read).  As
 * mm/page_io.c does for a frontswap hit: the page becomes uptodate and is
 * unlocked, the time counted as a memory stall if it is a refault of the
 * working set; delay accounting, which is not exported, is left out.  A
 * failed load unlocks the page without marking it uptodate: the fault
 * gets SIGBUS (do_swap_page() checks PageUptodate) and the slot, which
 * was never written, is not read.  So does a slot that vanished since the
 * handler saw it, which the pinned slot rules out.
 */
static int zcache_swap_readpage(struct page *page, bool synchronous,
				struct swap_iocb **plug)
{
	swp_entry_t swp = { .val = page_private(page) };
	bool workingset = PageWorkingset(page);
	unsigned long pflags;
	int idx, ret;

	/*
	 * Everything runs inside the SRCU section: unlock_page() may sleep
	 * on PREEMPT_RT (the wait queue's lock), and a task asleep after
	 * srcu_read_unlock() but still in this text would count as
	 * quiescent for zcache_detach()'s RCU-tasks wait.
	 */
	idx = srcu_read_lock(&zcache_attach_srcu);
	if (workingset)
		psi_memstall_enter(&pflags);
	ret = zcache_core->load(swp_type(swp), swp_offset(swp), page, false);
	if (!ret)
		SetPageUptodate(page);
	unlock_page(page);
	if (workingset)
		psi_memstall_leave(&pflags);
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

/* swap_readpage()'s page has its swap entry in page->private. */
static bool zcache_owns_page(struct pt_regs *regs)
{
	struct page *page = (struct page *)regs_get_kernel_argument(regs, 0);
	swp_entry_t swp = { .val = page_private(page) };

	return zcache_core->holds(swp_type(swp), swp_offset(swp));
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
static bool zcache_zswap_store(struct folio *folio)
{
	swp_entry_t swp = folio->swap;
	int idx, ret;

	idx = srcu_read_lock(&zcache_attach_srcu);
	if (folio_test_large(folio)) {
		ret = zcache_refuse_large(swp_type(swp), swp_offset(swp),
					  folio_nr_pages(folio));
	} else {
		ret = zcache_core->store(swp_type(swp), swp_offset(swp),
					 folio_page(folio, 0));
	}
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return !ret;
}

/* Whether zcache holds any slot of a large folio. */
static bool zcache_holds_any(swp_entry_t swp, long nr)
{
	long i;

	for (i = 0; i < nr; i++)
		if (zcache_core->holds(swp_type(swp), swp_offset(swp) + i))
			return true;
	return false;
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
 * Returning true without marking the folio uptodate fails the read (the
 * fault gets SIGBUS), which beats reading a swap slot that was never
 * written.  A swap cache load is exclusive, as zswap's: the entry goes,
 * and the folio is dirtied so that it is written out again if needed.
 * All of it runs inside the SRCU section: marking a folio dirty may take
 * a sleeping lock on PREEMPT_RT (see zcache_swap_readpage() for 6.1).
 */
static bool zcache_zswap_load(struct folio *folio)
{
	swp_entry_t swp = folio->swap;
	bool swapcache = folio_test_swapcache(folio);
	bool done = true;
	int idx, ret;

	idx = srcu_read_lock(&zcache_attach_srcu);
	if (folio_test_large(folio)) {
		done = WARN_ONCE(zcache_holds_any(swp, folio_nr_pages(folio)),
				 pr_fmt("a large folio swapped in over slots zcache holds\n"));
		goto unlock;
	}
	ret = zcache_core->load(swp_type(swp), swp_offset(swp),
				folio_page(folio, 0), swapcache);
	if (ret) {
		done = ret != -ENOENT;
		goto unlock;
	}
	if (swapcache)
		folio_mark_dirty(folio);
	folio_mark_uptodate(folio);
unlock:
	srcu_read_unlock(&zcache_attach_srcu, idx);
	return done;
}

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

/*
 * Once zcache is open every store is zcache's.  Loads and invalidations
 * are zcache's only for the slots it holds: zswap's own code runs for the
 * others, and finds nothing, unless a zswap_store() that began before
 * zswap was disabled finished after the postflight had looked (nothing
 * can wait for it): that page stays zswap's, is read back and freed by
 * zswap, instead of being read from a swap slot never written.
 */
static struct zcache_hook zcache_hooks[] = {
	{ .name = "zswap_swapon", .observe = zcache_observe_swapon },
	{ .name = "zswap_swapoff", .observe = zcache_observe_swapoff },
	{ .name = "zswap_invalidate", .target = zcache_zswap_invalidate,
	  .owns = zcache_owns_swp },
	{ .name = "zswap_load", .target = zcache_zswap_load,
	  .owns = zcache_owns_folio },
	{ .name = "zswap_never_enabled",
	  .target = zcache_zswap_never_enabled },
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
#else
/* No zswap, no frontswap: the swap core calls no hook at all. */
static struct zcache_hook zcache_hooks[] = { };
static const char zcache_method[] = "nothing (no zswap in this kernel)";

static const bool zcache_zero_filtered;

static int zcache_attach_preflight(void)
{
	pr_err("cannot attach: this kernel is built without zswap (CONFIG_ZSWAP, and CONFIG_FRONTSWAP before 6.5), so its swap core calls no hook zcache could take\n");
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

	if (!hook->owns || hook->owns(ftrace_get_regs(fregs)))
		zcache_set_ip(fregs, (unsigned long)hook->target);
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

	zcache_core = ops;
	for (i = 0; i < ARRAY_SIZE(zcache_hooks); i++) {
		ret = zcache_hook_register(&zcache_hooks[i]);
		if (ret)
			goto unregister_hooks;
	}
	ret = zcache_attach_postflight();
	if (ret)
		goto unregister_hooks;
	WRITE_ONCE(zcache_open, true);
	return 0;

unregister_hooks:
	while (--i >= 0)
		zcache_hook_unregister(&zcache_hooks[i]);
	zcache_wait_for_callers();
	zcache_core = NULL;
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
	WRITE_ONCE(zcache_open, false);
	zcache_core = NULL;
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
 * zcache_attach_method() - how zcache attaches to this kernel, for humans
 *
 * Context: any.
 * Return: a constant string.
 */
const char *zcache_attach_method(void)
{
	return zcache_method;
}
