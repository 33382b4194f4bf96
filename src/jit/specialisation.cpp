#include "jit/specialisation.h"

#include "compiler/translate.h"
#include "jit/kernel_compiler.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>

namespace metalcpu::jit {
namespace {

/// A function constant type's family: the scalar's MTLDataType (its vectors follow it:
/// float2 = float + 1, ...), its MSL name and size.
struct Family {
    std::uint32_t scalar;
    const char* name;
    std::size_t bytes;
};
constexpr Family kFamilies[] = {
    {3, "float", 4},  {16, "half", 2},  {29, "int", 4},   {33, "uint", 4},  {37, "short", 2},  {41, "ushort", 2},
    {45, "char", 1},  {49, "uchar", 1}, {53, "bool", 1},  {81, "long", 8},  {85, "ulong", 8},  {121, "bfloat", 2},
};

/// The family of `dataType` and its component count, or nullptr.
const Family* familyOf(std::uint32_t dataType, unsigned* components) {
    for (const Family& family : kFamilies) {
        if (dataType >= family.scalar && dataType - family.scalar < 4) {
            *components = dataType - family.scalar + 1;
            return &family;
        }
    }
    return nullptr;
}

/// The explicit specialisation that gives function constant `index` its value.
std::string valueDefinition(std::uint64_t index, std::uint32_t dataType, const std::vector<std::byte>& bytes) {
    unsigned components = 1;
    const Family* family = familyOf(dataType, &components);
    std::string bits;
    for (unsigned c = 0; c < 4; ++c) {
        std::uint64_t value = 0;
        if (family && c < components && (c + 1) * family->bytes <= bytes.size())
            std::memcpy(&value, bytes.data() + c * family->bytes, family->bytes); // little-endian hosts
        bits += (c ? ", " : "") + std::to_string(value) + "ull";
    }
    return "template <> struct metalcpu_kernel::function_constant_value<" + std::to_string(index) +
           "ull> { static constexpr bool defined = true; static constexpr unsigned data_type = " +
           std::to_string(dataType) + "u; static constexpr unsigned long long bits[4] = {" + bits + "}; };\n";
}

/// What an `#if` line kernel selection wrote (msl::selectionCondition(): `METALCPU_SELECTS_KERNEL(a)
/// || METALCPU_SELECTS_KERNEL(b)`, or METALCPU_SELECTS_EVERY_KERNEL) says with METALCPU_ONLY_KERNEL
/// `selector`: whether the code under it is kept; nullopt for any other condition.
std::optional<bool> selectionKeeps(std::string_view condition, std::string_view selector) {
    if (condition == "METALCPU_SELECTS_EVERY_KERNEL") return false;
    constexpr std::string_view kCall = "METALCPU_SELECTS_KERNEL(", kOr = " || ";
    bool keeps = false;
    for (;;) {
        if (!condition.starts_with(kCall)) return std::nullopt;
        condition.remove_prefix(kCall.size());
        const std::size_t close = condition.find(')');
        if (close == std::string_view::npos) return std::nullopt;
        keeps = keeps || condition.substr(0, close) == selector;
        condition.remove_prefix(close + 1);
        if (condition.empty()) return keeps;
        if (!condition.starts_with(kOr)) return std::nullopt;
        condition.remove_prefix(kOr.size());
    }
}

/// The directive of a preprocessor line (`if`, `endif`, `line`, ...) and what follows it;
/// an empty directive for any other line.
std::pair<std::string_view, std::string_view> directiveOf(std::string_view line) {
    auto skipBlanks = [&line] {
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    };
    skipBlanks();
    if (!line.starts_with('#')) return {};
    line.remove_prefix(1);
    skipBlanks();
    std::size_t end = 0;
    while (end < line.size() && std::isalpha(static_cast<unsigned char>(line[end]))) ++end;
    // GCC's line markers (`# 12 "file" 2`) number lines as #line does.
    const bool marker = end == 0 && !line.empty() && std::isdigit(static_cast<unsigned char>(line.front()));
    std::string_view directive = marker ? "line" : line.substr(0, end);
    line.remove_prefix(end);
    skipBlanks();
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    return {directive, line};
}

/// `text` with the rows of its table of access sites (the shader-validation flavour's
/// `__mc_sites`, passes/checked_accesses.h) that no code left in it names (`__mc_sites[N]`)
/// emptied to `{}`: the code names rows by index, so they keep their places, but not their
/// strings and relocations (ggml's 2,700 rows took 200 KB of each validated pipeline).
std::string withoutUnusedSites(const std::string& text) {
    constexpr std::string_view kTable = "static const ::mc_site __mc_sites[] = {\n", kUse = "__mc_sites[";
    const std::size_t table = text.find(kTable);
    if (table == std::string::npos) return text;
    const std::size_t rowsBegin = table + kTable.size();
    const std::size_t rowsEnd = text.find("\n};\n", rowsBegin); // the last row's newline
    if (rowsEnd == std::string::npos) return text;
    std::vector<bool> used;
    for (std::size_t at = text.find(kUse); at != std::string::npos; at = text.find(kUse, at + 1)) {
        std::size_t digit = at + kUse.size(), row = 0;
        if (digit >= text.size() || !std::isdigit(static_cast<unsigned char>(text[digit]))) continue;
        for (; digit < text.size() && std::isdigit(static_cast<unsigned char>(text[digit])); ++digit)
            row = row * 10 + static_cast<std::size_t>(text[digit] - '0');
        if (digit >= text.size() || text[digit] != ']' || row > text.size()) continue;
        if (row >= used.size()) used.resize(row + 1, false);
        used[row] = true;
    }
    std::string out = text.substr(0, rowsBegin);
    std::size_t row = 0;
    for (std::size_t at = rowsBegin; at <= rowsEnd; ++row) {
        const std::size_t end = text.find('\n', at);
        if (row < used.size() && used[row]) out.append(text, at, end - at);
        else out += "    {},";
        out += '\n';
        at = end + 1;
    }
    return out + text.substr(rowsEnd + 1);
}

} // namespace

std::string withoutOtherKernels(const std::string& text, const std::string& selector) {
    std::string kept;
    kept.reserve(text.size());
    // Per open conditional: whether kernel selection wrote it (a guard kept, with its #endif).
    std::vector<bool> open;
    // Where the preprocessor is: the next line's number and the file of the last #line ("" before any).
    std::uint64_t line = 1;
    std::string file;
    bool renumber = false; // lines were dropped: the next line needs its number again
    auto count = [&line, &file](std::string_view directive, std::string_view rest) {
        if (directive != "line") {
            ++line;
            return;
        }
        // `#line N "file"`: the next line is N.
        line = std::strtoull(std::string(rest.substr(0, rest.find(' '))).c_str(), nullptr, 10);
        const std::size_t open = rest.find('"'), close = rest.rfind('"');
        if (open != std::string_view::npos && close > open) file = " " + std::string(rest.substr(open, close - open + 1));
    };
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view current(text.data() + at, end - at);
        auto [directive, rest] = directiveOf(current);
        if (directive == "if") {
            if (std::optional<bool> keeps = selectionKeeps(rest, selector); keeps && !*keeps) {
                // Drop the guarded code, conditionals nested in it included, up to its #endif.
                count(directive, rest);
                std::size_t depth = 0;
                for (;;) {
                    at = end;
                    if (at >= text.size()) return text; // no #endif: not what kernel selection writes
                    end = text.find('\n', at);
                    end = end == std::string::npos ? text.size() : end + 1;
                    auto [inner, innerRest] = directiveOf(std::string_view(text.data() + at, end - at));
                    count(inner, innerRest);
                    if (inner == "if" || inner == "ifdef" || inner == "ifndef") ++depth;
                    else if ((inner == "else" || inner == "elif") && depth == 0) return text;
                    else if (inner == "endif" && depth-- == 0) break;
                }
                at = end;
                renumber = true;
                continue;
            }
            open.push_back(selectionKeeps(rest, selector).has_value());
        } else if (directive == "ifdef" || directive == "ifndef") {
            open.push_back(false);
        } else if (directive == "else" || directive == "elif") {
            if (open.empty() || open.back()) return text; // a guard never has another branch
        } else if (directive == "endif") {
            if (open.empty()) return text;
            open.pop_back();
        }
        if (directive == "line") {
            renumber = false;
        } else if (renumber) {
            kept += "#line " + std::to_string(line) + file + "\n";
            renumber = false;
        }
        kept.append(current);
        count(directive, rest);
        at = end;
    }
    return kept.size() == text.size() ? kept : withoutUnusedSites(kept);
}

std::size_t constantValueSize(std::uint32_t dataType) {
    unsigned components = 1;
    const Family* family = familyOf(dataType, &components);
    return family ? family->bytes * components : 0;
}

std::string constantTypeName(std::uint32_t dataType) {
    unsigned components = 1;
    const Family* family = familyOf(dataType, &components);
    if (!family) return "MTLDataType " + std::to_string(dataType);
    return family->name + (components > 1 ? std::to_string(components) : std::string());
}

std::vector<const mc_function_constant*> constantsOfKernel(const mc_module& module, const std::string& kernel) {
    std::vector<const mc_function_constant*> used;
    for (mc_u32 c = 0; c < module.function_constant_count; ++c) {
        const mc_function_constant& constant = module.function_constants[c];
        for (mc_u32 k = 0; k < constant.kernel_count; ++k)
            if (constant.kernels[k] && kernel == constant.kernels[k]) { // null: another kernel's, left out
                used.push_back(&constant);
                break;
            }
    }
    return used;
}

Specialisation specialisationOf(const mc_module& module, const std::string& kernel, const ConstantValues& values) {
    Specialisation result;
    std::map<std::uint64_t, std::string> definitions; // one per index, however many names share it
    const std::vector<const mc_function_constant*> used = constantsOfKernel(module, kernel);
    for (mc_u32 c = 0; c < module.function_constant_count; ++c) {
        const mc_function_constant& constant = module.function_constants[c];
        const bool usedByKernel = std::find(used.begin(), used.end(), &constant) != used.end();
        const ConstantValue* value = nullptr;
        if (auto byIndex = values.byIndex.find(constant.index); byIndex != values.byIndex.end())
            value = &byIndex->second;
        else if (auto byName = values.byName.find(constant.name); byName != values.byName.end())
            value = &byName->second;
        const std::string described = "function constant '" + std::string(constant.name) + "' (index " +
                                      std::to_string(constant.index) + ", type " +
                                      constantTypeName(constant.data_type) + ")";
        if (!value) {
            if (usedByKernel && (constant.flags & MC_FUNCTION_CONSTANT_REQUIRED)) {
                result.error = "Function " + kernel + ": " + described + " has no value";
                return result;
            }
            continue;
        }
        if (value->dataType != constant.data_type) {
            if (!usedByKernel) continue;
            result.error = "Function " + kernel + ": " + described + " is given a value of type " +
                           constantTypeName(value->dataType);
            return result;
        }
        definitions.try_emplace(constant.index, valueDefinition(constant.index, value->dataType, value->bytes));
    }
    for (const auto& [index, definition] : definitions) result.values += definition;
    result.ok = true;
    return result;
}

std::string selectingKernel(const std::string& source, const std::string& hostName) {
    const std::string selector = msl::kernelSelector(hostName);
    if (source.find("METALCPU_SELECTS_KERNEL(" + selector + ")") == std::string::npos) return source;
    return insertAfterPrelude(withoutOtherKernels(source, selector),
                              "#undef METALCPU_ONLY_KERNEL\n#define METALCPU_ONLY_KERNEL " + selector + "\n");
}

std::string specialisedSource(const std::string& source, const std::string& values, const std::string& kernel) {
    return insertAfterPrelude(selectingKernel(source, kernel), values);
}

} // namespace metalcpu::jit
