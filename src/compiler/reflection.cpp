#include "compiler/reflection.h"

#include <metalcpu/kernel_abi.h>

#include <array>

namespace metalcpu::msl {

// The public enums mirror the kernel ABI's C enums value for value.
static_assert(static_cast<int>(ParamKind::Buffer) == MC_PARAM_BUFFER);
static_assert(static_cast<int>(ParamKind::Threadgroup) == MC_PARAM_THREADGROUP);
static_assert(static_cast<int>(ParamKind::Builtin) == MC_PARAM_BUILTIN);
static_assert(static_cast<int>(ParamKind::Unsupported) == MC_PARAM_UNSUPPORTED);
static_assert(static_cast<int>(ParamKind::Texture) == MC_PARAM_TEXTURE);
static_assert(static_cast<int>(ParamKind::Sampler) == MC_PARAM_SAMPLER);
static_assert(static_cast<int>(ParamKind::Tensor) == MC_PARAM_TENSOR);
static_assert(static_cast<int>(AddressSpace::Device) == MC_ADDRESS_SPACE_DEVICE);
static_assert(static_cast<int>(AddressSpace::Constant) == MC_ADDRESS_SPACE_CONSTANT);
static_assert(static_cast<int>(AddressSpace::Threadgroup) == MC_ADDRESS_SPACE_THREADGROUP);
static_assert(static_cast<int>(AddressSpace::Thread) == MC_ADDRESS_SPACE_THREAD);
static_assert(static_cast<int>(Access::ReadOnly) == MC_ACCESS_READ_ONLY);
static_assert(static_cast<int>(Access::ReadWrite) == MC_ACCESS_READ_WRITE);
static_assert(static_cast<int>(Access::WriteOnly) == MC_ACCESS_WRITE_ONLY);
#define METALCPU_BUILTIN_CHECK(enumerator, attribute, name, uniform) \
    static_assert(static_cast<int>(Builtin::name) == MC_BUILTIN_##enumerator);
METALCPU_BUILTINS(METALCPU_BUILTIN_CHECK)
#undef METALCPU_BUILTIN_CHECK

namespace {

// In the order of the Builtin enumerators (and of mc_builtin): both come from the same list.
constexpr std::string_view kBuiltinAttributes[] = {
    "",
#define METALCPU_BUILTIN_ATTRIBUTE(enumerator, attribute, name, uniform) #attribute,
    METALCPU_BUILTINS(METALCPU_BUILTIN_ATTRIBUTE)
#undef METALCPU_BUILTIN_ATTRIBUTE
};

} // namespace

std::optional<Builtin> builtinFromAttribute(std::string_view attribute) {
    for (std::size_t i = 1; i < std::size(kBuiltinAttributes); ++i)
        if (kBuiltinAttributes[i] == attribute) return static_cast<Builtin>(i);
    return std::nullopt;
}

std::string_view builtinAttribute(Builtin builtin) {
    auto i = static_cast<std::size_t>(builtin);
    return i < std::size(kBuiltinAttributes) ? kBuiltinAttributes[i] : std::string_view();
}

std::string builtinEnumerator(Builtin builtin) {
    if (builtin == Builtin::None) return "MC_BUILTIN_NONE";
    std::string name = "MC_BUILTIN_";
    for (char c : builtinAttribute(builtin))
        name += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return name;
}

const char* paramKindEnumerator(ParamKind kind) {
    switch (kind) {
    case ParamKind::Buffer: return "MC_PARAM_BUFFER";
    case ParamKind::Threadgroup: return "MC_PARAM_THREADGROUP";
    case ParamKind::Builtin: return "MC_PARAM_BUILTIN";
    case ParamKind::Unsupported: return "MC_PARAM_UNSUPPORTED";
    case ParamKind::Texture: return "MC_PARAM_TEXTURE";
    case ParamKind::Sampler: return "MC_PARAM_SAMPLER";
    case ParamKind::Tensor: return "MC_PARAM_TENSOR";
    }
    return "MC_PARAM_UNSUPPORTED";
}

const char* addressSpaceEnumerator(AddressSpace space) {
    switch (space) {
    case AddressSpace::None: return "MC_ADDRESS_SPACE_NONE";
    case AddressSpace::Device: return "MC_ADDRESS_SPACE_DEVICE";
    case AddressSpace::Constant: return "MC_ADDRESS_SPACE_CONSTANT";
    case AddressSpace::Threadgroup: return "MC_ADDRESS_SPACE_THREADGROUP";
    case AddressSpace::Thread: return "MC_ADDRESS_SPACE_THREAD";
    }
    return "MC_ADDRESS_SPACE_NONE";
}

const char* accessEnumerator(Access access) {
    switch (access) {
    case Access::ReadOnly: return "MC_ACCESS_READ_ONLY";
    case Access::WriteOnly: return "MC_ACCESS_WRITE_ONLY";
    case Access::ReadWrite: return "MC_ACCESS_READ_WRITE";
    }
    return "MC_ACCESS_READ_WRITE";
}

} // namespace metalcpu::msl
