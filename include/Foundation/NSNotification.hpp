#pragma once

#include "NSDefines.hpp"
#include "NSDictionary.hpp"
#include "NSObject.hpp"
#include "NSString.hpp"
#include "NSTypes.hpp"

#include <functional>

namespace NS {

using NotificationName = class String*;

class Notification : public NS::Referencing<Notification> {
public:
    NS::String* name() const;
    NS::Object* object() const;
    NS::Dictionary* userInfo() const;
};

#if METALCPU_HAS_BLOCKS
using ObserverBlock = void (^)(Notification*);
#endif
using ObserverFunction = std::function<void(Notification*)>;

// metalcpu posts no notifications of its own; observers are kept and can be removed.
class NotificationCenter : public NS::Referencing<NotificationCenter> {
public:
    static class NotificationCenter* defaultCenter();
#if METALCPU_HAS_BLOCKS
    Object* addObserver(NotificationName name, Object* pObj, void* pQueue, ObserverBlock block);
#endif
    Object* addObserver(NotificationName name, Object* pObj, void* pQueue, ObserverFunction& handler);
    void removeObserver(Object* pObserver);
};

} // namespace NS

#if METALCPU_HAS_BLOCKS
// Blocks are adapted to the std::function overload.
inline NS::Object* NS::NotificationCenter::addObserver(NotificationName name, Object* pObj, void* pQueue,
                                                       ObserverBlock block) {
    ObserverFunction function = [block](Notification* notification) { block(notification); };
    return addObserver(name, pObj, pQueue, function);
}
#endif
