// The inputs of a link (`metallib`, `metal` without -c): .air objects that `metal -c` made
// (ELF relocatable objects) and `ar` archives of them (`metal-ar`), read for the kernels each
// defines, so that two objects defining one kernel are refused by name before linking, and
// so that a file metalcpu cannot link (an Apple-built .air or .metallib, a library) is
// refused saying what it is.
#pragma once

#include "jit/library_file.h"

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::jit {

/// An object's code for one instruction-set level (isa.h).
struct ObjectImage {
    std::string level;
    std::string bytes; ///< an ELF relocatable object
};

/// One object, the host names of the kernels it defines (msl::kernelSymbol()) and its code
/// for each level it was compiled for. An .air made by `metal -c` is the object of its first
/// level (what `ld` and `ar` read), followed by the objects of its other levels, their table
/// (library_file.h) and kBundleMagic; an .air without them has one image, of the baseline.
struct ObjectKernels {
    std::string name; ///< how messages name it: "a.air", or "lib.a(a.air)" for an archive member
    std::vector<std::string> kernels;
    std::vector<ObjectImage> images; ///< the first level first
};

/// The last bytes of an .air that holds objects for several levels.
inline constexpr char kBundleMagic[8] = {'m', 'c', 'p', 'u', '.', 'a', 'i', 'r'};

/// Writes the .air `path` from the objects `images` (the first is the one `ld` sees).
/// Returns what is wrong, or empty.
std::string writeObjectBundle(const std::string& path, const std::vector<ImageSource>& images);

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
