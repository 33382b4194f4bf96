#include "jit/specialisation.h"

#include "compiler/translate.h"
#include "jit/kernel_compiler.h"

#include <algorithm>
#include <cstring>

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

} // namespace

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
            if (kernel == constant.kernels[k]) {
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
    return insertAfterPrelude(source, "#undef METALCPU_ONLY_KERNEL\n#define METALCPU_ONLY_KERNEL " + selector + "\n");
}

std::string specialisedSource(const std::string& source, const std::string& validation, const std::string& values,
                              const std::string& kernel) {
    std::string text = insertAfterPrelude(selectingKernel(source, kernel), values);
    if (validation.empty()) return text;
    return insertAfterPrelude(text, embedValidationSource(insertAfterPrelude(selectingKernel(validation, kernel), values)));
}

} // namespace metalcpu::jit
