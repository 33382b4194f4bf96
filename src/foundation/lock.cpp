// NS::Condition and the NS::Locking<> template's out-of-line bodies.
#include "foundation/date.h"
#include "foundation/object.h"

#include <Foundation/NSLock.hpp>

#include <condition_variable>
#include <mutex>

namespace metalcpu::ns {

/// What every lockable Foundation object shares (only NS::Condition exists in metal-cpp).
class LockingCore : public ObjectBase {
public:
    void lock() { mutex_.lock(); }
    void unlock() { mutex_.unlock(); }

protected:
    std::mutex mutex_;
};

/// NS::Condition: a mutex and a condition variable, used as NSCondition is.
class Condition final : public Implements<NS::Condition, LockingCore> {
public:
    const char* className() const override { return "NSCondition"; }

    NS::Condition* init() { return asPublicClass(); }
    // The caller holds the lock (Cocoa's rule); adopt it for the wait and give it back.
    void wait() {
        std::unique_lock lock(mutex_, std::adopt_lock);
        condition_.wait(lock);
        lock.release();
    }
    bool waitUntilDate(NS::Date* limit) {
        Date* date = implOf<Date>(limit);
        if (!date) return false;
        std::unique_lock lock(mutex_, std::adopt_lock);
        bool signalled = condition_.wait_until(lock, date->time()) == std::cv_status::no_timeout;
        lock.release();
        return signalled;
    }
    void signal() { condition_.notify_one(); }
    void broadcast() { condition_.notify_all(); }

private:
    std::condition_variable condition_;
};

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

void metalcpu::detail::lockObject(NS::Object* object) { ns::call<ns::LockingCore>(object, &ns::LockingCore::lock); }

void metalcpu::detail::unlockObject(NS::Object* object) {
    ns::call<ns::LockingCore>(object, &ns::LockingCore::unlock);
}

NS::Condition* NS::Condition::alloc() { return ns::make<ns::Condition>(); }

NS::Condition* NS::Condition::init() { return ns::call<ns::Condition>(this, &ns::Condition::init); }

void NS::Condition::wait() { ns::call<ns::Condition>(this, &ns::Condition::wait); }

bool NS::Condition::waitUntilDate(Date* pLimit) {
    return ns::call<ns::Condition>(this, &ns::Condition::waitUntilDate, pLimit);
}

void NS::Condition::signal() { ns::call<ns::Condition>(this, &ns::Condition::signal); }

void NS::Condition::broadcast() { ns::call<ns::Condition>(this, &ns::Condition::broadcast); }
