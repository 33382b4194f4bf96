#include "compiler/passes/checked_value_casts.h"

#include "compiler/compiler_test_util.h"
#include "compiler/passes/address_spaces.h"
#include "compiler/passes/checked_accesses.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

/// `source` after the validation flavour's type and cast rewrites, in the pipeline's order,
/// without the namespace of the checked operations.
std::string casts(std::string_view source) {
    auto p = testing::parse(source);
    std::string out = testing::runPasses(*p, {rewriteCheckedPointerTypes, rewriteCheckedValueCasts, rewriteAddressSpaces}, true);
    const std::string space = "::metalcpu_kernel::";
    for (std::size_t at; (at = out.find(space)) != std::string::npos;) out.erase(at, space.size());
    return out;
}

// Test that reinterpret_casts to types not written as pointers or references (integers, through
// aliases, with pointers among template arguments) become reinterpret_value: their operand may be a
// checked pointer (PyTorch's `reinterpret_cast<ulong>(data)`).
TEST(CheckedValueCasts, ToValues) {
    EXPECT_EQ(casts("auto a = reinterpret_cast<ulong>(data);"), "auto a = reinterpret_value<ulong>(data);");
    EXPECT_EQ(casts("auto a = reinterpret_cast<const uintptr_t>(p + 1);"),
              "auto a = reinterpret_value<const uintptr_t>(p + 1);");
    EXPECT_EQ(casts("auto a = reinterpret_cast<S<T*, 2>>(x);"), "auto a = reinterpret_value<S<T*, 2>>(x);");
}

// Test that casts to checked pointers stay pointer_cast, and casts to thread pointers and
// references (whose operands are never checked pointers) stay as written.
TEST(CheckedValueCasts, PointersAndReferencesStay) {
    EXPECT_EQ(casts("auto q = reinterpret_cast<device uchar*>(addr);"),
              "auto q = pointer_cast<checked_ptr< uchar, 1>>(addr);");
    EXPECT_EQ(casts("auto q = reinterpret_cast<thread uint*>(&f);"), "auto q = reinterpret_cast< uint*>(&f);");
    EXPECT_EQ(casts("auto& r = reinterpret_cast<thread uint&>(f);"), "auto& r = reinterpret_cast< uint&>(f);");
    EXPECT_EQ(casts("auto& r = reinterpret_cast<thread uint (&)[4]>(v);"),
              "auto& r = reinterpret_cast< uint (&)[4]>(v);");
    EXPECT_EQ(casts("auto a = static_cast<ulong>(x);"), "auto a = static_cast<ulong>(x);");
}

} // namespace
} // namespace metalcpu::msl
