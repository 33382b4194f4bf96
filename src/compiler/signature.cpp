#include "compiler/signature.h"

#include "compiler/address_space.h"
#include "compiler/reflection.h"
#include "compiler/syntax.h"

#include <algorithm>
#include <map>
#include <optional>

namespace metalcpu::msl {

namespace {

// Type names that are never a parameter's name (so `const uint` is an unnamed parameter).
bool isMslTypeName(const std::string& word) {
    static const char* const kScalars[] = {
        "half",   "bfloat",  "uint",    "ushort",   "uchar",   "ulong",    "size_t",  "ptrdiff_t",
        "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"};
    for (const char* s : kScalars)
        if (word == s) return true;
    static const char* const kVectorBases[] = {"bool", "char", "uchar", "short", "ushort", "int",
                                               "uint", "long", "ulong", "half",  "float",  "bfloat"};
    for (const char* base : kVectorBases) {
        std::string b = base;
        if (word.size() == b.size() + 1 && word.compare(0, b.size(), b) == 0 && word.back() >= '2' &&
            word.back() <= '4')
            return true;
    }
    return false;
}

/// The MTL::TextureType of the texture types kernels can take (0 and false for others).
bool supportedTextureType(const std::string& word, std::uint32_t& type) {
    static const struct {
        const char* name;
        std::uint32_t type;
    } kTypes[] = {{"texture1d", 0}, {"texture1d_array", 1}, {"texture2d", 2}, {"texture2d_array", 3}, {"texture3d", 7}};
    for (const auto& t : kTypes)
        if (word == t.name) return type = t.type, true;
    return false;
}

/// The MTL::DataType of a texture's element type; 0 when it is not one MSL allows.
std::uint32_t textureDataType(const std::string& word) {
    static const struct {
        const char* name;
        std::uint32_t type;
    } kTypes[] = {{"float", 3}, {"half", 16}, {"int", 29}, {"uint", 33}, {"short", 37}, {"ushort", 41}};
    for (const auto& t : kTypes)
        if (word == t.name) return t.type;
    return 0;
}

/// Reads `texture2d<T, access::a>` starting at the type name `at` in `core`: the element type
/// and the access (access::sample, the default, reads).
void readTextureArguments(const TokenList& tokens, const std::vector<std::size_t>& core, std::size_t at,
                          ParamInfo& info) {
    info.access = Access::ReadOnly;
    if (at + 1 >= core.size() || !tokens[core[at + 1]].isPunct("<")) return;
    for (std::size_t k = at + 2; k < core.size() && !tokens[core[k]].isPunct(">"); ++k) {
        const Token& t = tokens[core[k]];
        if (k == at + 2 && t.isIdentifier()) info.textureDataType = textureDataType(t.spelling);
        if (t.isIdentifier() && k >= 2 && tokens[core[k - 1]].isPunct("::") && tokens[core[k - 2]].isIdentifier("access")) {
            if (t.spelling == "write") info.access = Access::WriteOnly;
            if (t.spelling == "read_write") info.access = Access::ReadWrite;
        }
    }
}

bool isUnsupportedResourceType(const std::string& word) {
    return word.starts_with("texture") || word.starts_with("depth") || word == "sampler" ||
           word.find("acceleration_structure") != std::string::npos || word == "visible_function_table" ||
           word == "intersection_function_table" || word == "imageblock" || word == "render_pipeline_state" ||
           word == "indirect_command_buffer";
}

/// Whether a parameter's type tokens `core` start with `tensor<`, `metal::tensor<` or
/// `::metal::tensor<`: a Metal 4 tensor (a tensor_handle), passed by value.
bool isTensorType(const TokenList& tokens, const std::vector<std::size_t>& core) {
    std::size_t k = 0;
    if (k < core.size() && tokens[core[k]].isPunct("::")) ++k;
    if (k + 1 < core.size() && tokens[core[k]].isIdentifier("metal") && tokens[core[k + 1]].isPunct("::")) k += 2;
    return k + 1 < core.size() && tokens[core[k]].isIdentifier("tensor") && tokens[core[k + 1]].isPunct("<");
}

/// A tensor's address space and access, from its element type (the first template argument:
/// `device half`, `device const half`, `constant float`).
void readTensorElement(const TokenList& tokens, const std::vector<std::size_t>& core, ParamInfo& info) {
    info.addressSpace = AddressSpace::Device;
    info.access = Access::ReadWrite;
    int angle = 0;
    for (std::size_t k = 0; k < core.size(); ++k) {
        const Token& t = tokens[core[k]];
        if (t.isPunct("<")) {
            ++angle;
        } else if (t.isPunct(">") || (t.isPunct(",") && angle == 1)) {
            if (angle == 1) return;
            --angle;
        } else if (angle == 1 && t.isIdentifier("constant")) {
            info.addressSpace = AddressSpace::Constant;
            info.access = Access::ReadOnly;
        } else if (angle == 1 && t.isIdentifier("const")) {
            info.access = Access::ReadOnly;
        }
    }
}

/// The index space a kind binds in: tensors take buffer indices.
ParamKind bindingSpace(ParamKind kind) {
    return kind == ParamKind::Tensor ? ParamKind::Buffer : kind;
}

/// The largest binding index of a kind: [[sampler(n)]] has 16 slots, the others 31.
std::uint32_t maxBindingIndex(ParamKind kind) {
    return kind == ParamKind::Sampler ? kMaxSamplerIndex : kMaxBindingIndex;
}

/// `float`, `half`, `bfloat`, `double` and their vectors (`float3`): types no built-in
/// kernel input has.
bool isFloatingTypeName(const std::string& s) {
    for (std::string_view base : {"float", "half", "bfloat", "double"}) {
        if (!s.starts_with(base)) continue;
        const std::string_view rest = std::string_view(s).substr(base.size());
        if (rest.empty() || (rest.size() == 1 && rest[0] >= '2' && rest[0] <= '4')) return true;
    }
    return false;
}

struct ParsedParameter {
    ParamInfo info;
    Location location;
    bool hasBinding = false; ///< a [[buffer]], [[threadgroup]], builtin or resource attribute
    bool isPointer = false;
    bool typeIsResource = false;
    ParamKind resourceKind = ParamKind::Unsupported; ///< what a resource type binds as
};

} // namespace

std::vector<TokenRange> splitParameters(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                        std::size_t open, std::size_t close) {
    std::vector<TokenRange> out;
    if (close <= open + 1) return out;
    if (close == open + 2 && tokens[open + 1].isIdentifier("void")) return out;
    std::size_t begin = open + 1;
    for (std::size_t i = open + 1; i < close; ++i) {
        const Token& t = tokens[i];
        if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[i] != kNoToken) {
            i = partner[i];
        } else if (t.isPunct("<") && opensTemplateArguments(tokens, i)) {
            const std::size_t angle = closingAngle(tokens, partner, i, close);
            if (angle != kNoToken) i = angle;
        } else if (t.isPunct(",")) {
            out.push_back({begin, i});
            begin = i + 1;
        }
    }
    out.push_back({begin, close});
    return out;
}

std::size_t parameterDefault(const TokenList& tokens, const std::vector<std::size_t>& partner, TokenRange range) {
    for (std::size_t k = range.begin; k < range.end; ++k) {
        const Token& t = tokens[k];
        if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[k] != kNoToken) {
            k = partner[k];
        } else if (t.isPunct("<") && opensTemplateArguments(tokens, k)) {
            const std::size_t close = closingAngle(tokens, partner, k, range.end);
            if (close != kNoToken) k = close;
        } else if (t.isPunct("=")) {
            return k;
        }
    }
    return range.end;
}

std::size_t parameterName(const TokenList& tokens, const std::vector<std::size_t>& partner, TokenRange p) {
    std::size_t end = parameterDefault(tokens, partner, p);
    while (end > p.begin + 1 && tokens[end - 1].isPunct("]") && partner[end - 1] != kNoToken) end = partner[end - 1];
    if (end < p.begin + 2) return kNoToken;
    const Token& name = tokens[end - 1];
    const Token& before = tokens[end - 2];
    const bool afterType = (before.isIdentifier() && !before.isIdentifier("operator")) || before.isPunct("*") ||
                           before.isPunct("&") || before.isPunct("&&") || before.isPunct(">");
    // `const T`, `thread half`: only qualifiers before the last word, which is then the type.
    bool onlyQualifiers = true;
    for (std::size_t k = p.begin; k + 1 < end && onlyQualifiers; ++k)
        onlyQualifiers = tokens[k].isIdentifier() && isTypeQualifier(tokens[k].spelling);
    return name.isIdentifier() && !isCppKeyword(name.spelling) && afterType && !onlyQualifiers ? end - 1 : kNoToken;
}

/// The name of an array declarator that ends a parameter's tokens `core` (`a` of
/// `device float a[]` or `a[4]`), or kNoToken.
std::size_t arrayDeclaratorName(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                const std::vector<std::size_t>& core) {
    if (core.size() < 4 || !tokens[core.back()].isPunct("]") || partner[core.back()] == kNoToken) return kNoToken;
    auto open = std::find(core.begin(), core.end(), partner[core.back()]);
    if (open == core.end() || open - core.begin() < 2) return kNoToken;
    const std::size_t name = *(open - 1);
    const Token& t = tokens[name];
    if (!t.isIdentifier() || isCppKeyword(t.spelling) || isMslTypeName(t.spelling)) return kNoToken;
    return name;
}

std::vector<ParamInfo> parseKernelParameters(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                             const FunctionDecl& kernel, Diagnostics& diagnostics) {
    const std::string& kernelName = kernel.name;
    std::vector<ParsedParameter> parsed;
    // Explicit indices as they are read: duplicates are errors, and implicit indices (assigned
    // afterwards) never take them. The value is the location of the first use.
    std::map<std::pair<ParamKind, std::uint32_t>, Location> used;
    for (TokenRange range : splitParameters(tokens, partner, kernel.parametersOpen, kernel.parametersClose)) {
        ParsedParameter p;
        std::vector<std::size_t> core;
        std::vector<AttributeSpec> specs;
        for (std::size_t i = range.begin; i < range.end; ++i) {
            if (startsAttributeSpec(tokens, i)) {
                specs.push_back(parseAttributeSpec(tokens, partner, i));
                i = specs.back().close;
            } else {
                core.push_back(i);
                if ((tokens[i].isPunct("(") || tokens[i].isPunct("[") || tokens[i].isPunct("{")) &&
                    partner[i] != kNoToken) {
                    for (std::size_t k = i + 1; k <= partner[i]; ++k) core.push_back(k);
                    i = partner[i];
                }
            }
        }
        if (core.empty()) {
            diagnostics.error(tokens[range.begin < range.end ? range.begin : kernel.parametersClose].location,
                              "expected a parameter declaration in kernel '" + kernelName + "'");
            continue;
        }
        // The name is the last token when it is an identifier that is not part of the type.
        std::size_t last = core.back();
        const Token& lastToken = tokens[last];
        bool named = core.size() >= 2 && lastToken.isIdentifier() && !isCppKeyword(lastToken.spelling) &&
                     !isMslTypeName(lastToken.spelling) && !tokens[core[core.size() - 2]].isPunct("::");
        if (named) {
            p.info.name = lastToken.spelling;
            core.pop_back();
        }
        // `device float a[] [[buffer(0)]]`: an array parameter is a pointer, as in C++.
        const std::size_t arrayName = named ? kNoToken : arrayDeclaratorName(tokens, partner, core);
        if (arrayName != kNoToken) {
            p.info.name = tokens[arrayName].spelling;
            named = true;
            core.erase(std::find(core.begin(), core.end(), arrayName), core.end());
        }
        p.location = arrayName != kNoToken ? tokens[arrayName].location
                     : named               ? lastToken.location
                                           : tokens[core.front()].location;
        p.info.line = static_cast<int>(p.location.line);
        p.info.column = static_cast<int>(p.location.column);
        p.info.typeText = typeText(tokens, core) + (arrayName != kNoToken ? "*" : "");
        std::string displayName = p.info.name.empty() ? "'" + p.info.typeText + "'" : "'" + p.info.name + "'";

        // The type: address space, pointer or reference, const pointee.
        int angle = 0;
        bool beforeDeclarator = true, readOnlySpace = false;
        for (std::size_t at = 0; at < core.size(); ++at) {
            const Token& t = tokens[core[at]];
            if (t.isPunct("<")) ++angle;
            if (t.isPunct(">") && angle > 0) --angle;
            if (angle > 0) continue;
            if (const std::optional<Space> space = supportedAddressSpaceOf(t)) {
                p.info.addressSpace = infoOf(*space).reflected;
                readOnlySpace = infoOf(*space).readOnly;
            } else if (t.isIdentifier("const") && beforeDeclarator)
                p.info.access = Access::ReadOnly;
            else if (t.isPunct("*"))
                p.isPointer = true, beforeDeclarator = false;
            else if (t.isPunct("&") || t.isPunct("&&"))
                p.info.isReference = true, beforeDeclarator = false;
            else if (t.isIdentifier() && isUnsupportedResourceType(t.spelling) && beforeDeclarator) {
                p.typeIsResource = true;
                if (supportedTextureType(t.spelling, p.info.textureType)) {
                    p.resourceKind = ParamKind::Texture;
                    readTextureArguments(tokens, core, at, p.info);
                } else if (t.spelling == "sampler") {
                    p.resourceKind = ParamKind::Sampler;
                }
            }
        }
        const bool tensor = isTensorType(tokens, core);
        if (arrayName != kNoToken) p.isPointer = true;
        if (readOnlySpace) p.info.access = Access::ReadOnly;
        if (!p.isPointer && !p.info.isReference && p.info.addressSpace == AddressSpace::None &&
            p.resourceKind != ParamKind::Texture)
            p.info.access = Access::ReadOnly;

        // The attributes: what the parameter binds to.
        for (const AttributeSpec& spec : specs) {
            for (const Attribute& a : spec.attributes) {
                const Location where = tokens[a.nameToken].location;
                if (a.name == "buffer" || a.name == "threadgroup" || a.name == "texture" ||
                    a.name == "sampler") {
                    p.hasBinding = true;
                    p.info.kind = a.name == "buffer"        ? ParamKind::Buffer
                                  : a.name == "threadgroup" ? ParamKind::Threadgroup
                                                            : p.resourceKind;
                    auto value = a.hasArguments ? evaluateInteger(tokens, a.arguments.begin, a.arguments.end)
                                                : std::nullopt;
                    const std::uint32_t maxIndex = maxBindingIndex(p.info.kind);
                    if (!value) {
                        diagnostics.error(where, "the index in [[" + a.name + "]] of parameter " +
                                                     displayName + " must be an integer constant");
                    } else if (*value < 0 || *value > maxIndex) {
                        diagnostics.error(where, a.name + " index " + std::to_string(*value) +
                                                     " of parameter " + displayName +
                                                     " is out of range (0 to " + std::to_string(maxIndex) + ")");
                    } else {
                        p.info.index = static_cast<std::uint32_t>(*value);
                        p.info.explicitIndex = true;
                        auto [it, fresh] = used.emplace(std::make_pair(p.info.kind, p.info.index), where);
                        if (!fresh) {
                            diagnostics.error(where, a.name + " index " + std::to_string(p.info.index) +
                                                         " is used by more than one parameter of kernel '" +
                                                         kernelName + "'");
                            diagnostics.note(it->second,
                                             "index " + std::to_string(p.info.index) + " is first used here");
                        }
                    }
                } else if (auto builtin = builtinFromAttribute(a.name)) {
                    p.hasBinding = true;
                    p.info.kind = ParamKind::Builtin;
                    p.info.builtin = *builtin;
                } else if (a.name == "stage_in") {
                    p.hasBinding = true;
                    p.info.kind = ParamKind::Unsupported;
                } else if (a.name == "function_constant") {
                    // Resolved against the file's function constants by resolveConditionalParameters().
                    p.info.presentIf = sourceText(tokens, a.arguments.begin, a.arguments.end);
                } else if (!isStandardAttribute(a.name)) {
                    diagnostics.error(where, "unknown attribute '" + a.name + "' on parameter " +
                                                 displayName + " of kernel '" + kernelName + "'");
                }
            }
        }
        if (tensor) {
            // Bound with [[buffer(n)]] or implicitly, in the buffers' index space.
            if (p.hasBinding && p.info.kind != ParamKind::Buffer)
                diagnostics.error(p.location, "tensor parameter " + displayName + " of kernel '" + kernelName +
                                                  "' must be bound with [[buffer(n)]]");
            else if (p.isPointer || p.info.isReference)
                diagnostics.error(p.location, "tensor parameter " + displayName + " of kernel '" + kernelName +
                                                  "' must be passed by value");
            p.info.kind = ParamKind::Tensor;
            readTensorElement(tokens, core, p.info);
        } else if (!p.hasBinding) {
            if (p.typeIsResource) {
                p.info.kind = p.resourceKind;
            } else if (p.info.addressSpace == AddressSpace::Device ||
                       p.info.addressSpace == AddressSpace::Constant) {
                p.info.kind = ParamKind::Buffer;
            } else if (p.info.addressSpace == AddressSpace::Threadgroup) {
                p.info.kind = ParamKind::Threadgroup;
            } else {
                diagnostics.error(p.location, "parameter " + displayName + " of kernel '" + kernelName +
                                                  "' must be a device, constant or threadgroup pointer or "
                                                  "reference, or have an attribute such as "
                                                  "[[thread_position_in_grid]]");
                p.info.kind = ParamKind::Unsupported; // reported once
            }
        }
        if (p.info.kind == ParamKind::Buffer) {
            if (p.info.addressSpace != AddressSpace::Device &&
                p.info.addressSpace != AddressSpace::Constant) {
                diagnostics.error(p.location, "buffer parameter " + displayName + " of kernel '" +
                                                  kernelName +
                                                  "' must be in the device or constant address space");
            } else if (!p.isPointer && !p.info.isReference) {
                diagnostics.error(p.location, "buffer parameter " + displayName + " of kernel '" +
                                                  kernelName + "' must be a pointer or a reference");
            }
        } else if (p.info.kind == ParamKind::Threadgroup) {
            if (p.info.addressSpace != AddressSpace::Threadgroup || (!p.isPointer && !p.info.isReference)) {
                diagnostics.error(p.location, "threadgroup parameter " + displayName + " of kernel '" +
                                                  kernelName +
                                                  "' must be a threadgroup pointer or reference");
            }
        } else if (p.info.kind == ParamKind::Builtin && (p.isPointer || p.info.isReference)) {
            diagnostics.error(p.location, "built-in parameter " + displayName + " of kernel '" + kernelName +
                                              "' must be passed by value");
        } else if (p.info.kind == ParamKind::Builtin) {
            // The MSL specification's table of kernel attributes allows ushort and uint (and
            // their vectors) only; the conversion a float type would get here is not there.
            for (std::size_t at : core)
                if (tokens[at].isIdentifier() && isFloatingTypeName(tokens[at].spelling)) {
                    diagnostics.error(tokens[at].location, "type '" + p.info.typeText +
                                                               "' is not valid for attribute '" +
                                                               std::string(builtinAttribute(p.info.builtin)) +
                                                               "': built-in positions and counts are ushort or uint "
                                                               "(or their vectors)");
                    break;
                }
        }
        parsed.push_back(std::move(p));
    }

    std::vector<ParamInfo> out;
    for (ParsedParameter& p : parsed) {
        bool bindable = p.info.kind == ParamKind::Buffer || p.info.kind == ParamKind::Threadgroup ||
                        p.info.kind == ParamKind::Texture || p.info.kind == ParamKind::Sampler ||
                        p.info.kind == ParamKind::Tensor;
        if (bindable && !p.info.explicitIndex) {
            const ParamKind space = bindingSpace(p.info.kind);
            std::uint32_t index = 0;
            while (used.count({space, index})) ++index;
            const std::uint32_t maxIndex = maxBindingIndex(p.info.kind);
            if (index > maxIndex) {
                static const char* const kKindNames[] = {"", "buffer", "threadgroup", "", "", "texture", "sampler"};
                diagnostics.error(p.location, "kernel '" + kernelName + "' has more than " +
                                                  std::to_string(maxIndex + 1) + " " +
                                                  kKindNames[static_cast<std::size_t>(space)] + " parameters");
            }
            p.info.index = index;
            used.emplace(std::make_pair(space, index), p.location);
        }
        out.push_back(std::move(p.info));
    }
    return out;
}

std::optional<std::string> userAnnotationOf(const TokenList& tokens, const Attribute& attribute,
                                            Diagnostics& diagnostics) {
    auto text = attribute.hasArguments
                    ? stringLiteralValue(tokens, attribute.arguments.begin, attribute.arguments.end)
                    : std::nullopt;
    if (!text) diagnostics.error(tokens[attribute.nameToken].location, "[[user_annotation]] needs a string literal");
    return text;
}

KernelAttributes parseKernelAttributes(const TokenList& tokens, const FunctionDecl& kernel,
                                       Diagnostics& diagnostics) {
    KernelAttributes out;
    for (const AttributeSpec& spec : kernel.attributes) {
        for (const Attribute& a : spec.attributes) {
            const Location where = tokens[a.nameToken].location;
            if (a.name == "kernel") continue;
            if (a.name == "host_name") {
                auto name = a.hasArguments ? stringLiteralValue(tokens, a.arguments.begin, a.arguments.end)
                                           : std::nullopt;
                if (!name || name->empty())
                    diagnostics.error(where, "[[host_name]] needs a string literal");
                else
                    out.hostName = *name;
            } else if (a.name == "max_total_threads_per_threadgroup") {
                if (!a.hasArguments || a.arguments.empty()) {
                    diagnostics.error(where, "[[max_total_threads_per_threadgroup]] needs a thread count");
                    continue;
                }
                auto value = evaluateInteger(tokens, a.arguments.begin, a.arguments.end);
                if (!value) {
                    out.maxThreadsExpression = a.arguments;
                } else if (*value <= 0 || *value > METALCPU_MAX_THREADS_PER_THREADGROUP) {
                    diagnostics.error(where, "max_total_threads_per_threadgroup of kernel '" + kernel.name +
                                                 "' must be between 1 and " +
                                                 std::to_string(METALCPU_MAX_THREADS_PER_THREADGROUP) + ", not " +
                                                 std::to_string(*value));
                } else {
                    out.maxThreads = static_cast<std::uint32_t>(*value);
                }
            } else if (a.name == "user_annotation") {
                if (auto annotation = userAnnotationOf(tokens, a, diagnostics)) out.userAnnotation = *annotation;
            } else if (a.name == "function_constant") {
                // reported by findFunctionConstants()
            } else if (!isStandardAttribute(a.name)) {
                diagnostics.error(where,
                                  "unknown attribute '" + a.name + "' on kernel '" + kernel.name + "'");
            }
        }
    }
    return out;
}

} // namespace metalcpu::msl
