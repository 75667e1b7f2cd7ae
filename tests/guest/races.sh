# SPDX-License-Identifier: GPL-2.0
# Group "races" (the KCSAN kernel): zcache's most concurrent paths, for
# the data-race detector.  Four threads of random access fault, store and
# load on both CPUs while every runtime parameter changes under them
# (params' storm: the compressor, enabled, the pool limit, zero pages);
# a parent and its child fault on the same swapped-out pages and then on
# their diverging copies; a process is killed while zcache holds its
# pages, so its slots are freed while the pages are still being stored.
# The other groups run one task at a time, but for stress (load and
# unload under load), which the KCSAN kernel runs too.

check "races: insmod zcache" load_zcache
swap_on /dev/vda

storm_under_load races "lzo lz4 zstd"
run_plain "races: fork copy-on-write verified" fork -m $(( MEM_MB * 3 / 4 )) -s 16

# kill -9 while MADV_PAGEOUT stores: the slots are freed under zcache.
killed_under_store() {
	local pid s0
	s0=$(stat_ stores)
	swaptest pageout -m $PO_MB -s 19 > /dev/null 2>&1 &
	pid=$!
	while [ "$(stat_ stores)" -le $(( s0 + MANY / 4 )) ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
	done
	kill -9 $pid
	wait $pid
	[ "$(stat_ stores)" -gt $(( s0 + MANY / 4 )) ]
}
check "races: a process killed while its pages are stored" killed_under_store

stats_line
check "races: no decompression failures" eq "$(stat_ decompress_fail)" 0
swapoff /dev/vda
check "races: swapoff drains stored_pages" eq "$(stat_ stored_pages)" 0
check "races: swapoff empties the pool" eq "$(stat_ pool_total_size)" 0
check "races: rmmod zcache" rmmod zcache
check "races: nothing left hooked after rmmod" nothing_hooked
