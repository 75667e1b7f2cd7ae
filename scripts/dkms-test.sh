#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/dkms-test.sh ENVFILE BUILDDIR - DKMS for real, on this machine
#
# Installs Debian's dkms and the headers package of the test kernel, runs
# make dkms-install against that kernel, copies the module DKMS built to
# BUILDDIR/zcache-dkms.ko (the "tools" guest group loads it), then runs
# make dkms-remove.  Prints PASS/FAIL lines.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

envfile=${1:?envfile} build=${2:?builddir}
. "$envfile"
rc=0
ok() { echo "PASS dkms: $1"; }
ko() { echo "FAIL dkms: $1"; rc=1; }

need_pkgs dkms:dkms
need_kernel_headers "$KVER" || { ko "install linux-headers-$KVER"; exit 1; }

cd "$ZCACHE_TOP" || exit 1
make -s dkms-remove >/dev/null 2>&1
if make -s dkms-install DKMS_KVER="$KVER" > "$build/dkms.log" 2>&1; then
	ok "make dkms-install builds and installs for $KVER"
else
	ko "make dkms-install builds and installs for $KVER"
	tail -n 30 "$build/dkms.log" | sed 's/^/    /'
fi
built=$(ls /lib/modules/"$KVER"/updates/dkms/zcache.ko* 2>/dev/null | head -n 1)
case $built in
*.ko.xz) xz -dc "$built" > "$build/zcache-dkms.ko" ;;
*.ko)    cp "$built" "$build/zcache-dkms.ko" ;;
*)       false ;;
esac && ok "DKMS installed zcache.ko under /lib/modules/$KVER/updates/dkms" ||
	ko "DKMS installed zcache.ko under /lib/modules/$KVER/updates/dkms"
if dkms status zcache | grep -c "$KVER.*installed" >/dev/null; then
	ok "dkms status shows zcache installed for $KVER"
else
	ko "dkms status shows zcache installed for $KVER"
fi
make -s dkms-remove >/dev/null 2>&1
if [ -z "$(dkms status zcache)" ] && [ ! -e "/usr/src/zcache-$(make -s version)" ]; then
	ok "make dkms-remove removes it"
else
	ko "make dkms-remove removes it"
fi
exit $rc
