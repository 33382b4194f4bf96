#include "foundation/date.h"

#include <ctime>

namespace metalcpu::ns {

std::string Date::description() const {
    // Foundation's format: "2025-01-31 12:00:00 +0000".
    std::time_t seconds = std::chrono::system_clock::to_time_t(time_);
    std::tm parts{};
    gmtime_r(&seconds, &parts);
    char text[40];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S +0000", &parts);
    return text;
}

std::uint64_t Date::hash() const { return static_cast<std::uint64_t>(time_.time_since_epoch().count()); }

bool Date::isEqual(const ObjectBase& other) const {
    auto* date = dynamic_cast<const Date*>(&other);
    return date && date->time_ == time_;
}

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

NS::Date* NS::Date::dateWithTimeIntervalSinceNow(TimeInterval secs) {
    auto offset = std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::duration<double>(secs));
    return ns::autoreleased(ns::make<ns::Date>(std::chrono::system_clock::now() + offset));
}
