#include "foundation/data.h"

#include <cstdio>
#include <functional>

namespace metalcpu::ns {

std::string Data::description() const {
    // Foundation's format: "{length = 3, bytes = 0x616263}", abbreviated past 24 bytes.
    std::string text = "{length = " + std::to_string(bytes_.size()) + ", bytes = 0x";
    char digits[4];
    for (std::size_t i = 0; i < bytes_.size(); ++i) {
        if (bytes_.size() > 24 && i == 8) {
            text += " ... ";
            i = bytes_.size() - 8;
        }
        std::snprintf(digits, sizeof digits, "%02x", static_cast<unsigned char>(bytes_[i]));
        text += digits;
    }
    return text + "}";
}

std::uint64_t Data::hash() const { return std::hash<std::string>{}(bytes_); }

bool Data::isEqual(const ObjectBase& other) const {
    auto* data = dynamic_cast<const Data*>(&other);
    return data && data->bytes_ == bytes_;
}

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

const void* NS::Data::bytes() const { return ns::call<ns::Data>(this, &ns::Data::bytes); }

NS::UInteger NS::Data::length() const { return ns::call<ns::Data>(this, &ns::Data::length); }
