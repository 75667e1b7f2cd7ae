# SPDX-License-Identifier: GPL-2.0
# Group "smoke": zcache end to end on a kernel built from a source that
# another kernel of the suite runs in full (trixie's 6.12 amd64 and cloud:
# bookworm's 6.12 source, built by gcc-14; 7.3-cloud: 7.3's source with
# the cloud config, attached by the zswap method as 7.3 amd64).  What such
# a kernel can get wrong is its build: the attach (ftrace's call sites,
# the hooked functions' layout) and the data path through zcache as this
# toolchain and config compiled both.  So: insmod attaches, a workload
# under memory pressure goes through the cache and reads back byte for
# byte, every page MADV_PAGEOUT pushes reaches the cache, swapoff drains
# it, rmmod detaches and leaves nothing hooked.

check "smoke: insmod zcache" load_zcache
check "smoke: $STORE_FN redirected" sh -c \
	"grep -q '^$STORE_FN .*zcache' /sys/kernel/tracing/enabled_functions"
swap_on /dev/vda

at_checkpoint() {
	stats_line
	S=$(stat_ stored_pages) Z=$(stat_ zero_pages) P=$(stat_ pool_total_size)
	check "smoke: mixed stores pages under pressure" gt "$S" $MANY
	check "smoke: mixed pool smaller than its pages" \
		lt "$P" $(( (S - Z) * 4096 ))
}
run_checkpointed "smoke: mixed ${WS_MB}M verified" mixed -m $WS_MB -s 11
check "smoke: mixed loads from zcache" gt "$(stat_ loads)" $MANY

# (on 6.12 the 10% zero pages stop at the swap device's zeromap first,
# on 7.3 at the swap table's zero mark)
at_checkpoint() {
	stats_line
	seen=$(( $(stat_ stores) + $(stat_ reject_compress_poor) - seen_before ))
	check "smoke: MADV_PAGEOUT pages all reach zcache ($seen of $(( PO_MB * 256 )))" \
		ge "$seen" $(( PO_MB * 256 * 85 / 100 ))
}
seen_before=$(( $(stat_ stores) + $(stat_ reject_compress_poor) ))
run_checkpointed "smoke: MADV_PAGEOUT verified" pageout -m $PO_MB -s 17

stats_line
check "smoke: no decompression failures" eq "$(stat_ decompress_fail)" 0
swapoff /dev/vda
check "smoke: swapoff drains stored_pages" eq "$(stat_ stored_pages)" 0
check "smoke: swapoff empties the pool" eq "$(stat_ pool_total_size)" 0
check "smoke: rmmod zcache" rmmod zcache
check "smoke: nothing left hooked after rmmod" nothing_hooked
