# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest test groups (busybox sh).  A group prints one
# "ZT: PASS name" or "ZT: FAIL name: why" line per test; the host counts.

ZC=/sys/kernel/debug/zcache
ZP=/sys/module/zcache/parameters
PAGE_KB=4

# What the kernel calls: frontswap (up to 6.4) or zswap_*() directly.
if [ -d /sys/kernel/debug/frontswap ]; then
	FRONTSWAP=1 STORE_FN=zswap_frontswap_store LOAD_FN=zswap_frontswap_load
else
	FRONTSWAP=0 STORE_FN=zswap_store LOAD_FN=zswap_load
fi

pass() { echo "ZT: PASS $1"; }
fail() { echo "ZT: FAIL $1: $2"; }
info() { echo "ZT: INFO $*"; }

# check NAME CONDITION-COMMAND... : pass if the command succeeds
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}

stat_() { cat "$ZC/$1"; }
param() { cat "$ZP/$1"; }

# print every zcache stat on one line, for the log
stats_line() {
	local line="" f
	for f in "$ZC"/*; do line="$line $(basename "$f")=$(cat "$f")"; done
	info "stats:$line"
}

load_zcache() {
	insmod /zcache/zcache.ko "$@"
}

# swap_on DEVICE [PRIORITY]
swap_on() {
	mkswap "$1" >/dev/null || return 1
	if [ -n "${2:-}" ]; then swaptest swapon "$1" "$2"; else swapon "$1"; fi
}

# run_checkpointed NAME SWAPTEST-ARGS... : start swaptest with a
# checkpoint, call the function "at_checkpoint" once the pages are filled,
# then let swaptest verify.  Passes NAME if swaptest verified every page.
run_checkpointed() {
	local name=$1 cp_dir pid rc
	shift
	cp_dir=/tmp/cp.$$
	rm -rf "$cp_dir"
	mkdir -p "$cp_dir"
	swaptest "$@" -C "$cp_dir" > /tmp/swaptest.out 2>&1 &
	pid=$!
	while [ ! -f "$cp_dir/filled" ] && kill -0 $pid 2>/dev/null; do
		sleep 0.2
	done
	at_checkpoint
	touch "$cp_dir/go"
	wait $pid
	rc=$?
	sed 's/^/    /' /tmp/swaptest.out
	if [ $rc -eq 0 ]; then pass "$name"; else fail "$name" "swaptest exit $rc"; fi
	rm -rf "$cp_dir"
	return $rc
}

# run_plain NAME SWAPTEST-ARGS...
run_plain() {
	local name=$1 rc
	shift
	swaptest "$@" > /tmp/swaptest.out 2>&1
	rc=$?
	sed 's/^/    /' /tmp/swaptest.out
	if [ $rc -eq 0 ]; then pass "$name"; else fail "$name" "swaptest exit $rc"; fi
	return $rc
}

# Try to write a parameter as a user would (echo, with its newline);
# succeed only if the write is refused and the value is unchanged.
param_refuses() {
	local p=$1 v=$2 before after
	before=$(param "$p")
	if echo "$v" > "$ZP/$p" 2>/dev/null; then
		echo "    $p accepted '$v'"
		return 1
	fi
	after=$(param "$p")
	if [ "$before" != "$after" ]; then
		echo "    $p changed from '$before' to '$after'"
		return 1
	fi
	return 0
}

# The kernel functions zcache hooks, if any is still in ftrace's table.
hooked_functions() {
	grep -E '^zswap_' /sys/kernel/tracing/enabled_functions 2>/dev/null
}

ge() { [ "$1" -ge "$2" ]; }
gt() { [ "$1" -gt "$2" ]; }
eq() { [ "$1" -eq "$2" ]; }
lt() { [ "$1" -lt "$2" ]; }
