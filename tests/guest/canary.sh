# SPDX-License-Identifier: GPL-2.0
# Group "canary" (debug kernel): the positive control.  debug_canary.ko
# makes one KASAN report, one lockdep report and kmemleak reports; each
# detector must show its own, or a clean debug run would prove nothing.

check "canary: insmod debug_canary" insmod /zcache/debug_canary.ko
kmemleak_scan
check "canary: KASAN reports the out-of-bounds read" sh -c \
	'dmesg | grep -q "BUG: KASAN: slab-out-of-bounds in canary_kasan"'
check "canary: lockdep reports the lock inversion" sh -c \
	'dmesg | grep -q "WARNING: possible circular locking dependency detected"'
check "canary: lockdep then switched itself off" \
	grep -Eq 'debug_locks: +0$' /proc/lockdep_stats
check "canary: kmemleak reports the dropped objects" \
	grep -q 'canary_kmemleak' $KMEMLEAK
grep -m 1 -A 12 'unreferenced object' $KMEMLEAK | sed 's/^/    /'
