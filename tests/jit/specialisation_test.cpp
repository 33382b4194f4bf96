#include "jit/specialisation.h"

#include "compiler/translate.h"

#include <gtest/gtest.h>

#include <cstring>

namespace metalcpu::jit {
namespace {

const char* const kUsers[] = {"k"};
const char* const kOthers[] = {"other"};

// A module as the front end describes one: `nsg` (int, index 601) and `offset` (float2,
// index 4) reached by kernel k, `shift` (uint, index 3) optional for k, `flag` (bool,
// index 7) reached only by kernel `other`.
const mc_function_constant kConstants[] = {
    {"nsg", 601, 29, MC_FUNCTION_CONSTANT_REQUIRED, 1, kUsers},
    {"offset", 4, 4, MC_FUNCTION_CONSTANT_REQUIRED, 1, kUsers},
    {"shift", 3, 33, 0, 1, kUsers},
    {"flag", 7, 53, MC_FUNCTION_CONSTANT_REQUIRED, 1, kOthers},
};

mc_module module() {
    mc_module m{};
    m.function_constant_count = 4;
    m.function_constants = kConstants;
    return m;
}

template <class T> ConstantValue value(std::uint32_t type, std::initializer_list<T> components) {
    ConstantValue v{type, std::vector<std::byte>(components.size() * sizeof(T))};
    std::memcpy(v.bytes.data(), components.begin(), v.bytes.size());
    return v;
}

// Test that a kernel's constants are found in a module compiled for another kernel too, whose
// lists of users hold null for the kernels it left out (METALCPU_KERNEL_USER).
TEST(Specialisation, ConstantsOfKernelWithUsersLeftOut) {
    const char* const users[] = {nullptr, "k"};
    const mc_function_constant constants[] = {{"nsg", 601, 29, MC_FUNCTION_CONSTANT_REQUIRED, 2, users}};
    mc_module m{};
    m.function_constant_count = 1;
    m.function_constants = constants;
    ASSERT_EQ(constantsOfKernel(m, "k").size(), 1u);
    EXPECT_TRUE(constantsOfKernel(m, "other").empty());
}

// Test that values are found by index, then by name, become explicit specialisations with
// the bits of each component, and that an optional constant may go without.
TEST(Specialisation, ValuesByIndexThenName) {
    ConstantValues values;
    values.byIndex[601] = value<int>(29, {-3});
    values.byName["nsg"] = value<int>(29, {99}); // the index wins
    values.byName["offset"] = value<float>(4, {1.0f, -2.0f});
    Specialisation s = specialisationOf(module(), "k", values);
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(s.values,
              "template <> struct metalcpu_kernel::function_constant_value<4ull> { static constexpr bool defined = true; "
              "static constexpr unsigned data_type = 4u; static constexpr unsigned long long bits[4] = {1065353216ull, "
              "3221225472ull, 0ull, 0ull}; };\n"
              "template <> struct metalcpu_kernel::function_constant_value<601ull> { static constexpr bool defined = "
              "true; static constexpr unsigned data_type = 29u; static constexpr unsigned long long bits[4] = "
              "{4294967293ull, 0ull, 0ull, 0ull}; };\n");
}

// Test Metal's errors for the kernel's own constants, and that values for constants it does
// not reach are ignored when their type does not fit.
TEST(Specialisation, Errors) {
    ConstantValues values;
    values.byIndex[4] = value<float>(4, {0, 0});
    Specialisation missing = specialisationOf(module(), "k", values);
    EXPECT_FALSE(missing.ok);
    EXPECT_EQ(missing.error, "Function k: function constant 'nsg' (index 601, type int) has no value");

    values.byIndex[601] = value<float>(3, {1.0f});
    Specialisation wrongType = specialisationOf(module(), "k", values);
    EXPECT_FALSE(wrongType.ok);
    EXPECT_EQ(wrongType.error, "Function k: function constant 'nsg' (index 601, type int) is given a value of type float");

    values.byIndex[601] = value<int>(29, {2});
    values.byIndex[7] = value<int>(29, {1}); // `flag` is a bool, and not k's
    Specialisation ignored = specialisationOf(module(), "k", values);
    EXPECT_TRUE(ignored.ok) << ignored.error;
    EXPECT_EQ(ignored.values.find("<7ull>"), std::string::npos);
}

// Test that the values go right after the prelude (nothing but the flavour's #defines may
// precede the prelude: jit/precompiled_prelude.h); a text without selection guards keeps every
// kernel.
TEST(Specialisation, SpecialisedSource) {
    const std::string source = "// preamble\n#include <metalcpu/kernel_prelude.h>\nint user;\n";
    EXPECT_EQ(specialisedSource(source, "VALUES\n", "k"),
              "// preamble\n#include <metalcpu/kernel_prelude.h>\nVALUES\nint user;\n");
}

// Test that a text whose kernels can be selected is specialised for the one kernel: it selects
// it after the prelude and carries only its part; a text without that kernel's guard is left
// whole.
TEST(Specialisation, SpecialisedSourceSelectsTheKernel) {
    const std::string k = msl::kernelSelector("k"), other = msl::kernelSelector("other");
    const std::string source = "#include <metalcpu/kernel_prelude.h>\n#if METALCPU_SELECTS_KERNEL(" + k +
                               ")\nint user;\n#endif\n#if METALCPU_SELECTS_KERNEL(" + other + ")\nint other_user;\n#endif\n";
    const std::string selects = "#undef METALCPU_ONLY_KERNEL\n#define METALCPU_ONLY_KERNEL " + k + "\n";
    EXPECT_EQ(specialisedSource(source, "VALUES\n", "k"), "#include <metalcpu/kernel_prelude.h>\nVALUES\n" + selects +
                                                               "#if METALCPU_SELECTS_KERNEL(" + k + ")\nint user;\n#endif\n");
    const std::string kOnly = "#include <metalcpu/kernel_prelude.h>\n#if METALCPU_SELECTS_KERNEL(" + k + ")\nint user;\n#endif\n";
    EXPECT_EQ(selectingKernel(kOnly, "other"), kOnly);
}

// Test that a kernel's text keeps only what its selection keeps: a guard of other kernels goes
// with everything up to its #endif (a nested conditional and #line included), the numbering
// after the gap is restored by a #line (with the last file named, also after GCC's line
// markers), the kept guards and conditionals of its own stay; a text whose conditionals are
// not kernel selection's stays whole.
TEST(Specialisation, WithoutOtherKernels) {
    const std::string k = msl::kernelSelector("k"), other = msl::kernelSelector("other");
    const std::string text = "#include <metalcpu/kernel_prelude.h>\n"
                             "#line 4 \"a.metal\"\n"
                             "int shared;\n"
                             "#if METALCPU_SELECTS_KERNEL(" + other + ")\n"
                             "#line 20 \"a.metal\"\n"
                             "void other_helper() {}\n"
                             "#if defined(X)\n"
                             "int x;\n"
                             "#endif\n"
                             "#endif\n"
                             "int after_other;\n"
                             "#if METALCPU_SELECTS_KERNEL(" + other + ") || METALCPU_SELECTS_KERNEL(" + k + ")\n"
                             "void both() {}\n"
                             "#endif\n"
                             "#if METALCPU_SELECTS_EVERY_KERNEL\n"
                             "void unreached() {}\n"
                             "#endif\n"
                             "# 40 \"b.metal\" 2\n"
                             "#if METALCPU_SELECTS_KERNEL(" + other + ")\n"
                             "void other_kernel() {}\n"
                             "#endif\n"
                             "#ifdef Y\n"
                             "int y;\n"
                             "#else\n"
                             "int not_y;\n"
                             "#endif\n";
    EXPECT_EQ(withoutOtherKernels(text, k), "#include <metalcpu/kernel_prelude.h>\n"
                                            "#line 4 \"a.metal\"\n"
                                            "int shared;\n"
                                            "#line 25 \"a.metal\"\n"
                                            "int after_other;\n"
                                            "#if METALCPU_SELECTS_KERNEL(" + other + ") || METALCPU_SELECTS_KERNEL(" + k + ")\n"
                                            "void both() {}\n"
                                            "#endif\n"
                                            "# 40 \"b.metal\" 2\n"
                                            "#line 43 \"b.metal\"\n"
                                            "#ifdef Y\n"
                                            "int y;\n"
                                            "#else\n"
                                            "int not_y;\n"
                                            "#endif\n");
    const std::string withElse = "#if METALCPU_SELECTS_KERNEL(" + other + ")\nint a;\n#else\nint b;\n#endif\n";
    EXPECT_EQ(withoutOtherKernels(withElse, k), withElse);
    const std::string unclosed = "#if METALCPU_SELECTS_KERNEL(" + other + ")\nint a;\n";
    EXPECT_EQ(withoutOtherKernels(unclosed, k), unclosed);
    // The kernel's own selection of a file (selectingKernel) is cut the same way, so a
    // specialised text, and the cache key made of it, changes with the kernel's part only.
    EXPECT_EQ(selectingKernel(text, "k").find("other_helper"), std::string::npos);
    EXPECT_NE(selectingKernel(text, "other").find("other_helper"), std::string::npos);
    auto changed = [&text](const std::string& from, const std::string& to) {
        std::string edited = text;
        return edited.replace(edited.find(from), from.size(), to);
    };
    EXPECT_EQ(specialisedSource(changed("other_kernel() {}", "other_kernel() { x(); }"), "V\n", "k"),
              specialisedSource(text, "V\n", "k"));
    EXPECT_NE(specialisedSource(changed("both() {}", "both() { x(); }"), "V\n", "k"), specialisedSource(text, "V\n", "k"));
}

// Test that in a text cut to one kernel, the access sites only the dropped code named keep
// their places in the table but not their contents; a text nothing was cut from keeps them all.
TEST(Specialisation, WithoutOtherKernelsEmptiesTheirSites) {
    const std::string other = msl::kernelSelector("other");
    const std::string text = "static const ::mc_site __mc_sites[] = {\n"
                             "    {\"a.metal\", \"k\", 3u, 4u},\n"
                             "    {\"a.metal\", \"other\", 7u, 8u},\n"
                             "    {\"a.metal\", \"k\", 5u, 6u},\n"
                             "};\n"
                             "void k() { load(::__mc_sites[0]); store(::__mc_sites[2]); }\n"
                             "#if METALCPU_SELECTS_KERNEL(" + other + ")\n"
                             "void other() { load(::__mc_sites[1]); }\n"
                             "#endif\n";
    EXPECT_EQ(withoutOtherKernels(text, msl::kernelSelector("k")),
              "static const ::mc_site __mc_sites[] = {\n"
              "    {\"a.metal\", \"k\", 3u, 4u},\n"
              "    {},\n"
              "    {\"a.metal\", \"k\", 5u, 6u},\n"
              "};\n"
              "void k() { load(::__mc_sites[0]); store(::__mc_sites[2]); }\n");
    EXPECT_EQ(withoutOtherKernels(text, other), text);
}

// Test the sizes and names of the types a function constant may have.
TEST(Specialisation, Types) {
    EXPECT_EQ(constantValueSize(3), 4u);  // float
    EXPECT_EQ(constantValueSize(5), 12u); // float3, packed
    EXPECT_EQ(constantValueSize(53), 1u); // bool
    EXPECT_EQ(constantValueSize(88), 32u); // ulong4
    EXPECT_EQ(constantValueSize(1), 0u);  // a struct
    EXPECT_EQ(constantTypeName(40), "short4");
    EXPECT_EQ(constantTypeName(121), "bfloat");
}

} // namespace
} // namespace metalcpu::jit
