#include "api/unsupported.h"

#include "support/log.h"

#include <mutex>
#include <set>
#include <string>

namespace metalcpu::api {

void unsupported(const char* method, const char* issue) {
    static std::mutex mutex;
    static std::set<std::string> reported;
    std::lock_guard lock(mutex);
    if (!reported.insert(method).second) return;
    support::log().warn("{} is not supported by metalcpu yet{}{}; it does nothing and returns zero", method,
                        *issue ? " " : "", issue);
}

} // namespace metalcpu::api
