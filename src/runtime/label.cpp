#include "runtime/label.h"

#include "foundation/factories.h"

#include <Foundation/NSString.hpp>

namespace metalcpu::rt {

Label::~Label() {
    if (string_) string_->release();
}

NS::String* Label::get() const {
    std::lock_guard lock(mutex_);
    return string_;
}

void Label::set(const NS::String* label) {
    // Metal copies labels, so a mutable string changed later does not change the label.
    NS::String* copy = label ? ns::makeString(ns::stringOf(label)) : nullptr;
    std::lock_guard lock(mutex_);
    if (string_) string_->release();
    string_ = copy;
}

void Label::set(const std::string& text) {
    NS::String* copy = ns::makeString(text);
    std::lock_guard lock(mutex_);
    if (string_) string_->release();
    string_ = copy;
}

std::string Label::text(const std::string& fallback) const {
    std::lock_guard lock(mutex_);
    return string_ ? ns::stringOf(string_) : fallback;
}

} // namespace metalcpu::rt
