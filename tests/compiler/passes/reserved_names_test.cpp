#include "compiler/passes/reserved_names.h"

#include "compiler/compiler_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace metalcpu::msl {
namespace {

// Test that every builtin that reaches outside the kernel's memory, and the families of them,
// is refused with the reason.
TEST(ReservedNames, BuiltinsOutsideTheKernelsMemory) {
    for (const char* name :
         {"__builtin_frame_address", "__builtin_return_address", "__builtin_extract_return_addr", "__builtin_alloca",
          "__builtin_alloca_with_align", "__builtin_alloca_with_align_and_max", "alloca", "__builtin_setjmp",
          "__builtin_longjmp", "setjmp", "longjmp", "_setjmp", "sigsetjmp", "siglongjmp", "__builtin_apply",
          "__builtin_apply_args", "__builtin_return", "__builtin_eh_return", "__builtin_eh_return_data_regno",
          "__builtin_unwind_init", "__builtin_dwarf_cfa", "__builtin_dwarf_sp_column", "__builtin_stack_save",
          "__builtin_stack_restore", "__builtin_thread_pointer", "__builtin___clear_cache", "__builtin_ia32_rdtsc",
          "__builtin_ia32_wrfsbase64", "__builtin_aarch64_get_fpcr", "__builtin_cpu_supports",
          "__builtin_coro_resume", "__builtin_saveregs", "__builtin_va_start", "__builtin_va_arg", "__builtin_va_list",
          "__builtin_va_copy", "__builtin_va_arg_pack", "__builtin_next_arg"}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(refusedName(name),
                  "'" + std::string(name) + "' is not allowed in kernel code: it reaches outside the kernel's memory");
    }
    EXPECT_EQ(refusedName("__builtin_trap"),
              "'__builtin_trap' is not allowed in kernel code: it would stop the host process");
    EXPECT_TRUE(refusedName("__builtin_abort"));
}

// Test that the builtins real kernels and the standard library use stay allowed, as do
// ordinary names that merely look alike.
TEST(ReservedNames, HarmlessNamesStayAllowed) {
    for (const char* name :
         {"__builtin_expect", "__builtin_clz", "__builtin_ctzll", "__builtin_popcount", "__builtin_bit_cast",
          "__builtin_memcpy", "__builtin_memset", "__builtin_assume_aligned", "__builtin_unreachable",
          "__builtin_prefetch", "__builtin_isnan", "__builtin_shuffle", "__builtin_value", "mc", "mc_block",
          "MC_SAMPLES", "mcount", "my_metal", "allocator", "setjmp_buffer", "kernel_group"}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(refusedName(name), std::nullopt);
    }
}

// Test that every name of the kernel ABI, the support headers and the generated code that the
// headers spell (mc_*, MC_*, __mc*, metalcpu*, METALCPU*) is refused: the list in
// reserved_names.cpp cannot fall behind the headers.
TEST(ReservedNames, EveryNameOfTheKernelInterface) {
    namespace fs = std::filesystem;
    const fs::path include = fs::path(METALCPU_TEST_SOURCE_DIR) / "src" / "stdlib" / "include" / "metalcpu";
    const std::regex name(R"(\b(mc_\w+|MC_\w+|__mc\w*|\w*metalcpu\w*|METALCPU\w*)\b)");
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(include)) {
        if (entry.path().extension() != ".h") continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        const std::string contents = text.str();
        for (auto m = std::sregex_iterator(contents.begin(), contents.end(), name); m != std::sregex_iterator(); ++m)
            names.insert((*m)[1]);
    }
    ASSERT_GT(names.size(), 50u);
    for (const std::string& n : names) EXPECT_TRUE(refusedName(n)) << n;
    for (const char* generated : {"__mc_group", "__mc_kernels", "__mc_0_run_group", "__mc_wi", "mc_services"})
        EXPECT_TRUE(refusedName(generated)) << generated;
}

// Test that refused names are reported at their token, also qualified, and that names only
// starting alike are not.
TEST(ReservedNames, ReportedByRestrictions) {
    auto p = testing::parse("void f(device int* out, const S s) {\n"
                            "    out[0] = int(__builtin_frame_address(0) != nullptr);\n"
                            "    out[1] = metalcpu_kernel::g_services->abi_version + s.mc_block;\n"
                            "    void* stack = __builtin_alloca(out[2]);\n}\n");
    EXPECT_EQ(testing::runChecks(*p, {}),
              (std::vector<std::string>{
                  "test.metal:2:18: error: '__builtin_frame_address' is not allowed in kernel code: it reaches "
                  "outside the kernel's memory",
                  "test.metal:3:14: error: 'metalcpu_kernel' is reserved: it names metalcpu's kernel interface or "
                  "generated code",
                  "test.metal:4:19: error: '__builtin_alloca' is not allowed in kernel code: it reaches outside the "
                  "kernel's memory",
              }));
}

} // namespace
} // namespace metalcpu::msl
