#pragma once

#include <cstdint>

namespace metalcpu::exec {

/// The order the executor runs a grid's threadgroups in. Metal leaves that order undefined,
/// so it is chosen for the caches: each z slice of the grid is cut into tiles of
/// `tileWidth` x `tileHeight` groups (narrower or lower at the slice's right and bottom
/// edges), the tiles run row by row, and the groups of a tile row by row, x fastest. A
/// worker given a run of consecutive indices then works on a compact block of the grid,
/// whose rows and columns of data (a matrix product's rows of A and columns of B) can stay
/// in cache from one group to the next, where row-major order sweeps a whole grid row (and
/// all of B) between two uses of the same columns. On the 2-core development machine that
/// paid up to 7% where a kernel's data exceeds L3, and nothing elsewhere (README.md,
/// "Performance").
///
/// Walks the order incrementally, on the caller's position (the executor's group record):
/// the executor steps it once per group, and a division per group costs measurable time on
/// small groups. Visits every group of the grid exactly once for any grid and tile size,
/// 1 x 1 x 1 included (tests/exec/group_order_test.cpp).
class GroupOrder {
public:
    /// The order over a grid of `groups` (none of them 0); tiles of at least 1 x 1.
    GroupOrder(const std::uint32_t groups[3], std::uint32_t tileWidth, std::uint32_t tileHeight);

    /// The order for the executor's dispatches (kTileWidth x kTileHeight tiles).
    static GroupOrder forGrid(const std::uint32_t groups[3]);

    /// Tile size of forGrid: 8 x 8 groups (the measurement: bench/README.md, "Threadgroup order").
    static constexpr std::uint32_t kTileWidth = 8;
    static constexpr std::uint32_t kTileHeight = 8;

    std::uint64_t count() const { return std::uint64_t(groups_[0]) * groups_[1] * groups_[2]; }

    /// Sets `position` to the group `index` (< count()) of the order; divides.
    void seek(std::uint64_t index, std::uint32_t (&position)[3]);

    /// Steps `position`, the group seek() or next() last gave, to the next group of the order;
    /// past the last it wraps to the first. Inline: most steps move one group along a tile row.
    void next(std::uint32_t (&position)[3]) {
        if (++position[0] < tileEndX_) return;
        nextRow(position);
    }

private:
    /// After the tile's origin moved: its extent.
    void enterTile() {
        tileEndX_ = tileX_ + (tileWidth_ < groups_[0] - tileX_ ? tileWidth_ : groups_[0] - tileX_);
        tileEndY_ = tileY_ + (tileHeight_ < groups_[1] - tileY_ ? tileHeight_ : groups_[1] - tileY_);
    }
    void nextRow(std::uint32_t (&position)[3]); ///< next() at the end of a tile row

    std::uint32_t groups_[3];
    std::uint32_t tileWidth_, tileHeight_;
    std::uint32_t tileX_ = 0, tileY_ = 0;          ///< the current tile's origin
    std::uint32_t tileEndX_ = 0, tileEndY_ = 0;    ///< one past its last column and row
};

} // namespace metalcpu::exec
