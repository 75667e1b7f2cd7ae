// SPDX-License-Identifier: GPL-2.0
/* placeholder */
#include <linux/module.h>
MODULE_LICENSE("GPL");
