# SPDX-License-Identifier: GPL-2.0
# Group "tools": the operator tools in the guest, as the zcache-tools
# package installed them when the host built and installed the packages.
# zcache-load attaches the module DKMS built from zcache-dkms (when the
# host built one), zcache-stat's figures (screen, --raw, --json,
# --prometheus) match the debugfs files, and both fail clearly when they
# should.

check "tools: zcache-stat without zcache exits 1 with a message" sh -c \
	'! zcache-stat 2>/tmp/zs.err && grep -q "zcache is not loaded" /tmp/zs.err'

module=/zcache/zcache.ko
[ -f /zcache/zcache-dkms.ko ] && module=/zcache/zcache-dkms.ko
info "loading $module"
check "tools: zcache-load attaches $module" zcache-load "$module" compressor=zstd
check "tools: zcache-load passed the parameters on" [ "$(param compressor)" = zstd ]
check "tools: zcache-load on a loaded zcache is a no-op" zcache-load "$module"
swap_on /dev/vda
# What this zcache has, for the host to compare with the documentation.
for f in "$ZC"/*; do echo "ZT: LIST-STAT ${f##*/}"; done
for f in "$ZP"/*; do echo "ZT: LIST-PARAM ${f##*/}"; done

# zcache-stat's figures against the debugfs files, while the pages are
# held.  Other tasks still fault a little, so every value must lie between
# a debugfs read just before and one just after.  A gauge can move both
# ways inside that window (kswapd stores, the writeback worker empties the
# pool), so the comparison gets five tries a second apart and must hold
# once; a figure zcache-stat gets wrong is wrong in every try.
# matches_debugfs OPTION FILE GET: run zcache-stat OPTION into FILE; GET
# NAME prints its figure for stat NAME from FILE.
matches_debugfs() {
	local try
	for try in 1 2 3 4 5; do
		matches_debugfs_once "$@" && return 0
		sleep 1
	done
	return 1
}
matches_debugfs_once() {
	for f in "$ZC"/*; do echo "$(basename "$f") $(cat "$f")"; done > /tmp/before
	zcache-stat "$1" > "$2"
	for f in "$ZC"/*; do echo "$(basename "$f") $(cat "$f")"; done > /tmp/after
	while read -r k a; do
		b=$(sed -n "s/^$k //p" /tmp/after)
		got=$("$3" "$k" "$2")
		lo=$a hi=$b
		[ "$a" -gt "$b" ] && lo=$b hi=$a
		case $got in
		''|*[!0-9]*) got="not a number: '$got'" ;;
		esac
		if [ "${got#not a number}" != "$got" ] || [ "$got" -lt "$lo" ] || [ "$got" -gt "$hi" ]; then
			echo "    $k: zcache-stat $1 says '$got', debugfs '$a' then '$b'"
			return 1
		fi
	done < /tmp/before
	return 0
}
raw_figure() { sed -n "s/^$1=//p" "$2"; }
# a counter is zcache_STAT_total, a gauge zcache_STAT, or zcache_STAT_bytes
# for pool_total_size
prom_figure() {
	awk -v k="$1" '$1 == "zcache_" k || $1 == "zcache_" k "_total" ||
		$1 == "zcache_" k "_bytes" { print $2 }' "$2"
}
at_checkpoint() {
	zcache-stat | sed 's/^/    /'
	check "tools: zcache-stat --raw equals every debugfs file" \
		matches_debugfs --raw /tmp/raw raw_figure
	check "tools: zcache-stat --raw has the derived figures" sh -c \
		'grep -q "^ratio=[0-9]" /tmp/raw && grep -q "^saved_bytes=[0-9]" /tmp/raw && grep -q "^pool_limit_bytes=[0-9]" /tmp/raw'
	check "tools: zcache-stat reports the compression ratio" sh -c \
		'zcache-stat | grep -q "^ratio  *[0-9]*\.[0-9][0-9] without zero pages"'
	echo "ZT: JSON $(zcache-stat --json)"
	# --prometheus, written as node-exporter's textfile collector reads
	# it.  The host runs promtool on it (ZT: PROM lines); here every
	# stat must be there under its metric, with debugfs's value.
	check "tools: zcache-stat --prometheus --output writes the file" \
		zcache-stat --prometheus --output /tmp/zcache.prom
	check "tools: --output leaves no temporary file behind" sh -c \
		'! ls /tmp/zcache.prom.tmp.* 2>/dev/null'
	check "tools: --prometheus has every debugfs stat, with its value" \
		matches_debugfs --prometheus /tmp/prom prom_figure
	check "tools: --prometheus has the pool limit and the ratio" sh -c \
		'grep -q "^zcache_pool_limit_bytes [1-9]" /tmp/zcache.prom && grep -q "^zcache_compression_ratio [0-9]*\.[0-9]" /tmp/zcache.prom'
	check "tools: the module version is set and in zcache_info" sh -c \
		'v=$(cat /sys/module/zcache/version) && [ -n "$v" ] && [ "$v" != unknown ] && grep -q "^zcache_info{.*version=\"$v\"} 1\$" /tmp/zcache.prom'
	sed 's/^/ZT: PROM /' /tmp/zcache.prom
}
# (MADV_PAGEOUT'd pages: the tools need pages held, not memory pressure,
# and with no pressure left at the checkpoint the gauges stay still.)
run_checkpointed "tools: workload under zcache-load verified" pageout -m $PO_MB -s 61

# --watch redraws: two screens, once the workload is gone (each redraw's
# two dozen forks can take seconds under TCG); five minutes is a bound
# for a hang, not a timing.
zcache-stat --watch 1 > /tmp/watch 2>&1 &
watcher=$!
n=0
while [ "$(grep -c '^stored ' /tmp/watch)" -lt 2 ] && [ $n -lt 1500 ] &&
      kill -0 $watcher 2>/dev/null; do
	sleep 0.2
	n=$((n + 1))
done
kill $watcher 2>/dev/null
wait $watcher 2>/dev/null
screens=$(grep -c '^stored ' /tmp/watch)
info "zcache-stat --watch: $screens screens after $n waits of 0.2 s"
[ "$screens" -ge 2 ] || tail -n 20 /tmp/watch | sed 's/^/    watch: /'
check "tools: zcache-stat --watch redraws" [ "$screens" -ge 2 ]

umount /sys/kernel/debug
check "tools: zcache-stat without debugfs exits 1 with a message" sh -c \
	'! zcache-stat 2>/tmp/zs.err && grep -q "debugfs mounted" /tmp/zs.err'
mount -t debugfs debugfs /sys/kernel/debug
check "tools: zcache-stat rejects a bad option" sh -c '! zcache-stat --watch x 2>/dev/null'

# zcache-load --unload drains the pages a workload holds and unloads
# with swap on; the workload then reads them back from disk.
at_checkpoint() {
	held=$(stat_ stored_pages)
	zcache-load --unload > /tmp/unload.out 2>&1
	rc=$?
	sed 's/^/    /' /tmp/unload.out
	unloaded() { [ $rc = 0 ] && [ "$held" -gt 0 ] && [ ! -d /sys/module/zcache ]; }
	check "tools: zcache-load --unload drained $held pages and unloaded, swap on" \
		unloaded
}
run_checkpointed "tools: the pages drained by zcache-load --unload read back" \
	pageout -m $PO_MB -s 62
check "tools: zcache-load --unload without zcache says so, exit 0" sh -c \
	'zcache-load --unload | grep -q "not loaded"'
swapoff /dev/vda
# A metrics file outlives the module it describes: it must say so.
check "tools: without zcache, --prometheus --output exits 1" sh -c \
	'! zcache-stat --prometheus --output /tmp/zcache.prom 2>/dev/null'
check "tools: ... and the file says zcache_up 0, and nothing else" sh -c \
	'grep -qx "zcache_up 0" /tmp/zcache.prom && [ "$(grep -vc "^#" /tmp/zcache.prom)" = 1 ]'
