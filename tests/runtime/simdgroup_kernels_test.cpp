// SIMD-group and quad-group functions run through the public API against a CPU model of
// Metal's rules: a SIMD-group is threads_per_simdgroup consecutive threads of the threadgroup,
// its active threads are those that exist and have not returned, a read from an inactive or
// missing lane gives zero (metalcpu's choice where Metal leaves it undefined). Threadgroups of
// 1, 7, 32, 33, 64, 100 and 256 threads over grids that do not divide evenly (dispatchThreads, so
// the last group is cut), threads that return before the collectives, widths 4, 8 and 64 as
// well as 32 (METALCPU_SIMD_WIDTH), plain and shader-validated pipelines; canaries around and
// between the outputs show what returned threads left alone.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// A few functions in each element type, on small values so that half and float are exact;
// results come back as int.
template <class T>
kernel void typed(device const uint* in [[buffer(0)]],
                  device int* out [[buffer(1)]],
                  uint gid [[thread_position_in_grid]]) {
    const uint raw = in[gid];
    if (raw % 11 == 5) return;
    const T x = T(raw % 16);
    device int* o = out + gid * 6;
    o[0] = int(simd_sum(x));
    o[1] = int(simd_min(x));
    o[2] = int(simd_max(x));
    o[3] = int(simd_shuffle_down(x, 1));
    o[4] = int(simd_prefix_exclusive_sum(x));
    o[5] = int(simd_broadcast_first(x));
}
template [[host_name("typed_char")]] kernel void typed<char>(device const uint*, device int*, uint);
template [[host_name("typed_uchar")]] kernel void typed<uchar>(device const uint*, device int*, uint);
template [[host_name("typed_short")]] kernel void typed<short>(device const uint*, device int*, uint);
template [[host_name("typed_ushort")]] kernel void typed<ushort>(device const uint*, device int*, uint);
template [[host_name("typed_int")]] kernel void typed<int>(device const uint*, device int*, uint);
template [[host_name("typed_long")]] kernel void typed<long>(device const uint*, device int*, uint);
template [[host_name("typed_ulong")]] kernel void typed<ulong>(device const uint*, device int*, uint);
template [[host_name("typed_half")]] kernel void typed<half>(device const uint*, device int*, uint);
template [[host_name("typed_float")]] kernel void typed<float>(device const uint*, device int*, uint);

// Vectors: each component on its own, a swizzle as the argument.
kernel void vectors(device const uint* in [[buffer(0)]],
                    device int* out [[buffer(1)]],
                    uint gid [[thread_position_in_grid]]) {
    const uint raw = in[gid];
    if (raw % 11 == 5) return;
    const float v = float(raw % 16);
    const float4 x = float4(v, v + 1, v * 2, 100 - v);
    const int2 i = int2(int(raw % 16), -int(raw % 16));
    const float4 s = simd_sum(x);
    const float4 m = simd_max(x.xyzw);
    const int2 d = simd_shuffle_down(i, 2);
    device int* o = out + gid * 8;
    o[0] = int(s.x); o[1] = int(s.w); o[2] = int(m.y); o[3] = int(m.w);
    o[4] = d.x; o[5] = d.y;
    o[6] = int(simd_prefix_inclusive_sum(x).z);
    o[7] = simd_broadcast(i, 1).y;
}

// Only SIMD-group 0 takes part in collectives and a SIMD-group barrier, three rounds; the
// others go straight to the threadgroup barrier. Must not deadlock.
kernel void first_simdgroup_only(device uint* out [[buffer(0)]],
                                 uint gid [[thread_position_in_grid]],
                                 uint lane [[thread_index_in_simdgroup]],
                                 uint sg [[simdgroup_index_in_threadgroup]],
                                 uint lid [[thread_index_in_threadgroup]]) {
    threadgroup uint total;
    uint x = lane + 1;
    if (sg == 0) {
        for (int round = 0; round < 3; ++round) {
            x = simd_sum(x);
            simdgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (lane == 0) total = x;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = total + lid;
}

// MLX's two-stage reduction: each SIMD-group's sum in threadgroup memory, then SIMD-group 0
// alone sums the partials under an `if` whose condition differs per thread. partial[] is
// zeroed first, so that the lanes of SIMD-group 0 past the last SIMD-group read 0.
kernel void two_stage_sum(device const uint* in [[buffer(0)]],
                          device uint* out [[buffer(1)]],
                          uint gid [[thread_position_in_grid]],
                          uint group [[threadgroup_position_in_grid]],
                          uint lid [[thread_index_in_threadgroup]],
                          uint lane [[thread_index_in_simdgroup]],
                          uint sg [[simdgroup_index_in_threadgroup]]) {
    threadgroup uint partial[64];
    if (lid < 64) partial[lid] = 0;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint s = in[gid];
    s = simd_sum(s);
    if (lane == 0) partial[sg] = s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (sg == 0) {
        uint t = partial[lane];
        t = simd_sum(t);
        if (lane == 0) out[group] = t;
    }
}

// Only every third lane calls the collectives: they cover those lanes alone (Metal's active
// threads), as the sum, the prefix and the active mask show.
kernel void every_third_lane(device const uint* in [[buffer(0)]],
                             device uint* out [[buffer(1)]],
                             uint gid [[thread_position_in_grid]],
                             uint lane [[thread_index_in_simdgroup]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    uint s = x;
    uint p = 0;
    uint low = 0;
    uint high = 0;
    if (lane % 3 == 0) {
        s = simd_sum(x);
        p = simd_prefix_exclusive_sum(x);
        simd_vote active = simd_active_threads_mask();
        low = uint((simd_vote::vote_t)active);
        high = uint(((simd_vote::vote_t)active) >> 32);
    }
    device uint* o = out + gid * 4;
    o[0] = s; o[1] = p; o[2] = low; o[3] = high;
}

// Each branch of an if/else on the thread's value runs its own collective over the lanes that
// take it; a branch-local variable lives across the else branch's collective.
kernel void branch_collectives(device const uint* in [[buffer(0)]],
                               device uint* out [[buffer(1)]],
                               uint gid [[thread_position_in_grid]],
                               uint lane [[thread_index_in_simdgroup]]) {
    const uint x = in[gid];
    if (x % 11 == 5) return;
    uint r = 0;
    if (x % 2 == 0) {
        r = simd_sum(x);
    } else {
        const uint twice = x * 2;
        uint m = simd_max(twice);
        r = m + lane;
    }
    out[gid] = r;
}

// A constant in a branch whose condition differs per thread is evaluated only by the threads
// that take it: a group whose `taking[0]` is 0 takes it nowhere, and there kScales[taking[0] - 1]
// would read 16 GiB past the table. Its initialiser names only what every thread of the group
// shares (a threadgroup array, a program-scope table), so the work-item loops could declare it
// once per group, which would run it where no thread does (commit ea0cfac): because it
// indexes (or divides, or calls), it is declared per thread, in the branch's guarded piece.
constant uint kScales[4] = {3, 5, 7, 11};

kernel void divergent_constant(device const uint* in [[buffer(0)]],
                               device uint* out [[buffer(1)]],
                               uint gid [[thread_position_in_grid]],
                               uint lid [[thread_index_in_threadgroup]],
                               uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint taking[1];
    if (lid == 0) taking[0] = group * 3 % 5;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint s = in[gid];
    if (lid < taking[0]) {
        const uint scale = kScales[taking[0] - 1];
        const uint share = 64 / taking[0];
        s = simd_sum(s);
        s = s * scale + share;
    }
    out[gid] = s;
}

// The same index in the header of a loop that holds a collective, in such a branch: the loop
// cannot run once per group for the threads, so the kernel keeps the fibers.
kernel void divergent_loop_header(device const uint* in [[buffer(0)]],
                                  device uint* out [[buffer(1)]],
                                  uint gid [[thread_position_in_grid]],
                                  uint lid [[thread_index_in_threadgroup]],
                                  uint group [[threadgroup_position_in_grid]]) {
    threadgroup uint taking[1];
    if (lid == 0) taking[0] = group * 3 % 5;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint s = in[gid];
    if (lid < taking[0]) {
        for (uint round = 0; round < kScales[taking[0] - 1] % 4; ++round) {
            s = simd_sum(s);
        }
    }
    out[gid] = s;
}

// Every thread of SIMD-group 1 returns before the reductions (as do scattered others): the
// work-item loops reduce each SIMD-group once, by its first active lane, and one with no
// active lane is passed over, not reduced, while the groups after it still are.
kernel void whole_simdgroup_returns(device const uint* in [[buffer(0)]],
                                    device uint* out [[buffer(1)]],
                                    uint gid [[thread_position_in_grid]],
                                    uint sg [[simdgroup_index_in_threadgroup]]) {
    const uint x = in[gid];
    if (sg == 1 || x % 11 == 5) return;
    uint s = simd_sum(x);
    s = simd_max(s + x);
    out[gid] = s;
}

// 64-bit values shuffled as two 32-bit halves, as MLX shuffles them (`as_type<uint2>`), each
// function's value a whole statement (work-item loops).
kernel void shuffle_uint2(device const uint* in [[buffer(0)]],
                          device ulong* out [[buffer(1)]],
                          uint gid [[thread_position_in_grid]],
                          uint lane [[thread_index_in_simdgroup]],
                          uint width [[threads_per_simdgroup]]) {
    const uint raw = in[gid];
    if (raw % 11 == 5) return;
    const uint2 halves = as_type<uint2>((ulong(raw) << 32) | ulong(raw * 7u));
    const uint2 picked = simd_shuffle(halves, ushort((lane * 5 + 1) & (width - 1)));
    const uint2 swapped = simd_shuffle_xor(halves, ushort(3));
    const uint2 second = simd_broadcast(halves, ushort(1));
    device ulong* o = out + gid * 3;
    o[0] = as_type<ulong>(picked);
    o[1] = as_type<ulong>(swapped);
    o[2] = as_type<ulong>(second);
}

// Builtins of the SIMD- and quad-groups, as the threads see them.
kernel void builtins(device uint* out [[buffer(0)]],
                     uint gid [[thread_position_in_grid]],
                     uint a [[thread_index_in_simdgroup]],
                     uint b [[simdgroup_index_in_threadgroup]],
                     uint c [[threads_per_simdgroup]],
                     uint d [[simdgroups_per_threadgroup]],
                     uint e [[dispatch_simdgroups_per_threadgroup]],
                     uint f [[thread_execution_width]],
                     uint g [[quadgroup_index_in_threadgroup]],
                     uint h [[quadgroups_per_threadgroup]],
                     uint i [[thread_index_in_quadgroup]],
                     uint j [[dispatch_quadgroups_per_threadgroup]]) {
    device uint* o = out + gid * 10;
    o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = e; o[5] = f; o[6] = g; o[7] = h; o[8] = i; o[9] = j;
}
)";

/// One output slot of every_function: the SIMD-group function call, the type of its value
/// and how the value `v` (its last `v`) becomes the uint written.
struct Slot {
    const char* type;
    const char* call;
    const char* output;
};
const Slot kFunctions[] = {
    {"uint", "simd_sum(x)", "v"},
    {"uint", "simd_product(x)", "v"},
    {"uint", "simd_min(x)", "v"},
    {"uint", "simd_max(x)", "v"},
    {"uint", "simd_and(x)", "v"},
    {"uint", "simd_or(x)", "v"},
    {"uint", "simd_xor(x)", "v"},
    {"uint", "simd_prefix_inclusive_sum(x)", "v"},
    {"uint", "simd_prefix_exclusive_sum(x)", "v"},
    {"uint", "simd_prefix_inclusive_product(x)", "v"},
    {"uint", "simd_prefix_exclusive_product(x)", "v"},
    {"uint", "simd_shuffle(x, ushort((lane * 7 + 3) & (width - 1)))", "v"},
    {"uint", "simd_shuffle_up(x, 3)", "v"},
    {"uint", "simd_shuffle_down(x, 5)", "v"},
    {"uint", "simd_shuffle_xor(x, 6)", "v"},
    {"uint", "simd_shuffle_rotate_up(x, 3)", "v"},
    {"uint", "simd_shuffle_rotate_down(x, 5)", "v"},
    {"uint", "simd_shuffle_and_fill_up(x, f, 3)", "v"},
    {"uint", "simd_shuffle_and_fill_down(x, f, 5)", "v"},
    {"uint", "simd_shuffle_and_fill_up(x, f, 2, 4)", "v"},
    {"uint", "simd_shuffle_and_fill_down(x, f, 3, 4)", "v"},
    {"uint", "simd_broadcast(x, 2)", "v"},
    {"uint", "simd_broadcast_first(x)", "v"},
    {"simd_vote", "simd_ballot((x & 1) != 0)", "uint((simd_vote::vote_t)v)"},
    {"simd_vote", "simd_ballot((x & 1) != 0)", "uint(((simd_vote::vote_t)v) >> 32)"},
    {"simd_vote", "simd_active_threads_mask()", "uint((simd_vote::vote_t)v)"},
    {"simd_vote", "simd_active_threads_mask()", "uint(((simd_vote::vote_t)v) >> 32)"},
    {"bool", "simd_any(x % 7 == 0)", "uint(v)"},
    {"bool", "simd_all(x % 13 != 1)", "uint(v)"},
    {"bool", "simd_is_first()", "uint(v)"},
    {"simd_vote", "simd_ballot(x < 1000000u)", "uint(v.all())"},
    {"uint", "quad_sum(x)", "v"},
    {"uint", "quad_prefix_exclusive_sum(x)", "v"},
    {"uint", "quad_shuffle(x, ushort(3 - quad_lane))", "v"},
    {"uint", "quad_shuffle_down(x, 1)", "v"},
    {"uint", "quad_broadcast_first(x)", "v"},
    {"quad_vote", "quad_ballot((x & 1) != 0)", "uint((quad_vote::vote_t)v)"},
    {"bool", "quad_is_first()", "uint(v)"},
    {"uint", "quad_max(x)", "v"},
    {"uint", "quad_shuffle_and_fill_up(x, f, 1)", "v"},
    {"uint", "quad_shuffle_rotate_down(x, 1)", "v"},
    {"bool", "quad_all((x & 1) != 0)", "uint(v)"},
};
constexpr unsigned kSlots = sizeof kFunctions / sizeof kFunctions[0];

/// every_function calls each function where its value is used (`o[3] = simd_max(x);`), which
/// keeps the kernel on fibers; every_function_split calls each as a statement of its own
/// (`uint v3 = simd_max(x);`), which the front end splits into work-item loops. Threads whose
/// value is 5 mod 11 return first.
std::string everyFunctionKernels() {
    const std::string head =
        "(device const uint* in [[buffer(0)]], device uint* out [[buffer(1)]],\n"
        " uint gid [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]],\n"
        " uint width [[threads_per_simdgroup]], uint quad_lane [[thread_index_in_quadgroup]]) {\n"
        "    const uint x = in[gid];\n"
        "    if (x % 11 == 5) return;\n"
        "    device uint* o = out + gid * " + std::to_string(kSlots) + ";\n"
        "    const uint f = x + 1000;\n";
    std::string operands = "kernel void every_function" + head, statements = "kernel void every_function_split" + head;
    for (unsigned k = 0; k < kSlots; ++k) {
        const Slot& s = kFunctions[k];
        const std::string v = "v" + std::to_string(k), out = s.output;
        const std::size_t at = out.rfind('v'); // the value, after any `vote_t`
        std::string operand = out, written = out;
        operand.replace(at, 1, "(" + std::string(s.call) + ")");
        written.replace(at, 1, v);
        operands += "    o[" + std::to_string(k) + "] = " + operand + ";\n";
        statements += "    " + std::string(s.type) + " " + v + " = " + s.call + ";\n    o[" + std::to_string(k) +
                      "] = " + written + ";\n";
    }
    return "#include <metal_stdlib>\nusing namespace metal;\n" + operands + "}\n" + statements + "}\n";
}

/// One group of lanes (a SIMD-group or a quad) as the model sees it.
struct Group {
    std::vector<bool> present;
    std::vector<std::uint32_t> values;
    unsigned count() const { return unsigned(values.size()); }
    std::uint32_t at(unsigned i) const { return i < count() && present[i] ? values[i] : 0u; }
    unsigned firstActive() const {
        for (unsigned i = 0; i < count(); ++i)
            if (present[i]) return i;
        return count();
    }
    std::uint64_t vote(const std::function<bool(std::uint32_t)>& predicate) const {
        std::uint64_t bits = 0;
        for (unsigned i = 0; i < count(); ++i)
            if (present[i] && predicate(values[i])) bits |= std::uint64_t(1) << i;
        return bits;
    }
    template <class Op>
    std::uint32_t fold(Op op, unsigned end, std::uint32_t start) const {
        std::uint32_t acc = start;
        for (unsigned i = 0; i < end && i < count(); ++i)
            if (present[i]) acc = op(acc, values[i]);
        return acc;
    }
    std::uint32_t fillUp(unsigned self, unsigned delta, unsigned modulo) const {
        const unsigned g = self % modulo, base = self - g;
        return g >= delta ? at(base + g - delta) : fill(base + modulo - delta + g);
    }
    std::uint32_t fillDown(unsigned self, unsigned delta, unsigned modulo) const {
        const unsigned g = self % modulo, base = self - g;
        return g + delta < modulo ? at(base + g + delta) : fill(base + g + delta - modulo);
    }
    std::uint32_t fill(unsigned i) const { return i < count() && present[i] ? values[i] + 1000 : 0u; }
};

/// The lanes [first, first + count) of a threadgroup's threads [begin, end) of the grid.
Group groupOf(const std::vector<std::uint32_t>& in, unsigned begin, unsigned end, unsigned first, unsigned count) {
    Group g;
    for (unsigned i = 0; i < count; ++i) {
        const unsigned gid = begin + first + i;
        const bool exists = gid < end;
        g.present.push_back(exists && !returnsEarly(in[gid]));
        g.values.push_back(exists ? in[gid] : 0u);
    }
    return g;
}

std::vector<std::uint32_t> everyFunction(const std::vector<std::uint32_t>& in, unsigned groupSize, unsigned width) {
    const unsigned count = unsigned(in.size());
    std::vector<std::uint32_t> out(std::size_t(count) * kSlots, kCanary);
    auto add = [](std::uint32_t a, std::uint32_t b) { return a + b; };
    auto mul = [](std::uint32_t a, std::uint32_t b) { return a * b; };
    for (unsigned begin = 0; begin < count; begin += groupSize) {
        const unsigned end = std::min(begin + groupSize, count);
        for (unsigned gid = begin; gid < end; ++gid) {
            const std::uint32_t x = in[gid];
            if (returnsEarly(x)) continue;
            const unsigned linear = gid - begin, lane = linear % width, quadLane = linear % 4;
            const Group s = groupOf(in, begin, end, linear - lane, width);
            const Group q = groupOf(in, begin, end, linear - quadLane, 4);
            std::uint32_t* o = out.data() + std::size_t(gid) * kSlots;
            o[0] = s.fold(add, width, 0);
            o[1] = s.fold(mul, width, 1);
            o[2] = s.fold([](std::uint32_t a, std::uint32_t b) { return std::min(a, b); }, width, ~0u);
            o[3] = s.fold([](std::uint32_t a, std::uint32_t b) { return std::max(a, b); }, width, 0);
            o[4] = s.fold([](std::uint32_t a, std::uint32_t b) { return a & b; }, width, ~0u);
            o[5] = s.fold([](std::uint32_t a, std::uint32_t b) { return a | b; }, width, 0);
            o[6] = s.fold([](std::uint32_t a, std::uint32_t b) { return a ^ b; }, width, 0);
            o[7] = s.fold(add, lane + 1, 0);
            o[8] = s.fold(add, lane, 0);
            o[9] = s.fold(mul, lane + 1, 1);
            o[10] = s.fold(mul, lane, 1);
            o[11] = s.at((lane * 7 + 3) & (width - 1));
            o[12] = lane < 3 ? x : s.at(lane - 3);
            o[13] = lane + 5 >= width ? x : s.at(lane + 5);
            o[14] = s.at(lane ^ 6);
            o[15] = s.at((lane + width - 3 % width) % width);
            o[16] = s.at((lane + 5) % width);
            o[17] = s.fillUp(lane, 3, width);
            o[18] = s.fillDown(lane, 5, width);
            o[19] = s.fillUp(lane, 2, 4);
            o[20] = s.fillDown(lane, 3, 4);
            o[21] = s.at(2);
            o[22] = s.at(s.firstActive());
            const std::uint64_t votes = s.vote([](std::uint32_t v) { return (v & 1) != 0; });
            o[23] = std::uint32_t(votes);
            o[24] = std::uint32_t(votes >> 32);
            const std::uint64_t active = s.vote([](std::uint32_t) { return true; });
            o[25] = std::uint32_t(active);
            o[26] = std::uint32_t(active >> 32);
            o[27] = s.vote([](std::uint32_t v) { return v % 7 == 0; }) != 0;
            o[28] = s.vote([](std::uint32_t v) { return v % 13 != 1; }) == active;
            o[29] = lane == s.firstActive();
            o[30] = 1;
            o[31] = q.fold(add, 4, 0);
            o[32] = q.fold(add, quadLane, 0);
            o[33] = q.at(3 - quadLane);
            o[34] = quadLane + 1 >= 4 ? x : q.at(quadLane + 1);
            o[35] = q.at(q.firstActive());
            o[36] = std::uint32_t(q.vote([](std::uint32_t v) { return (v & 1) != 0; }));
            o[37] = quadLane == q.firstActive();
            o[38] = q.fold([](std::uint32_t a, std::uint32_t b) { return std::max(a, b); }, 4, 0);
            o[39] = q.fillUp(quadLane, 1, 4);
            o[40] = q.at((quadLane + 1) % 4);
            o[41] = q.vote([](std::uint32_t v) { return (v & 1) != 0; }) == q.vote([](std::uint32_t) { return true; });
        }
    }
    return out;
}

/// typed<T>: `wrap` makes a 64-bit result into what T holds (the identity for half and float).
std::vector<std::int32_t> typedModel(const std::vector<std::uint32_t>& in, unsigned groupSize, unsigned width,
                                     const std::function<std::int64_t(std::int64_t)>& wrap) {
    const unsigned count = unsigned(in.size());
    std::vector<std::int32_t> out(std::size_t(count) * 6, std::int32_t(kCanary));
    for (unsigned begin = 0; begin < count; begin += groupSize) {
        const unsigned end = std::min(begin + groupSize, count);
        for (unsigned gid = begin; gid < end; ++gid) {
            if (returnsEarly(in[gid])) continue;
            const unsigned linear = gid - begin, lane = linear % width;
            Group s = groupOf(in, begin, end, linear - lane, width);
            for (std::uint32_t& v : s.values) v %= 16;
            auto fold = [&](auto op, unsigned stop, std::int64_t start) {
                std::int64_t acc = start;
                for (unsigned i = 0; i < stop; ++i)
                    if (s.present[i]) acc = op(acc, std::int64_t(s.values[i]));
                return acc;
            };
            std::int32_t* o = out.data() + std::size_t(gid) * 6;
            o[0] = std::int32_t(wrap(fold([](std::int64_t a, std::int64_t b) { return a + b; }, width, 0)));
            o[1] = std::int32_t(fold([](std::int64_t a, std::int64_t b) { return std::min(a, b); }, width, 99));
            o[2] = std::int32_t(fold([](std::int64_t a, std::int64_t b) { return std::max(a, b); }, width, 0));
            o[3] = std::int32_t(lane + 1 >= width ? s.values[lane] : s.at(lane + 1));
            o[4] = std::int32_t(wrap(fold([](std::int64_t a, std::int64_t b) { return a + b; }, lane, 0)));
            o[5] = std::int32_t(s.at(s.firstActive()));
        }
    }
    return out;
}

class SimdgroupKernels : public SimdShapedTest {
protected:
    static void SetUpTestSuite() {
        library_ = compile(kKernels);
        splitLibrary_ = compile(everyFunctionKernels());
    }
    static void TearDownTestSuite() {
        for (MTL::Library** library : {&library_, &splitLibrary_}) {
            if (*library) (*library)->release();
            *library = nullptr;
        }
    }

    /// Two and a half groups: the last one is cut by the grid.
    unsigned threads() const { return size() * 2 + (size() + 1) / 2; }

    MTL::ComputePipelineState* kernel(const char* name) {
        MTL::Library* library = std::string(name).starts_with("every_function") ? splitLibrary_ : library_;
        return pipeline(library, name, validated());
    }

    /// Runs `name` over threads() threads in groups of size() with `in` at 0 and `out` at 1
    /// (or only `out`, at 0).
    void run(const char* name, GuardedBuffer* in, GuardedBuffer& out) {
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        EXPECT_EQ(state->threadExecutionWidth(), width());
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        if (in) in->bind(encoder, 0);
        out.bind(encoder, in ? 1 : 0);
        encoder->dispatchThreads(MTL::Size(threads(), 1, 1), MTL::Size(size(), 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(MetalTest::run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
        state->release();
    }

    /// Input values in a buffer.
    std::vector<std::uint32_t> fill(GuardedBuffer& buffer) {
        std::vector<std::uint32_t> values = inputs(threads());
        std::copy(values.begin(), values.end(), buffer.data<std::uint32_t>());
        return values;
    }

    static MTL::Library* library_;
    static MTL::Library* splitLibrary_;
};
MTL::Library* SimdgroupKernels::library_ = nullptr;
MTL::Library* SimdgroupKernels::splitLibrary_ = nullptr;

// Test every simd_* and quad_* function on uint against the model, with threads returning
// before the collectives and partial SIMD-groups: on fibers, and split into work-item loops.
TEST_P(SimdgroupKernels, EveryFunction) {
    for (const char* name : {"every_function", "every_function_split"}) {
        SCOPED_TRACE(name);
        GuardedBuffer in(device_, threads() * 4), out(device_, std::size_t(threads()) * kSlots * 4);
        const std::vector<std::uint32_t> values = fill(in);
        run(name, &in, out);
        const std::vector<std::uint32_t> expected = everyFunction(values, size(), width());
        unsigned failures = 0;
        for (unsigned gid = 0; gid < threads() && failures < 20; ++gid)
            for (unsigned slot = 0; slot < kSlots; ++slot) {
                const std::uint32_t got = out.data<std::uint32_t>()[gid * kSlots + slot];
                if (got == expected[gid * kSlots + slot]) continue;
                ADD_FAILURE() << "thread " << gid << " " << kFunctions[slot].call << ": " << got << ", expected "
                              << expected[gid * kSlots + slot];
                ++failures;
            }
        out.expectCanariesIntact();
    }
}

// Test which lowering the SIMD-group kernels get, in both flavours: functions whose values are
// used where they are called keep the fibers (every_function) unless the front end hoists them
// into statements of their own (vectors: `o[6] = int(simd_prefix_inclusive_sum(x).z);`, typed
// from `x`'s declaration, passes/collective_hoisting.h); each function as a statement's whole
// value is split into work-item loops (every_function_split), also under an `if` whose
// condition differs per thread (two_stage_sum, every_third_lane, branch_collectives), and
// under an `if` on the SIMD-group index that also holds SIMD-group barriers and no threadgroup
// barrier (first_simdgroup_only: such an if is a divergent if, each thread taking its own
// branch; docs/compiler.md).
TEST_P(SimdgroupKernels, Lowerings) {
    expectLowerings({{"every_function", MC_KERNEL_USES_BARRIERS},
                     {"vectors", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"first_simdgroup_only", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"every_function_split", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"two_stage_sum", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"every_third_lane", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"branch_collectives", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"divergent_constant", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"divergent_loop_header", MC_KERNEL_USES_BARRIERS},
                     {"shuffle_uint2", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"whole_simdgroup_returns", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

// Test MLX's two-stage reduction under `if (sg == 0)`: group g's output is the sum of the
// first min(width, threads in the group) SIMD-group sums (the lanes of SIMD-group 0 read one
// partial each).
TEST_P(SimdgroupKernels, TwoStageSum) {
    const unsigned groups = (threads() + size() - 1) / size();
    GuardedBuffer in(device_, threads() * 4), out(device_, groups * 4);
    const std::vector<std::uint32_t> values = fill(in);
    run("two_stage_sum", &in, out);
    for (unsigned g = 0; g < groups; ++g) {
        const unsigned begin = g * size(), count = std::min(size(), threads() - begin);
        std::uint32_t expected = 0;
        for (unsigned linear = 0; linear < count && linear / width() < std::min(width(), count); ++linear)
            expected += values[begin + linear];
        EXPECT_EQ(out.data<std::uint32_t>()[g], expected) << "group " << g;
    }
    out.expectCanariesIntact();
}

// Test collectives called by every third lane only: the sum and the prefix cover those lanes
// (that have not returned) alone, and the active mask has their bits; the other lanes keep
// their own values.
TEST_P(SimdgroupKernels, PartialActiveSet) {
    GuardedBuffer in(device_, threads() * 4), out(device_, std::size_t(threads()) * 4 * 4);
    const std::vector<std::uint32_t> values = fill(in);
    run("every_third_lane", &in, out);
    const unsigned count = threads(), w = width();
    std::vector<std::uint32_t> expected(std::size_t(count) * 4, kCanary);
    for (unsigned begin = 0; begin < count; begin += size()) {
        const unsigned end = std::min(begin + size(), count);
        for (unsigned gid = begin; gid < end; ++gid) {
            if (returnsEarly(values[gid])) continue;
            const unsigned linear = gid - begin, lane = linear % w;
            Group s = groupOf(values, begin, end, linear - lane, w);
            for (unsigned l = 0; l < w; ++l) s.present[l] = s.present[l] && l % 3 == 0;
            std::uint32_t* o = expected.data() + std::size_t(gid) * 4;
            if (lane % 3 != 0) {
                o[0] = values[gid], o[1] = o[2] = o[3] = 0;
                continue;
            }
            const std::uint64_t active = s.vote([](std::uint32_t) { return true; });
            o[0] = s.fold([](std::uint32_t a, std::uint32_t b) { return a + b; }, w, 0);
            o[1] = s.fold([](std::uint32_t a, std::uint32_t b) { return a + b; }, lane, 0);
            o[2] = std::uint32_t(active);
            o[3] = std::uint32_t(active >> 32);
        }
    }
    for (unsigned i = 0; i < count * 4; ++i)
        ASSERT_EQ(out.data<std::uint32_t>()[i], expected[i]) << "thread " << i / 4 << " slot " << i % 4;
    out.expectCanariesIntact();
}

// Test an if/else whose branches run different collectives: the even values' lanes sum among
// themselves, the odd ones take the maximum of their doubled values among themselves.
TEST_P(SimdgroupKernels, BranchCollectives) {
    GuardedBuffer in(device_, threads() * 4), out(device_, threads() * 4);
    const std::vector<std::uint32_t> values = fill(in);
    run("branch_collectives", &in, out);
    const unsigned count = threads(), w = width();
    for (unsigned begin = 0; begin < count; begin += size()) {
        const unsigned end = std::min(begin + size(), count);
        for (unsigned gid = begin; gid < end; ++gid) {
            const std::uint32_t got = out.data<std::uint32_t>()[gid];
            if (returnsEarly(values[gid])) {
                EXPECT_EQ(got, kCanary) << "thread " << gid;
                continue;
            }
            const unsigned linear = gid - begin, lane = linear % w;
            const bool even = values[gid] % 2 == 0;
            std::uint32_t expected = 0;
            for (unsigned l = 0; l < w && begin + linear - lane + l < end; ++l) {
                const std::uint32_t v = values[begin + linear - lane + l];
                if (returnsEarly(v) || (v % 2 == 0) != even) continue;
                expected = even ? expected + v : std::max(expected, v * 2);
            }
            EXPECT_EQ(got, even ? expected : expected + lane) << "thread " << gid;
        }
    }
    out.expectCanariesIntact();
}

// Test the element types MSL allows, each through the same template kernel.
TEST_P(SimdgroupKernels, ElementTypes) {
    auto wrapTo = [](int bits, bool isSigned) {
        return std::function<std::int64_t(std::int64_t)>([=](std::int64_t v) {
            const std::uint64_t mask = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
            std::uint64_t u = std::uint64_t(v) & mask;
            if (isSigned && bits < 64 && (u >> (bits - 1)) != 0) return std::int64_t(u | ~mask);
            return std::int64_t(u);
        });
    };
    const std::function<std::int64_t(std::int64_t)> exact = [](std::int64_t v) { return v; };
    const std::vector<std::pair<const char*, std::function<std::int64_t(std::int64_t)>>> types = {
        {"typed_char", wrapTo(8, true)},    {"typed_uchar", wrapTo(8, false)}, {"typed_short", wrapTo(16, true)},
        {"typed_ushort", wrapTo(16, false)}, {"typed_int", exact},             {"typed_long", exact},
        {"typed_ulong", exact},             {"typed_half", exact},             {"typed_float", exact}};
    for (const auto& [name, wrap] : types) {
        SCOPED_TRACE(name);
        GuardedBuffer in(device_, threads() * 4), out(device_, std::size_t(threads()) * 6 * 4);
        const std::vector<std::uint32_t> values = fill(in);
        run(name, &in, out);
        const std::vector<std::int32_t> expected = typedModel(values, size(), width(), wrap);
        for (unsigned i = 0; i < threads() * 6; ++i)
            ASSERT_EQ(out.data<std::int32_t>()[i], expected[i]) << "thread " << i / 6 << " slot " << i % 6;
        out.expectCanariesIntact();
    }
}

// Test vectors (each component reduced on its own) and a swizzle argument.
TEST_P(SimdgroupKernels, Vectors) {
    GuardedBuffer in(device_, threads() * 4), out(device_, std::size_t(threads()) * 8 * 4);
    const std::vector<std::uint32_t> values = fill(in);
    run("vectors", &in, out);
    const unsigned count = threads(), w = width();
    for (unsigned begin = 0; begin < count; begin += size()) {
        const unsigned end = std::min(begin + size(), count);
        for (unsigned gid = begin; gid < end; ++gid) {
            const std::int32_t* o = out.data<std::int32_t>() + gid * 8;
            if (returnsEarly(values[gid])) {
                EXPECT_EQ(std::uint32_t(o[0]), kCanary) << "thread " << gid << " returned";
                continue;
            }
            const unsigned linear = gid - begin, lane = linear % w;
            Group s = groupOf(values, begin, end, linear - lane, w);
            for (std::uint32_t& v : s.values) v %= 16;
            std::int32_t sx = 0, sw = 0, my = 0, mw = 0, pz = 0;
            for (unsigned i = 0; i < w; ++i) {
                if (!s.present[i]) continue;
                const std::int32_t v = std::int32_t(s.values[i]);
                sx += v;
                sw += 100 - v;
                my = std::max(my, v + 1);
                mw = std::max(mw, 100 - v);
                if (i <= lane) pz += 2 * v;
            }
            const std::int32_t mine = std::int32_t(s.values[lane]);
            const std::int32_t down = lane + 2 >= w ? mine : std::int32_t(s.at(lane + 2));
            const std::int32_t expected[8] = {sx, sw, my, mw, down, -down, pz, -std::int32_t(s.at(1))};
            for (int k = 0; k < 8; ++k) EXPECT_EQ(o[k], expected[k]) << "thread " << gid << " slot " << k;
        }
    }
    out.expectCanariesIntact();
}

// Test that collectives and a SIMD-group barrier in SIMD-group 0 alone synchronise only it.
TEST_P(SimdgroupKernels, OneSimdgroupAlone) {
    GuardedBuffer out(device_, threads() * 4);
    run("first_simdgroup_only", nullptr, out);
    const unsigned count = threads(), w = width();
    for (unsigned begin = 0; begin < count; begin += size()) {
        const unsigned end = std::min(begin + size(), count), lanes = std::min(w, end - begin);
        std::uint32_t x = 0;
        for (unsigned lane = 0; lane < lanes; ++lane) x += lane + 1;
        x *= lanes * lanes; // two more rounds of summing equal values
        for (unsigned gid = begin; gid < end; ++gid)
            EXPECT_EQ(out.data<std::uint32_t>()[gid], x + (gid - begin)) << "thread " << gid;
    }
    out.expectCanariesIntact();
}

// Test reductions in work-item loops when a whole SIMD-group (the second) has returned: each
// other SIMD-group's sum and maximum cover its own active lanes, also in the groups after the
// one with none; the returned threads write nothing.
TEST_P(SimdgroupKernels, WholeSimdgroupReturned) {
    GuardedBuffer in(device_, threads() * 4), out(device_, threads() * 4);
    const std::vector<std::uint32_t> values = fill(in);
    run("whole_simdgroup_returns", &in, out);
    const unsigned count = threads(), w = width();
    for (unsigned begin = 0; begin < count; begin += size()) {
        const unsigned end = std::min(begin + size(), count);
        for (unsigned gid = begin; gid < end; ++gid) {
            const unsigned linear = gid - begin, lane = linear % w;
            const std::uint32_t got = out.data<std::uint32_t>()[gid];
            if (linear / w == 1 || returnsEarly(values[gid])) {
                EXPECT_EQ(got, kCanary) << "thread " << gid;
                continue;
            }
            std::uint32_t sum = 0, largest = 0;
            for (unsigned l = linear - lane; l < linear - lane + w && begin + l < end; ++l) {
                const std::uint32_t v = values[begin + l];
                if (returnsEarly(v)) continue;
                sum += v;
                largest = std::max(largest, v);
            }
            EXPECT_EQ(got, sum + largest) << "thread " << gid;
        }
    }
    out.expectCanariesIntact();
}

// Test that a constant, or a loop header, that indexes in a branch no thread of a group takes
// is not evaluated there (group 0 of each dispatch takes the branch nowhere; an evaluation
// would read far outside kScales: a fault in the plain flavour, a report in the validated
// one), and is right where threads take it: the first taking[g] = 3g mod 5 threads of group g.
TEST_P(SimdgroupKernels, DivergentBranchesEvaluateOnlyWhereTaken) {
    const std::uint32_t scales[4] = {3, 5, 7, 11};
    for (const char* name : {"divergent_constant", "divergent_loop_header"}) {
        SCOPED_TRACE(name);
        const bool loop = std::string(name) == "divergent_loop_header";
        GuardedBuffer in(device_, threads() * 4), out(device_, threads() * 4);
        const std::vector<std::uint32_t> values = fill(in);
        run(name, &in, out);
        const unsigned count = threads(), w = width();
        for (unsigned begin = 0; begin < count; begin += size()) {
            const unsigned end = std::min(begin + size(), count), taking = begin / size() * 3 % 5;
            for (unsigned gid = begin; gid < end; ++gid) {
                const unsigned linear = gid - begin, lane = linear % w;
                std::uint32_t expected = values[gid];
                if (linear < taking) {
                    // The lanes of this SIMD-group that take the branch and exist.
                    std::uint32_t sum = 0;
                    for (unsigned l = linear - lane; l < taking && begin + l < end && l < linear - lane + w; ++l)
                        sum += values[begin + l];
                    const unsigned others = std::min({taking, end - begin, linear - lane + w}) - (linear - lane);
                    if (loop) {
                        // Each round sums the lanes' equal values again.
                        expected = sum;
                        for (unsigned round = 1; round < scales[taking - 1] % 4; ++round) expected *= others;
                    } else {
                        expected = sum * scales[taking - 1] + 64 / taking;
                    }
                }
                EXPECT_EQ(out.data<std::uint32_t>()[gid], expected) << "thread " << gid;
            }
        }
        out.expectCanariesIntact();
    }
}

// Test simd_shuffle, simd_shuffle_xor and simd_broadcast on uint2, the halves of a 64-bit value
// (as MLX moves 64-bit values between lanes), with threads returning first and cut groups.
TEST_P(SimdgroupKernels, ShufflesOfUint2) {
    GuardedBuffer in(device_, threads() * 4), out(device_, std::size_t(threads()) * 3 * 8);
    const std::vector<std::uint32_t> values = fill(in);
    run("shuffle_uint2", &in, out);
    auto wide = [](std::uint32_t raw) { return std::uint64_t(raw) << 32 | std::uint32_t(raw * 7u); };
    const unsigned count = threads(), w = width();
    for (unsigned begin = 0; begin < count; begin += size()) {
        const unsigned end = std::min(begin + size(), count);
        for (unsigned gid = begin; gid < end; ++gid) {
            const std::uint64_t* o = out.data<std::uint64_t>() + std::size_t(gid) * 3;
            if (returnsEarly(values[gid])) {
                EXPECT_EQ(o[0], std::uint64_t(kCanary) << 32 | kCanary) << "thread " << gid << " returned";
                continue;
            }
            const unsigned linear = gid - begin, lane = linear % w;
            const Group s = groupOf(values, begin, end, linear - lane, w);
            auto from = [&](unsigned source) { return source < w && s.at(source) ? wide(s.at(source)) : 0u; };
            const std::uint64_t expected[3] = {from((lane * 5 + 1) & (w - 1)), from(lane ^ 3), from(1)};
            for (int k = 0; k < 3; ++k) EXPECT_EQ(o[k], expected[k]) << "thread " << gid << " slot " << k;
        }
    }
    out.expectCanariesIntact();
}

// Test the SIMD- and quad-group builtins, in a cut group too: there the dispatch_ forms still
// count the threadgroup size as dispatched.
TEST_P(SimdgroupKernels, Builtins) {
    GuardedBuffer out(device_, threads() * 10 * 4);
    run("builtins", nullptr, out);
    const unsigned count = threads(), w = width();
    for (unsigned begin = 0; begin < count; begin += size()) {
        const unsigned end = std::min(begin + size(), count), here = end - begin;
        for (unsigned gid = begin; gid < end; ++gid) {
            const unsigned l = gid - begin;
            const std::uint32_t expected[10] = {l % w, l / w, w, (here + w - 1) / w, (size() + w - 1) / w, w,
                                                l / 4, (here + 3) / 4, l % 4, (size() + 3) / 4};
            for (int k = 0; k < 10; ++k)
                EXPECT_EQ(out.data<std::uint32_t>()[gid * 10 + k], expected[k]) << "thread " << gid << " builtin " << k;
        }
    }
    out.expectCanariesIntact();
}

INSTANTIATE_TEST_SUITE_P(Width32, SimdgroupKernels,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u, 64u, 100u, 256u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(OtherWidths, SimdgroupKernels,
                         ::testing::Combine(::testing::Values(7u, 33u, 100u), ::testing::Values(4u, 8u, 64u),
                                            ::testing::Values(false)),
                         simdShapeName);

// Test that threadExecutionWidth() follows METALCPU_SIMD_WIDTH when it is a power of two from
// 4 to 64, and is 32 otherwise.
TEST_F(MetalTest, ThreadExecutionWidthFollowsTheSimdWidth) {
    MTL::ComputePipelineState* state =
        pipeline("kernel void k(device uint* o [[buffer(0)]]) { o[0] = 1; }", "k");
    ASSERT_NE(state, nullptr);
    for (const auto& [value, expected] : std::vector<std::pair<const char*, unsigned>>{
             {"4", 4}, {"8", 8}, {"16", 16}, {"64", 64}, {"2", 32}, {"48", 32}, {"128", 32}, {"0", 32}}) {
        ScopedEnvironmentVariable width("METALCPU_SIMD_WIDTH", value);
        EXPECT_EQ(state->threadExecutionWidth(), expected) << "METALCPU_SIMD_WIDTH=" << value;
    }
    state->release();
}

} // namespace
} // namespace metalcpu::testing
