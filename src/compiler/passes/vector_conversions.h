// Pass: Clang's `__builtin_convertvector`, which kernels generated for Metal use for vector casts.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// `__builtin_convertvector(v, float4)` becomes
/// `::metalcpu_kernel::convert_vector(v, ::metalcpu_kernel::vector_type<float4>{})`: GCC's
/// builtin takes only GCC vector types, and MSL's are classes. The conversion is MSL's
/// `float4(v)` element by element (as Clang's builtin converts: floating to integer toward
/// zero, to float and half to nearest even); the element counts must agree. Only the builtin's
/// name and the tokens around its type are edited, so what other passes do inside `v` stays.
/// A call whose two arguments cannot be told apart is an error at the builtin.
void rewriteVectorConversions(PassContext& context);

} // namespace metalcpu::msl
