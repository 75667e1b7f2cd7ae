#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/mkinitramfs.sh ENVFILE BUILDDIR OUT - the test VM's initramfs
# scripts/mkinitramfs.sh --corpus DIR - only the corpus, in DIR; prints
#                                      its files' paths
#
# busybox, the guest init and test scripts, the kernel modules the guest
# needs (virtio disk, zsmalloc, compressors) in load order, zcache's
# modules from BUILDDIR, the static swaptest and a corpus of real text and
# binaries from this machine.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Corpus: real text and real binaries, 4 MiB each.
make_corpus() {
	local dir=$1 f
	mkdir -p "$dir"
	find /usr/share/perl /usr/share/perl5 /usr/share/common-licenses \
		/usr/share/doc /usr/include -type f \( -name '*.pm' -o -name '*.h' \
		-o -name 'copyright' -o -name 'GPL*' \) 2>/dev/null | sort |
		xargs cat 2>/dev/null | head -c 4194304 > "$dir/text" || true
	find /usr/bin /usr/lib/x86_64-linux-gnu -maxdepth 1 -type f -size +64k \
		2>/dev/null | sort | xargs cat 2>/dev/null |
		head -c 4194304 > "$dir/bin" || true
	for f in text bin; do
		[ "$(stat -c %s "$dir/$f")" -ge 1048576 ] ||
			die "corpus $f too small: this machine lacks files to build it"
	done
}

if [ "${1:-}" = --corpus ]; then
	make_corpus "${2:?usage: mkinitramfs.sh --corpus DIR}"
	echo "$2/text" "$2/bin"
	exit 0
fi

envfile=${1:?envfile} build=${2:?builddir} out=${3:?output}
. "$envfile"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,modules,zcache,tests,corpus}
cp /bin/busybox "$stage/bin/busybox"
install -m 0755 "$ZCACHE_TOP/tests/guest/init" "$stage/init"
cp "$ZCACHE_TOP"/tests/guest/*.sh "$stage/tests/"
cp "$ZCACHE_TOP/bench/guest.sh" "$stage/tests/bench.sh"
cp "$build/swaptest" "$stage/bin/swaptest"
# make bench's CPU calibration, where bench/bench.sh built it
[ -x "$build/zcalib" ] && cp "$build/zcalib" "$stage/bin/zcalib"
# The tools as the zcache-tools package installed them, where the host
# test installed it (scripts/deb-test.sh), else from the tree.
tools=$ZCACHE_TOP/scripts
[ -x "$build/tools/zcache-stat" ] && [ -x "$build/tools/zcache-load" ] && tools=$build/tools
install -m 0755 "$tools/zcache-stat" "$tools/zcache-load" "$stage/bin/"
cp "$build"/*.ko "$stage/zcache/"

# Modules, dependencies first, in the order modprobe would load them.
# The disk and zsmalloc are required; compressors the kernel lacks are left
# out (the guest tests every compressor the kernel offers), and so are the
# benchmark's peers (zram, zswap's zbud and z3fold pools).
required="virtio_pci virtio_blk zsmalloc"
optional="lzo lzo-rle lz4 lz4hc zstd deflate 842 zbud z3fold zram"
for m in $required; do
	modprobe -d "$MODROOT" -S "$KVER" --show-depends "$m" >/dev/null ||
		die "kernel $KVER has no module $m"
done
: > "$stage/modules/order"
for m in $required $optional; do
	modprobe -d "$MODROOT" -S "$KVER" --show-depends "$m" 2>/dev/null || true
done | awk '$1 == "insmod" {print $2}' | awk '!seen[$0]++' |
while read -r ko; do
	name=$(basename "$ko")
	case $name in
	*.ko.xz)  xz -dc "$ko" > "$stage/modules/${name%.xz}"; name=${name%.xz} ;;
	*.ko.zst) zstd -qdc "$ko" > "$stage/modules/${name%.zst}"; name=${name%.zst} ;;
	*)        cp "$ko" "$stage/modules/$name" ;;
	esac
	echo "$name" >> "$stage/modules/order"
done

make_corpus "$stage/corpus"

(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
