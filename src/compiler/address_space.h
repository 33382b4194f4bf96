// MSL's address-space qualifiers: the one table of their spellings, which of them metalcpu
// runs, and the numbers that stand for them in reflection and in the kernel library. Every
// stage that reads or writes an address space asks here instead of keeping its own list.
#pragma once

#include "compiler/token.h"
#include "compiler/translate.h"

#include <optional>
#include <span>
#include <string_view>

namespace metalcpu::msl {

/// An address-space qualifier of MSL (a contextual keyword for us).
enum class Space : unsigned char { Thread, Device, Constant, Threadgroup, ThreadgroupImageblock, RayData, ObjectData };

/// What the front end knows of one address space.
struct SpaceInfo {
    Space space;
    std::string_view spelling;
    /// Whether metalcpu runs code in it. The others (tile shading, ray tracing and mesh
    /// payloads) are an error at the qualifier (passes/address_spaces.h), so the stages that
    /// read a declaration's type before that know only the supported ones.
    bool supported;
    /// Whether it makes what it qualifies read-only: `constant` becomes `const`, and its
    /// buffers are reflected read-only.
    bool readOnly;
    /// The reflection's value for a kernel parameter in it (mc_address_space); None when
    /// unsupported.
    AddressSpace reflected;
    /// The number that stands for it in the kernel library's templates: the `Space` of
    /// `checked_ptr<T, Space>` and `checked_array<A, Space>` in the validation flavour (its
    /// mc_address_space, as metalcpu/checked.h uses it) and of `address_space_tag<Spaces...>`
    /// (passes/address_space_dispatch.h), where `thread` is 0. -1 when unsupported.
    int number;
};

/// Every address space, in the order of `Space`.
std::span<const SpaceInfo> addressSpaces();

const SpaceInfo& infoOf(Space space);
inline std::string_view spellingOf(Space space) { return infoOf(space).spelling; }

/// The address space a word spells, if it spells one.
std::optional<Space> addressSpaceNamed(std::string_view word);

/// The address space an identifier token spells, if it spells one (any other token: none).
std::optional<Space> addressSpaceOf(const Token& t);

/// The address space a token spells if metalcpu supports it (SpaceInfo::supported).
std::optional<Space> supportedAddressSpaceOf(const Token& t);

/// Whether the validation flavour turns a pointer into `space` into a checked pointer
/// (metalcpu/checked.h): the memory a kernel shares with other threads or the host, which it
/// can reach out of bounds. A `thread` pointer stays a plain one.
bool isCheckedSpace(Space space);

} // namespace metalcpu::msl
