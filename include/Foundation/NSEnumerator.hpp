#pragma once

#include "NSDefines.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

struct FastEnumerationState {
    unsigned long state;
    Object** itemsPtr;
    unsigned long* mutationsPtr;
    unsigned long extra[5];
} __attribute__((packed));

class FastEnumeration : public Referencing<FastEnumeration> {
public:
    NS::UInteger countByEnumerating(FastEnumerationState* pState, Object** pBuffer, NS::UInteger len);
};

template <class ObjectType>
class Enumerator : public Referencing<Enumerator<ObjectType>, FastEnumeration> {
public:
    ObjectType* nextObject();
    class Array* allObjects();
};

} // namespace NS

namespace metalcpu::detail {
// Out-of-line bodies of the NS::Enumerator<T> templates (T only changes the pointer type).
NS::Object* enumeratorNextObject(NS::FastEnumeration* enumerator);
NS::Array* enumeratorAllObjects(NS::FastEnumeration* enumerator);
} // namespace metalcpu::detail

template <class ObjectType>
ObjectType* NS::Enumerator<ObjectType>::nextObject() {
    return reinterpret_cast<ObjectType*>(metalcpu::detail::enumeratorNextObject(this));
}

template <class ObjectType>
NS::Array* NS::Enumerator<ObjectType>::allObjects() {
    return metalcpu::detail::enumeratorAllObjects(this);
}
