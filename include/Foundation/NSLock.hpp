#pragma once

#include "NSDate.hpp"
#include "NSDefines.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

template <class Class, class Base = class Object>
class Locking : public Base {
public:
    void lock();
    void unlock();
};

// A condition variable with its own mutex, as NSCondition: lock(), then wait() or
// waitUntilDate() in a loop over the predicate, then unlock().
class Condition : public Locking<Condition> {
public:
    static Condition* alloc();

    Condition* init();

    void wait();
    bool waitUntilDate(Date* pLimit);
    void signal();
    void broadcast();
};

} // namespace NS

namespace metalcpu::detail {
// Out-of-line bodies of NS::Locking<>.
void lockObject(NS::Object* object);
void unlockObject(NS::Object* object);
} // namespace metalcpu::detail

template <class Class, class Base>
void NS::Locking<Class, Base>::lock() {
    metalcpu::detail::lockObject(this);
}

template <class Class, class Base>
void NS::Locking<Class, Base>::unlock() {
    metalcpu::detail::unlockObject(this);
}
