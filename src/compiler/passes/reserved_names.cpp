#include "compiler/passes/reserved_names.h"

namespace metalcpu::msl {

namespace {

// Builtins (and the library functions they stand for) that read or move the host's stack,
// jump or unwind out of the kernel, reach the thread's control block or flush instruction
// caches. `alloca` grows the worker's stack by a size the kernel chooses.
constexpr std::string_view kOutsideMemory[] = {
    "__builtin_frame_address", "__builtin_return_address", "__builtin_extract_return_addr",
    "__builtin_frob_return_addr", "alloca", "__builtin_setjmp", "__builtin_longjmp",
    "__builtin_update_setjmp_buf", "setjmp", "longjmp", "_setjmp", "_longjmp", "sigsetjmp", "siglongjmp",
    "__sigsetjmp", "__builtin_return", "__builtin_unwind_init", "__builtin_thread_pointer",
    "__builtin_set_thread_pointer", "__builtin___clear_cache", "__builtin_saveregs",
    "__builtin_call_with_static_chain",
};

// Builtins that end the process (abort and exit would also be imports, which the link refuses).
constexpr std::string_view kStopTheProcess[] = {
    "__builtin_trap", "__builtin_abort", "__builtin_exit", "__builtin__exit", "__builtin__Exit",
};

// Families of the same, by prefix: every alloca and apply variant, exception-return and DWARF
// frame builtins, stack save/restore, variable arguments (va_arg reads on past the arguments
// passed, into the caller's stack; MSL has no variadic functions), coroutine frames (resuming
// a forged handle is a call through a forged pointer), and target-specific builtins (rdtsc,
// wrfsbase, xsave, ...).
constexpr std::string_view kOutsideMemoryPrefixes[] = {
    "__builtin_alloca", "__builtin_apply", "__builtin_eh_", "__builtin_dwarf_", "__builtin_init_dwarf_",
    "__builtin_va_", "__builtin_next_arg",
    "__builtin_stack_", "__builtin_coro_", "__builtin_ia32_", "__builtin_aarch64_", "__builtin_arm_",
    "__builtin_riscv_", "__builtin_cpu_",
};

// The kernel ABI's C names (metalcpu/kernel_abi.h) and what library_stub.h defines.
// tests/compiler/passes/reserved_names_test.cpp checks that every mc_/MC_ name of the kernel
// headers is here or in a prefix below.
constexpr std::string_view kAbiNames[] = {
    "mc_u32", "mc_u64", "mc_dispatch", "mc_group", "mc_group_fn", "mc_thread_fn", "mc_param_kind",
    "mc_address_space", "mc_access", "mc_builtin", "mc_param", "mc_kernel_flags", "mc_kernel",
    "mc_constant_data", "mc_function_constant_flags", "mc_function_constant", "mc_module", "mc_region",
    "mc_site", "mc_access_op", "mc_threadgroup_site", "mc_services", "mc_library_open_fn", "mc_simd_round",
    "mc_simd_site", "mc_simd_call", "mc_log_argument_kind", "mc_log_argument", "mc_texture", "mc_component_kind",
    "mc_sampler",
    "mc_sampler_filter", "mc_sampler_mip_filter", "mc_sampler_address", "mc_i32", "mc_i64", "mc_tensor", "mc_gpu_family",
    "mc_cooperative_layout_kind", "mc_cooperative_role", "mc_cooperative_layout", "mc_scope_record", "mc_scope_fn",
    "mc_tensor_operand_kind",
    "mc_tensor_operand", "mc_matmul_call", "mc_reduction_op", "mc_reduce_call", "mc_barrier_round", "mc_dispatch_checks",
    "mc_argument_kind", "mc_argument",
    "__dso_handle", "__cxa_atexit",
};

// Generated names (__mc_group, __mc_kernels, ...), metalcpu's namespaces and symbols
// (metalcpu_kernel, metalcpu_stdlib, metalcpu_library_open), its macros, the enumerators
// of the kernel ABI, and the bounds the linker gives every named section
// (__start_metalcpu_modules, __stop_metalcpu_threadgroup_sites, ...).
constexpr std::string_view kAbiPrefixes[] = {
    "__start_", "__stop_", "__mc", "metalcpu", "METALCPU", "MC_PARAM_", "MC_ADDRESS_", "MC_ACCESS_", "MC_BUILTIN_",
    "MC_KERNEL_", "MC_OP_", "MC_FUNCTION_CONSTANT_", "MC_LOG_", "MC_COMPONENT_", "MC_FILTER_", "MC_MIP_FILTER_",
    "MC_GPU_FAMILY_", "MC_COOPERATIVE_", "MC_SCOPE_", "MC_OPERAND_", "MC_REDUCE_", "MC_CHECK_", "MC_SIMD_",
    "MC_ARGUMENT_",
};

template <std::size_t N>
bool isListed(std::string_view word, const std::string_view (&list)[N]) {
    for (std::string_view entry : list)
        if (word == entry) return true;
    return false;
}

template <std::size_t N>
bool hasListedPrefix(std::string_view word, const std::string_view (&prefixes)[N]) {
    for (std::string_view prefix : prefixes)
        if (word.starts_with(prefix)) return true;
    return false;
}

} // namespace

std::optional<std::string> refusedName(std::string_view identifier) {
    const std::string quoted = "'" + std::string(identifier) + "'";
    if (isListed(identifier, kStopTheProcess))
        return quoted + " is not allowed in kernel code: it would stop the host process";
    if (isListed(identifier, kOutsideMemory) || hasListedPrefix(identifier, kOutsideMemoryPrefixes))
        return quoted + " is not allowed in kernel code: it reaches outside the kernel's memory";
    if (isListed(identifier, kAbiNames) || hasListedPrefix(identifier, kAbiPrefixes))
        return quoted + " is reserved: it names metalcpu's kernel interface or generated code";
    return std::nullopt;
}

} // namespace metalcpu::msl
