// Pass: default constructors defaulted in their class, which C++20 would count against an
// aggregate, are erased.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// MSL is C++14/17, where a class whose constructors are all defaulted on their first
/// declaration is still an aggregate: `MD<T>{m, d}` initialises its members. Kernels compile
/// here as C++20, where any user-declared constructor makes a class a non-aggregate, so that
/// brace initialisation finds no constructor. Libraries declare such constructors to allow the
/// class in an address space (`constexpr MD<T>() threadgroup = default;`, candle's reduce.metal;
/// `HybridTaus() device = default;`), so this pass erases a class's default constructors when
/// every constructor it declares is one, defaulted (`= default`), not `explicit`, and written
/// before any `private:` or `protected:` in the class. Erased, the class gets the implicit
/// default constructor, which does the same, and is an aggregate again when it was one in
/// C++17. Runs after address-space-overloads, which already erased the copies for other
/// address spaces.
void eraseAggregateConstructors(PassContext& context);

} // namespace metalcpu::msl
