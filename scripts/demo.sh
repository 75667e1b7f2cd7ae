#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/demo.sh [LINE] - the main job (make demo)
#
# Installs what it needs, fetches the newest Debian kernel of LINE (6.1 by
# default), builds zcache against it, boots the test VM, swaps a real
# workload (1.25x the guest's RAM of mixed text, binaries and zero pages)
# through zcache, verifies every page and prints zcache's stats with the
# compression ratio.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

line=${1:-6.1}
need_host_tools
envfile=$("$ZCACHE_TOP/scripts/kernel-fetch.sh" "$line")
. "$envfile"
build=$("$ZCACHE_TOP/scripts/build.sh" "$envfile")
"$ZCACHE_TOP/scripts/mkinitramfs.sh" "$envfile" "$build" "$build/initramfs.gz"
log=$ZCACHE_CACHE/demo-$KVER.log
# The cloud kernels boot as tests/run.sh boots them (see there).
extra=""
case $line in *-cloud) extra=pci=nomsi ;; esac
log "booting $KVER with 256 MB of RAM (TCG); console log in $log"
"$ZCACHE_TOP/scripts/vm-run.sh" "$envfile" "$build/initramfs.gz" "$log" demo 1 256 \
	"$extra" || true
tr -d '\r' < "$log" | sed 's/^.*ZT: BEGIN/ZT: BEGIN/' |
	sed -n '/^ZT: BEGIN/,/^ZT: DMESG-BEGIN/p' | grep -v '^ZT: DMESG-BEGIN' |
	grep -v '^\[ *[0-9.]*\] ' | sed 's/^ZT: //'
grep -aq '^ZT: PASS demo' "$log" || die "the demo failed; see $log"
