#include "exec/tensor_ops.h"

#include <metalcpu/cooperative_layout.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "exec/tensor_ops_kernels.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace metalcpu::exec {
namespace {

// MTL::TensorDataType values (Metal/MTLTensor.hpp; the tests check they agree).
enum DataType : mc_u32 {
    kFloat32 = 3,
    kFloat16 = 16,
    kBFloat16 = 121,
    kInt8 = 45,
    kUInt8 = 49,
    kInt32 = 29,
};

bool isSupported(mc_u32 type) {
    return type == kFloat32 || type == kFloat16 || type == kBFloat16 || type == kInt8 || type == kUInt8 ||
           type == kInt32;
}
bool isSmallInteger(mc_u32 type) { return type == kInt8 || type == kUInt8; }

std::size_t sizeOf(mc_u32 type) {
    switch (type) {
    case kFloat32:
    case kInt32: return 4;
    case kFloat16:
    case kBFloat16: return 2;
    default: return 1;
    }
}

float bfloatToFloat(std::uint16_t bits) {
    const std::uint32_t wide = std::uint32_t(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

std::uint16_t floatToBfloat(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u); // quiet NaN
    bits += 0x7fffu + ((bits >> 16) & 1u); // round to nearest even
    return static_cast<std::uint16_t>(bits >> 16);
}

/// Element `index` of an array of `type`, as double (exact for every supported type).
double loadElement(mc_u32 type, const void* base, std::int64_t index) {
    const char* p = static_cast<const char*>(base) + index * static_cast<std::int64_t>(sizeOf(type));
    switch (type) {
    case kFloat32: { float v; std::memcpy(&v, p, 4); return v; }
    case kFloat16: { std::uint16_t v; std::memcpy(&v, p, 2); return halfBitsToFloat(v); }
    case kBFloat16: { std::uint16_t v; std::memcpy(&v, p, 2); return bfloatToFloat(v); }
    case kInt8: return static_cast<std::int8_t>(*p);
    case kUInt8: return static_cast<std::uint8_t>(*p);
    case kInt32: { std::int32_t v; std::memcpy(&v, p, 4); return v; }
    default: return 0;
    }
}

/// Writes `value` (rounded once to `type`; integers wrap) as element `index`.
void storeElement(mc_u32 type, void* base, std::int64_t index, double value) {
    char* p = static_cast<char*>(base) + index * static_cast<std::int64_t>(sizeOf(type));
    switch (type) {
    case kFloat32: { const float v = static_cast<float>(value); std::memcpy(p, &v, 4); return; }
    case kFloat16: { const std::uint16_t v = floatToHalfBits(static_cast<float>(value)); std::memcpy(p, &v, 2); return; }
    case kBFloat16: { const std::uint16_t v = floatToBfloat(static_cast<float>(value)); std::memcpy(p, &v, 2); return; }
    case kInt8:
    case kUInt8:
    case kInt32: {
        const std::int64_t wide = std::isfinite(value) ? static_cast<std::int64_t>(value) : 0;
        const std::uint32_t bits = static_cast<std::uint32_t>(static_cast<std::uint64_t>(wide));
        if (type == kInt32) std::memcpy(p, &bits, 4);
        else *p = static_cast<char>(bits & 0xffu);
        return;
    }
    default: return;
    }
}

// ---- Cooperative operands: where each thread's slots go in the tile ---------------------

/// For every (thread, slot) of a layout, the tile element it holds (y * e0 + x) or -1. Layouts
/// repeat from run to run, so each worker keeps the last few maps.
class SlotMaps {
public:
    const std::vector<std::int32_t>& of(const mc_cooperative_layout& layout) {
        for (Entry& entry : entries_)
            if (entry.valid && std::memcmp(&entry.layout, &layout, sizeof layout) == 0) return entry.map;
        Entry& entry = entries_[next_];
        next_ = (next_ + 1) % kEntries;
        entry.valid = true;
        entry.layout = layout;
        entry.map.assign(std::size_t(layout.threads) * layout.capacity, -1);
        if (metalcpu_cooperative::is_reduction(layout.role)) fillReduction(layout, entry.map);
        else fillTile(layout, entry.map);
        return entry.map;
    }

private:
    static void fillTile(const mc_cooperative_layout& layout, std::vector<std::int32_t>& map) {
        for (mc_u32 t = 0; t < layout.threads; ++t)
            for (mc_u32 i = 0; i < layout.capacity; ++i) {
                mc_u32 x = 0, y = 0;
                if (metalcpu_cooperative::tile_coordinate(layout, t, i, &x, &y))
                    map[std::size_t(t) * layout.capacity + i] = static_cast<std::int32_t>(y * layout.e0 + x);
            }
    }
    /// A reduction slot holds a line (row: y, column: x) of the destination tile: the distinct
    /// lines of the thread's destination slots in slot order (cooperative_layout.h), found in
    /// one pass here rather than slot by slot.
    static void fillReduction(const mc_cooperative_layout& layout, std::vector<std::int32_t>& map) {
        const bool rows = layout.role == MC_COOPERATIVE_ROW_REDUCTION;
        mc_cooperative_layout destination = layout;
        destination.role = MC_COOPERATIVE_DESTINATION;
        std::vector<mc_u32> seenBy(rows ? layout.e1 : layout.e0, ~0u);
        for (mc_u32 t = 0; t < layout.threads; ++t) {
            mc_u32 next = 0;
            for (mc_u32 s = 0; s < destination.capacity; ++s) {
                mc_u32 x = 0, y = 0;
                if (!metalcpu_cooperative::tile_coordinate(destination, t, s, &x, &y)) continue;
                const mc_u32 line = rows ? y : x;
                if (seenBy[line] == t) continue;
                seenBy[line] = t;
                map[std::size_t(t) * layout.capacity + next++] = static_cast<std::int32_t>(line);
            }
        }
    }
    static constexpr int kEntries = 8;
    struct Entry {
        bool valid = false;
        mc_cooperative_layout layout{};
        std::vector<std::int32_t> map;
    };
    Entry entries_[kEntries];
    int next_ = 0;
};

/// Per-worker scratch: products run on fibers, whose stacks are small.
struct Scratch {
    SlotMaps maps;
    std::vector<float> tiles[3]; // gathered cooperative operands / the float destination
    std::vector<std::int32_t> integerTiles[2];
    std::vector<std::uint32_t> integerDestination;
    std::vector<float> packedA, packedB, packedLines;
    std::vector<std::int32_t> packedIntegerA, packedIntegerB, packedIntegerLines;
    std::vector<std::uint32_t> roundedBytes; // the destination tile rounded to its type
    std::vector<double> lines;
    std::vector<unsigned char> present;
};
thread_local Scratch t_scratch;

const void* slotsOf(const mc_scope_record& record, int role) { return record.storage[role]; }

/// A cooperative operand's elements as a dense (e0 x e1) tile (row stride e0); elements no
/// present thread holds are 0.
template <class T>
T* gatherCooperative(const mc_tensor_operand& operand, const mc_scope_record* records, mc_u32 count, int role,
                     std::vector<T>& tile) {
    const mc_cooperative_layout& layout = operand.layout;
    tile.assign(std::size_t(layout.e0) * layout.e1, T(0));
    const std::vector<std::int32_t>& map = t_scratch.maps.of(layout);
    for (mc_u32 r = 0; r < count; ++r) {
        const void* slots = slotsOf(records[r], role);
        if (!slots || records[r].thread >= layout.threads) continue;
        const std::int32_t* where = map.data() + std::size_t(records[r].thread) * layout.capacity;
        for (mc_u32 i = 0; i < layout.capacity; ++i)
            if (where[i] >= 0) tile[where[i]] = static_cast<T>(loadElement(operand.data_type, slots, i));
    }
    return tile.data();
}

/// A 2-D operand as the GEMM reads it: element (row, column) of the logical matrix is the
/// operand's element (dim0, dim1) = (column, row), or (row, column) when transposed.
struct View {
    mc_u32 type;
    const void* data;          // element (0, 0)
    std::int64_t rowStride;    // in elements
    std::int64_t columnStride;
    std::int64_t rows, columns; // extents: outside them elements read as 0
};

View viewOf(const mc_tensor_operand& operand, bool transposed, const float* gathered) {
    View view{};
    std::int64_t e0 = operand.extents[0], e1 = operand.extents[1], s0 = operand.strides[0], s1 = operand.strides[1];
    view.type = operand.data_type;
    view.data = operand.data;
    if (gathered) {
        view.type = kFloat32;
        view.data = gathered;
        e0 = operand.layout.e0;
        e1 = operand.layout.e1;
        s0 = 1;
        s1 = e0;
    }
    if (!transposed) {
        view.rows = e1, view.columns = e0, view.rowStride = s1, view.columnStride = s0;
    } else {
        view.rows = e0, view.columns = e1, view.rowStride = s0, view.columnStride = s1;
    }
    return view;
}

template <class Fn> void forEachType(mc_u32 type, Fn&& fn) {
    switch (type) {
    case kFloat32: fn(float{}); break;
    case kFloat16: fn(_Float16{}); break;
    case kBFloat16: fn(std::uint16_t{}); break;
    case kInt8: fn(std::int8_t{}); break;
    case kUInt8: fn(std::uint8_t{}); break;
    case kInt32: fn(std::int32_t{}); break;
    default: break;
    }
}

template <class T> float toFloat(T value) {
    if constexpr (std::is_same_v<T, std::uint16_t>) return bfloatToFloat(value);
    else if constexpr (std::is_same_v<T, _Float16>) {
        std::uint16_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        return halfBitsToFloat(bits);
    } else
        return static_cast<float>(value);
}

/// How a product converts runs of halves: F16C, or inline integer code (halfBitsToFloat,
/// floatToHalfBits).
using HalfWidener = void (*)(const std::uint16_t* in, float* out, std::int64_t count);
using HalfNarrower = void (*)(const float* in, std::uint16_t* out, std::int64_t count);

void widenHalvesInline(const std::uint16_t* in, float* out, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i) out[i] = halfBitsToFloat(in[i]);
}
void narrowFloatsInline(const float* in, std::uint16_t* out, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i) out[i] = floatToHalfBits(in[i]);
}

/// An element as a panel element: float, or int32 for exact integer products.
template <class Out, class T> Out convert(T value) {
    if constexpr (std::is_same_v<Out, float>) return toFloat(value);
    else return static_cast<Out>(value);
}

/// `count` contiguous elements of T as Out.
template <class T, class Out>
void widenRun(const T* in, Out* out, std::int64_t count, HalfWidener halves) {
    if constexpr (std::is_same_v<T, Out>)
        std::memcpy(out, in, std::size_t(count) * sizeof(T));
    else if constexpr (std::is_same_v<T, _Float16> && std::is_same_v<Out, float>)
        halves(reinterpret_cast<const std::uint16_t*>(in), out, count);
    else
        for (std::int64_t i = 0; i < count; ++i) out[i] = convert<Out>(in[i]);
}

/// out[p * width + w] = lines[w * steps + p] for the `count` lines of a strip (count <= width):
/// widened lines become steps. Four lines by four steps at a time are a 4x4 transpose in SSE
/// registers (the baseline ISA), for floats and int32 alike (bits are only moved).
template <class Out>
void interleave(const Out* lines, int count, std::int64_t steps, int width, Out* out) {
    std::int64_t p = 0;
#if defined(__SSE2__)
    static_assert(sizeof(Out) == sizeof(float));
    for (; p + 4 <= steps; p += 4) {
        int w = 0;
        for (; w + 4 <= count; w += 4) {
            const Out* from = lines + w * steps + p;
            __m128 r0 = _mm_loadu_ps(reinterpret_cast<const float*>(from));
            __m128 r1 = _mm_loadu_ps(reinterpret_cast<const float*>(from + steps));
            __m128 r2 = _mm_loadu_ps(reinterpret_cast<const float*>(from + 2 * steps));
            __m128 r3 = _mm_loadu_ps(reinterpret_cast<const float*>(from + 3 * steps));
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            Out* to = out + p * width + w;
            _mm_storeu_ps(reinterpret_cast<float*>(to), r0);
            _mm_storeu_ps(reinterpret_cast<float*>(to + width), r1);
            _mm_storeu_ps(reinterpret_cast<float*>(to + 2 * width), r2);
            _mm_storeu_ps(reinterpret_cast<float*>(to + 3 * width), r3);
        }
        for (; w < count; ++w)
            for (int j = 0; j < 4; ++j) out[(p + j) * width + w] = lines[w * steps + p + j];
    }
#endif
    for (; p < steps; ++p)
        for (int w = 0; w < count; ++w) out[p * width + w] = lines[w * steps + p];
}

/// What packing needs besides the operand: how to widen halves, and room for the lines of a
/// strip widened before they are interleaved.
template <class Out>
struct Packing {
    HalfWidener halves;
    std::vector<Out>& lines;
};

/// Packs rows [row0, row0 + rows) x depth [p0, p0 + depth) of `view` (rows are the panel's
/// strips: A's rows, or B's columns when `byColumns`) into strips of `width` elements per
/// step, zero-padded. Runs that are contiguous in memory are widened as runs (F16C for
/// halves): the `width` elements of a step when the strip's lines are adjacent (B's rows),
/// else each line's steps when those are (A's rows), interleaved afterwards.
template <class T, class Out>
void packStrips(const View& view, bool byColumns, std::int64_t row0, std::int64_t rows, std::int64_t p0,
                std::int64_t depth, int width, Out* out, const Packing<Out>& how) {
    const T* data = static_cast<const T*>(view.data);
    const std::int64_t stripStride = byColumns ? view.columnStride : view.rowStride;
    const std::int64_t stepStride = byColumns ? view.rowStride : view.columnStride;
    const std::int64_t stripLimit = byColumns ? view.columns : view.rows;
    const std::int64_t stepLimit = byColumns ? view.rows : view.columns;
    const std::int64_t steps = std::max<std::int64_t>(0, std::min(depth, stepLimit - p0));
    // The strip's lines inside both the panel and the operand; the others are zeros.
    auto linesOf = [&](std::int64_t strip) {
        return int(std::clamp<std::int64_t>(std::min(rows - strip, stripLimit - (row0 + strip)), 0, width));
    };
    if (stripStride == 1 && steps > 0 && linesOf(0) == width) {
        // Each step's elements are adjacent across all the strips (B's rows): one run per step
        // feeds every strip, so each of its cache lines is read once.
        const std::int64_t present = std::clamp<std::int64_t>(std::min(rows, stripLimit - row0), 0, rows);
        const std::int64_t strips = (rows + width - 1) / width;
        std::vector<Out>& run = how.lines;
        run.resize(std::size_t(strips * width));
        std::fill(run.begin() + present, run.end(), Out(0));
        const T* base = data + row0 + p0 * stepStride;
        // Steps are a row apart (often a page): too far for the hardware prefetcher to follow,
        // so each run asks for the one kPrefetchAhead steps on (prefetches never fault).
        constexpr std::int64_t kPrefetchAhead = 8;
        const std::int64_t runBytes = present * std::int64_t(sizeof(T));
        for (std::int64_t p = 0; p < steps; ++p) {
            const char* ahead = reinterpret_cast<const char*>(base + (p + kPrefetchAhead) * stepStride);
            for (std::int64_t byte = 0; byte < runBytes; byte += 64) __builtin_prefetch(ahead + byte);
            widenRun(base + p * stepStride, run.data(), present, how.halves);
            for (std::int64_t strip = 0; strip < strips; ++strip)
                std::memcpy(out + strip * depth * width + p * width, run.data() + strip * width,
                            std::size_t(width) * sizeof(Out));
        }
        for (std::int64_t strip = 0; strip < strips; ++strip)
            std::fill(out + strip * depth * width + steps * width, out + (strip + 1) * depth * width, Out(0));
        return;
    }
    for (std::int64_t strip = 0; strip < rows; strip += width, out += depth * width) {
        const std::int64_t first = row0 + strip;
        const int lines = linesOf(strip);
        if (lines == 0 || steps == 0) {
            std::fill(out, out + depth * width, Out(0));
            continue;
        }
        const T* base = data + first * stripStride + p0 * stepStride;
        if (stripStride == 1) {
            for (std::int64_t p = 0; p < steps; ++p) {
                widenRun(base + p * stepStride, out + p * width, lines, how.halves);
                std::fill(out + p * width + lines, out + (p + 1) * width, Out(0));
            }
        } else if (stepStride == 1) {
            how.lines.resize(std::size_t(lines * steps));
            Out* widened = how.lines.data();
            for (int w = 0; w < lines; ++w) widenRun(base + w * stripStride, widened + w * steps, steps, how.halves);
            interleave(widened, lines, steps, width, out);
            if (lines < width)
                for (std::int64_t p = 0; p < steps; ++p) std::fill(out + p * width + lines, out + (p + 1) * width, Out(0));
        } else {
            for (std::int64_t p = 0; p < steps; ++p)
                for (int w = 0; w < width; ++w)
                    out[p * width + w] = w < lines ? convert<Out>(base[p * stepStride + w * stripStride]) : Out(0);
        }
        std::fill(out + steps * width, out + depth * width, Out(0));
    }
}

template <class Out>
void pack(const View& view, bool byColumns, std::int64_t row0, std::int64_t rows, std::int64_t p0,
          std::int64_t depth, int width, Out* out, const Packing<Out>& how) {
    forEachType(view.type, [&](auto tag) {
        using T = decltype(tag);
        // Integer panels hold only integer operands (the exact path).
        if constexpr (std::is_same_v<Out, float> || std::is_integral_v<T>)
            packStrips<T, Out>(view, byColumns, row0, rows, p0, depth, width, out, how);
    });
}

// ---- Microkernel choice ---------------------------------------------------------------------

std::atomic<Microkernel> g_forced{Microkernel::Automatic};

Microkernel bestMicrokernel() {
#if defined(__x86_64__)
    static const Microkernel best = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f")) return Microkernel::Avx512;
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Microkernel::Avx2;
        return Microkernel::Generic;
    }();
    return best;
#else
    return Microkernel::Generic;
#endif
}

gemm::MicrokernelInfo microkernelInfo(Microkernel kernel) {
    switch (kernel) {
#if defined(__x86_64__)
    case Microkernel::Avx512: return gemm::avx512Microkernel();
    case Microkernel::Avx2: return gemm::avx2Microkernel();
#endif
    default: return gemm::genericMicrokernel();
    }
}

/// F16C converts halves for the AVX2 and AVX-512 microkernels on CPUs that have it; the
/// generic microkernel keeps to the baseline ISA (and so tests cover the inline conversions).
struct HalfConversions {
    HalfWidener widen = &widenHalvesInline;
    HalfNarrower narrow = &narrowFloatsInline;
};
HalfConversions halfConversions(Microkernel kernel) {
#if defined(__x86_64__)
    static const bool f16c = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2");
    }();
    if (kernel != Microkernel::Generic && f16c) return {&gemm::widenHalvesF16c, &gemm::narrowFloatsF16c};
#endif
    (void)kernel;
    return {};
}

/// C (m x n, row stride n) += A (m x k) B (k x n), blocked and packed: for each depth block,
/// B's panel once, then A's rows a block at a time, multiplied MR x NR at a time. Panel is
/// float (Acc float) or int32 (Acc uint32, exact and wrapping).
template <class Panel, class Acc, class Info>
void blockedProduct(const Info& kernel, HalfWidener halves, const View& a, const View& b, std::int64_t m,
                    std::int64_t n, std::int64_t k, Acc* c, std::vector<Panel>& packedA, std::vector<Panel>& packedB,
                    std::vector<Panel>& lines) {
    constexpr std::int64_t kDepthBlock = 256, kRowBlock = 120;
    const std::int64_t nPadded = (n + kernel.nr - 1) / kernel.nr * kernel.nr;
    const Packing<Panel> how{halves, lines};
    for (std::int64_t p0 = 0; p0 < k; p0 += kDepthBlock) {
        const std::int64_t depth = std::min(kDepthBlock, k - p0);
        packedB.resize(std::size_t(nPadded * depth));
        pack(b, true, 0, n, p0, depth, kernel.nr, packedB.data(), how);
        for (std::int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
            const std::int64_t rows = std::min(kRowBlock, m - i0);
            const std::int64_t rowsPadded = (rows + kernel.mr - 1) / kernel.mr * kernel.mr;
            packedA.resize(std::size_t(rowsPadded * depth));
            pack(a, false, i0, rows, p0, depth, kernel.mr, packedA.data(), how);
            for (std::int64_t j = 0; j < n; j += kernel.nr)
                for (std::int64_t i = 0; i < rows; i += kernel.mr)
                    kernel.run(static_cast<int>(depth), packedA.data() + i * depth, packedB.data() + j * depth,
                               c + (i0 + i) * n + j, static_cast<int>(n),
                               static_cast<int>(std::min<std::int64_t>(kernel.mr, rows - i)),
                               static_cast<int>(std::min<std::int64_t>(kernel.nr, n - j)));
        }
    }
}

void floatProduct(const View& a, const View& b, std::int64_t m, std::int64_t n, std::int64_t k, float* c) {
    const Microkernel active = activeMicrokernel();
    blockedProduct(microkernelInfo(active), halfConversions(active).widen, a, b, m, n, k, c, t_scratch.packedA, t_scratch.packedB,
                   t_scratch.packedLines);
}

/// int8/uint8 products: exact, wrapping int32 (the destination of an integer matmul), with the
/// AVX2 integer microkernel where the float one is AVX2 or AVX-512.
void integerProduct(const View& a, const View& b, std::int64_t m, std::int64_t n, std::int64_t k, std::uint32_t* c) {
    gemm::IntegerMicrokernelInfo kernel = gemm::genericIntegerMicrokernel();
#if defined(__x86_64__)
    if (activeMicrokernel() != Microkernel::Generic && microkernelSupported(Microkernel::Avx2))
        kernel = gemm::avx2IntegerMicrokernel();
#endif
    blockedProduct(kernel, &widenHalvesInline, a, b, m, n, k, c, t_scratch.packedIntegerA, t_scratch.packedIntegerB,
                   t_scratch.packedIntegerLines);
}

/// A cooperative small-integer operand, gathered exactly into an int32 tile as a view.
View integerView(const mc_tensor_operand& operand, bool transposed, const mc_scope_record* records, mc_u32 count,
                 int role, std::vector<std::int32_t>& tile) {
    if (operand.kind != MC_OPERAND_COOPERATIVE) return viewOf(operand, transposed, nullptr);
    const mc_cooperative_layout& layout = operand.layout;
    gatherCooperative(operand, records, count, role, tile);
    mc_tensor_operand dense = operand;
    dense.kind = MC_OPERAND_TENSOR;
    dense.data_type = kInt32;
    dense.data = tile.data();
    dense.extents[0] = layout.e0, dense.extents[1] = layout.e1;
    dense.strides[0] = 1, dense.strides[1] = layout.e0;
    return viewOf(dense, transposed, nullptr);
}

/// The K extent of an input: L is (k, m), or (m, k) transposed; R is (n, k), or (k, n).
std::int64_t depthOf(const mc_tensor_operand& operand, bool isLeft, bool transposed) {
    const bool depthIsDim0 = isLeft != transposed;
    if (operand.kind == MC_OPERAND_COOPERATIVE) return depthIsDim0 ? operand.layout.e0 : operand.layout.e1;
    return depthIsDim0 ? operand.extents[0] : operand.extents[1];
}

/// The destination as dense m x n values, the destination's (dim0, dim1) = (column, row).
template <class Value>
void forEachDestinationElement(const mc_tensor_operand& d, const mc_scope_record* records, mc_u32 count,
                               std::int64_t m, std::int64_t n, Value&& visit) {
    if (d.kind == MC_OPERAND_TENSOR) {
        const std::int64_t rows = std::min<std::int64_t>(m, d.extents[1]), columns = std::min<std::int64_t>(n, d.extents[0]);
        for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t j = 0; j < columns; ++j) visit(i * n + j, d.data, i * d.strides[1] + j * d.strides[0]);
        return;
    }
    const mc_cooperative_layout& layout = d.layout;
    const std::vector<std::int32_t>& map = t_scratch.maps.of(layout);
    for (mc_u32 r = 0; r < count; ++r) {
        void* slots = records[r].storage[MC_SCOPE_DESTINATION];
        if (!slots || records[r].thread >= layout.threads) continue;
        const std::int32_t* where = map.data() + std::size_t(records[r].thread) * layout.capacity;
        for (mc_u32 i = 0; i < layout.capacity; ++i) {
            if (where[i] < 0) continue;
            const std::int64_t x = where[i] % layout.e0, y = where[i] / layout.e0;
            visit(x < n && y < m ? y * n + x : -1, slots, i);
        }
    }
}

template <class T> T fromFloat(float value) {
    if constexpr (std::is_same_v<T, std::uint16_t>) return floatToBfloat(value);
    else if constexpr (std::is_same_v<T, _Float16>) {
        const std::uint16_t bits = floatToHalfBits(value);
        T half;
        std::memcpy(&half, &bits, sizeof half);
        return half;
    }
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::int64_t>(value));
    else return static_cast<T>(value);
}

/// The float destination tile rounded once to T (float, half or bfloat), in bulk (F16C for
/// halves where the product uses it); each element then costs a copy to write.
template <class T>
const T* roundedTile(const float* c, std::int64_t count, HalfNarrower narrow) {
    if constexpr (std::is_same_v<T, float>) {
        return c;
    } else {
        std::vector<std::uint32_t>& bytes = t_scratch.roundedBytes;
        bytes.resize(std::size_t(count * std::int64_t(sizeof(T)) + 3) / 4);
        T* out = reinterpret_cast<T*>(bytes.data());
        if constexpr (std::is_same_v<T, _Float16>) narrow(c, reinterpret_cast<std::uint16_t*>(out), count);
        else for (std::int64_t i = 0; i < count; ++i) out[i] = fromFloat<T>(c[i]);
        return out;
    }
}

/// The float destination tile, rounded once, into a tensor destination clipped to its
/// extents: the common case, typed so that it costs no more than a copy.
template <class T> void writeTensor(const mc_tensor_operand& d, const float* c, std::int64_t m, std::int64_t n) {
    const std::int64_t rows = std::min<std::int64_t>(m, d.extents[1]), columns = std::min<std::int64_t>(n, d.extents[0]);
    T* data = static_cast<T*>(d.data);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < columns; ++j) data[i * d.strides[1] + j * d.strides[0]] = fromFloat<T>(c[i * n + j]);
}

bool isDynamic(mc_i32 k) { return k < 0 || k == INT_MAX; }


/// With a dynamic k, operands that disagree on K are not a mistake: Apple's operations check
/// every operand's edges, so elements past the shorter operand's K read as zero and the
/// product is the one over the shorter K. llama.cpp's mul_mm relies on it (its last K step
/// pairs a staged 32-wide tile, zero-padded, with an 8-wide slice of device memory).
std::int64_t resolvedDepth(const mc_matmul_call& call) {
    if (!isDynamic(call.k)) return call.k;
    return std::max<std::int64_t>(0, std::min(depthOf(call.left, true, call.transpose_left),
                                              depthOf(call.right, false, call.transpose_right)));
}

} // namespace

float halfBitsToFloat(std::uint16_t bits) {
    const std::uint32_t sign = std::uint32_t(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu, mantissa = bits & 0x3ffu;
    std::uint32_t wide;
    if (exponent == 0x1fu) {
        wide = sign | 0x7f800000u | (mantissa << 13); // infinity, NaN (payload kept)
    } else if (exponent != 0) {
        wide = sign | ((exponent + 112u) << 23) | (mantissa << 13); // rebias 15 -> 127
    } else {
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f; // zero or subnormal: exact
        return sign ? -magnitude : magnitude;
    }
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

std::uint16_t floatToHalfBits(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const std::uint32_t sign = (bits >> 16) & 0x8000u, magnitude = bits & 0x7fffffffu;
    if (magnitude > 0x7f800000u) return std::uint16_t(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu)); // NaN, quieted
    if (magnitude >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u); // 65520 and up round to infinity
    // The bits below the half's last one: `rest` against `halfway`, ties to even.
    auto rounded = [](std::uint32_t kept, std::uint32_t rest, std::uint32_t halfway) {
        return kept + (rest > halfway || (rest == halfway && (kept & 1u)) ? 1u : 0u);
    };
    if (magnitude >= 0x38800000u) // a normal half: rebias 127 -> 15 (a carry may reach the next exponent)
        return std::uint16_t(sign | rounded((magnitude - 0x38000000u) >> 13, magnitude & 0x1fffu, 0x1000u));
    if (magnitude <= 0x33000000u) return std::uint16_t(sign); // 2^-25 and below round to zero
    // A subnormal half counts units of 2^-24: the float's significand shifted right by 126 - e.
    const std::uint32_t exponent = magnitude >> 23, significand = (magnitude & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - exponent;
    return std::uint16_t(sign | rounded(significand >> shift, significand & ((1u << shift) - 1u), 1u << (shift - 1u)));
}

bool tensorFootprint(const mc_matmul_call& call, int which, long long* byteOffset, unsigned long long* size) {
    const mc_tensor_operand& operand =
        which == MC_SCOPE_LEFT ? call.left : which == MC_SCOPE_RIGHT ? call.right : call.destination;
    if (operand.kind != MC_OPERAND_TENSOR || !isSupported(operand.data_type)) return false;
    // The tile's extents along the operand's dims: L is (k, m) or (m, k), R (n, k) or (k, n), D (n, m).
    const std::int64_t k = resolvedDepth(call);
    std::int64_t tile0 = call.n, tile1 = call.m;
    if (which == MC_SCOPE_LEFT) tile0 = call.transpose_left ? call.m : k, tile1 = call.transpose_left ? k : call.m;
    if (which == MC_SCOPE_RIGHT) tile0 = call.transpose_right ? k : call.n, tile1 = call.transpose_right ? call.n : k;
    const std::int64_t used[2] = {std::min<std::int64_t>(tile0, operand.extents[0]),
                                  std::min<std::int64_t>(tile1, operand.extents[1])};
    if (used[0] <= 0 || used[1] <= 0) return false;
    std::int64_t low = 0, high = 0;
    for (int d = 0; d < 2; ++d) {
        const std::int64_t reach = (used[d] - 1) * operand.strides[d];
        low += std::min<std::int64_t>(0, reach);
        high += std::max<std::int64_t>(0, reach);
    }
    const std::int64_t element = static_cast<std::int64_t>(sizeOf(operand.data_type));
    *byteOffset = low * element;
    *size = static_cast<unsigned long long>((high - low + 1) * element);
    return true;
}

const char* runTensorMatmul(const mc_matmul_call& call) {
    const mc_tensor_operand& left = call.left;
    const mc_tensor_operand& right = call.right;
    const mc_tensor_operand& dest = call.destination;
    for (const mc_tensor_operand* operand : {&left, &right, &dest})
        if (!isSupported(operand->data_type) || operand->kind == MC_OPERAND_NONE)
            return "matmul2d: an operand has an element type the executor does not support";
    if (call.m < 0 || call.n < 0) return "matmul2d: negative tile extents";
    const std::int64_t m = call.m, n = call.n, k = resolvedDepth(call);
    const bool integer = isSmallInteger(left.data_type) && isSmallInteger(right.data_type);
    const mc_scope_record* records = call.records;
    const mc_u32 count = call.records ? call.record_count : 0;

    if (integer) {
        const View a = integerView(left, call.transpose_left, records, count, MC_SCOPE_LEFT, t_scratch.integerTiles[0]);
        const View b =
            integerView(right, call.transpose_right, records, count, MC_SCOPE_RIGHT, t_scratch.integerTiles[1]);
        std::vector<std::uint32_t>& c = t_scratch.integerDestination;
        c.assign(std::size_t(m * n), 0u);
        if (call.accumulate)
            forEachDestinationElement(dest, records, count, m, n, [&](std::int64_t at, const void* base, std::int64_t index) {
                if (at >= 0) c[at] = static_cast<std::uint32_t>(std::int64_t(loadElement(dest.data_type, base, index)));
            });
        integerProduct(a, b, m, n, k, c.data());
        forEachDestinationElement(dest, records, count, m, n, [&](std::int64_t at, void* base, std::int64_t index) {
            storeElement(dest.data_type, base, index, at >= 0 ? double(std::int32_t(c[at])) : 0.0);
        });
        return nullptr;
    }

    const float* leftTile = left.kind == MC_OPERAND_COOPERATIVE
                                ? gatherCooperative(left, records, count, MC_SCOPE_LEFT, t_scratch.tiles[0])
                                : nullptr;
    const float* rightTile = right.kind == MC_OPERAND_COOPERATIVE
                                 ? gatherCooperative(right, records, count, MC_SCOPE_RIGHT, t_scratch.tiles[1])
                                 : nullptr;
    const View a = viewOf(left, call.transpose_left, leftTile);
    const View b = viewOf(right, call.transpose_right, rightTile);
    std::vector<float>& c = t_scratch.tiles[2];
    c.assign(std::size_t(m * n), 0.0f);
    if (call.accumulate)
        forEachDestinationElement(dest, records, count, m, n, [&](std::int64_t at, const void* base, std::int64_t index) {
            if (at >= 0) c[at] = static_cast<float>(loadElement(dest.data_type, base, index));
        });
    floatProduct(a, b, m, n, k, c.data());
    if (dest.data_type == kFloat32 || dest.data_type == kFloat16 || dest.data_type == kBFloat16) {
        const HalfNarrower narrow = halfConversions(activeMicrokernel()).narrow;
        forEachType(dest.data_type, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_same_v<T, float> || std::is_same_v<T, _Float16> || std::is_same_v<T, std::uint16_t>) {
                const T* tile = roundedTile<T>(c.data(), m * n, narrow);
                forEachDestinationElement(dest, records, count, m, n, [&](std::int64_t at, void* base, std::int64_t index) {
                    static_cast<T*>(base)[index] = at >= 0 ? tile[at] : T(0);
                });
            }
        });
        return nullptr;
    }
    if (dest.kind == MC_OPERAND_TENSOR && dest.data_type != kInt32) {
        forEachType(dest.data_type, [&](auto tag) { writeTensor<decltype(tag)>(dest, c.data(), m, n); });
        return nullptr;
    }
    forEachDestinationElement(dest, records, count, m, n, [&](std::int64_t at, void* base, std::int64_t index) {
        storeElement(dest.data_type, base, index, at >= 0 ? c[at] : 0.0f);
    });
    return nullptr;
}

const char* runCooperativeReduce(const mc_reduce_call& call) {
    const mc_tensor_operand& source = call.source;
    const mc_tensor_operand& dest = call.destination;
    if (!isSupported(source.data_type) || !isSupported(dest.data_type))
        return "reduce_rows/reduce_columns: an operand has an element type the executor does not support";
    if (source.kind != MC_OPERAND_COOPERATIVE || dest.kind != MC_OPERAND_COOPERATIVE)
        return "reduce_rows/reduce_columns: the executor reduces cooperative tensors only";
    const mc_cooperative_layout& layout = source.layout;
    const bool columns = call.columns != 0;
    const mc_u32 lineCount = columns ? layout.e0 : layout.e1;
    std::vector<double>& lines = t_scratch.lines;
    lines.assign(lineCount, call.identity);
    const std::vector<std::int32_t>& map = t_scratch.maps.of(layout);
    const mc_u32 count = call.records ? call.record_count : 0;
    // Every element of the tile is held by exactly one thread; those of absent threads do not
    // take part.
    for (mc_u32 r = 0; r < count; ++r) {
        const void* slots = call.records[r].storage[MC_SCOPE_LEFT];
        if (!slots || call.records[r].thread >= layout.threads) continue;
        const std::int32_t* where = map.data() + std::size_t(call.records[r].thread) * layout.capacity;
        for (mc_u32 i = 0; i < layout.capacity; ++i) {
            if (where[i] < 0) continue;
            const mc_u32 line = columns ? mc_u32(where[i]) % layout.e0 : mc_u32(where[i]) / layout.e0;
            const double value = loadElement(source.data_type, slots, i);
            double& fold = lines[line];
            switch (call.op) {
            case MC_REDUCE_MAX: fold = std::max(fold, value); break;
            case MC_REDUCE_MIN: fold = std::min(fold, value); break;
            default: fold += value; break;
            }
        }
    }
    const std::vector<std::int32_t>& lineOf = t_scratch.maps.of(dest.layout);
    for (mc_u32 r = 0; r < count; ++r) {
        void* slots = call.records[r].storage[MC_SCOPE_DESTINATION];
        if (!slots || call.records[r].thread >= dest.layout.threads) continue;
        const std::int32_t* where = lineOf.data() + std::size_t(call.records[r].thread) * dest.layout.capacity;
        for (mc_u32 i = 0; i < dest.layout.capacity; ++i)
            if (where[i] >= 0 && mc_u32(where[i]) < lineCount) storeElement(dest.data_type, slots, i, lines[where[i]]);
    }
    return nullptr;
}

bool microkernelSupported(Microkernel kernel) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (kernel == Microkernel::Avx512) return __builtin_cpu_supports("avx512f");
    if (kernel == Microkernel::Avx2) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return true;
#else
    return kernel == Microkernel::Automatic || kernel == Microkernel::Generic;
#endif
}

void forceMicrokernelForTesting(Microkernel kernel) { g_forced.store(kernel, std::memory_order_relaxed); }

Microkernel activeMicrokernel() {
    const Microkernel forced = g_forced.load(std::memory_order_relaxed);
    if (forced != Microkernel::Automatic && microkernelSupported(forced)) return forced;
    return bestMicrokernel();
}

} // namespace metalcpu::exec
