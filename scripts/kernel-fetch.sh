#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel-fetch.sh KERNEL - get a Debian kernel to test on
#
# KERNEL is a line, 6.1 or 6.12, optionally with a flavour: 6.1-rt,
# 6.12-cloud (amd64 when none is given).
# Resolves the newest image of that line in the archive, downloads the
# image, headers, headers-common and kbuild packages, extracts them under
# $ZCACHE_CACHE/kernels/<version>, and prints the path of an env file with
# KVER, KDIR (headers to build against), VMLINUZ and MODROOT.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: kernel-fetch.sh 6.1|6.12[-cloud|-rt]}
line=${kernel%%-*}
flavour=amd64
[ "$line" = "$kernel" ] || flavour=${kernel#*-}-amd64

case $line in
6.1)	pattern="^linux-image-6\.1\.0-[0-9]+-${flavour}\$" ;;
6.12)	pattern="^linux-image-6\.12\.[0-9]+\+deb12-${flavour}\$" ;;
*)	die "unknown kernel '$kernel' (6.1 or 6.12, optionally -cloud or -rt)" ;;
esac

need_pkgs depmod:kmod dpkg-deb:dpkg
apt_ready
pkg=$(apt-cache search --names-only "$pattern" | awk '{print $1}' | sort -V | tail -n 1)
[ -n "$pkg" ] || die "no package matches $pattern in the archive"
kver=${pkg#linux-image-}
dir=$ZCACHE_CACHE/kernels/$kver
if [ -f "$dir/env" ]; then
	echo "$dir/env"
	exit 0
fi

debs=$ZCACHE_CACHE/debs
mkdir -p "$debs"
deps=$(apt-cache depends "linux-headers-$kver" |
	awk '/Depends: linux-(headers|kbuild)-/ {print $2}' | sort -u)
wanted=("$pkg" "linux-headers-$kver" $deps)
for p in "${wanted[@]}"; do
	if ! ls "$debs/${p}_"*.deb >/dev/null 2>&1; then
		log "downloading $p"
		(cd "$debs" && apt-get download -qq "$p" 2>/dev/null) ||
			die "cannot download $p"
	fi
done

rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/root" "$dir.tmp/hdr"
dpkg-deb -x "$(ls "$debs/${pkg}_"*.deb | sort -V | tail -n 1)" "$dir.tmp/root"
for p in "linux-headers-$kver" $deps; do
	dpkg-deb -x "$(ls "$debs/${p}_"*.deb | sort -V | tail -n 1)" "$dir.tmp/hdr"
done

# The headers' Makefile includes the -common tree by absolute path.
kdir=$dir/hdr/usr/src/linux-headers-$kver
sed -i "s|^include /usr/src/|include $dir/hdr/usr/src/|" \
	"$dir.tmp/hdr/usr/src/linux-headers-$kver/Makefile"

# Debian builds modules.dep in postinst; do it here.  6.12 ships .ko.xz.
depmod -b "$dir.tmp/root" "$kver"

cat > "$dir.tmp/env" <<ENV
KVER=$kver
KDIR=$kdir
VMLINUZ=$dir/root/boot/vmlinuz-$kver
MODROOT=$dir/root
ENV
rm -rf "$dir"
mv "$dir.tmp" "$dir"
log "kernel $kver ready in $dir"
echo "$dir/env"
