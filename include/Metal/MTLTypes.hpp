// metalcpu: the packed value types shared by the Metal API (Origin, Size, Region, ...).
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <cstdint>

namespace MTL {

// A position in a grid or texture, in elements.
struct Origin {
    Origin() = default;
    constexpr Origin(NS::UInteger x_, NS::UInteger y_, NS::UInteger z_) : x(x_), y(y_), z(z_) {}
    static constexpr Origin Make(NS::UInteger x_, NS::UInteger y_, NS::UInteger z_) { return Origin(x_, y_, z_); }

    NS::UInteger x;
    NS::UInteger y;
    NS::UInteger z;
} __attribute__((packed));

// An extent in a grid or texture. As in metal-cpp, the default constructor leaves the fields
// uninitialised.
struct Size {
    Size() = default;
    constexpr Size(NS::UInteger width_, NS::UInteger height_, NS::UInteger depth_)
        : width(width_), height(height_), depth(depth_) {}
    static constexpr Size Make(NS::UInteger width_, NS::UInteger height_, NS::UInteger depth_) {
        return Size(width_, height_, depth_);
    }

    NS::UInteger width;
    NS::UInteger height;
    NS::UInteger depth;
} __attribute__((packed));

// An origin plus a size; the 1D and 2D forms use depth (and height) 1.
struct Region {
    Region() = default;
    constexpr Region(NS::UInteger x, NS::UInteger width) : origin(x, 0, 0), size(width, 1, 1) {}
    constexpr Region(NS::UInteger x, NS::UInteger y, NS::UInteger width, NS::UInteger height)
        : origin(x, y, 0), size(width, height, 1) {}
    constexpr Region(NS::UInteger x, NS::UInteger y, NS::UInteger z, NS::UInteger width, NS::UInteger height,
                     NS::UInteger depth)
        : origin(x, y, z), size(width, height, depth) {}

    static constexpr Region Make1D(NS::UInteger x, NS::UInteger width) { return Region(x, width); }
    static constexpr Region Make2D(NS::UInteger x, NS::UInteger y, NS::UInteger width, NS::UInteger height) {
        return Region(x, y, width, height);
    }
    static constexpr Region Make3D(NS::UInteger x, NS::UInteger y, NS::UInteger z, NS::UInteger width,
                                   NS::UInteger height, NS::UInteger depth) {
        return Region(x, y, z, width, height, depth);
    }

    Origin origin;
    Size size;
} __attribute__((packed));

// A subpixel position in [0, 1).
struct SamplePosition {
    SamplePosition() = default;
    constexpr SamplePosition(float x_, float y_) : x(x_), y(y_) {}
    static constexpr SamplePosition Make(float x_, float y_) { return SamplePosition(x_, y_); }

    float x;
    float y;
} __attribute__((packed));

using Coordinate2D = SamplePosition;

// An opaque handle to a texture, sampler or pipeline, as bound through argument buffers and
// MTL4 argument tables.
struct ResourceID {
    std::uint64_t _impl;
} __attribute__((packed));

} // namespace MTL
