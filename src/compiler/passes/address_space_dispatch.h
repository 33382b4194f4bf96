// Part of the address-space-overloads pass: overloads whose bodies differ, told apart at their
// calls by the address space of their arguments.
#pragma once

#include "compiler/passes/pass.h"

#include <cstddef>
#include <vector>

namespace metalcpu::msl {

/// Overloads that differ only in the address space of pointer or reference parameters, with
/// different bodies (`float sum(thread const float* p)` and `float sum(threadgroup const float*
/// p)`), are one function once address spaces are erased. This keeps them apart without
/// slowing anything else: every version but the preferred one (the `thread`, else the
/// unqualified, else the first: `preferred`) gets a first parameter of its own empty type,
/// `::metalcpu_kernel::address_space_tag<S...>` (S the address-space codes of its distinguishing
/// parameters, metalcpu/kernel_support.h), and each call that means it passes one:
///
/// ```
/// float sum(::metalcpu_kernel::address_space_tag<3>, threadgroup const float* p) { ... }
/// sum(::metalcpu_kernel::address_space_tag<3>{}, shared);   // shared: a threadgroup array
/// sum(local);                                                // local: a thread array
/// ```
///
/// A call's argument names its address space when it is a variable, parameter or threadgroup
/// variable of the calling function or a program-scope `constant` (`x`, `p + i`, `&x[i]`,
/// `x[i]`, `x.m`, `*p`, `p->m`, `&x`), by the declaration's address space (none: `thread`).
/// Calls are found by name: a free function's unqualified calls and those qualified by its
/// namespace, a member's calls through `.` and `->`, qualified by its class, and unqualified in
/// the member functions of its class. Calls with another number of arguments, or with a literal,
/// or a value that is no pointer, where the versions take a pointer, belong to other overloads
/// and are left alone. A call whose argument's space
/// cannot be told, or matches no version, is an error at the call, and so is taking the
/// function's address. Returns false, changing nothing, when the versions are not of that kind
/// (operators, constructors, versions that differ in the address space of `this`, of a return
/// type, or of anything but a single pointer or reference parameter's pointee), for which the
/// caller reports the overloads.
///
/// `versions` are Module::functions indices, all declarations of one group
/// (collapseAddressSpaceOverloads()); `preferred` is one of them. With `acrossShapes` they are
/// overloads of one name and number of parameters that differ in other types too (`load(const
/// device U*, uint)`, `load(const threadgroup U*, ushort)`): Clang drops the versions whose
/// address spaces the arguments' are not before it compares the other parameters, so the
/// versions with the call's spaces get its tag and C++ chooses among them by the rest; those
/// may differ in the address space of the pointer they return.
bool dispatchOnAddressSpaces(PassContext& context, const std::vector<std::size_t>& versions, std::size_t preferred,
                             bool acrossShapes = false);

} // namespace metalcpu::msl
