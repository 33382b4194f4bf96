#pragma once

#include <string>
#include <string_view>

namespace metalcpu::jit {

/// Checks the ELF image of a kernel library before the dynamic loader sees it: a 64-bit
/// shared object for this machine whose program headers, and the segments and dynamic
/// section they describe, lie inside `image` (a truncated file would fault inside dlopen);
/// and that loading or unloading it runs none of its code and loads nothing else. Refused:
/// DT_NEEDED and the other entries that load objects (DT_AUXILIARY, DT_FILTER, DT_AUDIT,
/// DT_DEPAUDIT), initialisers and finalisers (DT_INIT, DT_FINI, and DT_PREINIT_ARRAY,
/// DT_INIT_ARRAY, DT_FINI_ARRAY of non-zero size), relocations that call a resolver (IFUNC),
/// and an executable stack. Returns what is wrong, or empty when nothing is.
std::string checkKernelElf(std::string_view image);

} // namespace metalcpu::jit
