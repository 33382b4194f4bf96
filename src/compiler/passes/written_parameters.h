// Kernel parameters the body writes, in kernels split into work-item loops
// (passes/work_item_loops.h). The group's threads share one call of the kernel function, so
// one copy of its parameters: a parameter the body writes itself (MLX's and PyTorch's
// `in += gid * axis_size;`, a builtin reassigned) gets a slot per thread instead, as a
// variable declared at the top of the body would, filled with the parameter's value for each
// thread before the first piece (for a builtin that differs per thread, the thread's own
// value) and loaded and stored by the pieces that name it like any per-thread variable.
#pragma once

#include "compiler/translate.h"

#include <string>

namespace metalcpu::msl {

struct WorkItemVariable;

/// What writing parameter `p` itself means for the work-item loops.
enum class ParameterWrite {
    PerThread, ///< a pointer or a builtin: the written copy is each thread's own, so it needs slots
    Through,   ///< a reference: a write goes to the memory it refers to, which the threads share
    Refused,   ///< a texture, sampler or tensor handle: not given slots
};
ParameterWrite parameterWrite(const ParamInfo& p);

/// The type of a written parameter's slots: `decltype(name)`, the parameter's type as the
/// earlier passes wrote it (a checked pointer in the validation flavour).
std::string writtenParameterSlotType(const WorkItemVariable& v);

/// What a written parameter's slot starts as for the thread `__mc_t`: the parameter, or for a
/// builtin that differs per thread, `::metalcpu_kernel::builtin<...>(__mc_group, __mc_t)`.
std::string writtenParameterValue(const WorkItemVariable& v);

} // namespace metalcpu::msl
