# SPDX-License-Identifier: GPL-2.0
#
# make                 build zcache.ko (and test_zcache.ko) for the running
#                      kernel, or for KDIR=<headers tree>
# make demo            build, boot the test VM, swap a workload through
#                      zcache, print the stats (KERNEL=6.1 by default)
# make check           the whole test suite; ends with "N passed, N failed"
# make lint            checkpatch --strict, W=1, sparse, kernel-doc
# make clean

KDIR ?= /lib/modules/$(shell uname -r)/build
KERNEL ?= 6.1

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

lint:
	scripts/lint.sh

.PHONY: all modules clean demo check lint
