// Where a tensor operation is called, for shader validation's reports.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/stdlib/config.h>

namespace metalcpu_stdlib::tensor {

/// Where an operation is called (`op.run(...)`, `reduce_rows(...)`, a cooperative tensor's
/// `load` and `store`), for shader validation's reports: a default argument of the call
/// (`call_site site = call_site::here()`) takes the caller's file (as #line names it),
/// function and line, as the checked atomics do (GCC 12 has no __builtin_COLUMN). The
/// function's name carries an instantiation's template arguments; reports drop them. The
/// plain flavour keeps nothing and passes no site.
struct call_site {
#ifdef METALCPU_VALIDATION
    mc_site where;
    static METALCPU_INLINE call_site here(const char* file = __builtin_FILE(),
                                          const char* function = __builtin_FUNCTION(), unsigned line = __builtin_LINE()) {
        return {{file, function, line, 0u}};
    }
    METALCPU_INLINE const mc_site* site() const { return &where; }
#else
    static constexpr call_site here() { return {}; }
    constexpr const mc_site* site() const { return nullptr; }
#endif
};

} // namespace metalcpu_stdlib::tensor
