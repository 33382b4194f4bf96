// Generated code: one trampoline pair and reflection table per entry point, then the module.
#pragma once

#include "compiler/passes/program_constants.h"
#include "compiler/translate.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// What the generator needs to know about one entry point.
struct EntryPointCode {
    KernelInfo info;
    /// The namespace the glue is written in (where the template arguments were written).
    std::vector<std::string> namespaces;
    /// A C++ expression for max_total_threads_per_threadgroup when it is not a literal
    /// (e.g. "::ns::__mc_max_threads_3<float, 4>()"); empty to use info's value.
    std::string maxThreadsExpression;
    /// A C++ expression for mc_kernel::threadgroup_owner when the kernel template's own body
    /// declares threadgroup variables ("::ns::__mc_tg_owner_3<float, 4>()"); empty for 0.
    std::string threadgroupOwnerExpression;
    /// For an explicit instantiation of a kernel template: where it is written (as reported,
    /// and its line). The glue's `decltype` of the instantiation is placed there with `#line`,
    /// so that a host-compiler error in the instantiation points at the user's line.
    std::string instantiationFile;
    int instantiationLine = 0;
    /// Shader validation: the indices in info.params of the pointers whose rows' accesses the
    /// group function checks once per group (Findings::rowCheckedPointers).
    std::vector<std::size_t> rowCheckedParams;
};

/// The file name the generated code's #line markers use.
inline constexpr const char* kGeneratedFileName = "<metalcpu generated>";

/// The generated code for all entry points of a file: per entry point K, in an unnamed
/// namespace (inside `namespaces`), `__mc_K_fn`, `__mc_K_run_group`, `__mc_K_run_thread`,
/// `__mc_K_params` and `__mc_K_sites`; then the `__mc_kernels` table and
/// METALCPU_REGISTER_MODULE(__mc_kernels, count, "<moduleFile>", constants, count), where
/// the constants are a `__mc_constants` table of `constants` (nullptr, 0 without). A coroutine kernel
/// (KernelInfo::usesCoroutines) runs its group through run_coroutines and has no
/// `__mc_K_run_thread` (nullptr in the table). The table names the entry points through
/// METALCPU_KERNEL_CODE, which a reflection image makes nullptr (metalcpu/kernel_support.h).
/// With `validation`, arguments are bound through checked_buffer_argument and
/// checked_threadgroup_argument (metalcpu/checked.h). With `selectsKernels`, each kernel's
/// glue, name symbol and table row sit under its `#if METALCPU_SELECTS_KERNEL(...)`
/// (kernelSelector()), and the table ends with an empty row the count leaves out.
/// `firstLine` is the line of kGeneratedFileName the text starts on (after other generated
/// text): the `#line` that resumes the generated numbering after an instantiation counts
/// from it.
/// The table of the file's vertex and fragment functions' names (mc_module::render_functions)
/// and the definition of METALCPU_RENDER_FUNCTIONS that points its module at it; "" for none.
std::string renderFunctionTable(const std::vector<std::string>& names);

std::string generateEntryPoints(const std::vector<EntryPointCode>& entryPoints, const std::string& moduleFile,
                                bool validation = false, const std::vector<ProgramConstant>& constants = {},
                                std::size_t firstLine = 1, bool selectsKernels = false);

} // namespace metalcpu::msl
