// NS::Set.
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

namespace metalcpu::ns {
namespace {

// Test that a set keeps distinct objects (by isEqual), retains them and enumerates them.
TEST(SetTest, DistinctObjects) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    NS::String* dynamic = NS::String::string("a", NS::UTF8StringEncoding);
    const NS::Object* items[] = {MTLSTR("a"), dynamic, MTLSTR("b")};
    NS::Set* set = NS::Set::alloc()->init(items, 3);
    EXPECT_EQ(set->count(), 2u);
    NS::Enumerator<NS::Object>* enumerator = set->objectEnumerator();
    int seen = 0;
    while (enumerator->nextObject()) ++seen;
    EXPECT_EQ(seen, 2);
    set->release();
    NS::Set* empty = NS::Set::alloc()->init();
    EXPECT_EQ(empty->count(), 0u);
    empty->release();
    EXPECT_EQ(NS::Set::alloc()->init(static_cast<const NS::Coder*>(nullptr)), nullptr);
    pool->drain();
}

} // namespace
} // namespace metalcpu::ns
