# SPDX-License-Identifier: GPL-2.0
# The demo (make demo): a real workload through zcache, and its stats.

show_stats() {
	zcache-stat
	echo "--- /sys/kernel/debug/zcache ---"
	for f in "$ZC"/*; do printf '  %-22s %s\n' "$(basename "$f")" "$(cat "$f")"; done
	S=$(stat_ stored_pages) Z=$(stat_ zero_pages) P=$(stat_ pool_total_size)
	if [ "$P" -gt 0 ]; then
		echo "  compression ratio      $(( (S - Z) * 4096 * 100 / P / 100 )).$(printf %02d $(( (S - Z) * 4096 * 100 / P % 100 ))) (non-zero pages / pool)"
		echo "  memory saved           $(( (S * 4096 - P) / 1048576 )) MiB"
	fi
	echo "--- /sys/module/zcache/parameters ---"
	for f in "$ZP"/*; do printf '  %-26s %s\n' "$(basename "$f")" "$(cat "$f")"; done
}

zcache-load /zcache/zcache.ko || { fail demo "zcache-load failed"; return; }
swap_on /dev/vda
echo "swapping ${WS_MB} MB of mixed text, binaries and 10% zero pages through ${MEM_MB} MB of RAM"
at_checkpoint() {
	echo "=== while the workload holds its pages ==="
	show_stats
}
# (run_checkpointed sets t0 itself, to uptime's fractional seconds)
demo_t0=$(date +%s)
if run_checkpointed demo mixed -m $WS_MB -s 7; then
	echo "=== after reading every page back (verified byte for byte, $(( $(date +%s) - demo_t0 )) s) ==="
	show_stats
fi
swapoff /dev/vda
rmmod zcache
