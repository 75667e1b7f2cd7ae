/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels zcache attaches to
 *
 * Feature tests come first; a version test is used only where a kernel
 * change left nothing to test for.  Nothing outside attach/ includes this.
 */
#ifndef _ZCACHE_ATTACH_COMPAT_H
#define _ZCACHE_ATTACH_COMPAT_H

#include <linux/ftrace.h>

/*
 * How the swap core reaches a swap cache backend.  Up to 6.4 it calls the
 * frontswap ops that zswap registered at boot (zswap selects frontswap):
 * frontswap_register_ops() is not exported and its single slot is taken.
 * 6.5 removed frontswap and calls zswap_store() and friends directly.  A
 * kernel with neither (Debian's cloud flavours) calls nothing zcache could
 * take: the module builds there and insmod fails saying so.
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

/* The instruction pointer setter was renamed in 6.8. */
#ifdef ftrace_regs_set_instruction_pointer
#define zcache_set_ip(fregs, ip) ftrace_regs_set_instruction_pointer(fregs, ip)
#else
#define zcache_set_ip(fregs, ip) ftrace_instruction_pointer_set(fregs, ip)
#endif

#if !IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS)
#error "zcache needs CONFIG_DYNAMIC_FTRACE_WITH_REGS to redirect zswap"
#endif

#endif /* _ZCACHE_ATTACH_COMPAT_H */
