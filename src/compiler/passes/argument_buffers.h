// Argument-buffer structs: the layout MTL::ArgumentEncoder writes, and their sampler members.
#pragma once

#include "compiler/passes/pass.h"
#include "compiler/translate.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// A struct or class with a member that carries [[id(n)]]: what a kernel reads an argument
/// buffer as (Tier 1 style, and SPIRV-Cross's argument buffers). Its data members in order, with
/// their ids: written ones, and for a member without [[id]] the id after the previous member's
/// (an array member takes one id per element), as Metal assigns them.
struct ArgumentStruct {
    std::string name;
    std::vector<ArgumentMember> members;
    std::vector<std::size_t> samplerTypes; ///< the `sampler` tokens of its members' types
};

/// Every argument-buffer struct of the unit (class templates and local classes included).
std::vector<ArgumentStruct> findArgumentStructs(const Unit& unit);

/// The argument-buffer struct a buffer parameter of type `typeText` ("device Args&",
/// "constant ns::Args*") points at, or nullptr.
const ArgumentStruct* argumentStructOf(const std::vector<ArgumentStruct>& structs, const std::string& typeText);

/// A `sampler` member of an argument-buffer struct becomes a metal::sampler_reference: 8 bytes,
/// where the host writes the sampler's gpuResourceID() (a `sampler` value is its 40-byte state).
void rewriteArgumentBufferSamplers(PassContext& context);

} // namespace metalcpu::msl
