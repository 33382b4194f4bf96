// Rewriting of the kernels planned in work_item_loops.cpp: each piece becomes a loop over the
// group's threads (run_work_items), the variables that live across barriers slot arrays, the
// SIMD-group function statements a deposit loop and a collect loop. The plan decides; this
// file only writes text, through the pass's edit list.
#include "compiler/passes/work_item_loops.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/passes/written_parameters.h"
#include "compiler/reflection.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <set>

namespace metalcpu::msl {

namespace {

std::string slots(std::size_t v) { return "__mc_v" + std::to_string(v); }
std::string slotType(std::size_t v) { return "__mc_t" + std::to_string(v); }
std::string builtinType(std::size_t p) { return "__mc_b" + std::to_string(p); }
std::string collectiveSite(std::size_t c) { return "__mc_c" + std::to_string(c); }

// How a piece's loop starts, up to its lambda, and the lambda's parameter.
constexpr const char* kPieceLoop = "::metalcpu_kernel::run_work_items(__mc_wi, ";
constexpr const char* kPieceThread = "const ::metalcpu_kernel::thread_ids& __mc_t";
std::string guardSlots(std::size_t g) { return "__mc_g" + std::to_string(g); }

// The running thread's element of a slot array. thread_ids::slot, not ::linear: the 64-bit
// index is affine in the loop over a row of threads, so the host compiler vectorises a slot's
// loads and stores as contiguous ones; the 32-bit sum might wrap as far as it knows, which
// makes every slot access a gather or scatter and keeps the whole loop scalar.
constexpr const char* kThreadSlot = "[__mc_t.slot]";

// The type of variable `v`'s slots: its declaration's type, its declarator's `*`s and bounds.
std::string slotTypeText(const TokenList& tokens, const WorkItemVariable& v) {
    if (v.parameter != WorkItemVariable::kNotParameter) return writtenParameterSlotType(v);
    // The first declarator's `*`s follow the type: its text as written.
    std::string text = outputText(tokens, v.type.begin, v.pointer.begin == v.type.end ? v.pointer.end : v.type.end);
    if (!v.pointer.empty() && v.pointer.begin != v.type.end)
        text += " " + outputText(tokens, v.pointer.begin, v.pointer.end);
    if (v.countedBound != 0)
        text += " [" + std::to_string(v.countedBound) + "]" + outputText(tokens, v.bounds.begin + 2, v.bounds.end);
    else if (!v.bounds.empty())
        text += " " + outputText(tokens, v.bounds.begin, v.bounds.end);
    return text;
}

// What a piece that names variable `v`, declared in an earlier piece, starts with: a copy of
// the thread's slot, or for a variable kept in place a reference to it.
std::string loadText(const WorkItemKernel& k, std::size_t v) {
    const WorkItemVariable& var = k.variables[v];
    return slotType(v) + (var.inPlace ? "& " : " ") + var.name + " = " + slots(v) + kThreadSlot + "; ";
}

// Declares variable `v`, kept in place, as a reference to the thread's slot, constructed there
// from its initializer: `float v[4] = {0}` becomes
// `float (&v)[4] = ::metalcpu_kernel::emplace(__mc_v0[t], __mc_t0{0})`, `float x = e` becomes
// `float &x = ::metalcpu_kernel::emplace(__mc_v1[t], e)`, and `float v[4]` becomes
// `float (&v)[4] = ::metalcpu_kernel::emplace(__mc_v0[t])`, default-initialised (as
// indeterminate as the variable). The initializer's tokens stay, with whatever earlier passes
// did to them.
void declareInPlace(EditList& edits, std::size_t v, const WorkItemVariable& var) {
    const TokenList& tokens = edits.tokens();
    const std::string slot = slots(v) + kThreadSlot;
    const TokenRange init = var.initializer;
    // `(&v)[4]` for an array, `&x` otherwise (parentheses there draw a warning).
    edits.insertBefore(var.nameToken, var.bounds.empty() ? "&" : "(&");
    if (!var.bounds.empty()) edits.insertAfter(var.nameToken, ")");
    if (var.countedBound != 0) edits.insertAfter(var.bounds.begin, std::to_string(var.countedBound));
    if (init.empty()) {
        edits.insertBefore(init.end, " = ::metalcpu_kernel::emplace(" + slot + ")");
        return;
    }
    const std::string emplace = "::metalcpu_kernel::emplace(" + slot + ", ";
    if (!tokens[init.begin].isPunct("=")) {
        // `v{...}` or `v(...)`: the slot's type, so constructed.
        edits.insertBefore(init.begin, " = " + emplace + slotType(v));
    } else if (tokens[init.begin + 1].isPunct("{")) {
        // `v = {...}`: a braced list is not an expression; it constructs the slot's type.
        edits.insertBefore(init.begin + 1, emplace + slotType(v));
    } else {
        edits.insertAfter(init.begin, " " + emplace);
    }
    edits.insertBefore(init.end, ")");
}

// Whether the thread takes every branch region `r` is under (`__mc_g0[t] && !__mc_g1[t]`),
// or "" when it is under none; `slot` indexes the guards' slots.
std::string guardCondition(const WorkItemRegion& r, const char* slot = kThreadSlot) {
    std::string condition;
    for (const WorkItemGuard& g : r.guards)
        condition += std::string(condition.empty() ? "" : " && ") + (g.taken ? "" : "!") + guardSlots(g.guard) + slot;
    return condition;
}

// A SIMD-group function statement `x = simd_f(args);` in region `r`, whose per-thread setup
// (guard check, rebinds and loads) is `opener`: returns the first loop, which hands each
// thread's `args` to the site (under divergent ifs, marking first whether the thread takes
// part), rewrites the call into what reads the thread's result in the second, and makes
// `opener` the second loop's. Both loops are the site's own (run_deposit_work_items,
// run_collect_work_items in work_items.h), which hand the piece the thread's ids as a type of
// their choosing, so the piece is a generic lambda:
//   run_deposit_work_items(wi, site, [&](const auto& t) { <setup> simd_deposit(site, wi, t, args); });
//   run_collect_work_items(wi, site, [&](const auto& t) { <setup> { x = simd_collect<decltype(simd_arguments(args))>(
//       site, wi, t, [](const auto&... a) { return simd_f(a...); }); <places> } <stores> });
// A product `simdgroup_multiply(d, args);` hands in only `args`, with the type of `d`, which
// tells the first loop's runner to compute every SIMD-group's product after it
// (simd_compute_products); the second writes each thread's result to `d`:
//   run_deposit_work_items(wi, site, [&](const auto& t) { <setup>
//       simd_deposit_product<decltype(simd_destination(d))>(site, wi, t, args); });
//   run_product_collect_work_items(wi, site, [&](const auto& t) { <setup> { simd_collect_product(d, site, t); }
//       <stores> });
std::string collectiveSplit(EditList& edits, const WorkItemKernel& k, const WorkItemRegion& r,
                            std::string& opener) {
    const TokenList& tokens = edits.tokens();
    const CollectiveStatement& c = k.collectives[r.collective];
    const std::size_t close = c.statement.end - 2; // the call's `)`
    const bool product = c.resultComma != kNoToken;
    // The arguments handed in: a product's all but its first, which receives the result.
    const std::size_t first = product ? c.resultComma + 1 : c.open + 1;
    // A member helper's object is handed in first, then the call's arguments.
    const std::string object = c.object == kNoToken ? std::string() : outputText(tokens, c.object, c.object + 1);
    const std::string callArguments = outputText(tokens, first, close);
    const std::string arguments =
        object.empty() ? callArguments
                       : object + (callArguments.find_first_not_of(' ') == std::string::npos ? "" : ", ") + callArguments;
    const std::string callee = outputText(tokens, c.object == kNoToken ? c.callee.begin : c.object + 2, c.callee.end);
    const std::string site = collectiveSite(r.collective);
    // The piece's loop becomes the site's, its lambda generic.
    const std::string loop = std::string(kPieceLoop) + "[&](" + kPieceThread + ")";
    const auto siteLoop = [&](const std::string& runner) {
        std::string text = opener;
        text.replace(text.find(loop), loop.size(),
                     "::metalcpu_kernel::" + runner + "(__mc_wi, " + site + ", [&](const auto& __mc_t)");
        return text;
    };
    // The first loop sets up only what the arguments name (the rest would go unused).
    std::string depositOpener = siteLoop("run_deposit_work_items");
    opener = siteLoop(product ? "run_product_collect_work_items" : "run_collect_work_items");
    auto namedInArguments = [&](const std::string& name) {
        if (c.object != kNoToken && tokens[c.object].spelling == name) return true;
        // A product's destination too: the first loop names its type.
        for (std::size_t i = product ? c.open + 1 : first; i < close; ++i)
            if (tokens[i].spelling == name && isUnqualifiedName(tokens, i)) return true;
        return false;
    };
    for (std::size_t v : r.loads)
        if (!namedInArguments(k.variables[v].name)) {
            const std::string load = loadText(k, v);
            depositOpener.erase(depositOpener.find(load), load.size());
        }
    for (const WorkItemBuiltin& b : k.perThreadBuiltins)
        if (std::find(r.builtins.begin(), r.builtins.end(), b.parameter) != r.builtins.end() &&
            !namedInArguments(b.name)) {
            const std::string rebind = builtinType(b.parameter) + " " + b.name + " = ::metalcpu_kernel::builtin<" +
                                       builtinType(b.parameter) + ", " + builtinEnumerator(b.kind) +
                                       ">(__mc_group, __mc_t); ";
            depositOpener.erase(depositOpener.find(rebind), rebind.size());
        }
    if (!r.guards.empty()) {
        const std::string condition = guardCondition(r);
        const std::string check = "if (!(" + condition + ")) return; ";
        depositOpener.replace(depositOpener.find(check), check.size(),
                              "::metalcpu_kernel::simd_mark(" + site + ", __mc_wi, __mc_t, " + condition + "); " + check);
    }
    const std::string separator = arguments.find_first_not_of(' ') == std::string::npos ? "" : ", ";
    // The call's text is built from its output (`arguments`, `callee`), so it takes over
    // whatever earlier passes did to it.
    const std::string pack = "decltype(::metalcpu_kernel::simd_arguments(" + arguments + "))";
    if (product) {
        // The first loop knows the product by the destination's type and the operands (two:
        // simdgroup_multiply, three: with C): each SIMD-group's is computed at once after it
        // (simd_compute_products), so the second only takes each thread's result.
        const std::string destination = outputText(tokens, c.open + 1, c.resultComma);
        edits.takeOver({c.callee.begin, close + 1},
                       "::metalcpu_kernel::simd_collect_product(" + destination + ", " + site + ", __mc_t)");
        return depositOpener + "::metalcpu_kernel::simd_deposit_product<decltype(::metalcpu_kernel::simd_destination(" +
               destination + "))>(" + site + ", __mc_wi, __mc_t" + separator + arguments + "); }); ";
    }
    // The first loop is handed the function too, so that the round can be computed as soon
    // as every thread has handed in its arguments.
    // Always inlined: a kernel library holds many such lambdas of the same code, which the
    // host compiler folds into one and then may not inline into simd_compute.
    std::string function = "[](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) "
                           "__attribute__((always_inline)) { return " + callee + "(__mc_a..., __mc_w); }";
    // A collective helper takes no site: its collective finds the round through the group
    // while it runs (simd_helper_scope), and a member helper runs on a copy of the thread's
    // object (it has no effect but its value, isCollectiveHelper()).
    if (c.helper && c.object == kNoToken)
        function = "[](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) "
                   "__attribute__((always_inline)) { const ::metalcpu_kernel::simd_helper_scope __mc_h(__mc_w); "
                   "return " + callee + "(__mc_a...); }";
    else if (c.helper)
        function = "[](const ::metalcpu_kernel::simd_site& __mc_w, const auto& __mc_o, const auto&... __mc_a) "
                   "__attribute__((always_inline)) { const ::metalcpu_kernel::simd_helper_scope __mc_h(__mc_w); "
                   "auto __mc_s = __mc_o; return __mc_s." + callee + "(__mc_a...); }";
    // A staged helper (several collectives) is run for its whole SIMD-group once per
    // collective by the second loop; the first only hands in the arguments.
    if (c.staged) {
        edits.takeOver({c.callee.begin, close + 1}, "::metalcpu_kernel::simd_staged_collect<" + pack + ">(" + site +
                                                        ", __mc_wi, __mc_t, " + function + ")");
        return depositOpener + "::metalcpu_kernel::simd_deposit(" + site + ", __mc_wi, __mc_t" + separator + arguments +
               "); }); ";
    }
    edits.takeOver({c.callee.begin, close + 1},
                   "::metalcpu_kernel::simd_collect<" + pack + ">(" + site + ", __mc_wi, __mc_t, " + function + ")");
    return depositOpener + "::metalcpu_kernel::simd_deposit(" + site + ", " + function + ", __mc_wi, __mc_t" + separator +
           arguments + "); }); ";
}

// Where a piece runs: in a loop of its own, or inside a neighbouring product's loops
// (fusedPieces()).
enum class PieceLoop {
    Own,
    ProductDeposit, ///< at the start of the next region's first loop, before the deposit
    ProductCollect, ///< at the end of the previous region's second loop, after the collect
};

bool work_items_contains(const TokenRange& r, std::size_t i) { return i >= r.begin && i < r.end; }

// A SIMD-group matrix product statement (simdgroup_multiply[_accumulate]) outside divergent ifs.
bool isUnguardedProduct(const WorkItemKernel& k, const WorkItemRegion& r) {
    return r.collective != WorkItemRegion::kNoCollective && k.collectives[r.collective].resultComma != kNoToken &&
           r.guards.empty();
}

// The pieces that run inside the loops of the product next to them: a product's loops run the
// piece just before it (nothing between them) before each thread hands in its operands, and
// the piece just after it after each thread takes its result, so that a product costs its
// two loops over the threads and no more (tinygrad's WMMA loop body, the piece that loads the
// operands and the one that reads the result back, was four). That keeps the order of each
// thread's statements; between threads it moves only the deposit, which reads the thread's
// own operands (SIMD-group matrices live in the thread's registers), and the collect, which
// reads only what the product computed. A piece under a divergent if, the condition of one,
// an interleaved kernel's loop body and one before which slots are made (lateSetups) keep
// their loops, and so does a piece that learns its lanes (simdgroup_load and _store): in the
// product's first loop, simdgroup_matrix_bench's loads took 52 M more instructions per
// dispatch at 256³ (226 M → 279 M) instead of fewer.
std::vector<PieceLoop> fusedPieces(const WorkItemKernel& k) {
    std::vector<PieceLoop> where(k.regions.size(), PieceLoop::Own);
    if (k.interleaved) return where;
    const auto fusable = [&](std::size_t p) {
        const WorkItemRegion& r = k.regions[p];
        if (where[p] != PieceLoop::Own || r.collective != WorkItemRegion::kNoCollective ||
            r.setsGuard != WorkItemRegion::kNoGuard || r.continues || !r.guards.empty() || r.learnsLanes)
            return false;
        return std::none_of(k.variables.begin(), k.variables.end(),
                            [&](const WorkItemVariable& v) { return v.setupBefore == r.tokens.begin; });
    };
    // Regions next to each other in one block: nothing between them, and not one in the body of
    // a loop or branch written without braces and the other after it (no `}` tells them apart).
    const auto neighbours = [&](std::size_t a, std::size_t b) {
        const TokenRange &first = k.regions[a].tokens, &second = k.regions[b].tokens;
        if (first.end != second.begin) return false;
        return std::all_of(k.unbracedBodies.begin(), k.unbracedBodies.end(), [&](const WorkItemKernel::UnbracedBody& u) {
            return work_items_contains(u.tokens, first.begin) == work_items_contains(u.tokens, second.begin);
        });
    };
    for (std::size_t q = 0; q < k.regions.size(); ++q) {
        if (!isUnguardedProduct(k, k.regions[q])) continue;
        if (q > 0 && neighbours(q - 1, q) && fusable(q - 1)) where[q - 1] = PieceLoop::ProductDeposit;
        if (q + 1 < k.regions.size() && neighbours(q, q + 1) && fusable(q + 1)) where[q + 1] = PieceLoop::ProductCollect;
    }
    return where;
}

/// The site of the first of `k`'s barriers that starts in tokens (after, end), as the
/// instrumented flavour writes it (an `mc_simd_site`, of kind MC_SIMD_BARRIER_KIND for a
/// simdgroup_barrier): the line and column of the barrier's name. Empty when there is none.
std::string firstBarrierSite(const WorkItemKernel& k, const TokenList& tokens, std::size_t after, std::size_t end) {
    const TokenRange* first = nullptr;
    for (const TokenRange& b : k.barriers)
        if (b.begin > after && b.begin < end && (!first || b.begin < first->begin)) first = &b;
    if (first) {
        const TokenRange& b = *first;
        std::size_t name = b.begin;
        while (name < b.end && tokens[name].spelling != "threadgroup_barrier" && tokens[name].spelling != "simdgroup_barrier")
            ++name;
        if (name == b.end) name = b.begin;
        const bool simdgroup = tokens[name].spelling == "simdgroup_barrier";
        return "::mc_simd_site{__FILE__, " + std::to_string(tokens[name].location.line) + ", " +
               std::to_string(tokens[name].location.column) + (simdgroup ? ", MC_SIMD_BARRIER_KIND}" : ", nullptr}");
    }
    return {};
}

// The barrier-divergence check of the instrumented flavour after the condition of divergent
// if `r` (its region) when the if holds a simdgroup_barrier: each thread's way, read from the
// guards, goes to divergent_barriers() (work_items.h) with the first barrier each way reaches.
// Empty when the if holds none (SIMD-group functions may diverge).
std::string divergentBarrierCheck(const WorkItemKernel& k, const TokenList& tokens, const WorkItemRegion& r) {
    const DivergentIf& d = k.divergentIfs[r.setsGuard];
    if (firstBarrierSite(k, tokens, d.keyword, d.end).empty()) return {};
    const std::size_t firstEnd = d.elseKeyword != kNoToken ? d.elseKeyword : d.end;
    std::string taken = firstBarrierSite(k, tokens, r.tokens.end, firstEnd);
    if (taken.empty()) taken = firstBarrierSite(k, tokens, d.end - 1, tokens.size());
    if (taken.empty()) taken = "::mc_simd_site{nullptr, 0, 0, nullptr}";
    std::string left = firstBarrierSite(k, tokens, firstEnd - 1, tokens.size());
    if (left.empty()) left = "::mc_simd_site{nullptr, 0, 0, nullptr}";
    const std::string outer = guardCondition(r, "[__mc_l]");
    return " ::metalcpu_kernel::divergent_barriers(__mc_wi, [&](::mc_u32 __mc_l) __attribute__((always_inline)) -> int "
           "{ return " + (outer.empty() ? std::string() : "!(" + outer + ") ? -1 : ") + guardSlots(r.setsGuard) +
           "[__mc_l] ? 1 : 0; }, " + taken + ", " + left + ");";
}

// The header of divergent loop `r` (its region: the condition and the increment), whose
// per-thread setup is `opener`. Guard slot G, round counter I:
//   for (::mc_u32 I = 0;; ++I) {
//       run_work_items(wi, [&](t) { <setup> { const auto C = [&]() -> bool { return bool(c); };
//           if (I == 0 || G[t]) { if (I != 0) { inc; } G[t] = C(); } } <stores> });
//       if (!any_thread(wi, [&](l) { return <outer guards> && G[l]; })) break;
//       { body }
//   }
// (`while (c)`: `G[t] = (I == 0 || G[t]) && bool(c);`). A thread that has left the loop keeps
// its guard false: neither the increment nor the condition runs for it again.
void divergentLoopHeader(EditList& edits, const WorkItemKernel& k, const WorkItemRegion& r, const std::string& opener,
                         bool validation) {
    const TokenList& tokens = edits.tokens();
    const DivergentIf& d = k.divergentIfs[r.setsGuard];
    const std::string g = std::to_string(r.setsGuard);
    const std::string guard = guardSlots(r.setsGuard) + kThreadSlot;
    const std::string round = "__mc_i" + g;
    std::string closer = "} ";
    for (std::size_t v : r.loads)
        if (!k.variables[v].isConst && !k.variables[v].inPlace)
            closer += "::metalcpu_kernel::place(" + slots(v) + kThreadSlot + ", " + k.variables[v].name + "); ";
    closer += "});";
    const std::string outer = guardCondition(r, "[__mc_l]");
    closer += " if (!::metalcpu_kernel::any_thread(__mc_wi, [&](::mc_u32 __mc_l) __attribute__((always_inline)) "
              "-> bool { return " + (outer.empty() ? std::string() : outer + " && ") + guardSlots(r.setsGuard) +
              "[__mc_l]; })) break;";
    if (validation) closer += divergentBarrierCheck(k, tokens, r);
    const std::string head = "for (::mc_u32 " + round + " = 0;; ++" + round + ") { " + opener + "{ ";
    if (d.conditionEnd == kNoToken) { // while (c)
        edits.insertBefore(r.tokens.begin, head + guard + " = (" + round + " == 0 || " + guard + ") && bool(");
        edits.replace(d.close, "); " + closer);
        return;
    }
    edits.insertBefore(r.tokens.begin, head + "const auto __mc_c" + g +
                                           " = [&]() __attribute__((always_inline)) -> bool { return bool(");
    // `for (init; ; inc)`: the loop ends at a break (llama.cpp's `if (ic >= args.ne11) break;`).
    const std::string always = d.conditionEnd == d.initEnd + 1 ? "true" : "";
    edits.replace(d.conditionEnd,
                  always + "); }; if (" + round + " == 0 || " + guard + ") { if (" + round + " != 0) { ");
    edits.replace(d.close, "; } " + guard + " = __mc_c" + g + "(); } " + closer);
}

} // namespace

void rewriteWorkItemKernels(PassContext& context) {
    EditList& edits = context.edits;
    const TokenList& tokens = edits.tokens();
    for (const WorkItemKernel& k : context.findings.workItemKernels) {
        const bool returns = !k.returns.empty();
        const std::string laneForm = laneBodyText(context, k); // before this kernel's edits
        // An interleaved kernel runs its threads in blocks of k.lanes (lane_block), its
        // variables in local arrays of that many (lane_slots).
        const std::string lanes = std::to_string(k.lanes);
        // In the plain flavour a kernel with a lane form runs its pieces only for the blocks the
        // lane form does not take, not unrolled (work_items.h, run_work_items); the validated
        // flavour runs them for every block while the threadgroup watch is on.
        const bool piecesFallBack = !laneForm.empty() && !context.options.validation;
        std::string setup = k.interleaved ? std::string(" ::metalcpu_kernel::lane_block<") + (returns ? "true" : "false") +
                                                ", " + lanes + (piecesFallBack ? ", true" : "") + "> __mc_wi(__mc_group);"
                                          : std::string(" ::metalcpu_kernel::work_items<") +
                                                (returns ? "true" : "false") + "> __mc_wi(__mc_group);";
        for (const WorkItemBuiltin& b : k.perThreadBuiltins)
            setup += " using " + builtinType(b.parameter) + " = decltype(" + b.name + ");";
        std::vector<std::pair<std::size_t, std::string>> lateSetups; // (piece, text)
        for (std::size_t v = 0; v < k.variables.size(); ++v) {
            const WorkItemVariable& var = k.variables[v];
            const std::string text =
                " using " + slotType(v) + " = " + slotTypeText(tokens, var) + ";" +
                (k.interleaved ? " ::metalcpu_kernel::lane_slots<" + slotType(v) + ", " + lanes + "> __mc_s" +
                                     std::to_string(v) + "; auto* const " + slots(v) + " = __mc_s" + std::to_string(v) +
                                     ".lanes;"
                               : " auto* const " + slots(v) + " = __mc_wi.slots<" + slotType(v) + ">();");
            if (var.setupBefore == kNoToken)
                setup += text;
            else
                lateSetups.emplace_back(var.setupBefore, text.substr(1) + " ");
            if (var.inPlace && var.parameter == WorkItemVariable::kNotParameter) declareInPlace(edits, v, var);
        }
        for (std::size_t c = 0; c < k.collectives.size(); ++c)
            setup += " ::metalcpu_kernel::collective_site " + collectiveSite(c) + ";";
        for (std::size_t g = 0; g < k.divergentIfs.size(); ++g)
            setup += " bool* const " + guardSlots(g) + " = __mc_wi.slots<bool>();";
        // After the body's `{`: the builtins are parameters, so their types can be named there.
        if (k.interleaved) {
            setup += " while (__mc_wi.next()) {" + laneForm;
            edits.insertBefore(k.bodyClose, "} ");
        }
        edits.insertAfter(k.bodyOpen, setup);
        // Written parameters: each thread's slot starts as its value of the parameter, in a
        // loop of its own after all the setup (inserted after it, so also after whatever the
        // setup opens).
        std::string fills;
        for (std::size_t v = 0; v < k.variables.size(); ++v)
            if (k.variables[v].parameter != WorkItemVariable::kNotParameter)
                fills += "::metalcpu_kernel::place(" + slots(v) + kThreadSlot + ", " +
                         writtenParameterValue(k.variables[v]) + "); ";
        if (!fills.empty())
            edits.insertAfter(k.bodyOpen, std::string(" ") + kPieceLoop + "[&](" + kPieceThread +
                                              ") __attribute__((always_inline)) { (void)__mc_t; " + fills + "});");

        // A threadgroup barrier's call stays, for the threadgroup watch of the instrumented
        // flavour (a no-op in the plain one); a SIMD-group barrier tells the watch's race check
        // of a SIMD-group synchronisation there (work_items_simdgroup_sync).
        // Validated kernels whose threads may return also keep its place for the
        // barrier-divergence check: the threads that returned did not reach it.
        for (const TokenRange& b : k.barriers) {
            std::size_t callee = b.begin;
            while (callee < b.end && tokens[callee].spelling != "threadgroup_barrier") ++callee;
            std::string divergenceCheck;
            if (context.options.validation && returns)
                divergenceCheck = "::metalcpu_kernel::work_item_barrier(__mc_wi, ::mc_simd_site{__FILE__, " +
                                  std::to_string(tokens[b.begin].location.line) + ", " +
                                  std::to_string(tokens[b.begin].location.column) + ", nullptr}); ";
            if (callee < b.end)
                edits.replace(TokenRange{b.begin, callee + 1}, divergenceCheck + "::metalcpu_kernel::work_items_barrier");
            else if (context.options.validation) // a simdgroup_barrier: the race check orders its SIMD-groups by it
                edits.replace(b, "::metalcpu_kernel::work_items_simdgroup_sync();");
            else
                edits.erase(b);
        }
        // The barrier-divergence check of the instrumented flavour: a header condition that reads
        // per-thread variables runs for every thread (uniform_condition), its uses reading each
        // thread's slot; the plain flavour reads the first live thread's.
        std::vector<bool> perThread(tokens.size(), false);
        if (context.options.validation && !k.interleaved) {
            for (const WorkItemKernel::UniformCondition& u : k.uniformConditions) {
                const std::string taken = firstBarrierSite(k, tokens, u.taken.begin, u.taken.end);
                if (taken.empty()) continue; // SIMD-group functions only: they may diverge
                std::string left = firstBarrierSite(k, tokens, u.left, tokens.size());
                if (left.empty()) left = "::mc_simd_site{nullptr, 0, 0, nullptr}";
                edits.insertBefore(u.condition.begin, "::metalcpu_kernel::uniform_condition(__mc_wi, [&](::mc_u32 __mc_l) "
                                                      "__attribute__((always_inline)) -> bool { return bool(");
                edits.insertAfter(u.condition.end - 1, "); }, " + taken + ", " + left + ")");
                for (std::size_t i = u.condition.begin; i < u.condition.end; ++i) perThread[i] = true;
            }
        }
        for (const auto& [token, variable] : k.headerUses)
            edits.replace(token, "(" + slots(variable) + (perThread[token] ? "[__mc_l])" : "[__mc_wi.lead()])"));
        if (returns) {
            for (std::size_t body : k.loopBodies) edits.insertAfter(body, " if (__mc_wi.all_returned()) break;");
            for (std::size_t r : k.returns) rewriteKernelReturn(edits, context.unit, r, "return __mc_wi.retire(__mc_t)");
        }
        for (const DivergentIf& d : k.divergentIfs) {
            edits.erase(d.keyword);
            if (d.elseKeyword != kNoToken) edits.erase(d.elseKeyword);
            if (!d.loop) continue;
            // `for (init; c; inc) { ... }`: the init-statement is a piece of its own, the rest as
            // divergentLoopHeader() writes it; the loop it opens ends after the body.
            edits.erase(d.open);
            if (d.initEnd == d.open + 1) edits.erase(d.initEnd);
            edits.insertAfter(d.end - 1, " }");
        }
        const std::vector<PieceLoop> pieceLoops = fusedPieces(k);
        for (std::size_t ri = 0; ri < k.regions.size(); ++ri) {
            const WorkItemRegion& r = k.regions[ri];
            const std::string pieceHead = std::string(kPieceLoop) + "[&](" + kPieceThread + ") __attribute__((always_inline)) {";
            std::string opener = pieceHead + " (void)__mc_t; ";
            if (!r.guards.empty()) opener += "if (!(" + guardCondition(r) + ")) return; ";
            if (r.learnsLanes) opener += "const ::metalcpu_kernel::simd_lane_scope __mc_lane(__mc_wi, __mc_t); ";
            for (std::size_t p : r.builtins) {
                for (const WorkItemBuiltin& b : k.perThreadBuiltins)
                    if (b.parameter == p)
                        opener += builtinType(p) + " " + b.name + " = ::metalcpu_kernel::builtin<" + builtinType(p) +
                                  ", " + builtinEnumerator(b.kind) + ">(__mc_group, __mc_t); ";
            }
            for (std::size_t v : r.loads) opener += loadText(k, v);
            if (r.setsGuard != WorkItemRegion::kNoGuard && k.divergentIfs[r.setsGuard].loop) {
                divergentLoopHeader(edits, k, r, opener, context.options.validation);
                continue;
            }
            if (r.setsGuard != WorkItemRegion::kNoGuard) {
                // `if (c)` becomes `run_work_items(wi, [&](t) { <setup> __mc_gN[t] = bool(c); });`;
                // its branches stay blocks, run once per group, their pieces guarded.
                edits.insertBefore(r.tokens.begin - 1,
                                   opener + guardSlots(r.setsGuard) + kThreadSlot + " = bool");
                edits.insertAfter(r.tokens.end, "; });" + (context.options.validation
                                                              ? divergentBarrierCheck(k, tokens, r)
                                                              : std::string()));
                continue;
            }
            if (r.collective != WorkItemRegion::kNoCollective) {
                std::string deposit = collectiveSplit(edits, k, r, opener);
                if (ri > 0 && pieceLoops[ri - 1] == PieceLoop::ProductDeposit) {
                    // The loop was opened by the piece before (below): the deposit is a block of it.
                    const std::string depositHead = "::metalcpu_kernel::run_deposit_work_items(__mc_wi, " +
                                                    collectiveSite(r.collective) +
                                                    ", [&](const auto& __mc_t) __attribute__((always_inline)) {";
                    deposit.replace(deposit.find(depositHead), depositHead.size(), "{");
                    deposit.replace(deposit.rfind("});"), 3, "} });");
                }
                // Between its two loops every thread has handed in its arguments: the
                // SIMD-group synchronisation the race check of the instrumented flavour sees.
                opener = deposit + (context.options.validation ? "::metalcpu_kernel::work_items_simdgroup_sync(); " : "") +
                         opener;
            }
            // A piece run in a product's loop is a block of its lambda, which the piece before
            // the product opens and the piece after it closes.
            const PieceLoop loop = pieceLoops[ri];
            if (loop == PieceLoop::ProductDeposit)
                opener.replace(opener.find(pieceHead), pieceHead.size(),
                               "::metalcpu_kernel::run_deposit_work_items(__mc_wi, " +
                                   collectiveSite(k.regions[ri + 1].collective) +
                                   ", [&](const auto& __mc_t) __attribute__((always_inline)) { {");
            else if (loop == PieceLoop::ProductCollect)
                opener.replace(opener.find(pieceHead), pieceHead.size(), "{");
            // A `continue` of an interleaved kernel's uniform loop leaves `do { } while (false)`,
            // so the stores below still run.
            opener += r.continues ? "do { " : "{ ";
            std::string closer = " ";
            // A variable kept in place is in its slot already; its reference may go unused here.
            for (std::size_t v : r.stores)
                closer += k.variables[v].inPlace ? "(void)" + k.variables[v].name + "; "
                                                 : "::metalcpu_kernel::place(" + slots(v) + kThreadSlot + ", " +
                                                       k.variables[v].name + "); ";
            closer += r.continues ? "} while (false); " : "} ";
            // A break out of a divergent loop: the thread leaves it (its guard false) and this
            // piece, past the statements (whose variables no later piece of the round reads) to
            // its stores.
            if (!r.breaks.empty()) {
                const std::string label = "__mc_break" + std::to_string(ri);
                for (std::size_t b : r.breaks) edits.replace(b, "goto " + label);
                closer += "if (false) { " + label + ": " + guardSlots(r.leavesGuard) + kThreadSlot + " = false; } ";
            }
            for (std::size_t v : r.loads)
                if (!k.variables[v].isConst && !k.variables[v].inPlace)
                    closer += "::metalcpu_kernel::place(" + slots(v) + kThreadSlot + ", " + k.variables[v].name + "); ";
            if (loop == PieceLoop::ProductDeposit) closer += "} ";
            else if (loop == PieceLoop::ProductCollect) closer += "} });";
            const bool collectContinues = ri + 1 < k.regions.size() && pieceLoops[ri + 1] == PieceLoop::ProductCollect;
            if (loop == PieceLoop::Own && !collectContinues) closer += "});";
            edits.insertBefore(r.tokens.begin, opener);
            edits.insertAfter(r.tokens.end - 1, closer);
        }
        // Around what the piece inserted: its variables' slots exist before its loop runs.
        // (Each insertion goes before the last: the last variable's first.)
        for (auto late = lateSetups.rbegin(); late != lateSetups.rend(); ++late) edits.insertBefore(late->first, late->second);
        // Last and innermost first, so that each pair of braces holds what was inserted
        // around its statement, nested bodies' braces included.
        for (auto b = k.unbracedBodies.rbegin(); b != k.unbracedBodies.rend(); ++b) {
            edits.insertBefore(b->tokens.begin,
                               returns && b->loop ? "{ if (__mc_wi.all_returned()) break; " : "{ ");
            edits.insertAfter(b->tokens.end - 1, " }");
        }
    }
}

} // namespace metalcpu::msl
