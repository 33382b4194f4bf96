#pragma once

#include "foundation/object.h"

#include <Foundation/NSURL.hpp>

#include <string>

namespace metalcpu::ns {

/// NS::URL: an absolute URL string. File URLs ("file:///path") are what metal-cpp programs
/// use (MTL::Device::newLibrary(URL)); other schemes are kept but have no file path.
class URL final : public Implements<NS::URL> {
public:
    const char* className() const override { return "NSURL"; }
    std::string description() const override { return text_; }
    std::uint64_t hash() const override;
    bool isEqual(const ObjectBase& other) const override;

    NS::URL* init() { return asPublicClass(); }
    NS::URL* initWithString(const NS::String* string);
    NS::URL* initFileURLWithPath(const NS::String* path);
    /// The same, from UTF-8 text (for the library's own use).
    void setFilePath(std::string_view path);

    /// The file path of a file URL (percent escapes decoded); nullptr for other URLs.
    const char* fileSystemRepresentation() const { return isFile_ ? path_.c_str() : nullptr; }

private:
    std::string text_;
    std::string path_;
    bool isFile_ = false;
};

} // namespace metalcpu::ns
