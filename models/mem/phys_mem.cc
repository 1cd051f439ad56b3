#include "mem/phys_mem.h"
#include <algorithm>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>

namespace models::mem {

phys_mem::phys_mem(const phys_mem_config& cfg) : m_cfg(cfg)
{
    const long pg = sysconf(_SC_PAGESIZE);
    if (cfg.backed == 0 || cfg.backed % pg || cfg.backed > cfg.size)
        throw std::invalid_argument("phys_mem: backed size must be a non-zero multiple of the page size and <= size");
    m_fd = memfd_create("fecsim-dram", MFD_CLOEXEC);
    if (m_fd < 0 || ftruncate(m_fd, (off_t)cfg.backed) != 0)
        throw std::runtime_error("phys_mem: cannot create the DRAM backing (memfd)");
    void* d = mmap(nullptr, cfg.backed, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, m_fd, 0);
    void* w = mmap(nullptr, cfg.backed, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (d == MAP_FAILED || w == MAP_FAILED)
        throw std::runtime_error("phys_mem: cannot map the DRAM backing");
    m_d = (uint8_t*)d;
    m_w = (uint8_t*)w;
}

phys_mem::~phys_mem()
{
    if (m_w)
        munmap(m_w, m_cfg.backed);
    if (m_d)
        munmap(m_d, m_cfg.backed);
    if (m_fd >= 0)
        close(m_fd);
}

void phys_mem::map_uncached(uint64_t pa, uint64_t len)
{
    const uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
    if ((pa - m_cfg.base) % pg || len % pg || len == 0 || !is_backed(pa, len))
        throw std::invalid_argument("phys_mem: uncached range must be page aligned and backed");
    const uint64_t off = pa - m_cfg.base;
    void* p = mmap(m_w + off, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, m_fd, (off_t)off);
    if (p == MAP_FAILED)
        throw std::runtime_error("phys_mem: cannot alias the uncached range");
    m_uncached.emplace_back(pa, len);
    m_unc_lo = std::min(m_unc_lo, pa);
    m_unc_hi = std::max(m_unc_hi, pa + len);
}

void phys_mem::dram_read(uint64_t pa, uint8_t* out, unsigned len) const
{
    if (!out)
        return;
    if (is_backed(pa, len))
        std::memcpy(out, dram_view(pa), len);
    else
        std::memset(out, 0, len);
}

void phys_mem::dram_write(uint64_t pa, const uint8_t* in, unsigned len)
{
    if (!is_backed(pa, len))
        return;
    if (in)
        std::memcpy(dram_view(pa), in, len);
    else
        std::memset(dram_view(pa), 0, len);
}

} // namespace models::mem
