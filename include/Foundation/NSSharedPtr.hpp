#pragma once

#include "NSDefines.hpp"

#include <cstddef>
#include <functional>
#include <type_traits>

namespace NS {

// An intrusive smart pointer: it owns one reference of the object (released in the
// destructor). Make one with TransferPtr() from a +1 pointer (new…, alloc()->init(),
// copy()) or with RetainPtr() from a borrowed or autoreleased one.
//
// Header-only, as in metal-cpp. Unlike metal-cpp it never calls a method on nullptr (that
// is undefined behaviour in C++), so it needs no no_sanitize attributes.
template <class Class>
class SharedPtr {
public:
    SharedPtr() : object_(nullptr) {}
    ~SharedPtr() { releaseObject(object_); }

    SharedPtr(std::nullptr_t) noexcept : object_(nullptr) {}

    SharedPtr(const SharedPtr<Class>& other) noexcept : object_(retainObject(other.object_)) {}

    template <class OtherClass>
    SharedPtr(const SharedPtr<OtherClass>& other,
              typename std::enable_if_t<std::is_convertible_v<OtherClass*, Class*>>* = nullptr) noexcept
        : object_(retainObject(static_cast<Class*>(other.get()))) {}

    SharedPtr(SharedPtr<Class>&& other) noexcept : object_(other.object_) { other.object_ = nullptr; }

    template <class OtherClass>
    SharedPtr(SharedPtr<OtherClass>&& other,
              typename std::enable_if_t<std::is_convertible_v<OtherClass*, Class*>>* = nullptr) noexcept
        : object_(static_cast<Class*>(other.get())) {
        other.detach();
    }

    SharedPtr& operator=(const SharedPtr<Class>& other) {
        Class* old = object_;
        object_ = retainObject(other.object_);
        releaseObject(old);
        return *this;
    }

    template <class OtherClass>
    typename std::enable_if_t<std::is_convertible_v<OtherClass*, Class*>, SharedPtr&>
    operator=(const SharedPtr<OtherClass>& other) {
        Class* old = object_;
        object_ = retainObject(static_cast<Class*>(other.get()));
        releaseObject(old);
        return *this;
    }

    SharedPtr& operator=(SharedPtr<Class>&& other) {
        if (this != &other) {
            Class* old = object_;
            object_ = other.object_;
            other.object_ = nullptr;
            releaseObject(old);
        }
        return *this;
    }

    template <class OtherClass>
    typename std::enable_if_t<std::is_convertible_v<OtherClass*, Class*>, SharedPtr&>
    operator=(SharedPtr<OtherClass>&& other) {
        Class* old = object_;
        object_ = static_cast<Class*>(other.get());
        other.detach();
        releaseObject(old);
        return *this;
    }

    Class* get() const { return object_; }
    Class* operator->() const { return object_; }
    explicit operator bool() const { return object_ != nullptr; }

    // Releases the object and becomes null.
    void reset() {
        Class* old = object_;
        object_ = nullptr;
        releaseObject(old);
    }

    // Becomes null without releasing: the caller takes over the reference.
    void detach() { object_ = nullptr; }

    template <class OtherClass>
    friend SharedPtr<OtherClass> RetainPtr(OtherClass* ptr);

    template <class OtherClass>
    friend SharedPtr<OtherClass> TransferPtr(OtherClass* ptr);

private:
    static Class* retainObject(Class* object) {
        if (object) object->retain();
        return object;
    }
    static void releaseObject(Class* object) {
        if (object) object->release();
    }

    Class* object_;
};

// A SharedPtr that retains `pObject` (for borrowed and autoreleased objects).
template <class Class>
SharedPtr<Class> RetainPtr(Class* pObject) {
    SharedPtr<Class> result;
    result.object_ = SharedPtr<Class>::retainObject(pObject);
    return result;
}

// A SharedPtr that adopts the +1 reference of `pObject` without retaining it.
template <class Class>
SharedPtr<Class> TransferPtr(Class* pObject) {
    SharedPtr<Class> result;
    result.object_ = pObject;
    return result;
}

template <class ClassLhs, class ClassRhs>
bool operator==(const SharedPtr<ClassLhs>& lhs, const SharedPtr<ClassRhs>& rhs) {
    return lhs.get() == rhs.get();
}

template <class ClassLhs, class ClassRhs>
bool operator!=(const SharedPtr<ClassLhs>& lhs, const SharedPtr<ClassRhs>& rhs) {
    return lhs.get() != rhs.get();
}

} // namespace NS

template <class T>
struct std::hash<NS::SharedPtr<T>> {
    std::size_t operator()(const NS::SharedPtr<T>& pointer) const { return std::hash<T*>{}(pointer.get()); }
};
