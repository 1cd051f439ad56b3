#include "tests/system/sys.h"
#include "tests/lib.h"

sim::soc_config sys_config(double fps, double ms)
{
    sim::soc_config c;
    c.scenario.id = "system-test";
    // Opening the device maps 512 RX buffers (about 2.7 ms): traffic starts
    // after that, measurement after the first frames.
    c.scenario.warmup_ps = 5000 * models::PS_PER_US;
    c.scenario.duration_ps = (models::tick_t)(ms * 1e9);
    c.traffic.rate_fps = fps;
    c.traffic.start_ps = 4000 * models::PS_PER_US;
    return c;
}

std::string sys_fixture(const char* name) { return std::string(FECSIM_SRCDIR) + "/tests/fixtures/" + name; }

uint64_t sys_stat(sim::soc& s, const std::string& name)
{
    uint64_t v = 0;
    bool found = false;
    s.visit_stats([&](const std::string& n, uint64_t x, const char*, const char*) {
        if (n == name) {
            v = x;
            found = true;
        }
    });
    ck_assert_msg(found, "no statistic named %s", name.c_str());
    return v;
}
