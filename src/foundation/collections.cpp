// NS::Array, NS::Dictionary, NS::Set and NS::Enumerator.
#include "foundation/collections.h"

#include "support/log.h"

#include <Foundation/NSString.hpp>

namespace metalcpu::ns {

namespace {

/// Foundation's indentation of nested descriptions.
std::string indented(const std::string& text) {
    std::string out;
    for (char c : text) {
        out += c;
        if (c == '\n') out += "    ";
    }
    return out;
}

// Fast enumeration needs a mutations counter; our collections never mutate.
unsigned long noMutations = 0;

} // namespace

void Elements::add(const NS::Object* const* objects, std::size_t count, const char* method) {
    if (!objects && count > 0) {
        support::log().error("{}: a null list of {} objects; nothing was added", method, count);
        return;
    }
    items_.reserve(items_.size() + count);
    for (std::size_t i = 0; i < count; ++i) {
        ObjectBase* object = ObjectBase::from(objects[i]);
        if (!object) {
            support::log().error("{}: object {} of {} is null or not an object; it was left out", method, i, count);
            continue;
        }
        add(object);
    }
}

void Elements::add(ObjectBase* object) {
    object->retain();
    items_.push_back(object);
}

void Elements::replace(std::size_t index, ObjectBase* object) {
    object->retain();
    std::swap(items_[index], object);
    object->release();
}

void Elements::clear() {
    std::vector<ObjectBase*> items;
    items.swap(items_);
    for (ObjectBase* object : items) object->release();
}

Enumerator::Enumerator(const std::vector<ObjectBase*>& items) {
    for (ObjectBase* object : items) items_.add(object);
}

NS::Object* Enumerator::nextObject() {
    if (next_ >= items_.size()) return nullptr;
    return items_.items()[next_++]->asPublic();
}

NS::Array* Enumerator::allObjects() {
    auto* array = make<Array>();
    for (; next_ < items_.size(); ++next_) static_cast<Array*>(array)->elements().add(items_.items()[next_]);
    return autoreleased(array);
}

NS::UInteger Enumerator::countByEnumerating(NS::FastEnumerationState* state, NS::Object** buffer,
                                            NS::UInteger length) {
    if (!state || !buffer) return 0;
    NS::UInteger count = 0;
    for (; count < length && next_ < items_.size(); ++count) buffer[count] = items_.items()[next_++]->asPublic();
    state->state = 1;
    state->itemsPtr = buffer;
    state->mutationsPtr = &noMutations;
    return count;
}

std::string Array::description() const {
    std::string text = "(";
    for (std::size_t i = 0; i < items().size(); ++i) {
        text += i ? ",\n    " : "\n    ";
        text += indented(items()[i]->description());
    }
    return text + "\n)";
}

bool Array::isEqual(const ObjectBase& other) const {
    auto* array = dynamic_cast<const Array*>(&other);
    if (!array || array->count() != count()) return false;
    for (std::size_t i = 0; i < items().size(); ++i)
        if (!items()[i]->isEqual(*array->items()[i])) return false;
    return true;
}

NS::Array* Array::initWithObjects(const NS::Object* const* objects, NS::UInteger count) {
    elements_.add(objects, count, "NS::Array::init");
    return asPublicClass();
}

NS::Array* Array::initWithCoder(const NS::Coder*) {
    // There is no NSCoder on Linux: nothing can be decoded (Cocoa's failed-init rule).
    release();
    return nullptr;
}

NS::Object* Array::object(NS::UInteger index) const {
    if (index >= items().size()) {
        support::log().error("NS::Array::object: index {} is beyond the end of an array of {} objects", index,
                             items().size());
        return nullptr;
    }
    return items()[index]->asPublic();
}

NS::Enumerator<NS::Object>* Array::objectEnumerator() const { return autoreleased(make<Enumerator>(items())); }

std::string Dictionary::description() const {
    std::string text = "{";
    for (std::size_t i = 0; i < keys().size(); ++i)
        text += "\n    " + indented(keys()[i]->description()) + " = " + indented(values()[i]->description()) + ";";
    return text + "\n}";
}

NS::Dictionary* Dictionary::initWithObjects(const NS::Object* const* objects, const NS::Object* const* keys,
                                            NS::UInteger count) {
    if ((!objects || !keys) && count > 0) {
        support::log().error("NS::Dictionary::init: null object or key list; the dictionary is empty");
        return asPublicClass();
    }
    for (NS::UInteger i = 0; i < count; ++i) {
        ObjectBase* key = ObjectBase::from(keys[i]);
        ObjectBase* value = ObjectBase::from(objects[i]);
        if (!key || !value) {
            support::log().error("NS::Dictionary::init: entry {} of {} has a null key or value; it was left out", i,
                                 count);
            continue;
        }
        set(key, value);
    }
    return asPublicClass();
}

NS::Dictionary* Dictionary::initWithCoder(const NS::Coder*) {
    release();
    return nullptr;
}

void Dictionary::set(ObjectBase* key, ObjectBase* value) {
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        if (keys_.items()[i]->isEqual(*key)) {
            values_.replace(i, value);
            return;
        }
    }
    // Foundation copies keys, so that a later change to a mutable key cannot move it.
    ObjectBase* keyCopy = key->copy();
    keys_.add(keyCopy);
    keyCopy->release();
    values_.add(value);
}

NS::Object* Dictionary::object(const NS::Object* key) const {
    ObjectBase* wanted = ObjectBase::from(key);
    if (!wanted) return nullptr;
    std::uint64_t hash = wanted->hash();
    for (std::size_t i = 0; i < keys().size(); ++i)
        if (keys()[i]->hash() == hash && keys()[i]->isEqual(*wanted)) return values()[i]->asPublic();
    return nullptr;
}

NS::FastEnumeration* Dictionary::keyEnumerator() const { return autoreleased(make<Enumerator>(keys())); }

NS::Set* Set::initWithObjects(const NS::Object* const* objects, NS::UInteger count) {
    Elements all;
    all.add(objects, count, "NS::Set::init");
    for (ObjectBase* object : all.items()) {
        bool seen = false;
        for (ObjectBase* kept : elements_.items()) seen = seen || kept->isEqual(*object);
        if (!seen) elements_.add(object);
    }
    return asPublicClass();
}

NS::Set* Set::initWithCoder(const NS::Coder*) {
    release();
    return nullptr;
}

NS::Enumerator<NS::Object>* Set::objectEnumerator() const {
    return autoreleased(make<Enumerator>(elements_.items()));
}

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

// NS::FastEnumeration and NS::Enumerator<T>

NS::UInteger NS::FastEnumeration::countByEnumerating(FastEnumerationState* pState, Object** pBuffer, UInteger len) {
    return ns::call<ns::Enumerator>(this, &ns::Enumerator::countByEnumerating, pState, pBuffer, len);
}

NS::Object* metalcpu::detail::enumeratorNextObject(NS::FastEnumeration* enumerator) {
    return ns::call<ns::Enumerator>(enumerator, &ns::Enumerator::nextObject);
}

NS::Array* metalcpu::detail::enumeratorAllObjects(NS::FastEnumeration* enumerator) {
    return ns::call<ns::Enumerator>(enumerator, &ns::Enumerator::allObjects);
}

// NS::Array

NS::Array* NS::Array::array() { return ns::autoreleased(ns::make<ns::Array>()); }

NS::Array* NS::Array::array(const Object* pObject) { return ns::autoreleased(alloc()->init(&pObject, 1)); }

NS::Array* NS::Array::array(const Object* const* pObjects, UInteger count) {
    return ns::autoreleased(alloc()->init(pObjects, count));
}

NS::Array* NS::Array::alloc() { return ns::make<ns::Array>(); }

NS::Array* NS::Array::init() { return ns::call<ns::Array>(this, &ns::Array::init); }

NS::Array* NS::Array::init(const Object* const* pObjects, UInteger count) {
    return ns::call<ns::Array>(this, &ns::Array::initWithObjects, pObjects, count);
}

NS::Array* NS::Array::init(const Coder* pCoder) { return ns::call<ns::Array>(this, &ns::Array::initWithCoder, pCoder); }

NS::UInteger NS::Array::count() const { return ns::call<ns::Array>(this, &ns::Array::count); }

NS::Enumerator<NS::Object>* NS::Array::objectEnumerator() const {
    return ns::call<ns::Array>(this, &ns::Array::objectEnumerator);
}

NS::Object* metalcpu::detail::arrayObject(const NS::Array* array, NS::UInteger index) {
    return ns::call<ns::Array>(array, &ns::Array::object, index);
}

// NS::Dictionary

NS::Dictionary* NS::Dictionary::dictionary() { return ns::autoreleased(ns::make<ns::Dictionary>()); }

NS::Dictionary* NS::Dictionary::dictionary(const Object* pObject, const Object* pKey) {
    return ns::autoreleased(alloc()->init(&pObject, &pKey, 1));
}

NS::Dictionary* NS::Dictionary::dictionary(const Object* const* pObjects, const Object* const* pKeys, UInteger count) {
    return ns::autoreleased(alloc()->init(pObjects, pKeys, count));
}

NS::Dictionary* NS::Dictionary::alloc() { return ns::make<ns::Dictionary>(); }

NS::Dictionary* NS::Dictionary::init() { return ns::call<ns::Dictionary>(this, &ns::Dictionary::init); }

NS::Dictionary* NS::Dictionary::init(const Object* const* pObjects, const Object* const* pKeys, UInteger count) {
    return ns::call<ns::Dictionary>(this, &ns::Dictionary::initWithObjects, pObjects, pKeys, count);
}

NS::Dictionary* NS::Dictionary::init(const Coder* pCoder) {
    return ns::call<ns::Dictionary>(this, &ns::Dictionary::initWithCoder, pCoder);
}

NS::UInteger NS::Dictionary::count() const { return ns::call<ns::Dictionary>(this, &ns::Dictionary::count); }

NS::FastEnumeration* metalcpu::detail::dictionaryKeyEnumerator(const NS::Dictionary* dictionary) {
    return ns::call<ns::Dictionary>(dictionary, &ns::Dictionary::keyEnumerator);
}

NS::Object* metalcpu::detail::dictionaryObject(const NS::Dictionary* dictionary, const NS::Object* key) {
    return ns::call<ns::Dictionary>(dictionary, &ns::Dictionary::object, key);
}

// NS::Set

NS::UInteger NS::Set::count() const { return ns::call<ns::Set>(this, &ns::Set::count); }

NS::Enumerator<NS::Object>* NS::Set::objectEnumerator() const {
    return ns::call<ns::Set>(this, &ns::Set::objectEnumerator);
}

NS::Set* NS::Set::alloc() { return ns::make<ns::Set>(); }

NS::Set* NS::Set::init() { return ns::call<ns::Set>(this, &ns::Set::init); }

NS::Set* NS::Set::init(const Object* const* pObjects, UInteger count) {
    return ns::call<ns::Set>(this, &ns::Set::initWithObjects, pObjects, count);
}

NS::Set* NS::Set::init(const Coder* pCoder) { return ns::call<ns::Set>(this, &ns::Set::initWithCoder, pCoder); }
