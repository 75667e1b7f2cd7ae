#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/doc-check.sh params ZCACHE.KO [LIST] - the parameter tables
# scripts/doc-check.sh stats [LIST]             - the stat tables
#
# The parameters (the files of /sys/module/zcache/parameters/ named in
# LIST, one a line, as a guest saw them; without LIST, those modinfo
# describes), each with the default its description in ZCACHE.KO gives,
# and the stats (the debugfs files named in LIST; without it, the names
# zcache.c gives them), must be exactly those of the README's tables and
# of zcache(4); every stat must also have its metric in zcache-stat
# --prometheus.  Prints PASS/FAIL lines.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?params or stats}
rc=0

# same WHAT A B: the two lists (one item a line) are equal
same() {
	local what=$1 d
	if d=$(diff <(echo "$2" | sort) <(echo "$3" | sort)); then
		echo "PASS docs: $what"
	else
		echo "FAIL docs: $what: $(echo "$d" | grep '^[<>]' | tr '\n' ' ')"
		rc=1
	fi
}

params() {
	local ko=$1 list=${2:-} names name desc def mod_params="" readme_params man_params from
	# Parameters as "name default", the default from the description.
	if [ -n "$list" ]; then
		names=$(sort -u "$list") from="the guest's sysfs"
	else
		names=$(modinfo -F parm "$ko" | sed -n 's/^\([a-z_]*\):.*/\1/p') from=modinfo
	fi
	for name in $names; do
		desc=$(modinfo -F parm "$ko" | sed -n "s/^$name://p")
		def=$(echo "$desc" | sed -n 's/.*default \([^,;) ]*\).*/\1/p')
		if [ -z "$def" ]; then
			echo "FAIL docs: parameter $name: its description names no default ('$desc')"
			rc=1
		fi
		mod_params=$(printf '%s\n%s %s' "$mod_params" "$name" "${def:-?}")
	done
	mod_params=$(echo "$mod_params" | sed '/^$/d')
	readme_params=$(awk '/^Parameters$/ { p = 1 } /^Stats$/ { p = 0 }
		p && /^\| [a-z_]+ / && !/^\| name / { gsub(/ /, ""); split($0, c, "|"); print c[2], c[3] }' "$top/README")
	man_params=$(awk '/^\.SH PARAMETERS/ { p = 1; next } /^\.SH / { p = 0 }
		p && prev == ".TP" && /^\.B / { name = $2 }
		p && name != "" && /^Default / { d = $2; sub(/[;,].*/, "", d); print name, d; name = "" }
		{ prev = $0 }' "$top/man/zcache.4")
	[ -n "$mod_params" ] || { echo "FAIL docs: modinfo shows no parameter of $ko"; exit 1; }
	same "README's parameter table: every parameter of $from, with its default (as modinfo)" \
		"$mod_params" "$readme_params"
	same "zcache(4): every parameter of $from, with its default (as modinfo)" \
		"$mod_params" "$man_params"
}

stats() {
	local src_stats readme_stats man_stats prom_stats from
	if [ -n "${1:-}" ]; then
		src_stats=$(sort -u "$1") from="the guest's debugfs"
	else
		# the names zcache.c gives its debugfs files
		from=zcache.c
		src_stats=$( { sed -n 's/^\t\[ZCACHE_[A-Z_]*\] = "\([a-z_]*\)",$/\1/p' "$top/zcache.c"
			grep -A1 'debugfs_create_file_unsafe("' "$top/zcache.c" |
				sed -n 's/.*debugfs_create_file_unsafe("\([a-z_]*\)".*/\1/p'; } | sort -u)
	fi
	readme_stats=$(awk '/^Stats$/ { p = 1 } /^Compression ratio/ { p = 0 }
		p && /^\| [a-z_]+ / && !/^\| file / { gsub(/ /, ""); split($0, c, "|"); print c[2] }' "$top/README")
	man_stats=$(awk '/^\.SH STATS/ { p = 1; next } /^\.SH / { p = 0 }
		p && prev == ".TP" && /^\.B / { print $2 } { prev = $0 }' "$top/man/zcache.4")
	prom_stats=$(sed -n 's/^meta \([a-z_]*\) .*/\1/p' "$top/scripts/zcache-stat")
	[ -n "$src_stats" ] || { echo "FAIL docs: no stat found in $from"; exit 1; }
	same "README's stat table: every stat of $from" "$src_stats" "$readme_stats"
	same "zcache(4): every stat of $from" "$src_stats" "$man_stats"
	same "zcache-stat --prometheus: a metric for every stat of $from" "$src_stats" "$prom_stats"
}

case $mode in
params) params "${2:?zcache.ko}" "${3:-}" ;;
stats) stats "${2:-}" ;;
*) echo "usage: $0 params ZCACHE.KO [LIST] | stats [LIST]" >&2; exit 2 ;;
esac
exit $rc
