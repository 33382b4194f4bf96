#include "support/log.h"

#include "support/config.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace metalcpu::support {

spdlog::logger& log() {
    static std::shared_ptr<spdlog::logger> logger = [] {
        // Not registered with spdlog: stderr_color_mt("metalcpu") would throw when the host
        // program already has a logger of that name.
        auto made = std::make_shared<spdlog::logger>("metalcpu", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
        made->set_pattern("[metalcpu] %^%l%$: %v");
        made->set_level(spdlog::level::from_str(config().logLevel));
        return made;
    }();
    return *logger;
}

} // namespace metalcpu::support
