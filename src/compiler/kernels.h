// Entry points: which kernels the host can ask for, by which name, and how generated code
// names the function.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/scanner.h"

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::msl {

/// One kernel the host can look up by name.
struct EntryPoint {
    std::size_t function = 0; ///< the kernel definition in Module::functions
    std::string hostName;
    Location nameLocation;       ///< where the host name is written
    std::size_t sourceOrder = 0; ///< token index of the definition or instantiation
    /// C++ naming the function from the glue's namespace: "add_arrays", "::ns::f<float, 4>".
    std::string functionExpression;
    /// Where the generated glue goes: template arguments are looked up there.
    std::vector<std::string> glueNamespaces;
    /// The template arguments as written ("float, 4"); empty for non-templates.
    std::string templateArguments;
    /// The tokens of those arguments (between `<` and `>`); empty for non-templates.
    TokenRange templateArgumentTokens;
    /// An explicit instantiation's own [[user_annotation("...")]], which takes the place of the
    /// template definition's (as Apple documents); nullopt otherwise.
    std::optional<std::string> userAnnotation;
};

/// Finds the entry points, in source order: non-template kernel definitions, and the explicit
/// instantiations of kernel templates. An instantiation marked `kernel`/[[kernel]] makes the template it
/// names a kernel even when its definition is not marked (Module::functions is updated). Reports kernels in
/// the wrong place, unknown templates and duplicate host names.
std::vector<EntryPoint> findEntryPoints(const TokenList& tokens, Module& module, Diagnostics& diagnostics);

/// "::a::b::name" for a function in namespaces a::b, "::name" at global scope.
std::string qualifiedName(const std::vector<std::string>& namespaces, const std::string& name);

} // namespace metalcpu::msl
