// A name-based call graph over the function bodies of one translation unit: which kernels can
// reach a barrier, SIMD-group collective or tensor operation, and which threadgroup variables
// they can reach.
#pragma once

#include "compiler/scanner.h"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::msl {

/// A call with explicit template arguments in a function's body: `impl<q_t, deq_k, 4>(args)`.
struct TemplateCall {
    std::vector<std::size_t> callees; ///< every function of that name
    /// The functions the template arguments name (`h<dequantize_q4_0>`).
    std::vector<std::size_t> namedFunctions;
    /// An argument names one of the caller's own non-type template parameters (`h<deq_k>`):
    /// the caller's function-pointer arguments flow on.
    bool passesOwnParameters = false;
    /// An argument may hold any function pointer: it names a program-scope variable, or a
    /// non-type parameter of the caller's enclosing class template.
    bool unknownArguments = false;
    std::size_t argumentCount = 0; ///< the explicit template arguments, at top level
};

struct CallGraph {
    /// Per function (Module::functions): its body calls a barrier or SIMD/quad-group collective,
    /// or uses a tensor operation (usesTensorOperation()).
    std::vector<bool> usesBarriersDirectly;
    /// Per function: the functions it may call, by name (every overload, member function and
    /// constructor of that name), narrowed as far as CallTargets follows C++ lookup (a class
    /// qualifier, member access, the caller's own class). A call through an object held in a
    /// parameter or local variable (a functor) may call any `operator()` of the file.
    std::vector<std::vector<std::size_t>> callees;
    /// Per function: the callees it calls without explicit template arguments (or through a
    /// functor); those with them are in templateCalls. Together they make `callees`.
    std::vector<std::vector<std::size_t>> plainCallees;
    /// Per function: its calls with explicit template arguments.
    std::vector<std::vector<TemplateCall>> templateCalls;
    /// Per function: how many template parameters its own header declares without a default;
    /// kNoToken with a parameter pack. A call with fewer explicit arguments deduces some.
    std::vector<std::size_t> requiredTemplateArguments;
    /// Per function, per parameter of its own template header: the functions its default names.
    std::vector<std::vector<std::vector<std::size_t>>> templateDefaultFunctions;
    /// Per function: it calls through a function pointer (a non-type template parameter, a
    /// parameter of function-pointer type, or a parameter or local variable that may hold one)
    /// that the graph cannot see through; it may reach any function of `namedAsValue`.
    std::vector<bool> callsOpaque;
    /// Per function: every such call goes through one of its own non-type template parameters
    /// (not an enclosing class template's), so called with explicit template arguments it can
    /// reach only what they name.
    std::vector<bool> opaqueOnlyThroughTemplateParameters;
    /// The functions whose unqualified name the file uses as a value somewhere (not only
    /// called or declared): in a template argument list (`k<float, deq>`), after `&`, as a call
    /// argument, an initializer or a returned value. Only these can become function pointers,
    /// so only these are what an opaque call may reach. Names in unevaluated operands
    /// (`decltype(kernel<deq>)`, sizeof), after `.`/`->` and the function an explicit
    /// instantiation names (`template kernel kernel_t k<float>;`) do not count. Increasing order.
    std::vector<std::size_t> namedAsValue;
    /// The functions with a body, by unqualified name (every overload, member, constructor).
    std::map<std::string, std::vector<std::size_t>, std::less<>> byName;
    /// The names of the program-scope variables and static data members (which may hold a
    /// function pointer a template argument names).
    std::set<std::string, std::less<>> variableNames;
};

/// Whether calling `name` synchronises threads: threadgroup_barrier, simdgroup_barrier, the
/// simd_* and quad_* collectives, the simdgroup_matrix load/store/multiply functions and the
/// simdgroup_matrix constructors (`simdgroup_float8x8(1.0f)`, which needs the caller's lane).
bool isBarrierFunction(std::string_view name);

/// Whether `name` is a Metal 4 tensor operation whose execution scope synchronises: the
/// matmul2d and convolution2d ops (their `run`) and the cooperative reductions reduce_rows and
/// reduce_columns, under any qualification.
bool isTensorOperationName(std::string_view name);

/// Whether `name` makes or names a cooperative tensor (`get_*_cooperative_tensor`,
/// `cooperative_tensor`, `cooperative_tensor_*_t`): its slots follow the running thread's
/// index, which only the flavours that run collectives keep, so such functions count as
/// using tensor operations.
bool isCooperativeTensorName(std::string_view name);

/// Whether some token names matmul2d or convolution2d: then a member `run` may run one.
bool namesOperationTypes(const TokenList& tokens);

/// Whether a function body whose tokens are (bodyOpen, bodyClose) uses a tensor operation:
/// it names one (isTensorOperationName) or a cooperative tensor (isCooperativeTensorName), or, when `fileNamesOperations` (namesOperationTypes()
/// of the file: an alias can hide the type), calls a member `run`
/// (`x.run(...)`, `p->run(...)`). Conservative: the cost of a false positive is only speed.
bool usesTensorOperation(const TokenList& tokens, std::size_t bodyOpen, std::size_t bodyClose,
                         bool fileNamesOperations);

/// Whether `name` is a SIMD-group matrix type: simdgroup_matrix or one of its typedefs.
bool isMatrixType(std::string_view name);

/// Whether tokens[i] names a SIMD-group matrix type (`simdgroup_float8x8`, `simdgroup_matrix`)
/// that declares a variable with an initializer, `simdgroup_float8x8 d(2.0f)` or `{2.0f}`:
/// a constructor call written as a declaration (the diagonal needs the caller's lane).
bool isMatrixDeclarationWithArguments(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                                      std::size_t end);

CallGraph buildCallGraph(const TokenList& tokens, const std::vector<std::size_t>& partner,
                         const Module& module);

/// The functions reachable from `root` (root included), in increasing index order. An opaque
/// call reaches every function of CallGraph::namedAsValue (and what they reach), except in a
/// function called with explicit template arguments whose opaque calls all go through its own
/// non-type template parameters: those reach the functions the call's arguments name, plus,
/// where an argument passes on one of the caller's own parameters (`impl<deq_k>(...)`), what
/// the caller's parameters may be (CallGraph::templateCalls). A template reached any other way
/// (deduced arguments) is conservative: its parameters may be any function named as a value.
std::vector<std::size_t> reachableFunctions(const CallGraph& graph, std::size_t root);

/// The functions reachable from one explicit instantiation of kernel template `root`, whose
/// template arguments are tokens [argumentsBegin, argumentsEnd): its template parameters may
/// be only the functions the arguments name (`k<block_q4_0, 2, dequantize_q4_0>` reaches
/// dequantize_q4_0, also through helpers it passes the parameter to), as for a template call
/// in reachableFunctions(), and those the defaults of parameters it leaves out name. An
/// argument naming a program-scope variable (which may hold any function pointer), or fewer
/// arguments than parameters without defaults (the rest deduced), fall back to
/// reachableFunctions().
std::vector<std::size_t> reachableFromInstantiation(const CallGraph& graph, std::size_t root, const TokenList& tokens,
                                                    const std::vector<std::size_t>& partner, std::size_t argumentsBegin,
                                                    std::size_t argumentsEnd);

} // namespace metalcpu::msl
