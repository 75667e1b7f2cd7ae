#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/soak.sh - make soak: a long randomized run on the debug kernel
#
# SOAK_KERNEL (6.1, 6.12 or 7.3, default 6.1), SOAK_SECONDS (default 1200) and
# SOAK_SEED (default: drawn now, and printed) choose the run; the same seed
# replays the same steps (tests/guest/soak.sh).  Not part of make check.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${SOAK_KERNEL:-6.1}
secs=${SOAK_SECONDS:-1200}
seed=${SOAK_SEED:-$(( $(od -An -N4 -tu4 /dev/urandom) % 1000000 ))}
log "soak on the $kernel debug kernel for $secs s, seed $seed" \
	"(replay: make soak SOAK_KERNEL=$kernel SOAK_SEED=$seed SOAK_SECONDS=$secs)"
ZCACHE_KERNELS=$kernel-debug ZCACHE_DEBUG_GROUPS=soak \
	ZCACHE_DEBUG_EXTRA="zcsoak=$secs zcseed=$seed" \
	ZCACHE_VM_TIMEOUT=$(( secs * 2 + 900 )) \
	exec "$ZCACHE_TOP/tests/run.sh"
