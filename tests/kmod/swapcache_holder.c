// SPDX-License-Identifier: GPL-2.0
/*
 * Keep the folios that zswap stores in the swap cache
 *
 * Reclaim frees a folio from the swap cache right after zswap_store() took
 * it, unless a fault comes meanwhile: then the folio stays, and the fault
 * maps it again while zswap still holds its copy (the race swaptest's
 * rezero mode plays on).  This helper makes that happen to every folio
 * that zswap stores for a task named "comm" (a parameter): a kretprobe on
 * zswap_store() (6.1: zswap_frontswap_store()) takes a reference to each
 * folio stored, so that reclaim's __remove_mapping() fails, and drops them
 * all when the module is removed.  "held" reads how many folios it holds.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "../../attach/compat.h"

#define HOLDER_MAX	8192

#if ZCACHE_ATTACH_FRONTSWAP
/* int zswap_frontswap_store(unsigned int type, pgoff_t offset, struct page *page): 0 once stored */
#define HOLDER_FUNC	"zswap_frontswap_store"

static struct folio *holder_folio(struct pt_regs *regs)
{
	return page_folio((struct page *)regs_get_kernel_argument(regs, 2));
}

static bool holder_stored(struct pt_regs *regs)
{
	return !(int)regs_return_value(regs);
}
#else
/* bool zswap_store(struct folio *folio): true once stored */
#define HOLDER_FUNC	"zswap_store"

static struct folio *holder_folio(struct pt_regs *regs)
{
	return (struct folio *)regs_get_kernel_argument(regs, 0);
}

static bool holder_stored(struct pt_regs *regs)
{
	return (u8)regs_return_value(regs);
}
#endif

static char comm[TASK_COMM_LEN] = "swaptest";
module_param_string(comm, comm, sizeof(comm), 0444);
MODULE_PARM_DESC(comm, "the task whose stored folios are held");

static unsigned int held;
module_param(held, uint, 0444);
MODULE_PARM_DESC(held, "how many folios are held");

static struct folio *holder_folios[HOLDER_MAX];
static DEFINE_SPINLOCK(holder_lock);

/* The store's entry: remember the folio, if it is the task's */
static int holder_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (strncmp(current->comm, comm, sizeof(comm)))
		return 1;	/* no return handler for this call */
	*(struct folio **)ri->data = holder_folio(regs);
	return 0;
}

/* The store returned: hold the folio if zswap took it */
static int holder_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct folio *folio = *(struct folio **)ri->data;

	if (!holder_stored(regs))
		return 0;
	spin_lock(&holder_lock);
	if (held < HOLDER_MAX) {
		folio_get(folio);
		holder_folios[held] = folio;
		WRITE_ONCE(held, held + 1);	/* read from sysfs, unlocked */
	}
	spin_unlock(&holder_lock);
	return 0;
}

static struct kretprobe holder_probe = {
	.kp.symbol_name = HOLDER_FUNC,
	.entry_handler = holder_entry,
	.handler = holder_return,
	.data_size = sizeof(struct folio *),
	.maxactive = 32,
};

static int __init holder_init(void)
{
	return register_kretprobe(&holder_probe);
}

static void __exit holder_exit(void)
{
	unsigned int i;

	unregister_kretprobe(&holder_probe);
	for (i = 0; i < held; i++)
		folio_put(holder_folios[i]);
}

module_init(holder_init);
module_exit(holder_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test helper: the folios zswap stores stay in the swap cache");
