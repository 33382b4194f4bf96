// The inputs of a link (`metallib`, `metal` without -c): .air objects that `metal -c` made
// (ELF relocatable objects) and `ar` archives of them (`metal-ar`), read for the kernels each
// defines, so that two objects defining one kernel are refused by name before linking, and
// so that a file metalcpu cannot link (an Apple-built .air or .metallib, a library) is
// refused saying what it is.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::jit {

/// One object and the host names of the kernels it defines (msl::kernelSymbol()).
struct ObjectKernels {
    std::string name; ///< how messages name it: "a.air", or "lib.a(a.air)" for an archive member
    std::vector<std::string> kernels;
};

/// A link input: an object, or an archive whose every member is linked (--whole-archive:
/// nothing refers to a kernel by name, so the linker would otherwise take none).
struct LinkInput {
    bool archive = false;
    std::vector<ObjectKernels> objects; ///< one for an object, one per member of an archive
};

/// Reads the object or archive at `path`, named `name` in messages. nullopt with the reason
/// in `error` when it is not one metalcpu can link.
std::optional<LinkInput> readLinkInput(const std::string& path, const std::string& name, std::string* error);

/// "kernel 'k' is defined in both a.air and b.air", a line for each kernel that more than one
/// of `objects` defines; empty when none is.
std::string duplicateKernels(const std::vector<ObjectKernels>& objects);

} // namespace metalcpu::jit
