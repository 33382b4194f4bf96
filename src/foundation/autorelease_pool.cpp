// Autorelease pools: a per-thread stack of pools, plus a bounded fallback pool.
//
// With an AutoreleasePool, the semantics are Cocoa's: an autoreleased object lives until
// the innermost pool of its thread is drained. Without one, Cocoa leaks the object (and
// warns under OBJC_DEBUG_MISSING_POOLS). Most metal-cpp programs never create a pool and
// autorelease command buffers and encoders in loops, so leaking is not an option: each
// thread has a fallback pool that keeps the newest kFallbackPoolCapacity (1024) objects
// and releases older ones. An object whose mayDrainFromFallbackPool() says no (a command
// buffer still executing) is held and asked again later. Thread exit drains everything.
// This is the one deliberate deviation from Cocoa; docs/foundation.md describes it.
#include "foundation/autorelease_pool.h"

#include "support/log.h"

#include <cstdio>
#include <deque>
#include <thread>
#include <vector>

namespace metalcpu::ns {

/// The calling thread's autoreleased objects: the stack of pools and the fallback pool.
class ThreadPools {
public:
    ThreadPools() = default;
    ThreadPools(const ThreadPools&) = delete;
    ThreadPools& operator=(const ThreadPools&) = delete;
    ~ThreadPools();

    void autorelease(ObjectBase* object);
    void push(AutoreleasePool* pool);
    /// Releases everything above `pool`'s boundary, nested pools included, and unlinks it.
    void pop(AutoreleasePool* pool);
    std::size_t fallbackSize() const { return fallback_.size() + held_.size(); }
    void show() const;

private:
    /// One autoreleased reference, or (pool != nullptr) the boundary where a pool starts.
    struct Entry {
        ObjectBase* object;
        AutoreleasePool* pool;
    };

    void popAbove(std::size_t boundary, bool releaseBoundaryPool);
    void trimFallback();
    void recheckHeld();

    std::vector<Entry> stack_;
    std::size_t depth_ = 0; ///< pools on the stack
    std::deque<ObjectBase*> fallback_;
    std::vector<ObjectBase*> held_; ///< past the capacity but not drainable yet
    std::size_t pushesSinceRecheck_ = 0;
    bool trimming_ = false;
};

namespace {

thread_local ThreadPools threadPools;
// Trivially destructible, so it stays readable after threadPools is destroyed at thread
// exit, when other thread-local destructors may still autorelease.
thread_local bool threadPoolsGone = false;

ThreadPools* currentPools() { return threadPoolsGone ? nullptr : &threadPools; }

} // namespace

ThreadPools::~ThreadPools() {
    // Releasing an object may autorelease others; loop until nothing is left.
    while (!stack_.empty() || !fallback_.empty() || !held_.empty()) {
        popAbove(0, true); // pools left undrained at thread exit are deallocated too
        while (!fallback_.empty()) {
            ObjectBase* object = fallback_.front();
            fallback_.pop_front();
            object->release();
        }
        std::vector<ObjectBase*> held;
        held.swap(held_);
        for (ObjectBase* object : held) object->release();
    }
    threadPoolsGone = true;
}

void ThreadPools::autorelease(ObjectBase* object) {
    if (depth_ > 0) {
        stack_.push_back({object, nullptr});
        return;
    }
    fallback_.push_back(object);
    if (fallback_.size() > kFallbackPoolCapacity) trimFallback();
    if (!held_.empty() && ++pushesSinceRecheck_ >= held_.size() + 32) recheckHeld();
}

void ThreadPools::push(AutoreleasePool* pool) {
    pool->owner_ = this;
    pool->boundary_ = stack_.size();
    stack_.push_back({nullptr, pool});
    ++depth_;
}

void ThreadPools::pop(AutoreleasePool* pool) {
    if (currentPools() != this) {
        support::log().error("NS::AutoreleasePool::drain: the pool belongs to another thread; pools must be drained "
                             "on the thread that created them. Nothing was drained.");
        return;
    }
    popAbove(pool->boundary_, false);
}

void ThreadPools::popAbove(std::size_t boundary, bool releaseBoundaryPool) {
    // Top down, as Cocoa does: inner pools and the newest objects go first. Objects
    // autoreleased by a release in this loop land on top and are released too.
    while (stack_.size() > boundary) {
        Entry entry = stack_.back();
        stack_.pop_back();
        if (!entry.pool) {
            entry.object->release();
            continue;
        }
        --depth_;
        entry.pool->owner_ = nullptr;
        // A nested pool drained by an outer one is deallocated with it (Cocoa's rule);
        // the pool being popped itself is released by its caller.
        if (stack_.size() != boundary || releaseBoundaryPool) entry.pool->release();
    }
}

void ThreadPools::trimFallback() {
    if (trimming_) return; // the outer call keeps trimming
    trimming_ = true;
    while (fallback_.size() > kFallbackPoolCapacity) {
        ObjectBase* oldest = fallback_.front();
        fallback_.pop_front();
        if (oldest->mayDrainFromFallbackPool())
            oldest->release();
        else
            held_.push_back(oldest);
    }
    trimming_ = false;
}

void ThreadPools::recheckHeld() {
    pushesSinceRecheck_ = 0;
    std::vector<ObjectBase*> held;
    held.swap(held_);
    for (ObjectBase* object : held) {
        if (object->mayDrainFromFallbackPool())
            object->release();
        else
            held_.push_back(object);
    }
}

void ThreadPools::show() const {
    // Printed directly, like the Objective-C runtime's _objc_autoreleasePoolPrint: the
    // caller asked for this output, so it does not depend on the log level.
    std::fprintf(stderr, "metalcpu: ##############\n");
    std::fprintf(stderr, "metalcpu: AUTORELEASE POOLS for thread %p\n", static_cast<const void*>(this));
    std::fprintf(stderr, "metalcpu: %zu releases pending in %zu pools.\n", stack_.size() - depth_, depth_);
    for (const Entry& entry : stack_) {
        if (entry.pool)
            std::fprintf(stderr, "metalcpu: [%p]  ################  POOL %p\n", static_cast<const void*>(&entry),
                         static_cast<const void*>(entry.pool));
        else
            std::fprintf(stderr, "metalcpu: [%p]  %s\n", static_cast<const void*>(&entry),
                         entry.object->description().c_str());
    }
    std::fprintf(stderr, "metalcpu: %zu objects in the fallback pool (used while the thread has no pool).\n",
                 fallbackSize());
    std::fprintf(stderr, "metalcpu: ##############\n");
}

void autoreleaseOnCurrentThread(ObjectBase* object) {
    if (ThreadPools* pools = currentPools()) {
        pools->autorelease(object);
        return;
    }
    // The thread is past its own pools' teardown: keeping the object alive (a leak) is
    // the only choice that cannot free something still in use.
    support::log().debug("autorelease after the thread's pools were torn down; {} is leaked", object->description());
}

void ObjectBase::autorelease() {
    if (!isImmortal()) autoreleaseOnCurrentThread(this);
}

std::size_t fallbackPoolSize() {
    ThreadPools* pools = currentPools();
    return pools ? pools->fallbackSize() : 0;
}

AutoreleasePool::~AutoreleasePool() {
    // The last release() of a pool drains it, as in Cocoa.
    if (owner_) owner_->pop(this);
}

NS::AutoreleasePool* AutoreleasePool::init() {
    if (!owner_) {
        if (ThreadPools* pools = currentPools()) pools->push(this);
    }
    return asPublicClass();
}

void AutoreleasePool::drain() {
    if (owner_) owner_->pop(this);
    release();
}

void AutoreleasePool::addObject(NS::Object* object) {
    if (ObjectBase* core = ObjectBase::from(object)) core->autorelease();
}

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

NS::AutoreleasePool* NS::AutoreleasePool::alloc() { return ns::make<ns::AutoreleasePool>(); }

NS::AutoreleasePool* NS::AutoreleasePool::init() { return ns::call<ns::AutoreleasePool>(this, &ns::AutoreleasePool::init); }

void NS::AutoreleasePool::drain() { ns::call<ns::AutoreleasePool>(this, &ns::AutoreleasePool::drain); }

void NS::AutoreleasePool::addObject(Object* pObject) {
    ns::call<ns::AutoreleasePool>(this, &ns::AutoreleasePool::addObject, pObject);
}

void NS::AutoreleasePool::showPools() {
    if (ns::ThreadPools* pools = ns::currentPools()) pools->show();
}
