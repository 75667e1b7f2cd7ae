#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/trixie-root.sh - the Debian 13 (trixie) build root; prints its path
# scripts/trixie-root.sh --run DIR CMD... - run CMD in it, in directory DIR
#
# trixie's kernels are built with gcc-14, and their kbuild tools (objtool,
# modpost, resolve_btfids) need glibc 2.38: neither runs on this bookworm
# host.  So every build for a trixie kernel runs in a minimal trixie
# system made with debootstrap from Debian's archive, cached under
# $ZCACHE_CACHE/trixie-root-<hash of PACKAGES and RECIPE> and made again
# when those change.  Nothing of trixie is installed on the host.
#
# --run enters it in a private mount namespace (unshare -m), with /proc
# mounted (objtool reads it), /dev bound and $ZCACHE_CACHE bound at its own
# path, so paths under the cache (kernel headers, build directories) are
# the same inside and out.  The mounts end with the command.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Bump when the steps below change the result.
RECIPE=1
# What kbuild needs to build external modules against trixie's headers.
PACKAGES="gcc-14 make libc6-dev libelf1t64 libssl3t64 zlib1g dwarves kmod
xz-utils zstd bc perl python3"

hash=$( (echo "$PACKAGES"; echo "recipe $RECIPE") | sha256sum | cut -c1-12)
root=$ZCACHE_CACHE/trixie-root-$hash

make_root() {
	local tmp=$root.tmp
	need_pkgs debootstrap:debootstrap
	rm -rf "$tmp"
	log "debootstrap trixie into $root (once)"
	if ! debootstrap --variant=minbase \
		--include="$(echo $PACKAGES | tr ' ' ,)" \
		trixie "$tmp" http://deb.debian.org/debian \
		> "$ZCACHE_CACHE/trixie-root.log" 2>&1; then
		tail -n 20 "$ZCACHE_CACHE/trixie-root.log" >&2
		rm -rf "$tmp"
		die "debootstrap of trixie failed (log: $ZCACHE_CACHE/trixie-root.log)"
	fi
	# Debootstrap's apt cache is not needed again.
	rm -rf "$tmp"/var/cache/apt/archives/*.deb
	mv "$tmp" "$root"
}

# Serialized: the suite fetches several trixie kernels at once.
exec 9> "$ZCACHE_CACHE/trixie-root.lock"
flock 9
[ -x "$root/usr/bin/gcc-14" ] || make_root
flock -u 9

if [ "${1:-}" != --run ]; then
	echo "$root"
	exit 0
fi
dir=${2:?usage: trixie-root.sh --run DIR CMD...}
shift 2
# The command and its arguments travel as positional parameters, quoted as
# given.
exec unshare -m --propagation private /bin/sh -euc '
	root=$1 cache=$2 dir=$3
	shift 3
	mount -t proc proc "$root/proc"
	mount --rbind /dev "$root/dev"
	mkdir -p "$root$cache"
	mount --bind "$cache" "$root$cache"
	exec chroot "$root" /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$dir" "$@"
' sh "$root" "$ZCACHE_CACHE" "$dir" "$@"
