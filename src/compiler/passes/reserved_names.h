// Check helper: identifiers kernel code may not use. Compiler builtins that are not MSL and
// reach outside the kernel's memory (stack frames, unwinding, non-local jumps, the thread
// pointer, instruction caches, target-specific instructions), and the names of metalcpu's
// kernel ABI and generated code (mc_services, __mc_group, metalcpu_kernel, METALCPU_...).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace metalcpu::msl {

/// Why kernel code may not name `identifier` (a lower-case sentence for a diagnostic), or
/// nothing when it may. Builtins real kernels and the standard library use (__builtin_expect,
/// __builtin_clz, __builtin_bit_cast, __builtin_memcpy, ...) are allowed.
std::optional<std::string> refusedName(std::string_view identifier);

} // namespace metalcpu::msl
