#pragma once

#include <Foundation/NSObject.hpp>

#include <mutex>
#include <string>

namespace NS {
class String;
}

namespace metalcpu::rt {

/// The `label` property most Metal objects have: an NS::String the object owns, readable
/// from any thread while another sets it.
class Label {
public:
    Label() = default;
    ~Label();
    Label(const Label&) = delete;
    Label& operator=(const Label&) = delete;

    NS::String* get() const;
    void set(const NS::String* label);
    void set(const std::string& text);
    /// The label as text; `fallback` when there is none.
    std::string text(const std::string& fallback = {}) const;

private:
    mutable std::mutex mutex_;
    NS::String* string_ = nullptr;
};

} // namespace metalcpu::rt
