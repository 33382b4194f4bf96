// Pass: kernels whose barriers and tensor operations are all written in their own body become
// C++20 stackless coroutines that suspend at each of them, instead of running one fiber per thread.
#pragma once

#include "compiler/call_graph.h"
#include "compiler/diagnostics.h"
#include "compiler/passes/pass.h"
#include "compiler/scanner.h"

#include <string>
#include <utility>
#include <vector>

namespace metalcpu::msl {

struct EntryPoint;

class Unit;

/// A SIMD-group function whose value is a whole statement's: `T x = simd_sum(e);`,
/// `x = simd_max(e);`, `x += simd_shuffle_down(x, 16);`; or a SIMD-group matrix product
/// written as a call statement, whose result goes to its first argument:
/// `simdgroup_multiply_accumulate(d, a, b, c);` (docs/compiler.md, "Work-item loops").
struct CollectiveStatement {
    TokenRange statement; ///< from its first token to the `;`
    TokenRange callee;    ///< `simd_sum`, `metal::quad_max`, `::metal::simd_shuffle`
    std::size_t open = 0; ///< the call's `(`; its partner is the `)` before the `;`
    /// For a product: the `,` after the first argument (the result), else kNoToken.
    std::size_t resultComma = kNoToken;
    /// The call is of a collective helper (isCollectiveHelper()) rather than of a SIMD-group
    /// function: `x = scan(v);`, or `x = op.scan(v);` with `object` the token of `op` (a
    /// variable of the body or a parameter), which is handed in with the arguments.
    bool helper = false;
    std::size_t object = kNoToken;
    /// The helper may make several collectives (a staged collective helper,
    /// collective_helpers.h): the statement runs it once per collective for the SIMD-group.
    bool staged = false;
};


/// Whether tokens [begin, assignment) may receive a collective statement's value (the `=` or
/// `op=` at `assignment`): a name alone (`x`, `ns::x`), a declaration of it (`float x`,
/// `const uint s`, `metal::float4 v`), or an element of a named array or pointer whose
/// subscripts call, assign and increment nothing (`v[i]`, `m[r][c]`, MLX's
/// `values[i] = op.simd_scan(values[i]);`). The second loop of the split evaluates the target
/// for each thread after its result, as C++17 orders `E1 = E2`.
bool isCollectiveTarget(const Unit& unit, std::size_t begin, std::size_t assignment);

/// A Metal 4 tensor operation written as a statement of the kernel's body:
/// `NAME.run(args);` with NAME declared in the body as a matmul2d or convolution2d, or
/// `[mpp::tensor_ops::]reduce_rows(args);` / `reduce_columns(args);`. In a coroutine kernel
/// each becomes one awaited scope operation (docs/compiler.md, "Coroutine kernels").
struct TensorOperationStatement {
    enum class Kind { Run, ReduceRows, ReduceColumns };
    Kind kind = Kind::Run;
    TokenRange callee;    ///< `NAME . run`, or the reduction's name with its qualification
    std::size_t open = 0; ///< the call's `(`; its partner is the `)` before the `;`
};

/// Why a barrier kernel is not split into work-item loops: the first obstacle found, and
/// where. For a coroutine kernel (or one with SIMD-group functions) the work-item-loop planner
/// says it; for a kernel that keeps the fibers because it is not even a coroutine,
/// findCoroutineKernels() does.
struct WorkItemRefusal {
    WorkItemRefusal(std::size_t function_ = 0, std::size_t token_ = kNoToken, std::string reason_ = {})
        : function(function_), token(token_), reason(std::move(reason_)) {}
    std::size_t function = 0;     ///< Module::functions
    std::size_t token = kNoToken; ///< where the obstacle is written (kNoToken: the kernel's name)
    std::string reason;
    /// A second place the reason points at (the barrier or collective inside a helper the
    /// kernel calls), reported after `reason` as " (file:line:column)", then `afterRelated`.
    std::size_t related = kNoToken;
    std::string afterRelated;
};

/// A kernel definition that gets the coroutine lowering, and the tokens the rewrite edits.
struct CoroutineKernel {
    std::size_t function = 0; ///< the kernel definition (Module::functions)
    /// The `void` before the name, of the definition and of every prototype of the kernel.
    std::vector<std::size_t> returnTypes;
    /// The callees of the barrier calls, qualification included: `threadgroup_barrier`,
    /// `metal::simdgroup_barrier`, `::metal::threadgroup_barrier`.
    std::vector<TokenRange> barriers;
    /// The `return` keywords of the return statements of the body's tree (so not those of its
    /// lambdas and local classes).
    std::vector<std::size_t> returns;
    /// SIMD-group functions as whole statements. A kernel that has them cannot be a
    /// coroutine: only the work-item-loop lowering takes it, else it keeps the fibers.
    std::vector<CollectiveStatement> collectives;
    /// The SIMD-group matrix functions that need only the caller's lane (simdgroup_load,
    /// simdgroup_store, a matrix made with a diagonal): a kernel that names them cannot be a
    /// coroutine either; work-item loops tell them the lane (simd_lane_scope, work_items.h).
    std::vector<std::size_t> laneUsers;
    /// Tensor operations as statements. A kernel that has them is never split into
    /// work-item loops (the cooperative tensors they take by reference have no per-piece copies).
    std::vector<TensorOperationStatement> tensorOperations;
};

/// Finds the kernel definitions that can become coroutines. A kernel definition can when its
/// body calls threadgroup_barrier or simdgroup_barrier, or has a tensor operation, and
///   - every such call is a statement of the body itself (`threadgroup_barrier(f);`, also as
///     the statement of an if/else/for/while/do, after a label or after attributes: a simple
///     statement of the body's tree, Unit::body(), that the call ends), not inside a lambda or
///     a local class (findNestedBodies()), and the callee is written `threadgroup_barrier`,
///     `metal::...` or `::metal::...` (any other mention of the two names keeps the fibers);
///     a body the statement parser cannot delimit (Unit::lexicalBodies()) keeps the fibers;
///   - its simd_* and quad_* calls are each the whole value of a statement, written `name` or
///     `[::]metal::name`, with nothing but a name or a declaration before the `=`, and its
///     simdgroup_multiply[_accumulate] calls are each a statement (CollectiveStatement); its
///     simdgroup_load and simdgroup_store calls and SIMD-group matrices made with arguments
///     (`simdgroup_float8x8 d(2.0f)`) are laneUsers; none of these is in a lambda or a local
///     class. (A kernel with collectives or lane users is only ever split into work-item
///     loops, never a coroutine.)
///   - every use of a tensor operation is a TensorOperationStatement of the body itself (not in
///     a lambda or local class): each mention of matmul2d/convolution2d declares one name alone
///     at the start of a statement, each mention of that name is its declaration, a `run`
///     statement or an argument-less member call (`op.get_destination_cooperative_tensor<...>()`),
///     each reduce_rows/reduce_columns is a statement's callee, and no other member `run` is
///     called in a file that names matmul2d or convolution2d;
///   - no other function reachable from it in `graph` uses barriers (reachableFromKernel());
///   - its declaration is `void` with nothing but `kernel`, `static`, `inline` and attributes
///     before the name, and every other declaration of it (same name and namespaces) is a
///     prototype of that shape;
///   - the file defines no function named threadgroup_barrier or simdgroup_barrier.
/// Every other kernel that reaches a barrier, collective or tensor operation keeps the fibers;
/// the first reason found for each, naming the construct and where it is written (for one
/// reached through a helper: the kernel's call and the helper's barrier), goes to `refusals`.
std::vector<CoroutineKernel> findCoroutineKernels(const Unit& unit, const CallGraph& graph,
                                                  const std::vector<EntryPoint>& entryPoints,
                                                  std::vector<WorkItemRefusal>& refusals);

/// The functions kernel `kernel` (a Module::functions index) can reach, as its lowering must
/// assume: for a kernel template, the union over its explicit instantiations of what each
/// reaches (reachableFromInstantiation(): a call through its function-pointer template
/// parameter reaches only the functions its instantiations pass), since a kernel is never
/// called, only instantiated, and its body is lowered once for all of them. So what the rest of
/// the file names as a value (ggml's SIMD-group helpers passed to kernel_mul_mv_id) does not
/// change the lowering of kernel_mul_mm<..., dequantize_f32>. For any other kernel,
/// reachableFunctions().
std::vector<std::size_t> reachableFromKernel(const Unit& unit, const CallGraph& graph,
                                             const std::vector<EntryPoint>& entryPoints, std::size_t kernel);

/// Rewrites the return statement of a kernel (a void function) whose keyword is `keyword` so
/// that it leaves as `leave` says (`co_return`, `return __mc_wi.retire(__mc_t)`): `return;`
/// becomes `leave;`, and `return expr;`, which C++ allows when expr is void (MLX's steel GEMM
/// `return mma_op.store_result(...)`), becomes `{ expr; leave; }`.
void rewriteKernelReturn(EditList& edits, const Unit& unit, std::size_t keyword, const std::string& leave);

/// For each kernel of Findings::coroutineKernels: `void` becomes
/// `::metalcpu_kernel::barrier_task` (written from the start of the erased `kernel`/[[kernel]]
/// before it on the same line, so the tokens after it move as little as possible), each
/// barrier callee becomes `co_await ::metalcpu_kernel::barrier_point` (its arguments stay),
/// `NAME.run(args)` becomes `co_await ::metalcpu_kernel::scope_run(NAME, args)`, a reduction's
/// callee `co_await ::metalcpu_kernel::scope_reduce_rows` (or `_columns`), and each return
/// statement leaves with `co_return` (rewriteKernelReturn()). Run it after rewriteKernelSignatures() and
/// rewriteAttributes().
void rewriteCoroutineKernels(PassContext& context);

} // namespace metalcpu::msl
