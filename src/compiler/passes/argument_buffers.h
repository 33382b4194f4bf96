// Argument-buffer structs: the layout MTL::ArgumentEncoder writes, and their sampler members.
#pragma once

#include "compiler/passes/pass.h"
#include "compiler/translate.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// A struct or class with a member that carries [[id(n)]] (Tier 1 style, and SPIRV-Cross's
/// argument buffers), or one holding a texture or sampler that a kernel's buffer parameter or a
/// pointer member of another argument buffer points at (Metal 3 style, every id implied): what
/// a kernel reads an argument buffer as. Its data members in order, with their ids: written
/// ones, and for a member without [[id]] the id after the previous member's highest (an array
/// member takes one per element; a member whose type is an argument-buffer struct takes as many
/// as that struct's highest id + 1), as Metal assigns them.
struct ArgumentStruct {
    std::string name;
    std::vector<ArgumentMember> members;
    std::vector<std::size_t> samplerTypes; ///< the `sampler` tokens of its members' types
};

/// Every argument-buffer struct of the unit (class templates and local classes included).
std::vector<ArgumentStruct> findArgumentStructs(const Unit& unit);

/// Every struct of the unit whose members as read are all it has (no base class, no bit-field,
/// no anonymous member) and whose name no other struct of the unit has: what MTL::StructType
/// can describe, its members laid out by the compiler of the kernel library.
std::vector<ArgumentStruct> findDataStructs(const Unit& unit);

/// The argument-buffer struct a buffer parameter of type `typeText` ("device Args&",
/// "constant ns::Args*", "device Args const&") points at, or nullptr.
const ArgumentStruct* argumentStructOf(const std::vector<ArgumentStruct>& structs, const std::string& typeText);

/// The structs of `structs` that `root`'s members point at or hold, and theirs, each once (a
/// struct that points at itself, a list, is reached once), for ArgumentEncoder's nested
/// encoders and MTL::StructType's nested types.
std::vector<NestedArguments> nestedArgumentStructs(const std::vector<ArgumentStruct>& structs,
                                                   const ArgumentStruct& root);

/// A `sampler` member of an argument-buffer struct becomes a metal::sampler_reference: 8 bytes,
/// where the host writes the sampler's gpuResourceID() (a `sampler` value is its 40-byte state).
void rewriteArgumentBufferSamplers(PassContext& context);

} // namespace metalcpu::msl
