# SPDX-License-Identifier: GPL-2.0
# scripts/lib.sh - shared by the zcache scripts; source it, don't run it.
#
# ZCACHE_CACHE (default /var/tmp/zcache-cache) holds downloads, extracted
# kernels and built objects, outside the repository.  Everything in it can
# be rebuilt from Debian's archive.

ZCACHE_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ZCACHE_CACHE=${ZCACHE_CACHE:-/var/tmp/zcache-cache}
mkdir -p "$ZCACHE_CACHE"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# apt's lists are needed to resolve packages; fetch them once if absent.
apt_ready() {
	if [ -z "$(apt-cache search --names-only '^linux-source-6\.1$' 2>/dev/null)" ]; then
		log "apt-get update"
		apt-get update -qq >&2 || die "apt-get update failed"
	fi
}

# Debian 13 (trixie) packages, for downloads only: a private apt
# configuration under the cache, so nothing of trixie reaches the host's
# own sources or lists.  Run apt-get or apt-cache with "${TRIXIE_APT[@]}".
TRIXIE_APT_DIR=$ZCACHE_CACHE/apt-trixie
TRIXIE_APT=(-o "Dir::Etc::SourceList=$TRIXIE_APT_DIR/sources.list"
	-o "Dir::Etc::SourceParts=-" -o "Dir::State::Lists=$TRIXIE_APT_DIR/lists"
	-o "Dir::State::status=$TRIXIE_APT_DIR/status"
	-o "Dir::Cache=$TRIXIE_APT_DIR/cache")

trixie_apt_ready() {
	local d=$TRIXIE_APT_DIR m=http://deb.debian.org/debian
	[ -f "$d/ready" ] && return 0
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	# (once, whoever comes first; the others wait for it)
	exec 8> "$d/ready.lock"
	flock 8
	if [ -f "$d/ready" ]; then
		flock -u 8
		return 0
	fi
	: > "$d/status"
	cat > "$d/sources.list" <<SRC
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m trixie main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m trixie-updates main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $m trixie-backports main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security trixie-security main
SRC
	log "apt-get update (trixie, private lists)"
	apt-get "${TRIXIE_APT[@]}" update -qq >&2 ||
		die "apt-get update of trixie's suites failed"
	touch "$d/ready"
	flock -u 8
}

# apt-get install, its chatter kept in $ZCACHE_CACHE/apt.log
apt_install() {
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$@" > "$ZCACHE_CACHE/apt.log" 2>&1; then
		tail -n 20 "$ZCACHE_CACHE/apt.log" >&2
		return 1
	fi
}

# Install the Debian packages that provide the given commands/files.
# usage: need_pkgs "cmd-or-path:package" ...
need_pkgs() {
	local spec what pkg missing=()
	for spec in "$@"; do
		what=${spec%%:*} pkg=${spec#*:}
		if [ "${what#/}" != "$what" ]; then
			[ -e "$what" ] && continue
		else
			command -v "$what" >/dev/null 2>&1 && continue
		fi
		missing+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	apt_ready
	log "installing ${missing[*]}"
	apt_install "${missing[@]}" || die "cannot install ${missing[*]}"
}

# Print the path of promtool, from Debian's prometheus package: downloaded
# and unpacked into the cache, never installed (its postinst would set up
# a Prometheus server on this machine).
promtool_path() {
	local dir=$ZCACHE_CACHE/tools/prometheus deb
	if [ ! -x "$dir/usr/bin/promtool" ]; then
		apt_ready
		rm -rf "$dir" && mkdir -p "$dir"
		(cd "$dir" && apt-get download -qq prometheus >/dev/null 2>&1) ||
			die "cannot download Debian's prometheus package (for promtool)"
		deb=$(ls "$dir"/prometheus_*.deb)
		dpkg-deb -x "$deb" "$dir" && rm -f "$deb" ||
			die "cannot unpack $deb"
	fi
	echo "$dir/usr/bin/promtool"
}

# The headers package of kernel KVER, which DKMS builds against.
need_kernel_headers() {
	[ -e "/lib/modules/$1/build/Makefile" ] && return 0
	apt_ready
	log "installing linux-headers-$1 for DKMS"
	apt_install "linux-headers-$1"
}

need_host_tools() {
	need_pkgs qemu-system-x86_64:qemu-system-x86 /bin/busybox:busybox-static \
		cpio:cpio depmod:kmod gcc:gcc make:make \
		/usr/lib/x86_64-linux-gnu/libc.a:libc6-dev xz:xz-utils \
		/usr/include/gelf.h:libelf-dev bc:bc pahole:dwarves \
		debootstrap:debootstrap
}

# cpu_seconds: the user and system times of a "times" line on stdin
# ("0m1.500s 0m0.250s"), added up in whole seconds.
cpu_seconds() {
	awk '{
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, f, /[ms]/)
			t += f[1] * 60 + f[2]
		}
		printf "%d\n", t + 0.5
	}'
}
