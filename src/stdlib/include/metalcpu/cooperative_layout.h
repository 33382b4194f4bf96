// How a cooperative tensor's elements are divided among the threads of its scope: which tile
// element (x = dim 0 / column, y = dim 1 / row, tile-local) slot i of thread t holds.
//
// Apple documents that a cooperative tensor "divides the data among threads in implementation
// defined manner" and nothing more; real kernels (MLX, PyTorch) nevertheless hard-code the M5
// lane map. So the layout is a device setting (METALCPU_COOPERATIVE_LAYOUT), and a portable
// kernel must give the same result under every one of these:
//
// - apple10 (M5): 16x16 fragments in row-major fragment order, SIMD-group sg of N owning
//   fragments sg, sg + N, ...; in a fragment, lane l holds rows r0 and r0 + 8, columns c0 to
//   c0 + 3 (r0 = (q & 4) | ((l >> 1) & 3), c0 = ((q & 2) | (l & 1)) * 4, q = l >> 2): 8 slots.
// - apple9 (M1-M4): 8x8 fragments in column-major fragment order, SIMD-group sg owning a
//   contiguous block of them; in a fragment, simdgroup_matrix's lane map: 2 slots.
// - shuffled: a keyed permutation of the whole tile over threads x slots (for tests: code that
//   depends on a lane map fails loudly).
// - padded: shuffled with two more slots per thread, so every thread has invalid slots.
//
// Reduction roles (the (1, m) or (n, 1) results of reduce_rows / reduce_columns) derive from
// the destination's layout: slot i of thread t is the i-th distinct row (column) among t's
// valid destination slots, in slot order, so a reduction needs no data from another thread.
//
// A slot outside the tile (ragged tiles, the padding, a thread with fewer fragments) is
// invalid; coordinate() then says where it would point: just outside the tile.
//
// Freestanding (kernels) and hosted (the runtime's executor): only kernel_abi.h, all constexpr.
#pragma once

#include <metalcpu/kernel_abi.h>

namespace metalcpu_cooperative {

/// Lanes of the SIMD-group the layouts are defined for (METALCPU_SIMD_WIDTH must match).
constexpr mc_u32 kSimdLanes = 32;

constexpr mc_u32 ceil_div(mc_u32 a, mc_u32 b) { return (a + b - 1) / b; }

/// a / b and a % b, as a shift and a mask when b is a power of two (tiles and scopes usually
/// are): kernels ask for a slot's coordinates once per slot in their epilogues and stores,
/// where hardware divisions took a tenth of a tiled product's time.
constexpr void divide(mc_u32 a, mc_u32 b, mc_u32* quotient, mc_u32* remainder) {
    if (b != 0 && (b & (b - 1)) == 0) {
        *quotient = a >> __builtin_ctz(b);
        *remainder = a & (b - 1);
    } else {
        *quotient = b ? a / b : 0;
        *remainder = b ? a % b : 0;
    }
}
constexpr mc_u32 max_of(mc_u32 a, mc_u32 b) { return a > b ? a : b; }

/// The threads of a scope as SIMD-groups of 32 lanes. A scope narrower than a SIMD-group (one
/// thread: execution_thread) is one SIMD-group whose lanes are shared out, `lanes` per thread.
struct simd_groups {
    mc_u32 count;  // N
    mc_u32 lanes;  // lanes each thread plays (1 unless the scope is narrower than 32)
};
constexpr simd_groups scope_shape(mc_u32 threads) {
    if (threads >= kSimdLanes) return {threads / kSimdLanes, 1};
    return {1, ceil_div(kSimdLanes, threads == 0 ? 1 : threads)};
}

constexpr bool is_reduction(mc_u32 role) {
    return role == MC_COOPERATIVE_ROW_REDUCTION || role == MC_COOPERATIVE_COLUMN_REDUCTION;
}

/// Fragments of `size` x `size` that cover an (e0, e1) tile.
constexpr mc_u32 fragment_count(mc_u32 e0, mc_u32 e1, mc_u32 size) { return ceil_div(e0, size) * ceil_div(e1, size); }

// ---- apple10: 16x16 fragments, 8 slots each -------------------------------------------------

constexpr mc_u32 kApple10Fragment = 16;
constexpr mc_u32 kApple10Slots = 8;

constexpr mc_u32 apple10_lane_capacity(mc_u32 e0, mc_u32 e1, mc_u32 groups) {
    return kApple10Slots * ceil_div(fragment_count(e0, e1, kApple10Fragment), groups);
}

/// Lane `lane` of SIMD-group `group`, its slot `slot`: false past the fragments.
constexpr bool apple10_coordinate(mc_u32 e0, mc_u32 e1, mc_u32 groups, mc_u32 group, mc_u32 lane,
                                  mc_u32 slot, mc_u32* x, mc_u32* y) {
    const mc_u32 fx_count = ceil_div(e0, kApple10Fragment);
    const mc_u32 fragments = fragment_count(e0, e1, kApple10Fragment);
    const mc_u32 fragment = group + (slot / kApple10Slots) * groups;
    if (fragment >= fragments) return false;
    const mc_u32 element = slot % kApple10Slots;
    const mc_u32 q = lane >> 2;
    const mc_u32 row = (q & 4) | ((lane >> 1) & 3);
    const mc_u32 column = ((q & 2) | (lane & 1)) * 4;
    mc_u32 fy = 0, fx = 0;
    divide(fragment, fx_count, &fy, &fx);
    *x = kApple10Fragment * fx + column + (element & 3);
    *y = kApple10Fragment * fy + row + 8 * (element >> 2);
    return true;
}

// ---- apple9: 8x8 fragments (simdgroup_matrix's lane map), 2 slots each ----------------------

constexpr mc_u32 kApple9Fragment = 8;
constexpr mc_u32 kApple9Slots = 2;

constexpr mc_u32 apple9_lane_capacity(mc_u32 e0, mc_u32 e1, mc_u32 groups) {
    return kApple9Slots * ceil_div(fragment_count(e0, e1, kApple9Fragment), groups);
}

constexpr bool apple9_coordinate(mc_u32 e0, mc_u32 e1, mc_u32 groups, mc_u32 group, mc_u32 lane,
                                 mc_u32 slot, mc_u32* x, mc_u32* y) {
    const mc_u32 fy_count = ceil_div(e1, kApple9Fragment);
    const mc_u32 fragments = fragment_count(e0, e1, kApple9Fragment);
    const mc_u32 per_group = ceil_div(fragments, groups);
    const mc_u32 fragment = group * per_group + slot / kApple9Slots;
    if (slot / kApple9Slots >= per_group || fragment >= fragments) return false;
    const mc_u32 q = lane >> 2;
    mc_u32 fx = 0, fy = 0;
    divide(fragment, fy_count, &fx, &fy);
    *x = kApple9Fragment * fx + (q & 2) * 2 + (lane % 2) * 2 + slot % kApple9Slots;
    *y = kApple9Fragment * fy + (q & 4) + (lane / 2) % 4;
    return true;
}

// ---- shuffled and padded: a keyed permutation of threads x slots ----------------------------

constexpr mc_u64 mix64(mc_u64 z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

constexpr mc_u64 shuffle_key(const mc_cooperative_layout& layout) {
    return layout.seed ^ mix64((mc_u64(layout.role) << 48) ^ (mc_u64(layout.e0) << 32) ^
                               (mc_u64(layout.e1) << 16) ^ layout.threads);
}

/// A bijection on [0, n): a 4-round Feistel network on the smallest even number of bits that
/// covers n, walked until it lands inside [0, n) (cycle walking keeps it a bijection).
constexpr mc_u64 permute(mc_u64 value, mc_u64 n, mc_u64 key) {
    if (n <= 1) return value;
    mc_u32 bits = 0;
    while ((mc_u64(1) << bits) < n) ++bits;
    const mc_u32 half = (bits + 1) / 2;
    const mc_u64 mask = (mc_u64(1) << half) - 1;
    do {
        mc_u64 left = value >> half, right = value & mask;
        for (mc_u64 round = 0; round < 4; ++round) {
            const mc_u64 next = left ^ (mix64(right ^ key ^ (round << 56)) & mask);
            left = right;
            right = next;
        }
        value = (left << half) | right;
    } while (value >= n);
    return value;
}

constexpr mc_u32 shuffled_capacity(mc_u32 e0, mc_u32 e1, mc_u32 threads) {
    return ceil_div(e0 * e1, threads == 0 ? 1 : threads);
}
constexpr mc_u32 kPaddingSlots = 2;

// ---- the agreed interface -------------------------------------------------------------------

/// Slots per thread of the destination-shaped (or input) layout `kind` of an (e0, e1) tile.
constexpr mc_u32 tile_capacity(mc_u32 kind, mc_u32 e0, mc_u32 e1, mc_u32 threads) {
    const simd_groups shape = scope_shape(threads);
    switch (kind) {
    case MC_COOPERATIVE_LAYOUT_APPLE10: return shape.lanes * apple10_lane_capacity(e0, e1, shape.count);
    case MC_COOPERATIVE_LAYOUT_APPLE9: return shape.lanes * apple9_lane_capacity(e0, e1, shape.count);
    case MC_COOPERATIVE_LAYOUT_SHUFFLED: return shuffled_capacity(e0, e1, threads);
    case MC_COOPERATIVE_LAYOUT_PADDED: return shuffled_capacity(e0, e1, threads) + kPaddingSlots;
    default: return 0;
    }
}

/// The layout of a cooperative tensor of role `role` over an (e0, e1) tile (for reductions:
/// the destination's extents), shared by `threads` threads (32 x SIMD-groups, or 1).
/// A reduction has as many slots as the destination: at most one distinct row per slot.
constexpr mc_cooperative_layout make_layout(mc_u32 kind, mc_u32 role, mc_u32 e0, mc_u32 e1, mc_u32 threads,
                                            mc_u64 seed) {
    return mc_cooperative_layout{kind, role, e0, e1, threads, tile_capacity(kind, e0, e1, threads), seed};
}

/// The storage a cooperative tensor reserves: the most slots any layout kind needs.
constexpr mc_u32 max_capacity(mc_u32 role, mc_u32 e0, mc_u32 e1, mc_u32 threads) {
    (void)role; // every role of one tile has the same capacity in every kind
    return max_of(max_of(tile_capacity(MC_COOPERATIVE_LAYOUT_APPLE10, e0, e1, threads),
                         tile_capacity(MC_COOPERATIVE_LAYOUT_APPLE9, e0, e1, threads)),
                  tile_capacity(MC_COOPERATIVE_LAYOUT_PADDED, e0, e1, threads));
}

/// The tile element of slot `slot` of thread `thread` of a destination/input-shaped layout.
constexpr bool tile_coordinate(const mc_cooperative_layout& layout, mc_u32 thread, mc_u32 slot, mc_u32* x,
                               mc_u32* y) {
    *x = layout.e0;
    *y = layout.e1;
    if (thread >= layout.threads || slot >= layout.capacity) return false;
    mc_u32 cx = 0, cy = 0;
    bool inside = false;
    switch (layout.kind) {
    case MC_COOPERATIVE_LAYOUT_APPLE10:
    case MC_COOPERATIVE_LAYOUT_APPLE9: {
        const simd_groups shape = scope_shape(layout.threads);
        // A thread playing several lanes (a scope narrower than a SIMD-group) holds each
        // lane's slots in turn; otherwise its slots are its lane's.
        mc_u32 lane = thread % kSimdLanes, lane_slot = slot;
        if (shape.lanes > 1) {
            mc_u32 played = 0;
            divide(slot, layout.capacity / shape.lanes, &played, &lane_slot);
            lane = thread * shape.lanes + played;
        }
        if (lane >= kSimdLanes) return false;
        const mc_u32 group = shape.lanes > 1 ? 0 : thread / kSimdLanes;
        if (group >= shape.count) return false;
        inside = layout.kind == MC_COOPERATIVE_LAYOUT_APPLE10
                     ? apple10_coordinate(layout.e0, layout.e1, shape.count, group, lane, lane_slot, &cx, &cy)
                     : apple9_coordinate(layout.e0, layout.e1, shape.count, group, lane, lane_slot, &cx, &cy);
        break;
    }
    case MC_COOPERATIVE_LAYOUT_SHUFFLED:
    case MC_COOPERATIVE_LAYOUT_PADDED: {
        if (layout.e0 == 0) return false;
        const mc_u64 n = mc_u64(layout.threads) * layout.capacity;
        const mc_u64 p = permute(mc_u64(thread) * layout.capacity + slot, n, shuffle_key(layout));
        if (p >= mc_u64(layout.e0) * layout.e1) return false;
        cx = mc_u32(p % layout.e0);
        cy = mc_u32(p / layout.e0);
        inside = true;
        break;
    }
    default: return false;
    }
    if (!inside || cx >= layout.e0 || cy >= layout.e1) return false;
    *x = cx;
    *y = cy;
    return true;
}

/// Slot `slot` of thread `thread`: false for an invalid slot (x, y then point just outside
/// the tile). For a row reduction x is 0 and y the row; for a column reduction y is 0.
/// A reduction slot costs O(capacity^2) destination lookups: fine for a SIMD-group's slots;
/// code that walks every slot of every thread (the executor) derives them in one pass.
constexpr bool coordinate(const mc_cooperative_layout& layout, mc_u32 thread, mc_u32 slot, mc_u32* x, mc_u32* y) {
    if (!is_reduction(layout.role)) return tile_coordinate(layout, thread, slot, x, y);
    const bool rows = layout.role == MC_COOPERATIVE_ROW_REDUCTION;
    *x = rows ? 1 : layout.e0;
    *y = rows ? layout.e1 : 1;
    if (slot >= layout.capacity) return false;
    mc_cooperative_layout destination = layout;
    destination.role = MC_COOPERATIVE_DESTINATION;
    // The slot-th distinct row (column) among the thread's valid destination slots.
    mc_u32 distinct = 0;
    for (mc_u32 s = 0; s < destination.capacity; ++s) {
        mc_u32 dx = 0, dy = 0;
        if (!tile_coordinate(destination, thread, s, &dx, &dy)) continue;
        const mc_u32 line = rows ? dy : dx;
        bool seen = false;
        for (mc_u32 earlier = 0; earlier < s && !seen; ++earlier) {
            mc_u32 ex = 0, ey = 0;
            if (tile_coordinate(destination, thread, earlier, &ex, &ey)) seen = (rows ? ey : ex) == line;
        }
        if (seen) continue;
        if (distinct == slot) {
            *x = rows ? 0 : line;
            *y = rows ? line : 0;
            return true;
        }
        ++distinct;
    }
    return false;
}

} // namespace metalcpu_cooperative
