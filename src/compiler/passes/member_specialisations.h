// Pass: explicit specialisations of member templates written in their class.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// C++17 allows an explicit specialisation of a member function template in the class that
/// declares it (`template <> complex64_t operator()(complex64_t a, complex64_t b) { ... }`,
/// MLX's reduction/ops.h); Clang (and so Metal) accepts it, GCC 12 rejects it ("explicit
/// specialization in non-namespace scope"). Moving it to namespace scope is impossible when
/// the class is itself a template (that would specialise the class too), so this turns it
/// into an ordinary member function of the same signature: `template <>` and any explicit
/// template arguments after the name are erased. Overload resolution then picks it where the
/// specialisation would have been called (a non-template wins over a template when both match
/// exactly); only a call that names the template arguments (`s.f<complex64_t>(...)`) still
/// goes to the primary template. A specialisation an earlier pass erased (one of a set of
/// address-space overloads) stays erased.
void rewriteMemberSpecialisations(PassContext& context);

} // namespace metalcpu::msl
