// Apple's SIMD-group async copies, under the names metal-flash-attention's `metal_simdgroup_event`
// header declares them with (`__asm("air.simdgroup_async_copy_1d.p3i8.p1i8")` & co.: the
// front end erases such a declaration, compiler/passes/air_intrinsics.h, and the calls reach
// these) and MFA v1's older header takes from <metal_simdgroup_future>.
//
// A copy belongs to its SIMD-group: every lane calls it with the same arguments, and the copy
// is done once. Here it is done at the call, shared out among the lanes that are at it: a
// rendezvous of the SIMD-group (as a collective's) tells each lane its rank among them, and it
// copies every rank-th element. The wait is the SIMD-group's barrier, so that no lane reads
// the destination before every share is in it. A copy nobody waits for (MFA's last store of
// C) is complete when its lanes leave the call.
//
// The 2-D copy, as Apple's intrinsic takes it: element size and alignment; the destination
// (pointer, elements per row, element stride, tile dimensions: x elements per row, y rows);
// the same for the source; a source offset and the clamp mode. Every element of the
// destination tile is written: from the source where (x, y) + offset lies inside the source
// tile, else zero (clamp_to_zero, 0) or the nearest element of the source tile
// (clamp_to_edge, 1). A tile shorter than the other in either dimension is how MFA pads a
// block of A or B with zeros at the matrix's edge.
//
// In the shader-validation flavour the pointers are checked ones, and every element read or
// written is a checked access at the call's site (metalcpu/stdlib/async_copy_checked.h).
#pragma once

#include <metal_compute>
#include <metal_simdgroup>
#include <metal_types>

/// What Apple's intrinsics return: an event the wait takes. MFA declares it itself (`struct
/// _simdgroup_event_t;`), which this redeclares.
struct _simdgroup_event_t;
/// <metal_simdgroup_future>'s name for the event (MFA v1 keeps one in each simdgroup_event).
typedef _simdgroup_event_t* __metal_simdgroup_event_t;

namespace metalcpu_stdlib::async_copy {

/// An element, known only by its size.
template <unsigned N>
struct element {
    unsigned char bytes[N];
};

/// The element at `index` of a copy's source or destination. A raw pointer here; a checked
/// pointer has its own specialisation (async_copy_checked.h).
template <class P>
struct access {
    template <unsigned N>
    METALCPU_INLINE static element<N> read(P p, metal::ulong index, const mc_site*) {
        element<N> e;
        __builtin_memcpy(&e, static_cast<const unsigned char*>(static_cast<const void*>(p)) + index * N, N);
        return e;
    }
    template <unsigned N>
    METALCPU_INLINE static void write(P p, metal::ulong index, const element<N>& e, const mc_site*) {
        __builtin_memcpy(static_cast<unsigned char*>(static_cast<void*>(p)) + index * N, &e, N);
    }
};

/// The calling lane's share of a copy: elements rank, rank + lanes, ...; none in the first
/// pass of a kernel split into work-item loops, which only records the lanes.
struct share {
    metal::ulong rank = 0, lanes = 0;
};

struct copy_kind;

METALCPU_INLINE share lane_share(const metalcpu_kernel::simd_site& where) {
    mc_simd_round round{};
    const metalcpu_kernel::simd_replay* replay =
        metalcpu_kernel::simdgroup_exchange(nullptr, 0, where, &metalcpu_kernel::simd_kind<copy_kind>, &round);
    if (replay && replay->recording) return {};
    const mc_u64 below = round.lane >= 64 ? ~mc_u64(0) : (mc_u64(1) << round.lane) - 1;
    return {static_cast<metal::ulong>(__builtin_popcountll(round.active & below)),
            static_cast<metal::ulong>(__builtin_popcountll(round.active | (mc_u64(1) << (round.lane % 64))))};
}

template <unsigned N, class D, class S>
METALCPU_INLINE void copy_1d(D dst, S src, metal::ulong count, share s, const mc_site* site) {
    for (metal::ulong i = s.rank; i < count; i += s.lanes)
        access<D>::template write<N>(dst, i, access<S>::template read<N>(src, i, site), site);
}

/// One side of a 2-D copy: elements per row, the stride between a row's elements, the tile.
struct tile {
    metal::ulong elements_per_row, element_stride;
    metal::ulong2 dimensions;
    metal::ulong at(metal::ulong x, metal::ulong y) const { return y * elements_per_row + x * element_stride; }
};

template <unsigned N, class D, class S>
METALCPU_INLINE void copy_2d(D dst, tile to, S src, tile from, metal::long2 offset, int clamp_mode, share s,
                             const mc_site* site) {
    const metal::ulong width = to.dimensions.x, count = to.dimensions.x * to.dimensions.y;
    const bool empty = from.dimensions.x == 0 || from.dimensions.y == 0;
    for (metal::ulong i = s.rank; i < count; i += s.lanes) {
        const metal::ulong x = i % width, y = i / width;
        const long sx = long(x) + offset.x, sy = long(y) + offset.y;
        element<N> e{};
        if (sx >= 0 && sy >= 0 && metal::ulong(sx) < from.dimensions.x && metal::ulong(sy) < from.dimensions.y) {
            e = access<S>::template read<N>(src, from.at(metal::ulong(sx), metal::ulong(sy)), site);
        } else if (clamp_mode == 1 && !empty) {
            const metal::ulong cx = sx < 0 ? 0 : metal::min(metal::ulong(sx), from.dimensions.x - 1);
            const metal::ulong cy = sy < 0 ? 0 : metal::min(metal::ulong(sy), from.dimensions.y - 1);
            e = access<S>::template read<N>(src, from.at(cx, cy), site);
        }
        access<D>::template write<N>(dst, to.at(x, y), e, site);
    }
}

/// Calls `f.template operator()<N>()` with N the element size, for the sizes Metal's types have;
/// any other size is copied as that many single bytes (`scale`).
template <class F>
METALCPU_INLINE void by_element_size(metal::ulong size, F f) {
    switch (size) {
    case 1: f.template operator()<1>(1); break;
    case 2: f.template operator()<2>(1); break;
    case 4: f.template operator()<4>(1); break;
    case 8: f.template operator()<8>(1); break;
    case 16: f.template operator()<16>(1); break;
    default: f.template operator()<1>(size); break;
    }
}

template <class D, class S>
METALCPU_INLINE _simdgroup_event_t* copy_1d_call(const mc_site* site, metal::ulong size, D dst, S src,
                                                 metal::ulong count, const metalcpu_kernel::simd_site& where) {
    const share s = lane_share(where);
    by_element_size(size, [&]<unsigned N>(metal::ulong scale) { copy_1d<N>(dst, src, count * scale, s, site); });
    return nullptr;
}

template <class D, class S>
METALCPU_INLINE _simdgroup_event_t* copy_2d_call(const mc_site* site, metal::ulong size, D dst, tile to, S src,
                                                 tile from, metal::long2 offset, int clamp_mode,
                                                 const metalcpu_kernel::simd_site& where) {
    const share s = lane_share(where);
    by_element_size(size, [&]<unsigned N>(metal::ulong scale) {
        if (scale == 1) {
            copy_2d<N>(dst, to, src, from, offset, clamp_mode, s, site);
            return;
        }
        // An element of `scale` bytes: each of its bytes is a column of byte-sized elements.
        const auto bytes = [&](tile t) {
            return tile{t.elements_per_row * scale, t.element_stride * scale,
                        metal::ulong2(t.dimensions.x * scale, t.dimensions.y)};
        };
        const metal::long2 scaled(offset.x * long(scale), offset.y);
        copy_2d<1>(dst, bytes(to), src, bytes(from), scaled, clamp_mode, s, site);
    });
    return nullptr;
}

} // namespace metalcpu_stdlib::async_copy

/// Copies `count` elements of `size` bytes from `src` to `dst` (threadgroup from device memory,
/// or device from threadgroup memory), shared out among the calling SIMD-group's lanes.
template <class D, class S>
METALCPU_INLINE _simdgroup_event_t* __metal_simdgroup_async_copy_1d(metal::ulong size, metal::ulong, D dst, S src,
                                                                   metal::ulong count,
                                                                   metalcpu_kernel::simd_site where = {}) {
    return metalcpu_stdlib::async_copy::copy_1d_call(nullptr, size, dst, src, count, where);
}

/// Copies the destination tile from the source tile (header comment), shared out among the
/// calling SIMD-group's lanes.
template <class D, class S>
METALCPU_INLINE _simdgroup_event_t* __metal_simdgroup_async_copy_2d(
    metal::ulong size, metal::ulong, D dst, metal::ulong dst_elements_per_row, metal::ulong dst_element_stride,
    metal::ulong2 dst_tile, S src, metal::ulong src_elements_per_row, metal::ulong src_element_stride,
    metal::ulong2 src_tile, metal::long2 offset, int clamp_mode, metalcpu_kernel::simd_site where = {}) {
    using namespace metalcpu_stdlib::async_copy;
    return copy_2d_call(nullptr, size, dst, tile{dst_elements_per_row, dst_element_stride, dst_tile}, src,
                        tile{src_elements_per_row, src_element_stride, src_tile}, offset, clamp_mode, where);
}

/// Waits for the copies of `events` (done already): the SIMD-group's barrier, so that every
/// lane's share of them is in place when any lane goes on.
template <class E>
METALCPU_INLINE void __metal_wait_simdgroup_events(int, E, metalcpu_kernel::simd_site where = {}) {
    metal::simdgroup_barrier(metal::mem_flags::mem_threadgroup | metal::mem_flags::mem_device, where);
}
