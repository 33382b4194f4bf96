#pragma once

#include "NSDefines.hpp"
#include "NSTypes.hpp"

namespace NS {

class String;

// The root of every Foundation and Metal class. As in metal-cpp, programs only ever hold
// pointers to these classes: objects are made by the library (`alloc`, `new…`, `Create…`)
// and owned through retain/release. Calling any method on a null pointer does nothing and
// returns zero, as messaging nil does in Objective-C.
//
// Deviation from metal-cpp: the constructor is protected rather than deleted, because the
// library's implementation objects derive from these classes.
class Object {
public:
    Object* retain();
    void release();
    Object* autorelease();
    UInteger retainCount() const;

    UInteger hash() const;
    bool isEqual(const Object* pObject) const;
    String* description() const;
    String* debugDescription() const;

protected:
    Object() = default;
    ~Object() = default;
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;

    Object* copyObject() const;
};

// CRTP helpers with metal-cpp's names: they give retain/autorelease/copy the right
// return type. `Base` is the parent class in the Objective-C hierarchy.
template <class Class, class Base = Object>
class Referencing : public Base {
public:
    METALCPU_NIL_RECEIVER Class* retain() { return static_cast<Class*>(Object::retain()); }
    METALCPU_NIL_RECEIVER void release() { Object::release(); }
    METALCPU_NIL_RECEIVER Class* autorelease() { return static_cast<Class*>(Object::autorelease()); }
    METALCPU_NIL_RECEIVER UInteger retainCount() const { return Object::retainCount(); }

protected:
    Referencing() = default;
    ~Referencing() = default;
};

template <class Class, class Base = Object>
class Copying : public Referencing<Class, Base> {
public:
    METALCPU_NIL_RECEIVER Class* copy() const { return static_cast<Class*>(Object::copyObject()); }

protected:
    Copying() = default;
    ~Copying() = default;
};

template <class Class, class Base = Object>
class SecureCoding : public Referencing<Class, Base> {
protected:
    SecureCoding() = default;
    ~SecureCoding() = default;
};

} // namespace NS
