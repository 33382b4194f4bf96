#pragma once

#include "foundation/object.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSDictionary.hpp>
#include <Foundation/NSEnumerator.hpp>
#include <Foundation/NSSet.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace metalcpu::ns {

/// Retained references to a list of objects, released on destruction: the storage of the
/// immutable collections below.
class Elements {
public:
    Elements() = default;
    Elements(const Elements&) = delete;
    Elements& operator=(const Elements&) = delete;
    ~Elements() { clear(); }

    /// Retains and appends the objects behind `objects[0..count)`; null and foreign
    /// pointers are skipped with an error (Foundation raises an exception on nil).
    void add(const NS::Object* const* objects, std::size_t count, const char* method);
    void add(ObjectBase* object); ///< retains
    void replace(std::size_t index, ObjectBase* object); ///< retains the new, releases the old
    void clear();

    const std::vector<ObjectBase*>& items() const { return items_; }
    std::size_t size() const { return items_.size(); }

private:
    std::vector<ObjectBase*> items_;
};

/// NS::Enumerator<T>: walks a snapshot of a collection (it keeps the objects alive).
class Enumerator final : public Implements<NS::Enumerator<NS::Object>> {
public:
    explicit Enumerator(const std::vector<ObjectBase*>& items);
    const char* className() const override { return "NSEnumerator"; }

    NS::Object* nextObject();
    NS::Array* allObjects();
    NS::UInteger countByEnumerating(NS::FastEnumerationState* state, NS::Object** buffer, NS::UInteger length);

private:
    Elements items_;
    std::size_t next_ = 0;
};

/// NS::Array: an immutable list of retained objects.
class Array final : public Implements<NS::Array> {
public:
    const char* className() const override { return "NSArray"; }
    std::string description() const override;
    std::uint64_t hash() const override { return elements_.size(); }
    bool isEqual(const ObjectBase& other) const override;

    NS::Array* init() { return asPublicClass(); }
    NS::Array* initWithObjects(const NS::Object* const* objects, NS::UInteger count);
    NS::Array* initWithCoder(const NS::Coder* coder);
    NS::Object* object(NS::UInteger index) const;
    NS::UInteger count() const { return elements_.size(); }
    NS::Enumerator<NS::Object>* objectEnumerator() const;

    Elements& elements() { return elements_; }
    const std::vector<ObjectBase*>& items() const { return elements_.items(); }

private:
    Elements elements_;
};

/// NS::Dictionary: an immutable map from copied keys to retained values. Lookups compare
/// keys with isEqual(), as Foundation does, so a dynamic string finds a constant one.
class Dictionary final : public Implements<NS::Dictionary> {
public:
    const char* className() const override { return "NSDictionary"; }
    std::string description() const override;
    std::uint64_t hash() const override { return keys_.size(); }

    NS::Dictionary* init() { return asPublicClass(); }
    NS::Dictionary* initWithObjects(const NS::Object* const* objects, const NS::Object* const* keys,
                                    NS::UInteger count);
    NS::Dictionary* initWithCoder(const NS::Coder* coder);
    NS::Object* object(const NS::Object* key) const;
    NS::UInteger count() const { return keys_.size(); }
    NS::FastEnumeration* keyEnumerator() const;

    /// Adds or replaces one entry (building dictionaries inside the library).
    void set(ObjectBase* key, ObjectBase* value);
    const std::vector<ObjectBase*>& keys() const { return keys_.items(); }
    const std::vector<ObjectBase*>& values() const { return values_.items(); }

private:
    Elements keys_;
    Elements values_; ///< values_[i] belongs to keys_[i]
};

/// NS::Set: an immutable collection of distinct (by isEqual) retained objects.
class Set final : public Implements<NS::Set> {
public:
    const char* className() const override { return "NSSet"; }

    NS::Set* init() { return asPublicClass(); }
    NS::Set* initWithObjects(const NS::Object* const* objects, NS::UInteger count);
    NS::Set* initWithCoder(const NS::Coder* coder);
    NS::UInteger count() const { return elements_.size(); }
    NS::Enumerator<NS::Object>* objectEnumerator() const;

private:
    Elements elements_;
};

} // namespace metalcpu::ns
