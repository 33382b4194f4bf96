#include "compiler/passes/air_intrinsics.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

// metal-flash-attention's declarations (GEMMHeaders.swift, metal_simdgroup_event), shortened to
// one of each label form.
constexpr std::string_view kDeclarations =
    "struct _simdgroup_event_t;\n"
    "thread _simdgroup_event_t*\n"
    "__metal_simdgroup_async_copy_1d(\n"
    "  ulong, ulong, threadgroup void *, const device void *, ulong)\n"
    "  __asm(\"air.simdgroup_async_copy_1d.p3i8.p1i8\");\n"
    "thread _simdgroup_event_t*\n"
    "__metal_simdgroup_async_copy_2d(\n"
    "  ulong, ulong,\n"
    "  device void *, ulong, ulong, ulong2,\n"
    "  const threadgroup void *, ulong, ulong, ulong2,\n"
    "  long2, int)\n"
    "  __asm(\"air.simdgroup_async_copy_2d.p1i8.p3i8\");\n"
    "void __metal_wait_simdgroup_events(\n"
    "  int, thread _simdgroup_event_t**)\n"
    "  __asm(\"air.wait_simdgroup_events\");\n";

// Test that the label table holds exactly the five labels MFA declares, each under the name
// its header gives it, and nothing for other AIR labels.
TEST(AirIntrinsics, Labels) {
    EXPECT_EQ(airIntrinsicFunction("air.simdgroup_async_copy_1d.p3i8.p1i8"), "__metal_simdgroup_async_copy_1d");
    EXPECT_EQ(airIntrinsicFunction("air.simdgroup_async_copy_1d.p1i8.p3i8"), "__metal_simdgroup_async_copy_1d");
    EXPECT_EQ(airIntrinsicFunction("air.simdgroup_async_copy_2d.p3i8.p1i8"), "__metal_simdgroup_async_copy_2d");
    EXPECT_EQ(airIntrinsicFunction("air.simdgroup_async_copy_2d.p1i8.p3i8"), "__metal_simdgroup_async_copy_2d");
    EXPECT_EQ(airIntrinsicFunction("air.wait_simdgroup_events"), "__metal_wait_simdgroup_events");
    EXPECT_EQ(airIntrinsicFunction("air.simdgroup_async_copy_3d.p3i8.p1i8"), "");
    EXPECT_EQ(airIntrinsicFunction("air.wait_simdgroup_events "), "");
    EXPECT_EQ(airIntrinsicFunction("llvm.trap"), "");
}

// Test that the declarations bound to those labels are erased, whole, so that calls reach the
// kernel library's functions, and that the rest of the file stays: the event type, a kernel
// that calls them, lines and columns after them.
TEST(AirIntrinsics, BoundDeclarationsAreErased) {
    auto p = testing::parse(std::string(kDeclarations) +
                            "kernel void k(device float* out) { thread _simdgroup_event_t* e = nullptr; "
                            "__metal_wait_simdgroup_events(1, &e); }");
    EXPECT_EQ(testing::runPass(*p, eraseAirIntrinsicDeclarations),
              "struct _simdgroup_event_t;\n"
              "\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
              "kernel void k(device float* out) { thread _simdgroup_event_t* e = nullptr; "
              "__metal_wait_simdgroup_events(1, &e); }");
}

// Test that a declaration stays when its label binds nothing metalcpu implements, binds an
// intrinsic under another name than the library's, or belongs to a class or a definition: the
// restricted dialect's checks report those (restrictions_test.cpp).
TEST(AirIntrinsics, OtherDeclarationsStay) {
    for (const char* source : {
             "void f(int) __asm(\"air.simdgroup_async_copy_3d.p3i8.p1i8\");",
             "void my_wait(int, thread _simdgroup_event_t**) __asm(\"air.wait_simdgroup_events\");",
             "void __metal_wait_simdgroup_events(int) __asm(\"_exit\");",
             "struct S { static void __metal_wait_simdgroup_events(int) __asm(\"air.wait_simdgroup_events\"); };",
             "void __metal_wait_simdgroup_events(int n) { }",
         }) {
        auto p = testing::parse(source);
        EXPECT_EQ(testing::runPass(*p, eraseAirIntrinsicDeclarations), source);
    }
}

} // namespace
} // namespace metalcpu::msl
