// Pass: function constants. `constant T name [[function_constant(index)]];` becomes a
// compile-time constant whose value the runtime chooses when it specialises the library
// (metalcpu/function_constants.h, docs/compiler.md "Function constants"), and
// `is_function_constant_defined(name)` whether it was given one.
#pragma once

#include "compiler/call_graph.h"
#include "compiler/diagnostics.h"
#include "compiler/kernels.h"
#include "compiler/passes/pass.h"
#include "compiler/scanner.h"
#include "compiler/token.h"
#include "compiler/translate.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl {

/// One program-scope function constant.
struct FunctionConstantDecl {
    std::string name;              ///< as declared
    std::string helper;            ///< its companion from the global scope: "::ns::__mc_fc_name"
    std::size_t variable = 0;      ///< in Module::variables
    std::string type;              ///< the declared type, as written ("bool", "metal::float2")
    std::string index;             ///< the index expression, as written ("100 + 4")
    bool required = true;          ///< never named in is_function_constant_defined()
    std::set<std::string> kernels; ///< host names of the kernels whose code reaches it
};

/// The file's function constants, with their `required` flag. A misplaced or malformed one
/// (not at program scope, with an initialiser, in a template) is an error at its line.
std::vector<FunctionConstantDecl> findFunctionConstants(const Unit& unit, Diagnostics& diagnostics);

/// Records in each constant the kernels (entry points) whose code names it: in the body or
/// parameters of a function the kernel reaches (for an instantiation of a kernel template,
/// reachableFromInstantiation(): a function-pointer template argument reaches the function it
/// names, not all of them), or through a program-scope variable such a function names
/// (`constant int span = a * b;`). A pipeline needs values only for its kernel's constants.
void findFunctionConstantUsers(const Unit& unit, const CallGraph& graph, const std::vector<EntryPoint>& entryPoints,
                               std::vector<FunctionConstantDecl>& constants);

/// The program-scope `constant` variables computed from function constants (MLX's steel GEMM:
/// `constant bool gather_bias = do_gather && use_out_source;`), by name, each with the C++
/// that names it from the generated code.
std::map<std::string, std::string> derivedFunctionConstants(const Unit& unit,
                                                            const std::vector<FunctionConstantDecl>& constants);

/// Resolves each parameter's `[[function_constant(name)]]` (ParamInfo::presentIf) to the
/// constant's value as C++: a function constant, or one of `derived` (Apple's compiler takes
/// those too); any other name is an error.
void resolveConditionalParameters(const std::vector<FunctionConstantDecl>& constants,
                                  const std::map<std::string, std::string>& derived, const Location& where,
                                  std::vector<ParamInfo>& params, Diagnostics& diagnostics);

/// Rewrites the declarations of Findings::functionConstants and the
/// is_function_constant_defined() calls (but those in code an earlier pass erased). Runs before
/// rewriteAttributes() (which erases the attribute) and rewriteConstantInitialisation().
void rewriteFunctionConstants(PassContext& context);

/// The lines right after the translated file's prelude include when it has function
/// constants: they point mc_module::function_constants (replacing the prelude's default) at
/// the table functionConstantTable() writes.
std::string functionConstantsDefinition(const std::vector<FunctionConstantDecl>& constants);

/// The reflection table (mc_function_constant) of the file's function constants.
std::string functionConstantTable(const std::vector<FunctionConstantDecl>& constants);

} // namespace metalcpu::msl
