// SPDX-License-Identifier: GPL-2.0
/*
 * Make the kernel's /proc/meminfo say that zswap holds nothing
 *
 * On 6.12 zcache attaches only while zswap holds no page, and reads the
 * Zswapped line of meminfo to know.  A zswap_store() that began before
 * zswap was disabled can still finish after that read; no test can time
 * that.  This helper stands in for it: while loaded, every read of
 * meminfo (through any mount of proc) shows two lines, the second of
 * them "Zswapped: 0 kB",
 * so that zcache attaches while zswap holds pages, which the zswap group
 * then reads back.  An ftrace_ops with IPMODIFY sends meminfo_proc_show()
 * to this module's function of the same signature, as zcache's attach
 * layer does to zswap's.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "../../attach/compat.h"

static int meminfo_hider_show(struct seq_file *m, void *v)
{
	seq_puts(m, "Hidden:         meminfo_hider\n");
	seq_puts(m, "Zswapped:              0 kB\n");
	return 0;
}

static void notrace meminfo_hider_handler(unsigned long ip,
					  unsigned long parent_ip,
					  struct ftrace_ops *ops,
					  struct ftrace_regs *fregs)
{
	zcache_set_ip(fregs, (unsigned long)meminfo_hider_show);
}

static struct ftrace_ops meminfo_hider_ops = {
	.func = meminfo_hider_handler,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
		 FTRACE_OPS_FL_RECURSION,
};

static int __init meminfo_hider_init(void)
{
	char func[] = "meminfo_proc_show";	/* ftrace may write to it */
	int ret;

	ret = ftrace_set_filter(&meminfo_hider_ops, func, strlen(func), 1);
	if (ret)
		return ret;
	ret = register_ftrace_function(&meminfo_hider_ops);
	if (ret)
		ftrace_free_filter(&meminfo_hider_ops);
	return ret;
}

static void __exit meminfo_hider_exit(void)
{
	unregister_ftrace_function(&meminfo_hider_ops);
	ftrace_free_filter(&meminfo_hider_ops);
}

module_init(meminfo_hider_init);
module_exit(meminfo_hider_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test helper: /proc/meminfo says only that zswap holds nothing");
