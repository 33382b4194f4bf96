#pragma once

#include "NSDefines.hpp"
#include "NSEnumerator.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

class Dictionary : public NS::Copying<Dictionary> {
public:
    static Dictionary* dictionary();
    static Dictionary* dictionary(const Object* pObject, const Object* pKey);
    static Dictionary* dictionary(const Object* const* pObjects, const Object* const* pKeys, UInteger count);

    static Dictionary* alloc();

    Dictionary* init();
    Dictionary* init(const Object* const* pObjects, const Object* const* pKeys, UInteger count);
    Dictionary* init(const class Coder* pCoder);

    template <class KeyType = Object>
    Enumerator<KeyType>* keyEnumerator() const;

    template <class ObjectType = Object>
    ObjectType* object(const Object* pKey) const;
    [[nodiscard]] UInteger count() const;
};

} // namespace NS

namespace metalcpu::detail {
// Out-of-line bodies of the NS::Dictionary templates.
NS::FastEnumeration* dictionaryKeyEnumerator(const NS::Dictionary* dictionary);
NS::Object* dictionaryObject(const NS::Dictionary* dictionary, const NS::Object* key);
} // namespace metalcpu::detail

template <class KeyType>
NS::Enumerator<KeyType>* NS::Dictionary::keyEnumerator() const {
    return reinterpret_cast<Enumerator<KeyType>*>(metalcpu::detail::dictionaryKeyEnumerator(this));
}

template <class ObjectType>
ObjectType* NS::Dictionary::object(const Object* pKey) const {
    return reinterpret_cast<ObjectType*>(metalcpu::detail::dictionaryObject(this, pKey));
}
