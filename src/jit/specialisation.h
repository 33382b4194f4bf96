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

/// `source` (a translated file) compiling only what kernel `hostName` reaches: with
/// METALCPU_ONLY_KERNEL set to its selector after the prelude when the file's kernels can be
/// selected (it holds the kernel's `METALCPU_SELECTS_KERNEL`, msl::selectsKernels()); else
/// `source` as it is, every kernel of it.
std::string selectingKernel(const std::string& source, const std::string& hostName);

/// The translated text of kernel `kernel`'s specialised library: the module's `source`
/// (mc_module::specialisation_source) and its shader-validation twin `validation` (may be
/// empty), each with `values` after its prelude and only that kernel selected
/// (selectingKernel()), the twin embedded as validation_source. A pipeline compiles the code
/// its kernel reaches, not the whole file again.
std::string specialisedSource(const std::string& source, const std::string& validation, const std::string& values,
                              const std::string& kernel);

} // namespace metalcpu::jit
