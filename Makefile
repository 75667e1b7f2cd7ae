# SPDX-License-Identifier: GPL-2.0
#
# make                 build zcache.ko (and test_zcache.ko) for the running
#                      kernel, or for KDIR=<headers tree>
# make demo            build, boot the test VM, swap a workload through
#                      zcache, print the stats (KERNEL=6.1 by default)
# make check           the whole test suite; ends with "N passed, N failed"
# make bench           zcache against stock zswap, zram and disk swap in the
#                      test VM; writes bench/results/<date>.md and plots
#                      (BENCH_KERNELS, BENCH_REPS, BENCH_DISKS)
# make soak            a long randomized run on the debug kernel (not in CI;
#                      SOAK_SECONDS, SOAK_SEED, SOAK_KERNEL)
# make lint            checkpatch --strict, W=1, sparse, kernel-doc
# make dkms-install    register, build and install with DKMS (as root)
# make dkms-remove     remove it from DKMS again
# make deb             the Debian packages zcache-dkms and zcache-tools,
#                      with debhelper and dh-dkms, into build-deb/
# make clean

KDIR ?= /lib/modules/$(shell uname -r)/build
KERNEL ?= 6.1
# The version has one source: the first line of debian/changelog.
VERSION := $(shell sed -n '1s/^zcache [(]\([^ ]*\)[)].*/\1/p' debian/changelog 2>/dev/null)
DKMS_SRC := /usr/src/zcache-$(VERSION)
DKMS_FILES := Kbuild Makefile dkms.conf *.c *.h attach compress tests/kmod

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || \
		find . \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' \) -delete
	rm -rf tests/guest/bin

demo:
	scripts/demo.sh $(KERNEL)

check:
	tests/run.sh

bench:
	bench/bench.sh

soak:
	scripts/soak.sh

lint:
	scripts/lint.sh

dkms-install:
	rm -rf $(DKMS_SRC) && mkdir -p $(DKMS_SRC)
	tar -cf - $(DKMS_FILES) | tar -xf - -C $(DKMS_SRC)
	sed -i 's/#MODULE_VERSION#/$(VERSION)/' $(DKMS_SRC)/dkms.conf
	dkms add zcache/$(VERSION)
	dkms build zcache/$(VERSION) $(if $(DKMS_KVER),-k $(DKMS_KVER))
	dkms install zcache/$(VERSION) $(if $(DKMS_KVER),-k $(DKMS_KVER))

dkms-remove:
	-dkms remove zcache/$(VERSION) --all
	rm -rf $(DKMS_SRC)

deb:
	scripts/mkdeb.sh build-deb

version:
	@echo $(VERSION)

.PHONY: all modules clean demo check bench soak lint dkms-install dkms-remove deb version
