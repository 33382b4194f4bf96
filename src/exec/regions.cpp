#include "exec/regions.h"

namespace metalcpu::exec {

RegionTable& RegionTable::shared() {
    static RegionTable* table = new RegionTable; // never destroyed: kernels may still read it
    return *table;
}

RegionTable::RegionTable() : regions_{}, owners_{} {
    free_.reserve(METALCPU_REGION_COUNT - 2);
    for (std::uint32_t tag = METALCPU_REGION_COUNT - 1; tag > 0; --tag)
        if (tag != METALCPU_ABSENT_REGION_TAG) free_.push_back(tag);
    regions_[METALCPU_ABSENT_REGION_TAG] = mc_region{0, ~std::uint64_t(0)};
}

std::uint32_t RegionTable::acquire(const RegionOwner* owner) {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return 0;
    std::uint32_t tag = free_.back();
    free_.pop_back();
    regions_[tag] = mc_region{0, 0};
    owners_[tag] = owner;
    return tag;
}

void RegionTable::release(std::uint32_t tag) {
    if (tag == 0) return;
    std::lock_guard lock(mutex_);
    regions_[tag] = mc_region{0, 0};
    owners_[tag] = nullptr;
    free_.push_back(tag);
}

void RegionTable::set(std::uint32_t tag, std::uint64_t begin, std::uint64_t length) {
    // A worker sets its threadgroup memory's tags again at every group, to the same bytes;
    // neighbouring tags share a cache line and are read by other workers' kernels at each
    // checked access, so a store of what is already there would only bounce the line.
    if (tag != 0 && (regions_[tag].begin != begin || regions_[tag].length != length))
        regions_[tag] = mc_region{begin, length};
}

const RegionOwner* RegionTable::owner(std::uint32_t tag) const { return tag < METALCPU_REGION_COUNT ? owners_[tag] : nullptr; }

void RegionTable::setOwner(std::uint32_t tag, const RegionOwner* owner) {
    if (tag != 0) owners_[tag] = owner;
}

} // namespace metalcpu::exec
