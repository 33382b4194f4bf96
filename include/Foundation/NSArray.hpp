#pragma once

#include "NSDefines.hpp"
#include "NSEnumerator.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

class Array : public Copying<Array> {
public:
    static Array* array();
    static Array* array(const Object* pObject);
    static Array* array(const Object* const* pObjects, UInteger count);

    static Array* alloc();

    Array* init();
    Array* init(const Object* const* pObjects, UInteger count);
    Array* init(const class Coder* pCoder);

    template <class ObjectType = Object>
    ObjectType* object(UInteger index) const;
    [[nodiscard]] UInteger count() const;
    Enumerator<Object>* objectEnumerator() const;
};

} // namespace NS

namespace metalcpu::detail {
// Out-of-line body of NS::Array::object<T>.
NS::Object* arrayObject(const NS::Array* array, NS::UInteger index);
} // namespace metalcpu::detail

template <class ObjectType>
ObjectType* NS::Array::object(UInteger index) const {
    return reinterpret_cast<ObjectType*>(metalcpu::detail::arrayObject(this, index));
}
