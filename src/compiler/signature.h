// Kernel signatures: the reflection of a kernel's parameters and function attributes.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/scanner.h"
#include "compiler/translate.h"

#include <metalcpu/kernel_abi.h>

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::msl {

/// The parameters between `open` and `close` (exclusive), split at top-level commas.
/// `(void)` and `()` give none.
std::vector<TokenRange> splitParameters(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                        std::size_t open, std::size_t close);

/// The first `=` of parameter `p` outside brackets and template arguments (where its default
/// starts), or p.end.
std::size_t parameterDefault(const TokenList& tokens, const std::vector<std::size_t>& partner, TokenRange p);

/// The name parameter `p` declares, or kNoToken when it is unnamed: the last token before its
/// default and array bounds, when that is a name after a type (`T a`, `const thread T& a`,
/// `float a[4]`; not `T`, `const T`, `thread half`, `ns::T`, `unsigned int`). By its tokens alone: the parameters of a
/// declaration the Unit does not know as one (after explicit template arguments) count too.
std::size_t parameterName(const TokenList& tokens, const std::vector<std::size_t>& partner, TokenRange p);

/// Reflection of the parameters of kernel `kernel`, with implicit binding indices assigned as
/// Metal assigns them. Reports invalid parameters (and still returns what it could read).
std::vector<ParamInfo> parseKernelParameters(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                             const FunctionDecl& kernel, Diagnostics& diagnostics);

/// The function-level attributes of a kernel.
struct KernelAttributes {
    std::string hostName; ///< [[host_name("...")]] on the definition, or ""
    /// [[max_total_threads_per_threadgroup(n)]]: the value when it is an integer literal
    /// expression, else 0 with `maxThreadsExpression` holding the expression's tokens.
    std::uint32_t maxThreads = 0;
    std::optional<TokenRange> maxThreadsExpression;
    /// [[user_annotation("...")]] (Metal 4): the string MTL::FunctionReflection::userAnnotation
    /// gives back; absent when not written.
    std::optional<std::string> userAnnotation;
};

/// The string of a [[user_annotation("...")]], on a kernel definition or an explicit
/// instantiation of one; nullopt, reported, when it has none.
std::optional<std::string> userAnnotationOf(const TokenList& tokens, const Attribute& attribute,
                                            Diagnostics& diagnostics);

/// Reads and checks the [[...]] attributes of a kernel definition.
KernelAttributes parseKernelAttributes(const TokenList& tokens, const FunctionDecl& kernel,
                                       Diagnostics& diagnostics);

/// The number of binding slots of each kind ([[buffer(0)]] to [[buffer(30)]]).
inline constexpr std::uint32_t kMaxBindingIndex = METALCPU_MAX_BUFFER_BINDINGS - 1;
/// [[sampler(0)]] to [[sampler(15)]].
inline constexpr std::uint32_t kMaxSamplerIndex = METALCPU_MAX_SAMPLER_BINDINGS - 1;

} // namespace metalcpu::msl
