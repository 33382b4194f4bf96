#pragma once

#include <Foundation/NSObject.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <typeinfo>
#include <utility>

namespace metalcpu::ns {

/// The reference-counted core of every object the library hands out.
///
/// Each implementation class derives from ObjectBase first and from its public metal-cpp
/// class second (through Implements<>). The public classes are empty, so the compiler
/// places them at the same address as the core: a public pointer *is* the core's address.
/// from() relies on that, and make() checks it for every class it creates.
class ObjectBase {
public:
    ObjectBase() = default;
    virtual ~ObjectBase();
    ObjectBase(const ObjectBase&) = delete;
    ObjectBase& operator=(const ObjectBase&) = delete;

    /// The core behind a public pointer; nullptr for a null pointer, and (with an error in
    /// the log) for a pointer that is not a live metalcpu object, such as a C string passed
    /// where an NS::String* belongs.
    static ObjectBase* from(const NS::Object* object);

    NS::Object* asPublic() { return reinterpret_cast<NS::Object*>(this); }

    void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release();
    std::uint32_t retainCount() const { return refs_.load(std::memory_order_relaxed); }
    /// Hands one reference to the innermost autorelease pool of the calling thread.
    void autorelease();

    /// Objective-C's class name, e.g. "MTLBuffer" or "NSString" (for descriptions and errors).
    virtual const char* className() const = 0;
    virtual std::string description() const;
    virtual std::uint64_t hash() const;
    virtual bool isEqual(const ObjectBase& other) const;
    /// A +1 copy. Immutable objects return themselves retained, as Foundation does.
    virtual ObjectBase* copy() const;

    /// Whether the per-thread fallback pool (used when a program has no AutoreleasePool)
    /// may drop its reference now. Command buffers say no until they have completed.
    virtual bool mayDrainFromFallbackPool() const { return true; }

private:
    static constexpr std::uint32_t kLiveMagic = 0x4d43504fu; // "MCPO"
    static constexpr std::uint32_t kDeadMagic = 0x44454144u; // "DEAD"
    std::uint32_t magic_ = kLiveMagic;
    std::atomic<std::uint32_t> refs_{1};
};

/// Base of an implementation class: `class Buffer final : public Implements<MTL::Buffer>`.
template <class PublicClass>
class Implements : public ObjectBase, public PublicClass {
public:
    using Public = PublicClass;
    Public* asPublicClass() { return this; }
    const Public* asPublicClass() const { return this; }
};

/// Creates an implementation object with one reference (a "+1" object) and returns its
/// public pointer.
template <class Impl, class... Args>
typename Impl::Public* make(Args&&... args) {
    Impl* object = new Impl(std::forward<Args>(args)...);
    // The identity from() relies on; see ObjectBase.
    if (static_cast<void*>(static_cast<typename Impl::Public*>(object)) !=
        static_cast<void*>(static_cast<ObjectBase*>(object)))
        __builtin_trap();
    return object;
}

/// Logs that an object of one class was passed where another was expected.
void reportWrongClass(const ObjectBase* object, const char* expected);

/// The implementation object behind a public pointer, or nullptr when the pointer is
/// null, not ours, or of another class (the last two are logged).
template <class Impl>
Impl* implOf(const NS::Object* object) {
    ObjectBase* base = ObjectBase::from(object);
    if (!base) return nullptr;
    Impl* typed = dynamic_cast<Impl*>(base);
    if (!typed) reportWrongClass(base, typeid(Impl).name());
    return typed;
}

/// Autoreleased public pointer: `return autoreleased(make<String>(...))`.
template <class PublicClass>
PublicClass* autoreleased(PublicClass* object) {
    if (ObjectBase* base = ObjectBase::from(object)) base->autorelease();
    return object;
}

} // namespace metalcpu::ns
