# SPDX-License-Identifier: GPL-2.0
# Group "nozswap": a kernel built without zswap (Debian's cloud flavours)
# calls no hook zcache could take.  insmod must fail, say why, and leave
# nothing hooked; swap keeps working without zcache.

check "nozswap: insmod refused" sh -c '! insmod /zcache/zcache.ko'
check "nozswap: the refusal says the kernel has no zswap" sh -c \
	'dmesg | grep -q "zcache: cannot attach: this kernel is built without zswap"'
check "nozswap: module not loaded" sh -c '! [ -d /sys/module/zcache ]'
check "nozswap: nothing hooked" sh -c \
	'! grep -q zcache /sys/kernel/tracing/enabled_functions 2>/dev/null'
check "nozswap: zcache-load fails too" sh -c '! zcache-load /zcache/zcache.ko 2>/dev/null'
swap_on /dev/vda
run_plain "nozswap: swap without zcache verified" mixed -m $(( MEM_MB * 5 / 4 )) -s 71
swapoff /dev/vda
