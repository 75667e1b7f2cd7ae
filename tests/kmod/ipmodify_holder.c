// SPDX-License-Identifier: GPL-2.0
/*
 * Hold an IPMODIFY ftrace_ops on one function
 *
 * Stands in for a livepatch that already modifies a function zcache needs,
 * so the suite can check that zcache then refuses to load and leaves
 * nothing hooked.  The handler changes nothing: the function runs as is.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/string.h>

static char *func = "zswap_frontswap_load";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "Function to hold (default zswap_frontswap_load)");

static void notrace ipmodify_holder_handler(unsigned long ip,
					    unsigned long parent_ip,
					    struct ftrace_ops *ops,
					    struct ftrace_regs *fregs)
{
}

static struct ftrace_ops ipmodify_holder_ops = {
	.func = ipmodify_holder_handler,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY |
		 FTRACE_OPS_FL_RECURSION,
};

static int __init ipmodify_holder_init(void)
{
	int ret;

	ret = ftrace_set_filter(&ipmodify_holder_ops, (unsigned char *)func,
				strlen(func), 1);
	if (ret)
		return ret;
	ret = register_ftrace_function(&ipmodify_holder_ops);
	if (ret)
		ftrace_free_filter(&ipmodify_holder_ops);
	else
		pr_info("holding %s\n", func);
	return ret;
}

static void __exit ipmodify_holder_exit(void)
{
	unregister_ftrace_function(&ipmodify_holder_ops);
	ftrace_free_filter(&ipmodify_holder_ops);
}

module_init(ipmodify_holder_init);
module_exit(ipmodify_holder_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test helper: an IPMODIFY ftrace user on one function");
