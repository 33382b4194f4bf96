#pragma once

#include "foundation/object.h"

#include <Foundation/NSAutoreleasePool.hpp>

#include <cstddef>

namespace metalcpu::ns {

class ThreadPools;

/// How many autoreleased objects the per-thread fallback pool keeps alive when a thread
/// has no AutoreleasePool (see docs/foundation.md).
inline constexpr std::size_t kFallbackPoolCapacity = 1024;

/// Hands one reference of `object` to the innermost pool of the calling thread, or to the
/// thread's fallback pool when it has none.
void autoreleaseOnCurrentThread(ObjectBase* object);

/// Entries in the calling thread's fallback pool, including objects it holds because they
/// may not be drained yet. For tests.
std::size_t fallbackPoolSize();

/// NS::AutoreleasePool. A pool is a boundary in its thread's stack of autoreleased
/// objects: init() pushes it, drain() (or the last release()) releases everything
/// autoreleased since then on that thread, including pools nested above it, as Cocoa does.
class AutoreleasePool final : public Implements<NS::AutoreleasePool> {
public:
    ~AutoreleasePool() override;
    const char* className() const override { return "NSAutoreleasePool"; }

    NS::AutoreleasePool* init();
    void drain();
    void addObject(NS::Object* object);

private:
    friend class ThreadPools;
    ThreadPools* owner_ = nullptr; ///< the thread whose stack holds this pool; null once popped
    std::size_t boundary_ = 0;     ///< index of this pool's boundary in the owner's stack
};

} // namespace metalcpu::ns
