#pragma once

#include "foundation/object.h"

#include <Foundation/NSData.hpp>

#include <string>

namespace metalcpu::ns {

/// NS::Data: an immutable copy of some bytes.
class Data final : public Implements<NS::Data> {
public:
    Data(const void* bytes, std::size_t length) : bytes_(static_cast<const char*>(bytes), length) {}
    const char* className() const override { return "NSData"; }
    std::string description() const override;
    std::uint64_t hash() const override;
    bool isEqual(const ObjectBase& other) const override;

    const void* bytes() const { return bytes_.data(); }
    NS::UInteger length() const { return bytes_.size(); }

private:
    std::string bytes_;
};

} // namespace metalcpu::ns
