#pragma once

// Settings holders: the descriptors whose getters return what their setters stored. Each is an
// implementation class with a copyable `State` struct; copy() copies the struct. Object-valued
// properties hold a reference through Property<>.

#include "foundation/object.h"

#include <Metal/MTLResource.hpp>

#include <array>
#include <bit>
#include <cstddef>

namespace metalcpu::api {

/// What a getter returns for nil: all zero bytes, as messaging nil does in Objective-C, also
/// for types whose default value is not zero (TextureSwizzleChannels, NS::Range).
template <class T>
T nilValue() {
    return std::bit_cast<T>(std::array<std::byte, sizeof(T)>{});
}

/// How an object-valued property keeps what it is given, as Cocoa's `copy` and `retain`.
enum class Keep { Copy, Retain };

/// An object-valued property: one reference to the object set last. With Keep::Copy, objects
/// of NS::Copying classes are copied (immutable ones, like strings, just retain themselves),
/// so that changing a descriptor after setting it changes nothing here.
template <class T, Keep keep = Keep::Copy>
class Property {
public:
    Property() = default;
    Property(const Property& other) { set(other.object_); }
    Property& operator=(const Property& other) {
        if (this != &other) set(other.object_);
        return *this;
    }
    ~Property() { ns::releaseIfAny(object_); }

    T* get() const { return object_; }
    /// Takes over a +1 reference (from alloc() or a new* function) without copying.
    void adopt(T* object) {
        ns::releaseIfAny(object_);
        object_ = object;
    }
    void set(const T* object) {
        T* kept = object ? acquire(const_cast<T*>(object)) : nullptr;
        ns::releaseIfAny(object_);
        object_ = kept;
    }

private:
    static T* acquire(T* object) {
        if constexpr (keep == Keep::Copy && requires { object->copy(); })
            return object->copy();
        else
            return static_cast<T*>(object->retain());
    }

    T* object_ = nullptr;
};

/// Base of a settings holder `Self`, which has a member `State state` (and, when the public
/// class has subclasses, a Core with a member `base` that they share). copy() makes a new
/// object of the same class with the same settings, deep-copying Property<> members by their
/// Keep rule.
template <class Self, class Public, class Core = ns::ObjectBase>
class Settings : public ns::Implements<Public, Core> {
public:
    ns::ObjectBase* copy() const override {
        Self* made = static_cast<Self*>(ns::make<Self>());
        const Self& self = static_cast<const Self&>(*this);
        if constexpr (requires { self.base; }) made->base = self.base;
        if constexpr (requires { self.state; }) made->state = self.state;
        return made;
    }
};

/// The CPU cache, storage and hazard tracking modes of a resource descriptor (textures, heaps,
/// tensors) and their packed form, ResourceOptions: bits 0-3, 4-7 and 8-9.
struct ResourceModes {
    MTL::CPUCacheMode cpuCacheMode = MTL::CPUCacheModeDefaultCache;
    MTL::StorageMode storageMode = MTL::StorageModeShared;
    MTL::HazardTrackingMode hazardTrackingMode = MTL::HazardTrackingModeDefault;

    MTL::ResourceOptions options() const {
        return MTL::ResourceOptions(cpuCacheMode) | MTL::ResourceOptions(storageMode) << 4 |
               MTL::ResourceOptions(hazardTrackingMode) << 8;
    }
    void setOptions(MTL::ResourceOptions options) {
        cpuCacheMode = MTL::CPUCacheMode(options & 0xf);
        storageMode = MTL::StorageMode((options >> 4) & 0xf);
        hazardTrackingMode = MTL::HazardTrackingMode((options >> 8) & 0x3);
    }
};

} // namespace metalcpu::api

// Trampolines of settings holders. `Impl` is the implementation class and `field` a member of
// its `state` (METALCPU_VALUE, METALCPU_OBJECT) or of another member such as the `base` that
// subclasses share (the *_IN forms).

/// alloc() and init() of a settings holder: alloc makes a +1 object with the defaults.
#define METALCPU_ALLOC_INIT(Class, Impl)                                                   \
    Class* Class::alloc() { return metalcpu::ns::make<Impl>(); }                           \
    Class* Class::init() { return metalcpu::ns::implOf<Impl>(this) ? this : nullptr; }

/// A value property stored in `Impl::member.field` (member is `state` or `base`).
#define METALCPU_VALUE_IN(Class, Impl, member, Type, getter, setter, field)               \
    Type Class::getter() const {                                                           \
        auto* self = metalcpu::ns::implOf<Impl>(this);                                     \
        return self ? self->member.field : metalcpu::api::nilValue<Type>();                \
    }                                                                                      \
    void Class::setter(Type value) {                                                       \
        if (auto* self = metalcpu::ns::implOf<Impl>(this)) self->member.field = value;     \
    }

/// An object property (a Property<Type> in `Impl::member.field`).
#define METALCPU_OBJECT_IN(Class, Impl, member, Type, getter, setter, field)              \
    Type* Class::getter() const {                                                          \
        auto* self = metalcpu::ns::implOf<Impl>(this);                                     \
        return self ? self->member.field.get() : nullptr;                                  \
    }                                                                                      \
    void Class::setter(const Type* value) {                                                \
        if (auto* self = metalcpu::ns::implOf<Impl>(this)) self->member.field.set(value);  \
    }

#define METALCPU_VALUE(Class, Impl, Type, getter, setter, field) \
    METALCPU_VALUE_IN(Class, Impl, state, Type, getter, setter, field)
#define METALCPU_OBJECT(Class, Impl, Type, getter, setter, field) \
    METALCPU_OBJECT_IN(Class, Impl, state, Type, getter, setter, field)

/// cpuCacheMode, storageMode, hazardTrackingMode and resourceOptions, with their setters, over
/// a ResourceModes in `Impl::state.modes`.
#define METALCPU_RESOURCE_MODES(Class, Impl)                                                          \
    METALCPU_VALUE(Class, Impl, MTL::CPUCacheMode, cpuCacheMode, setCpuCacheMode, modes.cpuCacheMode) \
    METALCPU_VALUE(Class, Impl, MTL::StorageMode, storageMode, setStorageMode, modes.storageMode)     \
    METALCPU_VALUE(Class, Impl, MTL::HazardTrackingMode, hazardTrackingMode, setHazardTrackingMode,   \
                   modes.hazardTrackingMode)                                                          \
    MTL::ResourceOptions Class::resourceOptions() const {                                             \
        auto* self = metalcpu::ns::implOf<Impl>(this);                                                \
        return self ? self->state.modes.options() : 0;                                                \
    }                                                                                                 \
    void Class::setResourceOptions(MTL::ResourceOptions options) {                                    \
        if (auto* self = metalcpu::ns::implOf<Impl>(this)) self->state.modes.setOptions(options);     \
    }
