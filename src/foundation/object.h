#pragma once

#include <Foundation/NSObject.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace metalcpu::ns {

/// Where a call entered the library: the trampoline's function (GCC gives its full
/// signature, "NS::UInteger NS::String::length() const"), file and line.
struct Site {
    const char* function;
    const char* file;
    unsigned line;
};

/// A public pointer on its way into the library, with the place it came from: the
/// trampoline that received it. Built implicitly from `this`, so the site names the public
/// method in the log when the pointer turns out to be bad.
struct Receiver {
#if defined(__cpp_lib_source_location)
    Receiver(const NS::Object* object, std::source_location here = std::source_location::current())
        : object(object), site{here.function_name(), here.file_name(), here.line()} {}
#else // clang before 15 with libstdc++ has no std::source_location
    Receiver(const NS::Object* object, const char* function = __builtin_FUNCTION(),
             const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())
        : object(object), site{function, file, line} {}
#endif

    const NS::Object* object;
    Site site;
};

/// The reference-counted core of every object the library hands out.
///
/// Each implementation class derives from ObjectBase first and from its public metal-cpp
/// class second (through Implements<>). The public classes are empty, so the compiler
/// places them at the same address as the core: a public pointer *is* the core's address.
/// from() relies on that, and make() checks it for every class it creates.
class ObjectBase {
public:
    constexpr ObjectBase() = default;
    virtual ~ObjectBase();
    ObjectBase(const ObjectBase&) = delete;
    ObjectBase& operator=(const ObjectBase&) = delete;

    /// The core behind a public pointer; nullptr for a null pointer, and (with an error in
    /// the log, once per site and kind of mistake) for a pointer that is not a live metalcpu
    /// object, such as a C string passed where an NS::String* belongs or a released object.
    static ObjectBase* from(Receiver receiver);

    NS::Object* asPublic() { return reinterpret_cast<NS::Object*>(this); }
    const NS::Object* asPublic() const { return reinterpret_cast<const NS::Object*>(this); }

    void retain() {
        if (!isImmortal()) refs_.fetch_add(1, std::memory_order_relaxed);
    }
    /// Drops one reference; the last one deletes the object.
    void release();
    /// The reference count; kImmortalRefs for objects that are never freed.
    std::uint32_t retainCount() const { return refs_.load(std::memory_order_relaxed); }
    /// Hands one reference to the innermost autorelease pool of the calling thread (or to
    /// its fallback pool when it has none; see autorelease_pool.h).
    void autorelease();

    /// Makes retain/release/autorelease no-ops from now on: for singletons such as the main
    /// bundle. Constant strings are born immortal (see the tagged constructor).
    void makeImmortal() { refs_.store(kImmortalRefs, std::memory_order_relaxed); }
    bool isImmortal() const { return retainCount() == kImmortalRefs; }

    /// Objective-C's class name, e.g. "MTLBuffer" or "NSString" (for descriptions and errors).
    virtual const char* className() const = 0;
    /// The text of NS::Object::description(); "<ClassName: 0x…>" unless a class says more.
    virtual std::string description() const;
    virtual std::uint64_t hash() const;
    /// Identity unless a class compares values (strings, numbers, collections…).
    virtual bool isEqual(const ObjectBase& other) const;
    /// A +1 copy. By default the object itself, retained: right for immutable objects, as
    /// in Foundation. Mutable classes (descriptors) override it.
    virtual ObjectBase* copy() const;

    /// Whether the per-thread fallback pool (used when a program has no AutoreleasePool)
    /// may drop its reference now. Command buffers say no until they have completed.
    virtual bool mayDrainFromFallbackPool() const { return true; }

    /// Objects made by make<>() and not yet freed, all threads together. For tests that
    /// check that autoreleased objects do not pile up.
    static std::size_t liveObjectCount() { return liveObjects_.load(std::memory_order_relaxed); }

    static constexpr std::uint32_t kImmortalRefs = UINT32_MAX;

protected:
    struct ImmortalTag {};
    /// For objects with static storage that must never be freed (constant strings).
    constexpr explicit ObjectBase(ImmortalTag) : refs_(kImmortalRefs) {}

private:
    template <class Impl, class... Args>
    friend typename Impl::Public* make(Args&&... args);

    static constexpr std::uint32_t kLiveMagic = 0x4d43504fu; // "MCPO"
    static constexpr std::uint32_t kDeadMagic = 0x44454144u; // "DEAD"
    static inline std::atomic<std::size_t> liveObjects_{0};
    std::uint32_t magic_ = kLiveMagic;
    std::atomic<std::uint32_t> refs_{1};
};

/// Base of an implementation class: `class Buffer final : public Implements<MTL::Buffer>`.
/// `Core` is the internal base when several public classes share behaviour (NS::Value and
/// NS::Number both use a ValueCore); it must derive from ObjectBase.
template <class PublicClass, class Core = ObjectBase>
class Implements : public Core, public PublicClass {
public:
    using Public = PublicClass;
    using Core::Core;
    // Inside the library, reference counting is the core's (the public class has the
    // same names for its trampolines).
    using Core::retain;
    using Core::release;
    using Core::autorelease;
    using Core::retainCount;
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
    ObjectBase::liveObjects_.fetch_add(1, std::memory_order_relaxed);
    return object;
}

/// Logs (once per site) that an object of one class was passed where another was expected.
void reportWrongClass(const ObjectBase* object, const std::type_info& expected, const Site& site);

/// The implementation object behind a public pointer, or nullptr when the pointer is
/// null, not ours, or of another class (the last two are logged).
template <class Impl>
Impl* implOf(Receiver receiver) {
    ObjectBase* base = ObjectBase::from(receiver);
    if (!base) return nullptr;
    Impl* typed = dynamic_cast<Impl*>(base);
    if (!typed) reportWrongClass(base, typeid(Impl), receiver.site);
    return typed;
}

/// What a public method does on nil: nothing, returning a zero value.
template <class Result>
Result nilResult() {
    if constexpr (std::is_void_v<Result>)
        return;
    else
        return Result{};
}

/// The body of a trampoline: calls `method` on the implementation behind `receiver`, or
/// returns a zero value when the receiver is null or not an `Impl` (metal-cpp's promise
/// that messaging nil does nothing).
///     NS::UInteger NS::String::length() const { return call<String>(this, &String::length); }
template <class Impl, class Method, class... Args>
auto call(Receiver receiver, Method method, Args&&... args) {
    using Result = std::invoke_result_t<Method, Impl*, Args...>;
    Impl* self = implOf<Impl>(receiver);
    if (!self) return nilResult<Result>();
    return (self->*method)(std::forward<Args>(args)...);
}

/// Autoreleased public pointer: `return autoreleased(make<String>(...))`.
template <class PublicClass>
PublicClass* autoreleased(PublicClass* object) {
    if (ObjectBase* base = ObjectBase::from(object)) base->autorelease();
    return object;
}

/// The core behind a public pointer the library made itself (no checks beyond null).
inline ObjectBase* coreOf(const NS::Object* object) {
    return reinterpret_cast<ObjectBase*>(const_cast<NS::Object*>(object));
}

/// Releases an object the library owns, if there is one (library code never calls a
/// method on nullptr itself).
inline void releaseIfAny(const NS::Object* object) {
    if (object) coreOf(object)->release();
}

/// Keeps an object of static storage alive for the whole process: its destructor never
/// runs, so other static destructors and late threads can still use it.
template <class T>
union Immortal {
    template <class... Args>
    constexpr explicit Immortal(Args&&... args) : value(std::forward<Args>(args)...) {}
    ~Immortal() {}
    T value;
};

} // namespace metalcpu::ns
