#include "exec/group_order.h"

#include <algorithm>

namespace metalcpu::exec {

GroupOrder::GroupOrder(const std::uint32_t groups[3], std::uint32_t tileWidth, std::uint32_t tileHeight)
    : groups_{groups[0], groups[1], groups[2]},
      // A tile larger than the grid is the grid: clamped, origins plus a tile never overflow.
      tileWidth_(std::max<std::uint32_t>(1, std::min(tileWidth, groups[0]))),
      tileHeight_(std::max<std::uint32_t>(1, std::min(tileHeight, groups[1]))) {
    enterTile();
}

GroupOrder GroupOrder::forGrid(const std::uint32_t groups[3]) { return GroupOrder(groups, kTileWidth, kTileHeight); }

void GroupOrder::seek(std::uint64_t index, std::uint32_t (&position)[3]) {
    const std::uint64_t slice = std::uint64_t(groups_[0]) * groups_[1];
    position[2] = static_cast<std::uint32_t>(index / slice);
    std::uint64_t rest = index % slice;
    // Bands of tileHeight_ rows (the last may be lower), each a row of tiles.
    const std::uint64_t band = std::uint64_t(groups_[0]) * tileHeight_;
    tileY_ = static_cast<std::uint32_t>(rest / band) * tileHeight_;
    rest %= band;
    tileX_ = 0;
    enterTile();
    // Every tile of a band but its last is tileWidth_ wide: tileWidth_ x height groups.
    const std::uint64_t tile = std::uint64_t(tileWidth_) * (tileEndY_ - tileY_);
    tileX_ = static_cast<std::uint32_t>(rest / tile) * tileWidth_;
    rest %= tile;
    enterTile();
    const std::uint32_t width = tileEndX_ - tileX_;
    position[1] = tileY_ + static_cast<std::uint32_t>(rest / width);
    position[0] = tileX_ + static_cast<std::uint32_t>(rest % width);
}

void GroupOrder::nextRow(std::uint32_t (&position)[3]) {
    position[0] = tileX_;
    if (++position[1] < tileEndY_) return;
    // The tile is done: the next one to the right, else the next band, else the next slice.
    if (tileEndX_ < groups_[0]) {
        tileX_ = tileEndX_;
    } else {
        tileX_ = 0;
        if (tileEndY_ < groups_[1]) {
            tileY_ = tileEndY_;
        } else {
            tileY_ = 0;
            if (++position[2] == groups_[2]) position[2] = 0;
        }
    }
    enterTile();
    position[0] = tileX_;
    position[1] = tileY_;
}

} // namespace metalcpu::exec
