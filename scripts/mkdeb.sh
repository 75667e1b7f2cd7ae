#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/mkdeb.sh OUTDIR - build the Debian packages (make deb)
#
# Builds zcache-dkms and zcache-tools with Debian's own tooling
# (dpkg-buildpackage, debhelper, dh-dkms) from a clean copy of the source
# tree (the files git knows, as they are in the work tree), so that no
# build output of the tree ends up in the package.  Installs the build
# dependencies it lacks from Debian's archive.  Leaves the .deb,
# .buildinfo and .changes files in OUTDIR.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:?outdir}
case $out in /*) ;; *) out=$PWD/$out ;; esac
need_pkgs dpkg-buildpackage:dpkg-dev dh:debhelper /usr/bin/dh_dkms:dh-dkms \
	fakeroot:fakeroot \
	/usr/share/build-essential/essential-packages-list:build-essential
version=$(sed -n '1s/^zcache (\([^)]*\)).*/\1/p' "$ZCACHE_TOP/debian/changelog")
[ -n "$version" ] || die "no version on the first line of debian/changelog"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/zcache-$version
mkdir -p "$src"
cd "$ZCACHE_TOP"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			if [ -e "$f" ]; then printf '%s\0' "$f"; fi
		done |
		tar --null -T - -cf - | tar -xf - -C "$src"
else
	tar --exclude=./build-deb --exclude=./tests/out --exclude='*.o' \
		--exclude='*.ko' -cf - . | tar -xf - -C "$src"
fi
log "dpkg-buildpackage zcache $version"
if ! (cd "$src" && dpkg-buildpackage -b -us -uc > "$work/build.log" 2>&1); then
	tail -n 30 "$work/build.log" >&2
	die "dpkg-buildpackage failed"
fi
mkdir -p "$out"
rm -f "$out"/zcache*_"$version"_*
mv "$work"/zcache*_"$version"_* "$out/"
ls "$out"/zcache*_"$version"_*.deb
