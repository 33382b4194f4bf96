#pragma once

#include "foundation/object.h"

#include <Foundation/NSDate.hpp>

#include <chrono>

namespace metalcpu::ns {

/// NS::Date: a point in (system-clock) time.
class Date final : public Implements<NS::Date> {
public:
    explicit Date(std::chrono::system_clock::time_point time) : time_(time) {}
    const char* className() const override { return "NSDate"; }
    std::string description() const override;
    std::uint64_t hash() const override;
    bool isEqual(const ObjectBase& other) const override;

    std::chrono::system_clock::time_point time() const { return time_; }

private:
    std::chrono::system_clock::time_point time_;
};

} // namespace metalcpu::ns
