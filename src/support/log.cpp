#include "support/log.h"

#include "support/config.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace metalcpu::support {

spdlog::logger& log() {
    static std::shared_ptr<spdlog::logger> logger = [] {
        auto made = spdlog::stderr_color_mt("metalcpu");
        made->set_pattern("[metalcpu] %^%l%$: %v");
        made->set_level(spdlog::level::from_str(config().logLevel));
        return made;
    }();
    return *logger;
}

} // namespace metalcpu::support
