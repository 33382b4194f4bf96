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
    case kFloat16: { _Float16 v; std::memcpy(&v, p, 2); return static_cast<float>(v); }
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
    case kFloat16: { const _Float16 v = static_cast<_Float16>(static_cast<float>(value)); std::memcpy(p, &v, 2); return; }
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
    std::vector<float> packedA, packedB;
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

/// Packs rows [row0, row0 + rows) x depth [p0, p0 + depth) of `view` (rows are the panel's
/// strips: A's rows, or B's columns when `byColumns`) into strips of `width` elements per
/// step, zero-padded.
template <class T>
void packStrips(const View& view, bool byColumns, std::int64_t row0, std::int64_t rows, std::int64_t p0,
                std::int64_t depth, int width, float* out) {
    const T* data = static_cast<const T*>(view.data);
    const std::int64_t stripStride = byColumns ? view.columnStride : view.rowStride;
    const std::int64_t stepStride = byColumns ? view.rowStride : view.columnStride;
    const std::int64_t stripLimit = byColumns ? view.columns : view.rows;
    const std::int64_t stepLimit = byColumns ? view.rows : view.columns;
    const std::int64_t steps = std::max<std::int64_t>(0, std::min(depth, stepLimit - p0));
    for (std::int64_t strip = 0; strip < rows; strip += width) {
        if (strip + width <= rows && row0 + strip + width <= stripLimit) {
            // A whole strip inside the operand: no checks per element (the common case).
            const T* base = data + (row0 + strip) * stripStride + p0 * stepStride;
            for (std::int64_t p = 0; p < steps; ++p, out += width)
                for (int w = 0; w < width; ++w) out[w] = toFloat(base[p * stepStride + w * stripStride]);
            std::fill(out, out + (depth - steps) * width, 0.0f);
            out += (depth - steps) * width;
            continue;
        }
        for (std::int64_t p = 0; p < depth; ++p) {
            const std::int64_t step = p0 + p;
            for (int w = 0; w < width; ++w) {
                const std::int64_t s = row0 + strip + w;
                float value = 0.0f;
                if (strip + w < rows && s < stripLimit && step < stepLimit)
                    value = toFloat(data[s * stripStride + step * stepStride]);
                *out++ = value;
            }
        }
    }
}

void pack(const View& view, bool byColumns, std::int64_t row0, std::int64_t rows, std::int64_t p0,
          std::int64_t depth, int width, float* out) {
    forEachType(view.type, [&](auto tag) {
        packStrips<decltype(tag)>(view, byColumns, row0, rows, p0, depth, width, out);
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

/// C (m x n, row stride n) += A (m x k) B (k x n), blocked and packed.
void floatProduct(const View& a, const View& b, std::int64_t m, std::int64_t n, std::int64_t k, float* c) {
    const gemm::MicrokernelInfo kernel = microkernelInfo(activeMicrokernel());
    constexpr std::int64_t kDepthBlock = 256, kRowBlock = 120;
    const std::int64_t nPadded = (n + kernel.nr - 1) / kernel.nr * kernel.nr;
    std::vector<float>& packedA = t_scratch.packedA;
    std::vector<float>& packedB = t_scratch.packedB;
    for (std::int64_t p0 = 0; p0 < k; p0 += kDepthBlock) {
        const std::int64_t depth = std::min(kDepthBlock, k - p0);
        packedB.resize(std::size_t(nPadded * depth));
        pack(b, true, 0, n, p0, depth, kernel.nr, packedB.data());
        for (std::int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
            const std::int64_t rows = std::min(kRowBlock, m - i0);
            const std::int64_t rowsPadded = (rows + kernel.mr - 1) / kernel.mr * kernel.mr;
            packedA.resize(std::size_t(rowsPadded * depth));
            pack(a, false, i0, rows, p0, depth, kernel.mr, packedA.data());
            for (std::int64_t j = 0; j < n; j += kernel.nr)
                for (std::int64_t i = 0; i < rows; i += kernel.mr)
                    kernel.run(static_cast<int>(depth), packedA.data() + i * depth, packedB.data() + j * depth,
                               c + (i0 + i) * n + j, static_cast<int>(n),
                               static_cast<int>(std::min<std::int64_t>(kernel.mr, rows - i)),
                               static_cast<int>(std::min<std::int64_t>(kernel.nr, n - j)));
        }
    }
}

/// int8/uint8 products: exact, wrapping int32 (the destination of an integer matmul).
template <class TA, class TB>
void integerProductTyped(const View& a, const View& b, std::int64_t m, std::int64_t n, std::int64_t k,
                         std::uint32_t* c) {
    const TA* ad = static_cast<const TA*>(a.data);
    const TB* bd = static_cast<const TB*>(b.data);
    for (std::int64_t i = 0; i < m && i < a.rows; ++i)
        for (std::int64_t p = 0; p < k && p < a.columns && p < b.rows; ++p) {
            const std::uint32_t left = static_cast<std::uint32_t>(std::int32_t(ad[i * a.rowStride + p * a.columnStride]));
            const TB* brow = bd + p * b.rowStride;
            std::uint32_t* crow = c + i * n;
            const std::int64_t columns = std::min(n, b.columns);
            for (std::int64_t j = 0; j < columns; ++j)
                crow[j] += left * static_cast<std::uint32_t>(std::int32_t(brow[j * b.columnStride]));
        }
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

void integerProduct(const View& a, const View& b, std::int64_t m, std::int64_t n, std::int64_t k, std::uint32_t* c) {
    auto withB = [&](auto ta) {
        forEachType(b.type, [&](auto tb) {
            integerProductTyped<decltype(ta), decltype(tb)>(a, b, m, n, k, c);
        });
    };
    forEachType(a.type, withB);
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
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::int64_t>(value));
    else return static_cast<T>(value);
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
