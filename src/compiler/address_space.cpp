#include "compiler/address_space.h"

#include <array>

namespace metalcpu::msl {

namespace {

constexpr std::array<SpaceInfo, 7> kSpaces{{
    // space                        spelling                  supported readOnly reflected                number
    {Space::Thread,                 "thread",                 true,     false,   AddressSpace::Thread,      0},
    {Space::Device,                 "device",                 true,     false,   AddressSpace::Device,      1},
    {Space::Constant,               "constant",               true,     true,    AddressSpace::Constant,    2},
    {Space::Threadgroup,            "threadgroup",            true,     false,   AddressSpace::Threadgroup, 3},
    {Space::ThreadgroupImageblock,  "threadgroup_imageblock", false,    false,   AddressSpace::None,       -1},
    {Space::RayData,                "ray_data",               false,    false,   AddressSpace::None,       -1},
    {Space::ObjectData,             "object_data",            false,    false,   AddressSpace::None,       -1},
}};

constexpr bool checked(const SpaceInfo& s) { return s.supported && s.space != Space::Thread; }

constexpr bool consistent() {
    for (std::size_t i = 0; i < kSpaces.size(); ++i) {
        const SpaceInfo& s = kSpaces[i];
        if (static_cast<std::size_t>(s.space) != i) return false; // infoOf() indexes by the enum
        if (s.supported != (s.reflected != AddressSpace::None) || s.supported != (s.number >= 0)) return false;
        // A checked pointer's Space is its pointee's mc_address_space (reflection.cpp ties
        // AddressSpace to it, metalcpu/checked.h uses it by name), so that the types the
        // translator writes and those the kernel library makes (a threadgroup variable's
        // checked_array) are one.
        if (checked(s) && s.number != static_cast<int>(s.reflected)) return false;
        for (std::size_t j = 0; j < i; ++j) // address_space_tag tells versions apart by these
            if (s.supported && s.number == kSpaces[j].number) return false;
    }
    return true;
}
static_assert(consistent(), "the address-space table is out of order or its numbers disagree");

} // namespace

std::span<const SpaceInfo> addressSpaces() { return kSpaces; }

const SpaceInfo& infoOf(Space space) { return kSpaces[static_cast<std::size_t>(space)]; }

std::optional<Space> addressSpaceNamed(std::string_view word) {
    for (const SpaceInfo& s : kSpaces)
        if (s.spelling == word) return s.space;
    return std::nullopt;
}

std::optional<Space> addressSpaceOf(const Token& t) {
    if (!t.isIdentifier()) return std::nullopt;
    return addressSpaceNamed(t.spelling);
}

std::optional<Space> supportedAddressSpaceOf(const Token& t) {
    const std::optional<Space> space = addressSpaceOf(t);
    if (space && !infoOf(*space).supported) return std::nullopt;
    return space;
}

bool isCheckedSpace(Space space) { return checked(infoOf(space)); }

} // namespace metalcpu::msl
