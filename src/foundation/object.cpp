// The object core (ObjectBase) and NS::Object's trampolines.
#include "foundation/object.h"

#include "foundation/factories.h"
#include "support/log.h"

#include <Foundation/NSString.hpp>

#include <cxxabi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

namespace metalcpu::ns {

namespace {

/// The qualified method name in a source_location's function name:
/// "NS::UInteger NS::String::length() const" -> "NS::String::length".
std::string methodName(const Site& site) {
    std::string_view name = site.function;
    std::size_t paren = name.find('(');
    if (paren != std::string_view::npos) name = name.substr(0, paren);
    std::size_t space = name.rfind(' ');
    if (space != std::string_view::npos) name = name.substr(space + 1);
    return std::string(name);
}

/// True the first time a (site, kind) pair is seen: each mistake is logged once per place.
bool firstReport(const Site& site, int kind) {
    static std::mutex mutex;
    static std::set<std::tuple<std::string, unsigned, int>> seen;
    std::lock_guard lock(mutex);
    return seen.emplace(site.file, site.line, kind).second;
}

enum ReportKind { kNotAnObject, kReleased, kWrongClass };

/// Whether the page holding `address` is mapped (one system call; used only when a read
/// would step onto a new page, and on the error path).
std::uintptr_t pageSize() {
    static const auto size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    return size;
}

bool pageIsMapped(const void* address) {
    auto page = reinterpret_cast<std::uintptr_t>(address) & ~(pageSize() - 1);
    unsigned char resident = 0;
    return mincore(reinterpret_cast<void*>(page), pageSize(), &resident) == 0;
}

/// The first bytes at `address` when they look like a C string (for the log), else "".
std::string printablePrefix(const void* address) {
    if (!pageIsMapped(address)) return {};
    const char* text = static_cast<const char*>(address);
    std::string prefix;
    for (std::size_t i = 0; i < 48; ++i) {
        // Stay on the page already checked.
        if (i > 0 && (reinterpret_cast<std::uintptr_t>(text + i) & (pageSize() - 1)) == 0) break;
        char c = text[i];
        if (c == '\0') return prefix;
        if (c < 0x20 || c > 0x7e) return {};
        prefix += c;
    }
    return prefix + "…";
}

/// The 32-bit word at `address`. Exempt from AddressSanitizer: from() reads it from
/// pointers that may not be objects at all (a C string's bytes past its end), which is
/// the point of the check.
__attribute__((no_sanitize("address"), noinline)) std::uint32_t wordAt(const char* address) {
    std::uint32_t word;
    __builtin_memcpy(&word, address, sizeof word);
    return word;
}

std::string demangled(const char* name) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
    return status == 0 && text ? std::string(text.get()) : std::string(name);
}

} // namespace

ObjectBase::~ObjectBase() = default;

ObjectBase* ObjectBase::from(Receiver receiver) {
    const void* address = receiver.object;
    if (!address) return nullptr;
    auto bits = reinterpret_cast<std::uintptr_t>(address);
    bool plausible = bits % alignof(ObjectBase) == 0;
    // The magic word sits right after the vtable pointer. The caller's pointer is readable
    // (it was passed as an object); reading the word only needs a check when it starts a
    // new page, which a short C string at the end of a page could make unmapped.
    constexpr std::size_t magicOffset = sizeof(void*);
    if (plausible && ((bits + magicOffset) & (pageSize() - 1)) == 0)
        plausible = pageIsMapped(reinterpret_cast<const void*>(bits + magicOffset));
    std::uint32_t magic = 0;
    if (plausible) magic = wordAt(reinterpret_cast<const char*>(address) + magicOffset);
    if (magic == kLiveMagic) return const_cast<ObjectBase*>(static_cast<const ObjectBase*>(address));

    if (magic == kDeadMagic) {
        if (firstReport(receiver.site, kReleased))
            support::log().error("{}: {} is an object that has already been released (it was used after its last "
                                 "release())",
                                 methodName(receiver.site), address);
        return nullptr;
    }
    if (firstReport(receiver.site, kNotAnObject)) {
        std::string text = printablePrefix(address);
        if (!text.empty())
            support::log().error("{}: {} is not a metalcpu object but looks like the C string \"{}\"; pass "
                                 "MTLSTR(\"…\") or NS::String::string(text, NS::UTF8StringEncoding) where an "
                                 "NS::String* is expected. The call does nothing.",
                                 methodName(receiver.site), address, text);
        else
            support::log().error("{}: {} is not a metalcpu object (a dangling or foreign pointer?); the call does "
                                 "nothing.",
                                 methodName(receiver.site), address);
    }
    return nullptr;
}

void ObjectBase::release() {
    if (isImmortal()) return;
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    // Marking the word dead lets from() recognise most uses after free (until the memory
    // is reused) instead of calling into a destroyed object.
    magic_ = kDeadMagic;
    liveObjects_.fetch_sub(1, std::memory_order_relaxed);
    delete this;
}

std::string ObjectBase::description() const {
    char text[96];
    std::snprintf(text, sizeof text, "<%s: %p>", className(), static_cast<const void*>(this));
    return text;
}

std::uint64_t ObjectBase::hash() const { return reinterpret_cast<std::uintptr_t>(this); }

bool ObjectBase::isEqual(const ObjectBase& other) const { return this == &other; }

ObjectBase* ObjectBase::copy() const {
    auto* self = const_cast<ObjectBase*>(this);
    self->retain();
    return self;
}

void reportWrongClass(const ObjectBase* object, const std::type_info& expected, const Site& site) {
    if (!firstReport(site, kWrongClass)) return;
    std::string wanted = demangled(expected.name());
    // "metalcpu::ns::String" -> "String": the internal class is named after the public one.
    if (std::size_t colon = wanted.rfind("::"); colon != std::string::npos) wanted = wanted.substr(colon + 2);
    support::log().error("{}: expected an object of class {}, got {}; the call does nothing.", methodName(site),
                         wanted, object->description());
}

} // namespace metalcpu::ns

// NS::Object: one-line trampolines into the core. A null or foreign receiver does nothing.

namespace ns = metalcpu::ns;

NS::Object* NS::Object::retain() {
    ns::ObjectBase* self = ns::ObjectBase::from(this);
    if (self) self->retain();
    return self ? this : nullptr;
}

void NS::Object::release() {
    if (ns::ObjectBase* self = ns::ObjectBase::from(this)) self->release();
}

NS::Object* NS::Object::autorelease() {
    ns::ObjectBase* self = ns::ObjectBase::from(this);
    if (self) self->autorelease();
    return self ? this : nullptr;
}

NS::UInteger NS::Object::retainCount() const {
    ns::ObjectBase* self = ns::ObjectBase::from(this);
    if (!self) return 0;
    return self->isImmortal() ? UIntegerMax : self->retainCount();
}

NS::UInteger NS::Object::hash() const {
    ns::ObjectBase* self = ns::ObjectBase::from(this);
    return self ? static_cast<UInteger>(self->hash()) : 0;
}

bool NS::Object::isEqual(const Object* pObject) const {
    ns::ObjectBase* self = ns::ObjectBase::from(this);
    ns::ObjectBase* other = ns::ObjectBase::from(pObject);
    return self && other && self->isEqual(*other);
}

NS::String* NS::Object::description() const {
    ns::ObjectBase* self = ns::ObjectBase::from(this);
    return self ? ns::autoreleased(ns::makeString(self->description())) : nullptr;
}

NS::String* NS::Object::debugDescription() const {
    ns::ObjectBase* self = ns::ObjectBase::from(this);
    return self ? ns::autoreleased(ns::makeString(self->description())) : nullptr;
}

NS::Object* NS::Object::copyObject() const {
    ns::ObjectBase* self = ns::ObjectBase::from(this);
    return self ? self->copy()->asPublic() : nullptr;
}
