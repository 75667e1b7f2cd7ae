#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/doc-check.sh ZCACHE.KO - the documentation against the module
#
# The parameters (names and defaults) that modinfo shows for ZCACHE.KO,
# and the stats zcache.c creates in debugfs, must be exactly those of the
# README's tables and of zcache(4); every stat must also have its metric
# in zcache-stat --prometheus.  Prints PASS/FAIL lines.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ko=${1:?zcache.ko}
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

# Parameters as "name default".
mod_params=$(modinfo -F parm "$ko" | sed -n 's/^\([a-z_]*\):.*default \([^,;) ]*\).*/\1 \2/p')
readme_params=$(awk '/^Parameters$/ { p = 1 } /^Stats$/ { p = 0 }
	p && /^\| [a-z_]+ / && !/^\| name / { gsub(/ /, ""); split($0, c, "|"); print c[2], c[3] }' "$top/README")
man_params=$(awk '/^\.SH PARAMETERS/ { p = 1; next } /^\.SH / { p = 0 }
	p && prev == ".TP" && /^\.B / { name = $2 }
	p && name != "" && /^Default / { d = $2; sub(/[;,].*/, "", d); print name, d; name = "" }
	{ prev = $0 }' "$top/man/zcache.4")
[ -n "$mod_params" ] || { echo "FAIL docs: modinfo shows no parameter of $ko"; exit 1; }
same "README's parameter table: every parameter, with its default (as modinfo)" \
	"$mod_params" "$readme_params"
same "zcache(4): every parameter, with its default (as modinfo)" \
	"$mod_params" "$man_params"

# Stats: the names zcache.c gives its debugfs files.
src_stats=$( { sed -n 's/^\t\[ZCACHE_[A-Z_]*\] = "\([a-z_]*\)",$/\1/p' "$top/zcache.c"
	grep -A1 'debugfs_create_file_unsafe("' "$top/zcache.c" |
		sed -n 's/.*debugfs_create_file_unsafe("\([a-z_]*\)".*/\1/p'; } | sort -u)
readme_stats=$(awk '/^Stats$/ { p = 1 } /^Compression ratio/ { p = 0 }
	p && /^\| [a-z_]+ / && !/^\| file / { gsub(/ /, ""); split($0, c, "|"); print c[2] }' "$top/README")
man_stats=$(awk '/^\.SH STATS/ { p = 1; next } /^\.SH / { p = 0 }
	p && prev == ".TP" && /^\.B / { print $2 } { prev = $0 }' "$top/man/zcache.4")
prom_stats=$(sed -n 's/^meta \([a-z_]*\) .*/\1/p' "$top/scripts/zcache-stat")
[ -n "$src_stats" ] || { echo "FAIL docs: no stat found in zcache.c"; exit 1; }
same "README's stat table: every debugfs stat" "$src_stats" "$readme_stats"
same "zcache(4): every debugfs stat" "$src_stats" "$man_stats"
same "zcache-stat --prometheus: a metric for every debugfs stat" "$src_stats" "$prom_stats"
exit $rc
