// Pass: kernel declarations become ordinary C++ functions with a hidden group parameter.
#pragma once

#include "compiler/passes/pass.h"
#include "compiler/scanner.h"

#include <string>

namespace metalcpu::msl {

class EditList;

/// For every kernel declaration and definition: erases the `kernel` keyword and every [[...]]
/// attribute specifier of the function and of its parameters, and appends the hidden last
/// parameter `const ::mc_group* __mc_group` (last, so the real parameters keep their columns).
void rewriteKernelSignatures(PassContext& context);

/// For a kernel template whose [[max_total_threads_per_threadgroup(expr)]] depends on its
/// template parameters: appends, right after the definition, a helper in an unnamed namespace
///   template <params> constexpr unsigned __mc_max_threads_<id>() { return (expr); }
/// that the generated code instantiates with each entry point's template arguments.
/// Returns the helper's name.
std::string addMaxThreadsHelper(EditList& edits, const FunctionDecl& kernel, std::size_t id, TokenRange expression);

/// Erases the explicit instantiations of kernel templates (they were read by findEntryPoints();
/// the generated code instantiates the templates itself).
void eraseKernelInstantiations(PassContext& context);

} // namespace metalcpu::msl
