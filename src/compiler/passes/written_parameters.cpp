#include "compiler/passes/written_parameters.h"

#include "compiler/passes/work_item_loops.h"
#include "compiler/reflection.h"

namespace metalcpu::msl {

ParameterWrite parameterWrite(const ParamInfo& p) {
    switch (p.kind) {
    case ParamKind::Builtin:
        return ParameterWrite::PerThread; // always by value (signature.cpp)
    case ParamKind::Buffer:
    case ParamKind::Threadgroup:
        // `device uint& total` is the buffer's memory: every thread binds the same object, on
        // a GPU as here.
        return p.isReference ? ParameterWrite::Through : ParameterWrite::PerThread;
    default:
        return ParameterWrite::Refused;
    }
}

std::string writtenParameterSlotType(const WorkItemVariable& v) { return "decltype(" + v.name + ")"; }

std::string writtenParameterValue(const WorkItemVariable& v) {
    if (v.perThreadBuiltin == Builtin::None) return v.name;
    return "::metalcpu_kernel::builtin<decltype(" + v.name + "), " + builtinEnumerator(v.perThreadBuiltin) +
           ">(__mc_group, __mc_t)";
}

} // namespace metalcpu::msl
