#include "compiler/passes/collective_hoisting.h"

#include "compiler/translate.h"

#include <gtest/gtest.h>

#include <string>

namespace metalcpu::msl {
namespace {

/// The translation of kernel `k` whose body is `body` (`out` a device float*, `v` a float,
/// `i` a thread index).
Translation translateBody(const std::string& body, const std::string& before = "") {
    TranslateOptions options;
    options.mainFile = "h.metal";
    Translation t = translate("# 1 \"h.metal\"\n" + before +
                                  "kernel void k(device float* out [[buffer(0)]], uint i [[thread_index_in_simdgroup]]) {\n"
                                  "    float v = out[i];\n" +
                                  body + "\n}\n",
                              options);
    EXPECT_TRUE(t.ok);
    EXPECT_EQ(t.kernels.size(), 1u);
    return t;
}

bool splits(const std::string& body, const std::string& before = "") {
    const Translation t = translateBody(body, before);
    return !t.kernels.empty() && t.kernels[0].usesWorkItemLoops;
}

// Test collectives in operands, stored to elements and in if conditions: each becomes a
// statement of its own before its statement, typed from its argument's declaration (a local,
// an element of a pointer parameter) or bool, and the kernel is split into work-item loops.
TEST(CollectiveHoisting, HoistedIntoStatements) {
    const Translation t = translateBody("    out[i] = 2.0f * simd_sum(v) + 1.0f;");
    ASSERT_EQ(t.kernels.size(), 1u);
    EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
    EXPECT_NE(t.cpp.find("float simd_sum_value_i"), std::string::npos) << t.cpp;
    EXPECT_TRUE(splits("    out[i] = simd_max(out[i]);"));
    EXPECT_TRUE(splits("    out[i] = max(v, metal::simd_shuffle_xor(v, 1));"));
    EXPECT_TRUE(splits("    if (simd_all(v > 0.0f)) {\n        out[i] = 1.0f;\n    }"));
    EXPECT_TRUE(splits("    float w = simd_sum(simd_max(v));\n    out[i] = w;")) << "the inner one first";
    EXPECT_TRUE(splits("    float a[4] = {v, v, v, v};\n    out[i] = simd_sum(a[1]) - 1.0f;"));
    // A name declared twice with one type (ggml's `const float vs` in two loops).
    EXPECT_TRUE(splits("    { const float v = 1.0f; out[i] = v; }\n    out[i] = simd_sum(v) * 2.0f;"));
}

// Test collectives over expressions whose type is plain from their tokens: arithmetic on
// half, float and vector values (a vector with its scalars, a literal with a float), casts,
// swizzles, dot and one-type math functions. The hoisted variable has that type, so that the
// value is the one the fibers' collective computes.
TEST(CollectiveHoisting, ExpressionTypes) {
    const struct {
        const char* setup;
        const char* argument;
        const char* type;
    } cases[] = {
        {"    const float q = v * 2.0f;\n", "q * v + 1.0f", "float"},
        {"    half4 h = half4(v);\n", "h * h.x - h", "half4"},
        {"    float4 a = float4(v);\n", "2.0f * a.xy", "float2"},
        {"    half h = half(v);\n", "float(h) * v", "float"},
        {"    uint n = i;\n", "(n + 1) * 2", "uint"},
        {"    float4 a = float4(v);\n", "dot(a, a) / 4.0f", "float"},
        {"    half2 h = half2(v);\n", "exp(h) * (h + h)", "half2"},
        {"    int n = int(i);\n", "static_cast<float>(n) - v", "float"},
        {"    half h = half(v);\n", "(float)h * v", "float"},
        {"    typedef float U;\n    thread U w[2] = {v, v};\n    U f = v;\n", "w[1] * f", "float"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.argument);
        const std::string type = c.type;
        const std::string value = "simd_sum(" + std::string(c.argument) + ")";
        const Translation t = translateBody(std::string(c.setup) + "    out[i] = 1.0f + float(" +
                                            (type.back() >= '2' && type.back() <= '4' ? value + ".x" : value) + ");");
        ASSERT_EQ(t.kernels.size(), 1u);
        EXPECT_TRUE(t.kernels[0].usesWorkItemLoops) << t.kernels[0].workItemLoopsRefusal;
        EXPECT_NE(t.cpp.find(type + " simd_sum_value_i"), std::string::npos) << t.cpp;
    }
}

// Test what stays on fibers: a collective that might not run (`&&`, `?:`) or whose statement
// also increments or calls a function of the file (which might write what it reads), and one
// whose type is not known (an expression argument, a name declared twice with two types).
TEST(CollectiveHoisting, LeftInPlace) {
    EXPECT_FALSE(splits("    if (v > 0.0f && simd_any(v > 1.0f)) {\n        out[i] = 1.0f;\n    }"));
    EXPECT_FALSE(splits("    out[i] = v > 0.0f ? simd_sum(v) : 0.0f;"));
    EXPECT_FALSE(splits("    uint n = 0;\n    out[n++] = simd_sum(v);"));
    EXPECT_FALSE(splits("    out[i] = touch(out) + simd_sum(v);", "float touch(device float* p) { p[0] = 1; return 0; }\n"));
    EXPECT_FALSE(splits("    half h = 1.0h;\n    out[i] = simd_sum(h * v) * 2.0f;")) << "half * float";
    EXPECT_FALSE(splits("    short s = 1;\n    out[i] = float(simd_sum(s * s));")) << "promoted to int";
    EXPECT_FALSE(splits("    half4 w = half4(1.0h);\n    out[i] = simd_sum(w * 2)[0];")) << "a literal with a vector";
    EXPECT_FALSE(splits("    out[i] = simd_sum(v + 1.0) * 2.0f;")) << "a double literal";
    EXPECT_FALSE(splits("    out[i] = simd_sum(v == 1.0f ? v : 0.0f) * 2.0f;"));
    EXPECT_FALSE(splits("    { int v = 1; out[i] = float(v); }\n    out[i] = simd_sum(v) * 2.0f;"));
    const Translation t = translateBody("    out[i] = v > 0.0f ? simd_sum(v) : 0.0f;");
    ASSERT_EQ(t.kernels.size(), 1u);
    EXPECT_NE(t.kernels[0].workItemLoopsRefusal.find("'simd_sum' is not the whole value of a statement"),
              std::string::npos)
        << t.kernels[0].workItemLoopsRefusal;
}

} // namespace
} // namespace metalcpu::msl
