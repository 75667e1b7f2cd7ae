# SPDX-License-Identifier: GPL-2.0
# Group "params": every parameter refuses bad input and keeps its value;
# every compressor stores and verifies a workload; a compressor switch
# never breaks a load; the pool never grows past its limit; poorly
# compressing pages are kept while the pool has room, and only then.  (The same
# changes made while four threads swap are the races group's storm.)

# Compressors are compared on MADV_PAGEOUT (every page goes through the
# cache, fast); the pool limit needs real memory pressure.  In a memory
# cgroup (a debug kernel) the workloads are smaller, and so is the pool
# limit that must be hit.
POOL_PCT=5
[ -n "$ZCMEM" ] && POOL_PCT=1

check "params: insmod with parameters" load_zcache compressor=lzo max_pool_percent=30
check "params: load-time compressor applied" [ "$(param compressor)" = lzo ]
check "params: load-time max_pool_percent applied" [ "$(param max_pool_percent)" = 30 ]
swap_on /dev/vda

for v in maybe 2 "" yes-no; do
	check "params: enabled refuses '$v'" param_refuses enabled "$v"
done
for v in nope lz4x "" 842x aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; do
	check "params: compressor refuses '$v'" param_refuses compressor "$v"
done
for v in zbud z3fold "" zsmallocx; do
	check "params: allocator refuses '$v'" param_refuses allocator "$v"
done
for v in 0 101 -1 abc 50% 1e3 4294967297; do
	check "params: max_pool_percent refuses '$v'" param_refuses max_pool_percent "$v"
done
for v in 101 -5 x 90.5; do
	check "params: accept_threshold_percent refuses '$v'" \
		param_refuses accept_threshold_percent "$v"
done
for v in 9 101 0 z; do
	check "params: max_compressed_percent refuses '$v'" \
		param_refuses max_compressed_percent "$v"
done
for v in 2 maybe; do
	check "params: keep_poor_pages refuses '$v'" \
		param_refuses keep_poor_pages "$v"
done
for v in 2 maybe; do
	check "params: zero_pages_enabled refuses '$v'" \
		param_refuses zero_pages_enabled "$v"
done
check "params: enabled takes off, then Y" sh -c \
	"echo off > $ZP/enabled && [ \$(cat $ZP/enabled) = N ] && echo Y > $ZP/enabled && [ \$(cat $ZP/enabled) = Y ]"
check "params: refusals are logged" sh -c \
	'dmesg | grep -q "zcache: max_pool_percent: .101. is not a number from 1 to 100"'
check "params: unknown compressor is logged" sh -c \
	'dmesg | grep -q "zcache: compressor: .nope. is not one of"'
check "params: max_pool_percent accepts 25" sh -c \
	"echo 25 > $ZP/max_pool_percent && [ \$(cat $ZP/max_pool_percent) = 25 ]"
echo 20 > $ZP/max_pool_percent

# Every compressor the kernel offers stores and verifies a workload.
compressors=$(offered_compressors lzo lzo-rle lz4 lz4hc zstd deflate 842)
info "compressors:$compressors"
check "params: lzo, lz4, lz4hc, zstd and deflate all available" \
	has_all "$compressors" lzo lz4 lz4hc zstd deflate
for c in $compressors; do
	echo $c > $ZP/compressor
	at_checkpoint() {
		S=$(stat_ stored_pages) Z=$(stat_ zero_pages) P=$(stat_ pool_total_size)
		info "ratio $c stored=$S zero=$Z pool=$P ratio=$(( (S - Z) * 4096 * 100 / (P + 1) ))/100"
		check "params: $c stores pages" gt $(( S - Z )) $(( PO_MB * 256 * 4 / 10 ))
	}
	run_checkpointed "params: $c ${PO_MB}M paged out and verified" pageout -m $PO_MB -s 2$c
done

# A compressor switch never breaks a load: page out with one, read back
# after switching to others.
echo zstd > $ZP/compressor
at_checkpoint() {
	echo lz4 > $ZP/compressor
	echo deflate > $ZP/compressor
}
run_checkpointed "params: pages stored with zstd read back after switching" \
	pageout -m $PO_MB -s 31

# A page that compresses above max_compressed_percent (about a quarter of
# the corpus's x86 code does, with lz4) is kept while the pool has room
# to spare.  The same pages (same seed) twice, the pool far below its
# limit: keep_poor_pages=N refuses them, Y keeps what N refused.
echo lz4 > $ZP/compressor
poor_refused() {
	echo $(( $(stat_ reject_compress_poor) - $(stat_ reject_poor_sampled) ))
}
# poor_run NAME SEED: pageout with lz4; sets refused and kept
poor_run() {
	local r0 k0
	r0=$(poor_refused) k0=$(stat_ poor_kept)
	run_plain "params: $1: ${PO_MB}M paged out and verified" pageout -m $PO_MB -s $2
	refused=$(( $(poor_refused) - r0 )) kept=$(( $(stat_ poor_kept) - k0 ))
}
check "params: keep_poor_pages is Y by default" [ "$(param keep_poor_pages)" = Y ]
echo N > $ZP/keep_poor_pages
poor_run "keep_poor_pages=N" 34
refused_n=$refused
check "params: keep_poor_pages=N refuses poor pages ($refused) and keeps none ($kept)" \
	sh -c "[ $refused -gt $(( PO_MB * 2 )) ] && [ $kept -eq 0 ]"
echo Y > $ZP/keep_poor_pages
poor_run "keep_poor_pages=Y, the same pages" 34
check "params: keep_poor_pages=Y keeps them ($kept kept, $refused refused, against $refused_n)" \
	sh -c "[ $kept -gt $(( refused_n / 2 )) ] && [ $refused -lt $(( refused_n / 2 )) ]"

# The pool never grows past its limit (plus one zspage per CPU in flight).
# Poor pages are kept until it hits the limit, refused after.
echo $POOL_PCT > $ZP/max_pool_percent
limit_before=$(stat_ pool_limit_hit)
r0=$(poor_refused) k0=$(stat_ poor_kept)
at_checkpoint() {
	P=$(stat_ pool_total_size)
	limit=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) * 1024 / 4096 * POOL_PCT / 100 * 4096 ))
	info "pool $P limit $limit"
	check "params: pool reached max_pool_percent=$POOL_PCT" \
		gt "$(stat_ pool_limit_hit)" "$limit_before"
	check "params: pool stays within max_pool_percent=$POOL_PCT" \
		[ "$P" -le $(( limit + 2 * 4 * 4096 )) ]
	check "params: before the limit poor pages were kept ($(( $(stat_ poor_kept) - k0 )))" \
		gt "$(stat_ poor_kept)" "$k0"
	check "params: at the limit poor pages were refused ($(( $(poor_refused) - r0 )))" \
		gt "$(poor_refused)" "$r0"
}
run_checkpointed "params: ${POOL_PCT}% pool limit workload verified" mixed -m $WS_MB -s 33
# The workload's pages are gone: with the same limit, poor pages are kept
# again from the first store that finds the pool below half of it.
poor_run "keep_poor_pages=Y after the pool was full" 36
check "params: poor pages are kept again once the pool has emptied ($kept kept, $refused refused)" \
	gt $kept $(( PO_MB * 2 ))
echo 20 > $ZP/max_pool_percent

stats_line
check "params: no decompression failures" eq "$(stat_ decompress_fail)" 0
swapoff /dev/vda
check "params: swapoff drains stored_pages" eq "$(stat_ stored_pages)" 0
check "params: rmmod zcache" rmmod zcache
