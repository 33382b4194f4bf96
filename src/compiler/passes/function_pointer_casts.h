// Check: explicit conversions to function pointer (or reference) types. A kernel that can turn
// an integer or a data pointer into a function pointer can call any code of the host process.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// Reports, at the cast, every C-style cast, functional cast, reinterpret_cast, bit_cast,
/// __builtin_bit_cast and as_type whose target type is a pointer or reference to a function:
/// spelled out (`(void (*)(int))x`), through a typedef or alias declaration of the file
/// (`typedef void (*fn_t)(int);`, `using fn_t = void(*)(int);`, `typedef void fn_t(int);` then
/// `(fn_t*)x`, aliases of aliases, alias templates); and every one whose target may be one:
/// named through decltype or typeof (`decltype(&f)`, `decltype(+[]{})`, `decltype(p)`, an alias
/// of one, `decltype(p)(x)`), or with a function type among its template arguments
/// (`ptr<void()>`, `P<void()>::type`). static_cast cannot make a function pointer out of
/// another value and stays allowed, as do function pointers themselves: parameters, template
/// parameters (ggml's `template <..., void (*deq)(device const T*, short, thread float4x4&)>`)
/// and calls through them. Not seen: targets named through a template parameter, type punning
/// through a union or memory, and structs holding function pointers (`__builtin_bit_cast(S, x).f()`).
void checkFunctionPointerCasts(const CheckContext& context);

} // namespace metalcpu::msl
