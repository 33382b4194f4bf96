#pragma once

#include <metalcpu/kernel_abi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace metalcpu::jit {

/// One value of MTL::FunctionConstantValues: its MTLDataType and bytes (vectors packed: a
/// float3 is 12 bytes).
struct ConstantValue {
    std::uint32_t dataType = 0;
    std::vector<std::byte> bytes;
};

/// What MTL::FunctionConstantValues holds: values by index and by name.
struct ConstantValues {
    std::map<std::uint64_t, ConstantValue> byIndex;
    std::map<std::string, ConstantValue> byName;
};

/// The bytes of one value of `dataType` (a function constant's type: a scalar or vector of
/// bool, an integer type, half, bfloat or float); 0 for any other type.
std::size_t constantValueSize(std::uint32_t dataType);

/// The name MSL gives a function constant type ("int", "float3"), for messages.
std::string constantTypeName(std::uint32_t dataType);

/// The function constants of `module` that kernel `kernel` reaches.
std::vector<const mc_function_constant*> constantsOfKernel(const mc_module& module, const std::string& kernel);

/// The C++ that gives a module's function constants their values (explicit specialisations
/// of metalcpu_kernel::function_constant_value, metalcpu/function_constants.h), or an error
/// in Metal's terms: a constant kernel `kernel` requires that has no value, or a value of
/// another type. Values are looked up by index, then by name; values for constants the
/// kernel does not reach are used where their type fits and ignored otherwise, as Metal
/// ignores them.
struct Specialisation {
    bool ok = false;
    std::string values; ///< C++, when ok
    std::string error;  ///< when not
};
Specialisation specialisationOf(const mc_module& module, const std::string& kernel, const ConstantValues& values);

/// `source` (a translated file) compiling only what kernel `hostName` reaches: when the file's
/// kernels can be selected (it holds the kernel's `METALCPU_SELECTS_KERNEL`,
/// msl::selectsKernels()), withoutOtherKernels() of it with METALCPU_ONLY_KERNEL set to the
/// kernel's selector after the prelude; else `source` as it is, every kernel of it.
std::string selectingKernel(const std::string& source, const std::string& hostName);

/// `text` (a translated file) without the code that METALCPU_ONLY_KERNEL `selector` leaves out:
/// each `#if` kernel selection wrote (msl::selectionCondition()) that does not hold for it is
/// dropped with everything up to its `#endif`, and a `#line` after the gap keeps the numbers of
/// the lines that follow; the rows of the validation flavour's table of access sites that only
/// dropped code named are emptied (`{}`, in their places). What the preprocessor would compile is the same; what a specialised
/// library carries and its cache key are only its kernel's part of the file (ggml's 6 MiB
/// instrumented text would otherwise be in every pipeline's library). `text` as it is when its
/// conditionals are not what kernel selection writes (a guard with `#else`, one not closed).
std::string withoutOtherKernels(const std::string& text, const std::string& selector);

/// The translated text of kernel `kernel`'s specialised library: `source` (the module's
/// mc_module::specialisation_source, or for the library's shader-validation flavour its
/// validation_source) with `values` after its prelude and only that kernel's part of it
/// (selectingKernel()). A pipeline compiles the code its kernel reaches, not the whole file
/// again, and its cache key is that part.
std::string specialisedSource(const std::string& source, const std::string& values, const std::string& kernel);

} // namespace metalcpu::jit
