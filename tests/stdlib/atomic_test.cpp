// Tests of <metal_atomic>: single-threaded semantics of every operation, and concurrent
// fetch_add from two threads.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include <thread>
#include <type_traits>

namespace {

using namespace metal;

// Test that an atomic<T> is a T in memory, so a buffer of atomic_uint is an array of uint.
TEST(Atomic, LayoutIsThePlainValue) {
    EXPECT_EQ(sizeof(atomic_uint), sizeof(uint));
    EXPECT_EQ(alignof(atomic_uint), alignof(uint));
    EXPECT_EQ(sizeof(atomic_float), 4u);
    EXPECT_EQ(sizeof(atomic_bool), 1u);
    EXPECT_EQ(sizeof(atomic_ulong), 8u);
    uint buffer[3] = {5u, 6u, 7u};
    atomic_uint* atomics = reinterpret_cast<atomic_uint*>(buffer);
    EXPECT_EQ(atomic_load_explicit(&atomics[1], memory_order_relaxed), 6u);
    atomic_store_explicit(&atomics[2], 70u, memory_order_relaxed);
    EXPECT_EQ(buffer[2], 70u);
}

// Test that store, load and exchange write and return the expected values.
TEST(Atomic, StoreLoadExchange) {
    atomic_int a;
    atomic_store_explicit(&a, 41, memory_order_relaxed);
    EXPECT_EQ(atomic_load_explicit(&a, memory_order_relaxed), 41);
    EXPECT_EQ(atomic_exchange_explicit(&a, 7, memory_order_relaxed), 41);
    EXPECT_EQ(atomic_load_explicit(&a, memory_order_seq_cst), 7);
    atomic_bool flag;
    atomic_store_explicit(&flag, true, memory_order_release);
    EXPECT_TRUE(atomic_load_explicit(&flag, memory_order_acquire));
    EXPECT_TRUE(atomic_exchange_explicit(&flag, false, memory_order_acq_rel));
    EXPECT_FALSE(atomic_load_explicit(&flag, memory_order_relaxed));
}

// Test that compare-exchange stores on success and reports the current value on failure.
TEST(Atomic, CompareExchange) {
    atomic_uint a;
    atomic_store_explicit(&a, 10u, memory_order_relaxed);
    uint expected = 10u;
    bool done = false;
    for (int tries = 0; tries < 100 && !done; ++tries) // the weak form may fail spuriously
        done = atomic_compare_exchange_weak_explicit(&a, &expected, 20u, memory_order_relaxed, memory_order_relaxed);
    EXPECT_TRUE(done);
    EXPECT_EQ(atomic_load_explicit(&a, memory_order_relaxed), 20u);
    expected = 10u;
    EXPECT_FALSE(atomic_compare_exchange_weak_explicit(&a, &expected, 30u, memory_order_relaxed, memory_order_relaxed));
    EXPECT_EQ(expected, 20u);
    EXPECT_EQ(atomic_load_explicit(&a, memory_order_relaxed), 20u);
    expected = 20u;
    EXPECT_TRUE(atomic_compare_exchange_strong_explicit(&a, &expected, 5u, memory_order_seq_cst, memory_order_relaxed));
    EXPECT_EQ(atomic_load_explicit(&a, memory_order_relaxed), 5u);
}

// Test that the integer read-modify-writes apply their operation and return the previous value.
TEST(Atomic, IntegerFetchOps) {
    atomic_int a;
    atomic_store_explicit(&a, 12, memory_order_relaxed);
    EXPECT_EQ(atomic_fetch_add_explicit(&a, 5, memory_order_relaxed), 12);
    EXPECT_EQ(atomic_fetch_sub_explicit(&a, 20, memory_order_relaxed), 17);
    EXPECT_EQ(atomic_load_explicit(&a, memory_order_relaxed), -3);
    EXPECT_EQ(atomic_fetch_max_explicit(&a, 4, memory_order_relaxed), -3);
    EXPECT_EQ(atomic_fetch_max_explicit(&a, 2, memory_order_relaxed), 4);
    EXPECT_EQ(atomic_fetch_min_explicit(&a, -8, memory_order_relaxed), 4);
    EXPECT_EQ(atomic_load_explicit(&a, memory_order_relaxed), -8);
    atomic_uint u;
    atomic_store_explicit(&u, 0xf0u, memory_order_relaxed);
    EXPECT_EQ(atomic_fetch_and_explicit(&u, 0x3cu, memory_order_relaxed), 0xf0u);
    EXPECT_EQ(atomic_fetch_or_explicit(&u, 0x01u, memory_order_relaxed), 0x30u);
    EXPECT_EQ(atomic_fetch_xor_explicit(&u, 0xffu, memory_order_relaxed), 0x31u);
    EXPECT_EQ(atomic_load_explicit(&u, memory_order_relaxed), 0xceu);
    EXPECT_EQ(atomic_fetch_min_explicit(&u, 0xffffffffu, memory_order_relaxed), 0xceu) << "unsigned comparison";
    EXPECT_EQ(atomic_load_explicit(&u, memory_order_relaxed), 0xceu);
    atomic_ulong l;
    atomic_store_explicit(&l, 1ul << 40, memory_order_relaxed);
    EXPECT_EQ(atomic_fetch_add_explicit(&l, 1ul, memory_order_relaxed), 1ul << 40);
    EXPECT_EQ(atomic_fetch_max_explicit(&l, 1ul << 50, memory_order_relaxed), (1ul << 40) + 1);
    EXPECT_EQ(atomic_load_explicit(&l, memory_order_relaxed), 1ul << 50);
}

// Test that the float read-modify-writes (compare-exchange loops) return the previous value.
TEST(Atomic, FloatFetchOps) {
    atomic_float f;
    atomic_store_explicit(&f, 1.5f, memory_order_relaxed);
    EXPECT_EQ(atomic_fetch_add_explicit(&f, 2.25f, memory_order_relaxed), 1.5f);
    EXPECT_EQ(atomic_fetch_sub_explicit(&f, 0.75f, memory_order_relaxed), 3.75f);
    EXPECT_EQ(atomic_load_explicit(&f, memory_order_relaxed), 3.0f);
    EXPECT_EQ(atomic_fetch_max_explicit(&f, 10.0f, memory_order_relaxed), 3.0f);
    EXPECT_EQ(atomic_fetch_min_explicit(&f, -1.0f, memory_order_relaxed), 10.0f);
    EXPECT_EQ(atomic_load_explicit(&f, memory_order_relaxed), -1.0f);
    EXPECT_EQ(atomic_exchange_explicit(&f, 8.0f, memory_order_relaxed), -1.0f);
}

// Test that fetch_add from two threads loses no update, for uint and for float.
TEST(Atomic, TwoThreadsFetchAddCountEveryIncrement) {
    constexpr int kPerThread = 200000;
    atomic_uint count;
    atomic_float sum;
    atomic_store_explicit(&count, 0u, memory_order_relaxed);
    atomic_store_explicit(&sum, 0.0f, memory_order_relaxed);
    auto work = [&] {
        for (int i = 0; i < kPerThread; ++i) {
            atomic_fetch_add_explicit(&count, 1u, memory_order_relaxed);
            atomic_fetch_add_explicit(&sum, 1.0f, memory_order_relaxed);
        }
    };
    std::thread first(work);
    std::thread second(work);
    first.join();
    second.join();
    EXPECT_EQ(atomic_load_explicit(&count, memory_order_relaxed), 2u * kPerThread);
    // Every partial sum is an integer below 2^24, so float addition is exact here.
    EXPECT_EQ(atomic_load_explicit(&sum, memory_order_relaxed), 2.0f * kPerThread);
}

// Test that fences accept every memory order and scope, and order a message: data written
// before a release fence and a relaxed flag store is seen by a thread that reads the flag
// relaxed and then fences with acquire.
TEST(Atomic, FencesOrderAMessage) {
    atomic_thread_fence(mem_flags::mem_threadgroup, memory_order_acq_rel, thread_scope_threadgroup);
    atomic_thread_fence(mem_flags::mem_none, memory_order_relaxed, thread_scope_device);
    constexpr int kMessages = 2000;
    int data[kMessages] = {};
    atomic_int published;
    atomic_store_explicit(&published, 0, memory_order_relaxed);
    std::thread writer([&] {
        for (int i = 0; i < kMessages; ++i) {
            data[i] = i * 7 + 1;
            atomic_thread_fence(mem_flags::mem_device, memory_order_release);
            atomic_store_explicit(&published, i + 1, memory_order_relaxed);
        }
    });
    int wrong = 0;
    for (int seen = 0; seen < kMessages;) {
        const int now = atomic_load_explicit(&published, memory_order_relaxed);
        atomic_thread_fence(mem_flags::mem_device, memory_order_acquire);
        for (; seen < now; ++seen) wrong += data[seen] != seen * 7 + 1;
    }
    writer.join();
    EXPECT_EQ(wrong, 0);
    atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst);
}

} // namespace
