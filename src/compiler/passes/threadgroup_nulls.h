// Null pointers that become threadgroup pointers. In Metal a threadgroup pointer is an offset
// into the group's threadgroup memory, so a load through a null one reads its first bytes;
// MLX's merge sort passes `nullptr` for the index array it does not sort and loads through it
// where the value is then dropped. Here it is address 0: on fibers the host compiler drops
// the dead load, but work-item loops and coroutines keep a work item's values in slots, where
// the load stays and faults. Such kernels keep the fibers.
#pragma once

#include "compiler/call_graph.h"
#include "compiler/kernels.h"
#include "compiler/unit.h"

#include <vector>

namespace metalcpu::msl {

/// The first `nullptr` in code kernel `kernel` reaches (reachableFromKernel()) that becomes a
/// threadgroup pointer: in a statement that names the `threadgroup` address space
/// (`const threadgroup uint* idx = ARG_SORT ? tgp_idxs : nullptr;`), or as an argument for a
/// parameter declared `threadgroup ... *` of a function of the callee's name. kNoToken if none.
std::size_t nullThreadgroupPointer(const Unit& unit, const CallGraph& graph, const std::vector<EntryPoint>& entryPoints,
                                   std::size_t kernel);

} // namespace metalcpu::msl
