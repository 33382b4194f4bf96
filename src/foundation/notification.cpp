// NS::Notification and NS::NotificationCenter. metalcpu posts no notifications; the
// center keeps observers so that programs registering them work unchanged.
#include "foundation/object.h"

#include <Foundation/NSNotification.hpp>

#include <algorithm>
#include <mutex>
#include <vector>

namespace metalcpu::ns {

class Notification final : public Implements<NS::Notification> {
public:
    const char* className() const override { return "NSNotification"; }
    NS::String* name() const { return nullptr; }
    NS::Object* object() const { return nullptr; }
    NS::Dictionary* userInfo() const { return nullptr; }
};

/// The token addObserver() returns; it owns the observer function.
class Observer final : public Implements<NS::Object> {
public:
    explicit Observer(NS::ObserverFunction function) : function_(std::move(function)) {}
    const char* className() const override { return "__NSObserver"; }

private:
    NS::ObserverFunction function_;
};

class NotificationCenter final : public Implements<NS::NotificationCenter> {
public:
    ~NotificationCenter() override {
        for (ObjectBase* observer : observers_) observer->release();
    }
    const char* className() const override { return "NSNotificationCenter"; }

    NS::Object* addObserver(NS::NotificationName, NS::Object*, void*, NS::ObserverFunction& handler) {
        NS::Object* observer = make<Observer>(handler);
        std::lock_guard lock(mutex_);
        observers_.push_back(coreOf(observer));
        return observer; // owned by the center until removeObserver()
    }

    void removeObserver(NS::Object* token) {
        ObjectBase* observer = ObjectBase::from(token);
        std::unique_lock lock(mutex_);
        auto found = std::find(observers_.begin(), observers_.end(), observer);
        if (found == observers_.end()) return;
        observers_.erase(found);
        lock.unlock();
        observer->release();
    }

private:
    std::mutex mutex_;
    std::vector<ObjectBase*> observers_;
};

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

NS::String* NS::Notification::name() const { return ns::call<ns::Notification>(this, &ns::Notification::name); }

NS::Object* NS::Notification::object() const { return ns::call<ns::Notification>(this, &ns::Notification::object); }

NS::Dictionary* NS::Notification::userInfo() const {
    return ns::call<ns::Notification>(this, &ns::Notification::userInfo);
}

NS::NotificationCenter* NS::NotificationCenter::defaultCenter() {
    static NS::NotificationCenter* center = [] {
        NS::NotificationCenter* made = ns::make<ns::NotificationCenter>();
        ns::coreOf(made)->makeImmortal();
        return made;
    }();
    return center;
}

NS::Object* NS::NotificationCenter::addObserver(NotificationName name, Object* pObj, void* pQueue,
                                                ObserverFunction& handler) {
    return ns::call<ns::NotificationCenter>(this, &ns::NotificationCenter::addObserver, name, pObj, pQueue, handler);
}

void NS::NotificationCenter::removeObserver(Object* pObserver) {
    ns::call<ns::NotificationCenter>(this, &ns::NotificationCenter::removeObserver, pObserver);
}
