#include "compiler/call_graph.h"

#include "compiler/call_arguments.h"
#include "compiler/call_targets.h"
#include "compiler/signature.h"
#include "compiler/syntax.h"

#include <map>
#include <optional>
#include <tuple>
#include <set>
#include <string>

namespace metalcpu::msl {

namespace {

// Keywords after which `name(` is a call or an expression, not a declaration.
bool isStatementKeyword(const std::string& word) {
    static const char* const kWords[] = {"return",    "else",     "case",     "do",  "throw",
                                         "co_return", "co_yield", "co_await", "new", "delete",
                                         "sizeof",    "alignof",  "goto"};
    for (const char* w : kWords)
        if (word == w) return true;
    return false;
}

// The previous token makes `name` a declarator (`Type name(...)`, `Type name;`).
bool isDeclarationContext(const Token& previous) {
    if (previous.isIdentifier()) {
        if (isStatementKeyword(previous.spelling)) return false;
        return !isCppKeyword(previous.spelling) || isTypeKeyword(previous.spelling);
    }
    return false;
}

// Whether the name at `i` follows a class template's type (`block_reducer<float, 64> r{...}`):
// a declarator, which isDeclarationContext() cannot tell from the `>` alone. The `<` must follow
// a name that itself starts a statement or follows `const`/`::`, so that `a < b > c(x)` stays
// an expression.
bool declaredWithTemplateType(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                              std::size_t lowerLimit) {
    if (i < 2 || !tokens[i - 1].isPunct(">")) return false;
    const std::size_t open = openingAngle(tokens, partner, i - 1, lowerLimit);
    if (open == kNoToken || open < 2 || !tokens[open - 1].isIdentifier() || isCppKeyword(tokens[open - 1].spelling))
        return false;
    const Token& before = tokens[open - 2];
    return before.isPunct(";") || before.isPunct("{") || before.isPunct("}") || before.isPunct("::") ||
           before.isIdentifier("const") || before.isIdentifier("constexpr") || before.isIdentifier("thread");
}

// Whether `t` names an arithmetic type, scalar, vector or matrix (`int`, `uint`, `half4`,
// `float4x4`, `uint32_t`): a variable of it holds no function and cannot be called, so a
// call of its name is a call of the function it shadows (`const int exp = ...; exp(x)`).
bool namesArithmeticType(const Token& t) {
    static constexpr std::string_view kKeywords[] = {"bool", "char", "short", "int", "long", "unsigned",
                                                     "signed", "float", "double"};
    for (std::string_view k : kKeywords)
        if (t.isIdentifier(k)) return true;
    if (!t.isIdentifier()) return false;
    std::string_view name = t.spelling;
    static constexpr std::string_view kScalars[] = {"uchar", "ushort", "uint", "ulong", "half", "bfloat", "size_t",
                                                    "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t",
                                                    "uint8_t", "uint16_t", "uint32_t", "uint64_t", "char", "short",
                                                    "int", "long", "float", "bool"};
    for (std::string_view scalar : kScalars) {
        if (!name.starts_with(scalar)) continue;
        const std::string_view shape = name.substr(scalar.size());
        // "", "4", "4x4"
        if (shape.empty()) return true;
        const bool vector = shape.size() == 1 && shape[0] >= '2' && shape[0] <= '4';
        const bool matrix = shape.size() == 3 && shape[0] >= '2' && shape[0] <= '4' && shape[1] == 'x' &&
                            shape[2] >= '2' && shape[2] <= '4';
        if (vector || matrix) return true;
    }
    return false;
}

// Marks the tokens of the operands of decltype, sizeof, alignof, typeof and noexcept: a
// function named there is not turned into a pointer.
std::vector<bool> unevaluatedOperands(const TokenList& tokens, const std::vector<std::size_t>& partner) {
    std::vector<bool> unevaluated(tokens.size(), false);
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (!(t.isIdentifier("decltype") || t.isIdentifier("__decltype") || t.isIdentifier("sizeof") ||
              t.isIdentifier("alignof") || t.isIdentifier("__alignof__") || t.isIdentifier("noexcept") ||
              t.isIdentifier("typeof") || t.isIdentifier("__typeof__")) ||
            !tokens[i + 1].isPunct("(") || partner[i + 1] == kNoToken)
            continue;
        for (std::size_t k = i + 1; k <= partner[i + 1]; ++k) unevaluated[k] = true;
    }
    return unevaluated;
}

// The functions whose name the file uses as a value (CallGraph::namedAsValue): a name of a
// function with a body that is neither called nor declared (`name(` or `name<...>(`, the name
// of an explicit instantiation), nor a
// member access, nor in an unevaluated operand. A constructor's name is its class's, used as
// a type: constructors have no address.
std::vector<std::size_t> functionsNamedAsValue(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                               const Module& module, const CallGraph& graph) {
    const std::vector<bool> unevaluated = unevaluatedOperands(tokens, partner);
    // The function an explicit instantiation names is declared there, not taken as a value
    // (ggml's `template [[host_name("x")]] kernel kernel_t kernel_unary<float, float>;`).
    std::set<std::size_t> instantiated;
    for (const ExplicitInstantiation& e : module.instantiations) instantiated.insert(e.nameToken);
    std::set<std::size_t> named;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (!t.isIdentifier() || unevaluated[i] || instantiated.count(i)) continue;
        auto functions = graph.byName.find(t.spelling);
        if (functions == graph.byName.end()) continue;
        if (i > 0 && (tokens[i - 1].isPunct(".") || tokens[i - 1].isPunct("->"))) continue;
        std::size_t after = i + 1;
        if (after < tokens.size() && tokens[after].isPunct("<")) {
            const std::size_t close = closingAngle(tokens, partner, after, tokens.size());
            if (close != kNoToken) after = close + 1;
        }
        if (after < tokens.size() && tokens[after].isPunct("(")) continue;
        for (std::size_t f : functions->second)
            if (module.functions[f].name != module.functions[f].enclosingClass) named.insert(f);
    }
    return {named.begin(), named.end()};
}

// The comma-separated items of tokens [begin, end), template arguments or parameters, at
// top level (splitParameters(); `<void>` counts none, which errs on the conservative side).
std::size_t topLevelItems(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t begin,
                          std::size_t end) {
    return begin >= end ? 0 : splitParameters(tokens, partner, begin - 1, end).size();
}

// Of `called`, the overloads a call with `arguments` arguments can reach: those whose
// parameters take that many (a pack any number from the required ones on). All of them when
// none does, or when there is one: overloads differ in their count more often than in their
// types (MLX's BaseMMAFrag::mma of four fragments calls its mma of four matrices, a function
// of five parameters, which is not itself calling itself).
std::vector<std::size_t> byArgumentCount(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                         const Module& module, const std::vector<std::size_t>& called,
                                         std::size_t arguments) {
    if (called.size() < 2) return called;
    std::vector<std::size_t> fit;
    for (std::size_t f : called) {
        const FunctionDecl& g = module.functions[f];
        if (g.parametersOpen == kNoToken || g.parametersClose == kNoToken) {
            fit.push_back(f);
            continue;
        }
        const std::vector<TokenRange> parameters = splitParameters(tokens, partner, g.parametersOpen, g.parametersClose);
        std::size_t required = 0;
        bool pack = false;
        for (TokenRange p : parameters) {
            for (std::size_t k = p.begin; k < p.end; ++k) pack = pack || tokens[k].isPunct("...");
            required += parameterDefault(tokens, partner, p) == p.end ? 1 : 0;
        }
        if (pack ? arguments + 1 >= required : (arguments >= required && arguments <= parameters.size()))
            fit.push_back(f);
    }
    return fit.empty() ? called : fit;
}

// How many template parameters `f`'s own header declares without a default (kNoToken with a
// pack), and per parameter the functions its default names.
std::pair<std::size_t, std::vector<std::vector<std::size_t>>> templateParameterFacts(
    const TokenList& tokens, const std::vector<std::size_t>& partner, const FunctionDecl& f,
    const std::map<std::string, std::vector<std::size_t>, std::less<>>& byName) {
    if (!f.isTemplate || f.templateParameters.empty()) return {0, {}};
    std::size_t required = 0;
    std::vector<std::vector<std::size_t>> defaults;
    for (TokenRange p : splitParameters(tokens, partner, f.templateParameters.begin - 1, f.templateParameters.end)) {
        for (std::size_t k = p.begin; k < p.end; ++k)
            if (tokens[k].isPunct("...")) return {kNoToken, {}};
        const std::size_t equals = parameterDefault(tokens, partner, p);
        if (equals == p.end) ++required;
        std::set<std::size_t> named;
        for (std::size_t k = equals; k < p.end; ++k)
            if (auto function = tokens[k].isIdentifier() ? byName.find(tokens[k].spelling) : byName.end();
                function != byName.end())
                named.insert(function->second.begin(), function->second.end());
        defaults.emplace_back(named.begin(), named.end());
    }
    return {required, defaults};
}

// `named`, the functions a call's `given` explicit template arguments name, with those the
// defaults of `f`'s parameters it leaves out name: what `f`'s parameters may be.
std::vector<std::size_t> withDefaults(const CallGraph& graph, std::size_t f, std::set<std::size_t> named,
                                      std::size_t given) {
    const std::vector<std::vector<std::size_t>>& defaults = graph.templateDefaultFunctions[f];
    for (std::size_t p = given; p < defaults.size(); ++p) named.insert(defaults[p].begin(), defaults[p].end());
    return {named.begin(), named.end()};
}

} // namespace

bool isMatrixType(std::string_view name) {
    return name == "simdgroup_matrix" || name == "simdgroup_float8x8" || name == "simdgroup_half8x8" ||
           name == "simdgroup_bfloat8x8";
}

bool isBarrierFunction(std::string_view name) {
    if (name == "threadgroup_barrier" || name == "simdgroup_barrier") return true;
    if (name.starts_with("simd_") || name.starts_with("quad_")) return true;
    // Apple's builtins behind them (<metal_simdgroup>), which libraries call directly.
    if (name.starts_with("__metal_simd_") || name == "__metal_get_simdgroup_size" ||
        name == "__metal_get_thread_index_in_simdgroup")
        return true;
    if (name == "simdgroup_load" || name == "simdgroup_store" || name == "simdgroup_multiply" ||
        name == "simdgroup_multiply_accumulate")
        return true;
    // Apple's SIMD-group async copies and the product of the storage inside a SIMD-group
    // matrix (metal-flash-attention declares and calls them): each copy is shared out among
    // the SIMD-group's lanes, and the wait is its barrier.
    if (name == "__metal_simdgroup_async_copy_1d" || name == "__metal_simdgroup_async_copy_2d" ||
        name == "__metal_wait_simdgroup_events" || name == "__metal_simdgroup_matrix_8x8_multiply_accumulate")
        return true;
    // The load and store under simdgroup_load/simdgroup_store, on a matrix's vec<T, 64>
    // storage: they need the caller's lane.
    if (name == "__metal_simdgroup_matrix_8x8_load" || name == "__metal_simdgroup_matrix_8x8_store") return true;
    // A SIMD-group matrix made with a diagonal (`simdgroup_float8x8(1.0f)`) learns its lane
    // from a SIMD-group rendezvous.
    return isMatrixType(name);
}

bool isTensorOperationName(std::string_view name) {
    return name == "matmul2d" || name == "convolution2d" || name == "reduce_rows" || name == "reduce_columns";
}

// Work-item loops and plain loops write mc_group::current_thread only when validated, so a
// cooperative tensor made there (the operation's type behind an alias, no run in the body)
// would take another thread's slots.
bool isCooperativeTensorName(std::string_view name) {
    return name.starts_with("cooperative_tensor") ||
           (name.starts_with("get_") && name.ends_with("_cooperative_tensor"));
}

bool namesOperationTypes(const TokenList& tokens) {
    for (const Token& t : tokens)
        if (t.isIdentifier("matmul2d") || t.isIdentifier("convolution2d")) return true;
    return false;
}

bool usesTensorOperation(const TokenList& tokens, std::size_t bodyOpen, std::size_t bodyClose,
                         bool fileNamesOperations) {
    for (std::size_t i = bodyOpen + 1; i < bodyClose; ++i) {
        const Token& t = tokens[i];
        if (!t.isIdentifier()) continue;
        if (isTensorOperationName(t.spelling) || isCooperativeTensorName(t.spelling)) return true;
        if (fileNamesOperations && t.spelling == "run" && (tokens[i - 1].isPunct(".") || tokens[i - 1].isPunct("->")) &&
            tokens[i + 1].isPunct("("))
            return true;
    }
    return false;
}

bool isMatrixDeclarationWithArguments(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                                      std::size_t end) {
    if (!isMatrixType(tokens[i].spelling)) return false;
    std::size_t after = i + 1;
    if (tokens[after].isPunct("<")) {
        const std::size_t close = closingAngle(tokens, partner, after, end);
        if (close == kNoToken) return false;
        after = close + 1;
    }
    if (after + 2 >= end || !tokens[after].isIdentifier()) return false;
    const Token& open = tokens[after + 1];
    return (open.isPunct("(") || open.isPunct("{")) && !tokens[after + 2].isPunct(")") && !tokens[after + 2].isPunct("}");
}

CallGraph buildCallGraph(const TokenList& tokens, const std::vector<std::size_t>& partner,
                         const Module& module) {
    const std::size_t n = module.functions.size();
    CallGraph graph;
    graph.usesBarriersDirectly.assign(n, false);
    graph.callees.assign(n, {});
    graph.plainCallees.assign(n, {});
    graph.templateCalls.assign(n, {});
    graph.requiredTemplateArguments.assign(n, 0);
    graph.templateDefaultFunctions.assign(n, {});
    graph.callsOpaque.assign(n, false);
    graph.opaqueOnlyThroughTemplateParameters.assign(n, true);

    const bool fileNamesOperations = namesOperationTypes(tokens);
    std::map<std::string, std::vector<std::size_t>, std::less<>>& byName = graph.byName;
    byName["operator()"];
    for (std::size_t i = 0; i < n; ++i)
        if (module.functions[i].hasBody) byName[module.functions[i].name].push_back(i);
    for (std::size_t i = 0; i < n; ++i)
        std::tie(graph.requiredTemplateArguments[i], graph.templateDefaultFunctions[i]) =
            templateParameterFacts(tokens, partner, module.functions[i], byName);
    for (const VariableDecl& v : module.variables)
        if (v.nameToken != kNoToken) graph.variableNames.insert(tokens[v.nameToken].spelling);
    graph.namedAsValue = functionsNamedAsValue(tokens, partner, module, graph);
    const CallTargets targets(tokens, partner, module);

    for (std::size_t fi = 0; fi < n; ++fi) {
        const FunctionDecl& f = module.functions[fi];
        if (!f.hasBody) continue;
        if (usesTensorOperation(tokens, f.bodyOpen, f.bodyClose, fileNamesOperations))
            graph.usesBarriersDirectly[fi] = true;

        // Names that may hold a function pointer (opaque) or an object (a functor, or a
        // function pointer too: `Op op` deduced from `apply(x, f)`, `fn_t p = f;`).
        const std::set<std::string> templateValueNames(f.templateValueParameters.begin(),
                                                       f.templateValueParameters.end());
        std::set<std::string> opaqueNames = templateValueNames;
        // A member's template parameters include its class's, which its calls do not bind.
        const bool ownParameters = f.enclosingClass.empty();
        if (!ownParameters) graph.opaqueOnlyThroughTemplateParameters[fi] = false;
        std::set<std::string> functorNames;
        for (TokenRange p : splitParameters(tokens, partner, f.parametersOpen, f.parametersClose)) {
            bool functionPointer = false;
            for (std::size_t k = p.begin; k + 1 < p.end && !functionPointer; ++k) {
                if (!tokens[k].isPunct("(") || !tokens[k + 1].isPunct("*")) continue;
                functionPointer = true;
                // `R (*name)(thread T&)`: the name follows the `*`, not the last identifier.
                for (std::size_t n = k + 2; n < p.end && !tokens[n].isPunct(")"); ++n)
                    if (tokens[n].isIdentifier() && !isCppKeyword(tokens[n].spelling)) opaqueNames.insert(tokens[n].spelling);
            }
            if (functionPointer) continue;
            for (std::size_t k = p.end; k-- > p.begin;) {
                if ((tokens[k].isPunct("]") || tokens[k].isPunct(")")) && partner[k] != kNoToken) {
                    k = partner[k];
                    continue;
                }
                if (tokens[k].isIdentifier() && !isCppKeyword(tokens[k].spelling)) {
                    if (!(k > p.begin && namesArithmeticType(tokens[k - 1]))) functorNames.insert(tokens[k].spelling);
                    break;
                }
            }
        }
        std::set<std::string> lambdas;
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
            const Token& t = tokens[i];
            if (!t.isIdentifier() || isCppKeyword(t.spelling)) continue;
            const Token& next = tokens[i + 1];
            if ((isDeclarationContext(tokens[i - 1]) || declaredWithTemplateType(tokens, partner, i, f.bodyOpen)) &&
                (next.isPunct(";") || next.isPunct("=") || next.isPunct("(") || next.isPunct("{") ||
                 next.isPunct(",") || next.isPunct("["))) {
                if (next.isPunct("=") && tokens[i + 2].isPunct("["))
                    lambdas.insert(t.spelling);
                else if (!namesArithmeticType(tokens[i - 1]))
                    functorNames.insert(t.spelling);
            }
        }
        for (const std::string& l : lambdas) functorNames.erase(l);
        // A local type alias declared from a template type (`typedef T value_t;`) is called
        // as a conversion (`value_t(x)`), not as a functor.
        for (const std::string& type : declaredTypeNames(tokens, f.bodyOpen + 1, f.bodyClose)) functorNames.erase(type);
        const std::vector<std::size_t>& callOperators = byName["operator()"];
        std::set<std::string> typeParameters(f.templateTypeParameters.begin(),
                                             f.templateTypeParameters.end());

        std::set<std::size_t> callees, plainCallees;
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
            const Token& t = tokens[i];
            if (!t.isIdentifier() || isCppKeyword(t.spelling)) continue;
            std::size_t after = i + 1;
            if (tokens[after].isPunct("<")) {
                std::size_t close = closingAngle(tokens, partner, after, f.bodyClose);
                if (close != kNoToken) after = close + 1;
            }
            // `T()(x)` / `T{}(x)`: a functor of a template type parameter, called.
            if (typeParameters.count(t.spelling) &&
                (tokens[after].isPunct("(") || tokens[after].isPunct("{")) && partner[after] != kNoToken &&
                tokens[partner[after] + 1].isPunct("(")) {
                callees.insert(callOperators.begin(), callOperators.end());
                plainCallees.insert(callOperators.begin(), callOperators.end());
                continue;
            }
            if (isMatrixDeclarationWithArguments(tokens, partner, i, f.bodyClose))
                graph.usesBarriersDirectly[fi] = true;
            if (!tokens[after].isPunct("(")) continue;
            if (isDeclarationContext(tokens[i - 1])) continue; // `Type name(args)` declares name
            if (isBarrierFunction(t.spelling)) graph.usesBarriersDirectly[fi] = true;
            // A local object named like a function hides it (candle's `block_reducer<T, N>
            // reduce(shared); reduce(x, tid);` inside a function `reduce`): a call of its call
            // operator. Both are kept, as the name may be either where the locals are guessed.
            if (functorNames.count(t.spelling)) {
                callees.insert(callOperators.begin(), callOperators.end());
                plainCallees.insert(callOperators.begin(), callOperators.end());
                graph.callsOpaque[fi] = true;
                graph.opaqueOnlyThroughTemplateParameters[fi] = false;
            }
            auto it = byName.find(t.spelling);
            if (it != byName.end()) {
                std::vector<std::size_t> called = targets.narrow(it->second, fi, i);
                if (partner[after] != kNoToken)
                    called = byArgumentCount(tokens, partner, module, called,
                                             topLevelItems(tokens, partner, after + 1, partner[after]));
                callees.insert(called.begin(), called.end());
                if (after == i + 1) {
                    plainCallees.insert(called.begin(), called.end());
                } else {
                    TemplateCall call;
                    call.callees = called;
                    std::set<std::size_t> named;
                    call.argumentCount = topLevelItems(tokens, partner, i + 2, after - 1);
                    for (std::size_t k = i + 2; k + 1 < after; ++k) {
                        if (!tokens[k].isIdentifier()) continue;
                        const std::string& word = tokens[k].spelling;
                        if (templateValueNames.count(word)) (ownParameters ? call.passesOwnParameters : call.unknownArguments) = true;
                        if (graph.variableNames.count(word)) call.unknownArguments = true;
                        if (auto function = byName.find(word); function != byName.end())
                            named.insert(function->second.begin(), function->second.end());
                    }
                    call.namedFunctions.assign(named.begin(), named.end());
                    graph.templateCalls[fi].push_back(std::move(call));
                }
            } else if (opaqueNames.count(t.spelling)) {
                graph.callsOpaque[fi] = true;
                if (!templateValueNames.count(t.spelling)) graph.opaqueOnlyThroughTemplateParameters[fi] = false;
            }
        }
        graph.callees[fi].assign(callees.begin(), callees.end());
        graph.plainCallees[fi].assign(plainCallees.begin(), plainCallees.end());
    }
    return graph;
}

namespace {

// What a function's non-type template parameters may be in one context of the walk: the
// functions listed, or (nullopt) any function named as a value.
using Binding = std::optional<std::vector<std::size_t>>;

// Whether `f`'s binding can matter: it calls through its template parameters only, or passes
// them on to a template it calls. Otherwise every context of `f` is the same.
bool usesBinding(const CallGraph& graph, std::size_t f) {
    if (graph.callsOpaque[f] && graph.opaqueOnlyThroughTemplateParameters[f]) return true;
    for (const TemplateCall& call : graph.templateCalls[f])
        if (call.passesOwnParameters) return true;
    return false;
}

// The functions reachable from `root` whose template parameters are `rootBinding`: a walk over
// (function, binding) pairs, so that a parameter passed on (`impl<deq_k>(...)`) keeps what the
// instantiation named (CallGraph::templateCalls).
std::vector<std::size_t> reachableFrom(const CallGraph& graph, std::size_t root, Binding rootBinding) {
    const std::size_t n = graph.callees.size();
    std::vector<bool> seen(n, false);
    std::set<std::pair<std::size_t, Binding>> visited;
    std::vector<std::pair<std::size_t, Binding>> stack;
    auto visit = [&](std::size_t c, Binding binding) {
        seen[c] = true;
        if (!usesBinding(graph, c)) binding.reset();
        if (visited.insert({c, binding}).second) stack.emplace_back(c, std::move(binding));
    };
    visit(root, std::move(rootBinding));
    while (!stack.empty()) {
        const auto [f, binding] = std::move(stack.back());
        stack.pop_back();
        for (std::size_t c : graph.plainCallees[f]) visit(c, std::nullopt);
        for (const TemplateCall& call : graph.templateCalls[f]) {
            const bool known = !call.unknownArguments && (!call.passesOwnParameters || binding);
            std::set<std::size_t> functions(call.namedFunctions.begin(), call.namedFunctions.end());
            if (known && call.passesOwnParameters) functions.insert(binding->begin(), binding->end());
            // Parameters left to deduction may be anything.
            for (std::size_t c : call.callees)
                visit(c, known && call.argumentCount >= graph.requiredTemplateArguments[c]
                             ? Binding(withDefaults(graph, c, functions, call.argumentCount))
                             : std::nullopt);
        }
        if (!graph.callsOpaque[f]) continue;
        const bool bound = binding && graph.opaqueOnlyThroughTemplateParameters[f];
        for (std::size_t c : bound ? *binding : graph.namedAsValue) visit(c, std::nullopt);
    }
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < n; ++i)
        if (seen[i]) out.push_back(i);
    return out;
}

} // namespace

std::vector<std::size_t> reachableFunctions(const CallGraph& graph, std::size_t root) {
    return reachableFrom(graph, root, std::nullopt);
}

std::vector<std::size_t> reachableFromInstantiation(const CallGraph& graph, std::size_t root, const TokenList& tokens,
                                                    const std::vector<std::size_t>& partner, std::size_t argumentsBegin,
                                                    std::size_t argumentsEnd) {
    const std::size_t given = topLevelItems(tokens, partner, argumentsBegin, argumentsEnd);
    if (given == 0 || given < graph.requiredTemplateArguments[root]) return reachableFunctions(graph, root);
    std::set<std::size_t> targets;
    for (std::size_t k = argumentsBegin; k < argumentsEnd && k < tokens.size(); ++k) {
        if (!tokens[k].isIdentifier()) continue;
        if (graph.variableNames.count(tokens[k].spelling)) return reachableFunctions(graph, root);
        if (auto named = graph.byName.find(tokens[k].spelling); named != graph.byName.end())
            targets.insert(named->second.begin(), named->second.end());
    }
    return reachableFrom(graph, root, withDefaults(graph, root, std::move(targets), given));
}

} // namespace metalcpu::msl
