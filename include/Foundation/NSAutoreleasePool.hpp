#pragma once

#include "NSDefines.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

// A pool of autoreleased objects for the calling thread: `alloc()->init()` pushes it,
// `drain()` (or `release()`) releases everything autoreleased on the thread since then.
// Threads without a pool use a bounded fallback pool (docs/foundation.md).
class AutoreleasePool : public Object {
public:
    static AutoreleasePool* alloc();
    AutoreleasePool* init();

    void drain();

    void addObject(Object* pObject);

    static void showPools();
};

} // namespace NS
