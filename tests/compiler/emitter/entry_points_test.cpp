#include "compiler/emitter/entry_points.h"

#include <gtest/gtest.h>

namespace metalcpu::msl {
namespace {

// Test the generated code of one entry point: trampolines, reflection table and registration.
// A kernel on fibers has only its thread function: the executor never calls a group function
// for it.
TEST(EntryPointCode, OneKernel) {
    EntryPointCode e;
    e.info.hostName = "k";
    e.info.functionExpression = "::ns::k<float>";
    e.info.file = "a.metal";
    e.info.line = 3;
    e.info.column = 13;
    e.info.usesBarriers = true;
    e.info.maxTotalThreadsPerThreadgroup = 256;
    e.info.threadgroupSites = {0x100001, 0x100002};
    ParamInfo buffer;
    buffer.name = "out";
    buffer.typeText = "device float*";
    buffer.kind = ParamKind::Buffer;
    buffer.index = 2;
    buffer.addressSpace = AddressSpace::Device;
    buffer.line = 3;
    buffer.column = 30;
    ParamInfo scratch = buffer;
    scratch.name = "scratch";
    scratch.typeText = "threadgroup float*";
    scratch.kind = ParamKind::Threadgroup;
    scratch.index = 0;
    scratch.addressSpace = AddressSpace::Threadgroup;
    ParamInfo id;
    id.name = "id";
    id.typeText = "uint2";
    id.kind = ParamKind::Builtin;
    id.builtin = Builtin::ThreadPositionInGrid;
    id.access = Access::ReadOnly;
    id.line = 4;
    id.column = 7;
    e.info.params = {buffer, scratch, id};
    e.namespaces = {"ns"};
    EXPECT_EQ(generateEntryPoints({e}, "a.metal"), R"(// "k"
namespace ns { namespace {
using __mc_0_fn = decltype(&::ns::k<float>);
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 2);
    auto&& __a1 = ::metalcpu_kernel::threadgroup_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 0);
    ::ns::k<float>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"out", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 3, 30, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"scratch", "threadgroup float*", MC_PARAM_THREADGROUP, 0, MC_ADDRESS_SPACE_THREADGROUP, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 3, 30, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"id", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 4, 7, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x100001ull, 0x100002ull};
} }

__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.k") = 0;
const ::mc_kernel __mc_kernels[] = {
    {"k", "a.metal", 3, 13, MC_KERNEL_USES_BARRIERS, 256, 3, ::ns::__mc_0_params, nullptr, METALCPU_KERNEL_CODE(&::ns::__mc_0_run_thread), 2, ::ns::__mc_0_sites, "k", 0, "", nullptr},
};
METALCPU_REGISTER_MODULE(__mc_kernels, 1, "a.metal", nullptr, 0)
)");
}

// Test a kernel without parameters, with a computed thread limit and a threadgroup-memory
// owner (both evaluated where the template arguments resolve): no tables, `__t` unused.
TEST(EntryPointCode, NoParameters) {
    EntryPointCode e;
    e.info.hostName = "empty";
    e.info.functionExpression = "empty";
    e.info.file = "a.metal";
    e.maxThreadsExpression = "::__mc_max_threads_0<4>()";
    e.threadgroupOwnerExpression = "::__mc_tg_owner_0<4>()";
    std::string code = generateEntryPoints({e}, "a.metal");
    EXPECT_NE(code.find("        (void)__t;\n        empty(__g);\n"), std::string::npos);
    EXPECT_NE(code.find("    (void)__t;\n    empty(__g);\n"), std::string::npos);
    EXPECT_NE(
        code.find("constexpr mc_u32 __mc_0_max_threads = static_cast<mc_u32>(::__mc_max_threads_0<4>());"),
        std::string::npos);
    EXPECT_NE(
        code.find("{\"empty\", \"a.metal\", 0, 0, 0u | MC_KERNEL_VECTORISED_THREADS, ::__mc_0_max_threads, 0, nullptr, METALCPU_KERNEL_CODE(&::__mc_0_run_group), "
                  "METALCPU_KERNEL_CODE(&::__mc_0_run_thread), 0, nullptr, \"empty\", ::__mc_0_threadgroup_owner, \"\", nullptr},"),
        std::string::npos);
    EXPECT_NE(code.find("constexpr mc_u64 __mc_0_threadgroup_owner = ::__mc_tg_owner_0<4>();"), std::string::npos);
}

// Test that a user annotation ends the kernel's row as a C string, escaped.
TEST(EntryPointCode, UserAnnotation) {
    EntryPointCode e;
    e.info.hostName = "k";
    e.info.functionExpression = "k";
    e.info.file = "a.metal";
    e.info.userAnnotation = "says \"hi\"\\";
    const std::string code = generateEntryPoints({e}, "a.metal");
    EXPECT_NE(code.find(", \"k\", 0, \"\", \"says \\\"hi\\\"\\\\\"},"), std::string::npos) << code;
}

// Test a coroutine kernel: run_coroutines starts each thread's coroutine from the same
// arguments, there is no run_thread, and the flags say coroutines rather than fibers.
TEST(EntryPointCode, CoroutineKernel) {
    EntryPointCode e;
    e.info.hostName = "k";
    e.info.functionExpression = "k";
    e.info.file = "a.metal";
    e.info.usesBarriers = true;
    e.info.usesCoroutines = true;
    ParamInfo buffer;
    buffer.name = "out";
    buffer.typeText = "device float*";
    buffer.kind = ParamKind::Buffer;
    buffer.addressSpace = AddressSpace::Device;
    ParamInfo id;
    id.name = "id";
    id.typeText = "uint";
    id.kind = ParamKind::Builtin;
    id.builtin = Builtin::ThreadIndexInThreadgroup;
    e.info.params = {buffer, id};
    std::string code = generateEntryPoints({e}, "a.metal");
    EXPECT_NE(code.find(R"(void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    ::metalcpu_kernel::run_coroutines(__g, [&](const ::metalcpu_kernel::thread_ids& __t) {
        return k(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
    });
}
const ::mc_param __mc_0_params[] = {
)"),
              std::string::npos)
        << code;
    EXPECT_EQ(code.find("run_thread"), std::string::npos);
    EXPECT_NE(code.find("{\"k\", \"a.metal\", 0, 0, MC_KERNEL_COROUTINES, 0, 2, ::__mc_0_params, "
                        "METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, \"k\", 0, \"\", nullptr},"),
              std::string::npos);

    e.info.params.clear(); // `__t` unused
    code = generateEntryPoints({e}, "a.metal");
    EXPECT_NE(code.find("        (void)__t;\n        return k(__g);\n"), std::string::npos) << code;
}

// Test that a file without kernels still registers its (empty) module.
TEST(EntryPointCode, NoKernels) {
    EXPECT_EQ(generateEntryPoints({}, "program_source"),
              "METALCPU_REGISTER_MODULE(nullptr, 0, \"program_source\", nullptr, 0)\n");
}

// Test that program-scope constants get a table the module points at.
TEST(EntryPointCode, ProgramConstantsTable) {
    std::string code = generateEntryPoints({}, "a.metal", true, {{"::kTable", "kTable"}, {"::ns::kX", "kX"}});
    EXPECT_NE(code.find("const ::mc_constant_data __mc_constants[] = {\n"
                        "    {&::kTable, sizeof(::kTable), \"kTable\"},\n"
                        "    {&::ns::kX, sizeof(::ns::kX), \"kX\"},\n};\n"),
              std::string::npos)
        << code;
    EXPECT_NE(code.find("METALCPU_REGISTER_MODULE(nullptr, 0, \"a.metal\", __mc_constants, 2)"), std::string::npos) << code;
}

// Test that strings in the tables are escaped.
TEST(EntryPointCode, EscapedStrings) {
    EntryPointCode e;
    e.info.hostName = "odd\"name";
    e.info.functionExpression = "f";
    e.info.file = "dir\\a.metal";
    std::string code = generateEntryPoints({e}, "dir\\a.metal");
    EXPECT_NE(code.find("{\"odd\\\"name\", \"dir\\\\a.metal\""), std::string::npos);
    EXPECT_NE(code.find("__asm__(\"metalcpu.kernel.odd$22name\")"), std::string::npos) << code;
}

} // namespace
} // namespace metalcpu::msl
