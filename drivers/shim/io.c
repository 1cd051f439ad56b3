// SPDX-License-Identifier: GPL-2.0
/*
 * ioremap: device ranges get a token address inside a reserved, inaccessible
 * host range, so a driver that dereferences __iomem directly faults instead
 * of reading host memory; readl/writel translate tokens back to physical
 * register addresses.
 */
#include <linux/kernel.h>
#include <linux/io.h>
#include <sys/mman.h>

#define SHIM_IO_SLOTS 8
#define SHIM_IO_SLOT_SIZE (1UL << 20)

static struct {
	phys_addr_t pa;
	size_t size;
} io_map[SHIM_IO_SLOTS];
static char *io_window;

void __iomem *ioremap(phys_addr_t pa, size_t size)
{
	int i;

	if (!io_window) {
		void *w = mmap(NULL, SHIM_IO_SLOTS * SHIM_IO_SLOT_SIZE, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (w == MAP_FAILED)
			return NULL;
		io_window = w;
	}
	if (size > SHIM_IO_SLOT_SIZE)
		return NULL;
	for (i = 0; i < SHIM_IO_SLOTS; i++) {
		if (!io_map[i].size) {
			io_map[i].pa = pa;
			io_map[i].size = size;
			return io_window + i * SHIM_IO_SLOT_SIZE;
		}
	}
	return NULL;
}

void iounmap(void __iomem *addr)
{
	long i = ((char *)addr - io_window) / (long)SHIM_IO_SLOT_SIZE;

	if (io_window && i >= 0 && i < SHIM_IO_SLOTS)
		io_map[i].size = 0;
}

u64 shim_iomem_pa(const volatile void __iomem *addr)
{
	long off = (const char *)addr - io_window;
	long i = off / (long)SHIM_IO_SLOT_SIZE;

	if (io_window && off >= 0 && i < SHIM_IO_SLOTS && io_map[i].size &&
	    (size_t)(off % SHIM_IO_SLOT_SIZE) < io_map[i].size)
		return io_map[i].pa + off % SHIM_IO_SLOT_SIZE;
	simhost_stop("MMIO access to %p, which no ioremap() mapped", (const void *)addr);
}
