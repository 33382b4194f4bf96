// Loops whose accesses shader validation checks once, before the loop (issue 14): a counted
// `for` over an integer whose range the front end can see, and the subscripts of the kernel's
// buffer pointers in its body whose index is affine in the counter. Found here, on the syntax
// alone; written by the checked-accesses pass (a kernel's own loops) and by the lane form
// (lane_vectors.cpp), and checked at run time by checked.h's range_inside(): when every index
// of the range lies inside the buffer, the loop runs with the flag true and those accesses are
// not checked again; otherwise every access is checked as before, so reports are the same.
#pragma once

#include "compiler/statements.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::msl {

/// Whether the name `name` keeps its value throughout the body of `f`: never declared again
/// there (no shadowing), never assigned, incremented or its address taken (with `parts`,
/// through its members too), never a bare argument of a call (which might bind a non-const
/// reference) nor bound to a reference. Conservative: what it cannot tell, it counts as
/// written. `declarator`: the one declaration of the name allowed in the body (kNoToken: none).
/// `writable`: a range in which it may not be written, outside of which writes are allowed
/// (empty: nowhere; address-taking and references are refused everywhere).
bool keepsValue(const Unit& unit, const FunctionDecl& f, const std::string& name, ObjectParts parts,
                std::size_t declarator = kNoToken, TokenRange unwritten = {});

/// A loop `for (T k = first; k < bound; ++k) body` (or `k++`, `k += 1`), T a 32-bit integer
/// type, that no `goto`, `case` or lambda can enter or change, `k` not written in the body, and
/// `first` and `bound` made of names the loop does not write (parameters by value or in
/// constant memory, locals declared once before it and never aliased), integer literals,
/// members, `+`, `-` and `*`; with the subscripts `p[index]` in its body (its nested loops'
/// too) of a `device` or `constant` pointer parameter `p` the kernel never writes, whose index
/// is of the same kind with `k` in it once: affine in k.
struct RangedLoop {
    std::size_t keyword = kNoToken; ///< `for`
    std::size_t last = kNoToken;    ///< the last token of the statement
    std::string type;               ///< of the counter, as written: "uint"
    std::string counter;            ///< its name
    TokenRange first, bound;        ///< the counter's first value and the bound
    std::vector<std::size_t> accesses; ///< the `[` of each subscript checked once
};

/// The loop `st` is, when it is one (see RangedLoop) with at least one such access. `params`:
/// the parameters of `f`, a kernel.
std::optional<RangedLoop> rangedLoop(const Unit& unit, const FunctionDecl& f, const std::vector<ParamInfo>& params,
                                     const Statement& st);

/// The precheck of `loop`, a C++ expression of type bool that holds when every access of the
/// loop lies inside its pointer's region for every value of the counter:
/// `::metalcpu_kernel::range_inside<uint>(first, bound, A, [&](uint k) { return (index); }) & ...`.
/// The names are written as the source spells them, for the form the caller writes them in
/// (the scalar form, or the lane form, whose builtins are rows of lanes).
std::string rangePrecheck(const Unit& unit, const RangedLoop& loop);

} // namespace metalcpu::msl
