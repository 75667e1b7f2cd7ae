# SPDX-License-Identifier: GPL-2.0
# Group "basic": load, self-test, every workload verified byte for byte,
# the stats moving as they should, swapoff draining, rmmod unhooking.

check "basic: insmod zcache" load_zcache
check "basic: debugfs has every stat" sh -c '
	for f in stored_pages zero_pages pool_total_size stores loads invalidates \
		duplicate_entry pool_limit_hit reject_compress_poor \
		reject_compress_fail reject_alloc_fail reject_disabled \
		decompress_fail; do
		[ -r /sys/kernel/debug/zcache/$f ] || { echo "    missing $f"; exit 1; }
	done'
check "basic: $STORE_FN redirected" sh -c \
	"grep -q '^$STORE_FN .*zcache' /sys/kernel/tracing/enabled_functions"
check "basic: ftrace_enabled=0 refused while attached (PERMANENT)" sh -c \
	'! echo 0 > /proc/sys/kernel/ftrace_enabled && [ "$(cat /proc/sys/kernel/ftrace_enabled)" = 1 ]'

if insmod /zcache/test_zcache.ko; then
	pass "basic: in-kernel self-test"
	rmmod test_zcache
else
	fail "basic: in-kernel self-test" "test_zcache refused to load"
fi
dmesg | grep 'test_zcache:' | sed 's/^/    /'
check "basic: self-test reports every case ok" sh -c \
	'dmesg | grep -q "test_zcache: [0-9]* of [0-9]* tests passed" && ! dmesg | grep -q "test_zcache: not ok"'

# Non-rotational, so whole THPs are swapped out as large folios (the rt
# flavours are built without THP).
THP=/sys/kernel/mm/transparent_hugepage
echo 0 > /sys/block/vda/queue/rotational
[ -d $THP ] && echo madvise > $THP/enabled
swap_on /dev/vda

# Mixed real text/binary content with 10% zero pages.
at_checkpoint() {
	stats_line
	S=$(stat_ stored_pages) Z=$(stat_ zero_pages) P=$(stat_ pool_total_size)
	check "basic: mixed stores pages under pressure" gt "$S" 1000
	if [ $FRONTSWAP = 1 ]; then
		check "basic: mixed counts zero pages" gt "$Z" $(( S / 50 ))
	else
		check "basic: no zero page reaches zcache (the zeromap takes them)" eq "$Z" 0
	fi
	check "basic: mixed pool smaller than its pages" \
		lt "$P" $(( (S - Z) * 4096 ))
	info "ratio mixed lz4 $(( (S - Z) * 4096 * 100 / (P + 1) ))/100"
}
run_checkpointed "basic: mixed ${WS_MB}M verified" mixed -m $WS_MB -s 11
check "basic: mixed loads from zcache" gt "$(stat_ loads)" 1000

# Mostly zero pages: stored as sentinels.
at_checkpoint() {
	stats_line
	S=$(stat_ stored_pages) Z=$(stat_ zero_pages)
	if [ $FRONTSWAP = 1 ]; then
		# In the debug kernel's small cgroup, swaptest's 8 MB corpus
		# is a large share of what is swapped.
		share=8
		[ -n "$ZCMEM" ] && share=4
		check "basic: zero-heavy stores zero pages as sentinels" \
			gt "$Z" $(( S * share / 10 ))
	else
		check "basic: zero-heavy: zero pages stay in the zeromap" eq "$Z" 0
		# 10% of the pages are not zero; swaptest's 8 MB corpus
		# (2048 pages) may be swapped too.
		check "basic: zero-heavy: only the non-zero pages are stored" \
			lt "$S" $(( WS_MB * 256 * 15 / 100 + 2048 ))
	fi
}
run_checkpointed "basic: zero-heavy ${WS_MB}M verified" zero -m $WS_MB -s 12

# Incompressible: rejected early, goes to disk, still verifies.
at_checkpoint() {
	stats_line
	want=$(( (WS_MB - MEM_MB) * 256 / 2 ))
	[ $want -gt 5000 ] && want=5000
	check "basic: incompressible pages rejected" \
		gt "$(stat_ reject_compress_poor)" $want
}
poor_before=$(stat_ reject_compress_poor)
run_checkpointed "basic: incompressible ${WS_MB}M verified" random -m $WS_MB -s 13

run_plain "basic: 2 threads random access verified" \
	threads -m $WS_MB -t 2 -o $(( 30000 / OPS_DIV )) -s 14
run_plain "basic: fork copy-on-write verified" fork -m $(( MEM_MB * 3 / 4 )) -s 16

# Every page MADV_PAGEOUT pushes out reaches zcache, stored or rejected;
# without frontswap the 10% zero pages stop at the zeromap first.
at_checkpoint() {
	stats_line
	seen=$(( $(stat_ stores) + $(stat_ reject_compress_poor) - seen_before ))
	pages=$(( PO_MB * 256 ))
	if [ $FRONTSWAP = 1 ]; then want=$(( pages * 95 / 100 )); else want=$(( pages * 85 / 100 )); fi
	check "basic: MADV_PAGEOUT pages all reach zcache ($seen of $pages)" \
		ge "$seen" $want
}
seen_before=$(( $(stat_ stores) + $(stat_ reject_compress_poor) ))
run_checkpointed "basic: MADV_PAGEOUT verified" pageout -m $PO_MB -s 17

# Whole THPs reach the cache as large folios (6.1: a THP head page through
# frontswap); zcache sends them to disk and every page still verifies.
thp_swpout() { awk '/^thp_swpout / {print $2}' /proc/vmstat; }
thp_before=$(thp_swpout)
run_plain "basic: THP-backed ${MEM_MB}M verified" thp -m $MEM_MB -s 18
if [ -d $THP ]; then
	check "basic: whole THPs were swapped out ($(( $(thp_swpout) - thp_before )))" \
		gt "$(thp_swpout)" "$thp_before"
else
	info "kernel without THP: the THP run used 4 KiB pages"
fi

stats_line
check "basic: no decompression failures" eq "$(stat_ decompress_fail)" 0
swapoff /dev/vda
stats_line
check "basic: swapoff drains stored_pages" eq "$(stat_ stored_pages)" 0
check "basic: swapoff drains zero_pages" eq "$(stat_ zero_pages)" 0
check "basic: swapoff empties the pool" eq "$(stat_ pool_total_size)" 0

check "basic: rmmod zcache" rmmod zcache
check "basic: nothing left hooked after rmmod" nothing_hooked
check "basic: module gone" sh -c '! [ -d /sys/module/zcache ]'
