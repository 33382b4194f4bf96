// Tests of the tensor-operation executor (exec/tensor_ops.h) against a naive triple loop.
// Inputs are small integers, so every partial sum is exact in float whatever the summation
// order, and results must equal the exact product rounded once to the destination type.
#include "exec/tensor_ops.h"

#include "exec/regions.h"
#include "exec/services.h"

#include <gtest/gtest.h>

#include <Metal/MTLTensor.hpp>
#include <metalcpu/cooperative_layout.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace metalcpu::exec {
namespace {

namespace coop = metalcpu_cooperative;

constexpr mc_u32 kF32 = MTL::TensorDataTypeFloat32, kF16 = MTL::TensorDataTypeFloat16,
                 kBF16 = MTL::TensorDataTypeBFloat16, kI8 = MTL::TensorDataTypeInt8, kU8 = MTL::TensorDataTypeUInt8,
                 kI32 = MTL::TensorDataTypeInt32;

std::size_t sizeOf(mc_u32 type) { return type == kF32 || type == kI32 ? 4 : type == kF16 || type == kBF16 ? 2 : 1; }
bool isInteger(mc_u32 type) { return type == kI8 || type == kU8 || type == kI32; }

/// `value` rounded once to `type` (round to nearest even; integers wrap), back as double.
double roundTo(mc_u32 type, double value) {
    switch (type) {
    case kF32: return static_cast<float>(value);
    case kF16: return static_cast<float>(static_cast<_Float16>(static_cast<float>(value)));
    case kBF16: {
        const float f = static_cast<float>(value);
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
        float r;
        std::memcpy(&r, &bits, 4);
        return r;
    }
    case kI8: return static_cast<std::int8_t>(static_cast<std::int64_t>(value));
    case kU8: return static_cast<std::uint8_t>(static_cast<std::int64_t>(value));
    default: return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(value)));
    }
}

/// Elements of one type, read and written as double (values exact in the type).
struct Elements {
    mc_u32 type = kF32;
    std::vector<unsigned char> bytes;
    Elements(mc_u32 t, std::size_t count) : type(t), bytes(count * sizeOf(t)) {}
    void set(std::size_t i, double v) {
        unsigned char* p = bytes.data() + i * sizeOf(type);
        v = roundTo(type, v);
        if (type == kF32) { const float f = float(v); std::memcpy(p, &f, 4); }
        else if (type == kF16) { const _Float16 h = _Float16(float(v)); std::memcpy(p, &h, 2); }
        else if (type == kBF16) { const float f = float(v); std::uint32_t b; std::memcpy(&b, &f, 4); const std::uint16_t h = std::uint16_t(b >> 16); std::memcpy(p, &h, 2); }
        else if (type == kI32) { const std::int32_t x = std::int32_t(v); std::memcpy(p, &x, 4); }
        else *p = static_cast<unsigned char>(static_cast<std::int64_t>(v) & 0xff);
    }
    double get(std::size_t i) const {
        const unsigned char* p = bytes.data() + i * sizeOf(type);
        if (type == kF32) { float f; std::memcpy(&f, p, 4); return f; }
        if (type == kF16) { _Float16 h; std::memcpy(&h, p, 2); return float(h); }
        if (type == kBF16) { std::uint16_t h; std::memcpy(&h, p, 2); const std::uint32_t b = std::uint32_t(h) << 16; float f; std::memcpy(&f, &b, 4); return f; }
        if (type == kI32) { std::int32_t x; std::memcpy(&x, p, 4); return x; }
        if (type == kI8) return static_cast<std::int8_t>(*p);
        return *p;
    }
};

/// A logical matrix (rows x columns) of exact small values.
struct Matrix {
    std::int64_t rows = 0, columns = 0;
    std::vector<double> values;
    double at(std::int64_t r, std::int64_t c) const { return values[r * columns + c]; }
};

Matrix randomMatrix(std::int64_t rows, std::int64_t columns, mc_u32 type, std::mt19937& rng) {
    Matrix m{rows, columns, std::vector<double>(std::size_t(rows * columns))};
    const int low = type == kU8 ? 0 : -3, high = 3;
    std::uniform_int_distribution<int> pick(low, high);
    for (double& v : m.values) v = pick(rng);
    return m;
}

/// An operand the test owns: a strided tensor (padding filled with a poison value the
/// executor must never read) or a cooperative tensor (one slot array per thread).
struct Operand {
    mc_tensor_operand abi{};
    Elements storage{kF32, 0};
    std::vector<Elements> slots; // cooperative: per thread
};

constexpr double kPoison = 77; // exact in every type; shows up in a result if read

/// `m` as a tensor of dims (dim0, dim1) = (columns, rows), or (rows, columns) transposed, with
/// `pad` extra elements per line.
Operand tensorOperand(const Matrix& m, mc_u32 type, bool transposed, std::int64_t pad) {
    Operand op;
    const std::int64_t e0 = transposed ? m.rows : m.columns, e1 = transposed ? m.columns : m.rows;
    const std::int64_t stride = e0 + pad;
    op.storage = Elements(type, std::size_t(std::max<std::int64_t>(1, stride * e1)));
    for (std::size_t i = 0; i < op.storage.bytes.size() / sizeOf(type); ++i) op.storage.set(i, type == kU8 ? 7 : kPoison);
    for (std::int64_t r = 0; r < m.rows; ++r)
        for (std::int64_t c = 0; c < m.columns; ++c) {
            const std::int64_t d0 = transposed ? r : c, d1 = transposed ? c : r;
            op.storage.set(std::size_t(d1 * stride + d0), m.at(r, c));
        }
    op.abi.kind = MC_OPERAND_TENSOR;
    op.abi.data_type = type;
    op.abi.data = op.storage.bytes.data();
    op.abi.extents[0] = e0, op.abi.extents[1] = e1;
    op.abi.strides[0] = 1, op.abi.strides[1] = stride;
    return op;
}

Operand cooperativeOperand(const Matrix& m, mc_u32 type, bool transposed, mc_u32 kind, mc_u32 role, mc_u32 threads) {
    Operand op;
    const mc_u32 e0 = mc_u32(transposed ? m.rows : m.columns), e1 = mc_u32(transposed ? m.columns : m.rows);
    op.abi.kind = MC_OPERAND_COOPERATIVE;
    op.abi.data_type = type;
    op.abi.layout = coop::make_layout(kind, role, e0, e1, threads, 11);
    for (mc_u32 t = 0; t < threads; ++t) {
        Elements slots(type, op.abi.layout.capacity);
        for (mc_u32 i = 0; i < op.abi.layout.capacity; ++i) {
            mc_u32 x = 0, y = 0;
            slots.set(i, coop::coordinate(op.abi.layout, t, i, &x, &y) ? m.at(transposed ? x : y, transposed ? y : x)
                                                                        : kPoison);
        }
        op.slots.push_back(std::move(slots));
    }
    return op;
}

/// Reads a destination operand (dims (n, m)) back as an m x n matrix; elements a cooperative
/// destination does not hold read as NaN.
Matrix readDestination(const Operand& d, std::int64_t m, std::int64_t n) {
    Matrix out{m, n, std::vector<double>(std::size_t(m * n), NAN)};
    if (d.abi.kind == MC_OPERAND_TENSOR) {
        for (std::int64_t i = 0; i < std::min<std::int64_t>(m, d.abi.extents[1]); ++i)
            for (std::int64_t j = 0; j < std::min<std::int64_t>(n, d.abi.extents[0]); ++j)
                out.values[i * n + j] = d.storage.get(std::size_t(i * d.abi.strides[1] + j));
        return out;
    }
    for (mc_u32 t = 0; t < d.slots.size(); ++t)
        for (mc_u32 i = 0; i < d.abi.layout.capacity; ++i) {
            mc_u32 x = 0, y = 0;
            if (coop::coordinate(d.abi.layout, t, i, &x, &y) && x < n && y < m) out.values[y * n + x] = d.slots[t].get(i);
        }
    return out;
}

struct Records {
    std::vector<mc_scope_record> records;
    Records(Operand& l, Operand& r, Operand& d, mc_u32 threads, mc_u32 absentEvery = 0) {
        for (mc_u32 t = 0; t < threads; ++t) {
            if (absentEvery && t % absentEvery == absentEvery - 1) continue;
            mc_scope_record record{};
            record.thread = t;
            Operand* ops[3] = {&l, &r, &d};
            for (int role = 0; role < 3; ++role)
                record.storage[role] = ops[role]->slots.empty() ? nullptr : ops[role]->slots[t].bytes.data();
            records.push_back(record);
        }
    }
};

struct Case {
    std::int64_t m, n, k;
    mc_u32 leftType = kF32, rightType = kF32, destType = kF32;
    bool transposeLeft = false, transposeRight = false, accumulate = false;
    bool coopLeft = false, coopRight = false, coopDest = false;
    mc_u32 layoutKind = MC_COOPERATIVE_LAYOUT_APPLE10;
    mc_u32 threads = 32;
    std::int64_t pad = 0;
    mc_u32 absentEvery = 0;
    std::string name() const {
        return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " types " +
               std::to_string(leftType) + "," + std::to_string(rightType) + "->" + std::to_string(destType) +
               " T" + std::to_string(transposeLeft) + std::to_string(transposeRight) + " acc " +
               std::to_string(accumulate) + " coop " + std::to_string(coopLeft) + std::to_string(coopRight) +
               std::to_string(coopDest) + " layout " + std::to_string(layoutKind);
    }
};

/// Runs one product through the executor and checks every destination element against the
/// exact product rounded once.
void runCase(const Case& c, std::mt19937& rng) {
    SCOPED_TRACE(c.name());
    const Matrix a = randomMatrix(c.m, c.k, c.leftType, rng), b = randomMatrix(c.k, c.n, c.rightType, rng);
    const Matrix d0 = randomMatrix(c.m, c.n, c.destType == kU8 ? kU8 : kI8, rng);
    Operand left = c.coopLeft ? cooperativeOperand(a, c.leftType, c.transposeLeft, c.layoutKind, MC_COOPERATIVE_LEFT, c.threads)
                              : tensorOperand(a, c.leftType, c.transposeLeft, c.pad);
    Operand right = c.coopRight
                        ? cooperativeOperand(b, c.rightType, c.transposeRight, c.layoutKind, MC_COOPERATIVE_RIGHT, c.threads)
                        : tensorOperand(b, c.rightType, c.transposeRight, c.pad);
    Operand dest = c.coopDest ? cooperativeOperand(d0, c.destType, false, c.layoutKind, MC_COOPERATIVE_DESTINATION, c.threads)
                              : tensorOperand(d0, c.destType, false, c.pad);
    const bool anyCoop = c.coopLeft || c.coopRight || c.coopDest;
    Records records(left, right, dest, anyCoop ? c.threads : 0, c.absentEvery);
    mc_matmul_call call{};
    call.m = mc_i32(c.m), call.n = mc_i32(c.n), call.k = mc_i32(c.k);
    call.transpose_left = c.transposeLeft, call.transpose_right = c.transposeRight, call.accumulate = c.accumulate;
    call.left = left.abi, call.right = right.abi, call.destination = dest.abi;
    call.records = records.records.data();
    call.record_count = mc_u32(records.records.size());
    ASSERT_EQ(runTensorMatmul(call), nullptr);

    auto present = [&](const Operand& op, std::int64_t d0Index, std::int64_t d1Index) {
        if (op.abi.kind != MC_OPERAND_COOPERATIVE || !c.absentEvery) return true;
        for (mc_u32 t = 0; t < c.threads; ++t)
            for (mc_u32 i = 0; i < op.abi.layout.capacity; ++i) {
                mc_u32 x = 0, y = 0;
                if (coop::coordinate(op.abi.layout, t, i, &x, &y) && x == d0Index && y == d1Index)
                    return t % c.absentEvery != c.absentEvery - 1;
            }
        return false;
    };
    const Matrix got = readDestination(dest, c.m, c.n);
    for (std::int64_t i = 0; i < c.m; ++i)
        for (std::int64_t j = 0; j < c.n; ++j) {
            if (!present(dest, j, i)) { // an absent thread's slots keep their value
                ASSERT_EQ(got.at(i, j), roundTo(c.destType, d0.at(i, j))) << "element (" << i << ", " << j << ")";
                continue;
            }
            double sum = c.accumulate ? d0.at(i, j) : 0.0;
            for (std::int64_t p = 0; p < c.k; ++p) {
                const bool l = present(left, c.transposeLeft ? i : p, c.transposeLeft ? p : i);
                const bool r = present(right, c.transposeRight ? p : j, c.transposeRight ? j : p);
                if (l && r) sum += a.at(i, p) * b.at(p, j);
            }
            ASSERT_EQ(got.at(i, j), roundTo(c.destType, sum)) << "element (" << i << ", " << j << ")";
        }
}

/// A call over tensor operands only.
mc_matmul_call tensorCall(const Operand& left, const Operand& right, const Operand& dest, mc_i32 m, mc_i32 n, mc_i32 k) {
    mc_matmul_call call{};
    call.m = m, call.n = n, call.k = k;
    call.left = left.abi, call.right = right.abi, call.destination = dest.abi;
    return call;
}

std::string microkernelName(const ::testing::TestParamInfo<Microkernel>& info) {
    static const char* const names[] = {"Automatic", "Generic", "Avx2", "Avx512"};
    return names[int(info.param)];
}

class TensorMatmulTest : public ::testing::TestWithParam<Microkernel> {
protected:
    void SetUp() override {
        if (!microkernelSupported(GetParam())) GTEST_SKIP() << "this CPU lacks the microkernel's instructions";
        forceMicrokernelForTesting(GetParam());
        ASSERT_EQ(activeMicrokernel() == GetParam() || GetParam() == Microkernel::Automatic, true);
    }
    void TearDown() override { forceMicrokernelForTesting(Microkernel::Automatic); }
    std::mt19937 rng_{1234};
};

TEST(TensorOpsTest, DataTypesAreMetals) {
    // The executor's private copy of MTL::TensorDataType must agree; a mismatch fails here.
    std::mt19937 rng(1);
    for (mc_u32 type : {kF32, kF16, kBF16, kI8, kU8}) {
        Case c{3, 2, 2};
        c.leftType = c.rightType = type;
        c.destType = isInteger(type) ? kI32 : type;
        runCase(c, rng);
    }
}

TEST_P(TensorMatmulTest, RaggedShapesEveryTranspositionBothModes) {
    for (std::int64_t m : {1, 7, 15, 33, 100})
        for (std::int64_t n : {1, 7, 33, 100})
            for (std::int64_t k : {1, 15, 100})
                for (int t = 0; t < 4; ++t) {
                    Case c{m, n, k};
                    c.transposeLeft = t & 1, c.transposeRight = t & 2, c.accumulate = (m + n + k + t) % 2;
                    runCase(c, rng_);
                }
}

TEST_P(TensorMatmulTest, EveryTypeTriple) {
    for (mc_u32 l : {kF16, kF32, kBF16, kI8, kU8})
        for (mc_u32 r : {kF16, kF32, kBF16, kI8, kU8})
            for (mc_u32 d : {kF16, kF32, kBF16, kI32}) {
                Case c{17, 33, 40};
                c.leftType = l, c.rightType = r, c.destType = d, c.accumulate = true;
                runCase(c, rng_);
            }
}

// Test half and int8/uint8 inputs (the F16C-widened and the integer panels) over depths that
// cross the 256-step depth block, ragged tiles, strided operands and every transposition: the
// runs packing widens at once (contiguous steps, contiguous lines) and the element-wise ones.
TEST_P(TensorMatmulTest, DeepHalfAndIntegerPanelsEveryTransposition) {
    for (const auto& [input, dest] : {std::pair{kF16, kF32}, std::pair{kI8, kI32}, std::pair{kU8, kI32}})
        for (std::int64_t k : {255, 257, 600})
            for (int t = 0; t < 4; ++t) {
                Case c{37, 70, k};
                c.leftType = c.rightType = input, c.destType = dest;
                c.transposeLeft = t & 1, c.transposeRight = t & 2, c.accumulate = t == 3, c.pad = t;
                runCase(c, rng_);
            }
}

TEST_P(TensorMatmulTest, CooperativeOperandsInEveryLayout) {
    for (mc_u32 kind : {MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_LAYOUT_APPLE9, MC_COOPERATIVE_LAYOUT_SHUFFLED,
                        MC_COOPERATIVE_LAYOUT_PADDED})
        for (int operands = 1; operands < 8; ++operands)
            for (mc_u32 threads : {1u, 32u, 128u}) {
                Case c{64, 48, 32};
                c.coopLeft = operands & 1, c.coopRight = operands & 2, c.coopDest = operands & 4;
                c.transposeRight = operands == 3, c.accumulate = operands % 2 == 0;
                c.layoutKind = kind, c.threads = threads, c.destType = kF16;
                runCase(c, rng_);
            }
}

TEST_P(TensorMatmulTest, AbsentThreadsReadAsZeroAndKeepTheirSlots) {
    Case c{32, 32, 16};
    c.coopLeft = c.coopRight = c.coopDest = true;
    c.threads = 64, c.absentEvery = 3, c.accumulate = true;
    runCase(c, rng_);
}

TEST_P(TensorMatmulTest, StridesWiderThanExtentsAreNeverReadPast) {
    Case c{20, 30, 25};
    c.pad = 5;
    for (int t = 0; t < 4; ++t) {
        c.transposeLeft = t & 1, c.transposeRight = t & 2;
        runCase(c, rng_);
    }
}

TEST_P(TensorMatmulTest, IntegerProductsAreExactAndWrap) {
    // int8 extremes, and an accumulator near INT32_MAX that must wrap like Metal's int.
    Matrix a{1, 2, {-128, 127}}, b{2, 1, {-128, 127}};
    Matrix d{1, 1, {double(INT32_MAX)}};
    Operand left = tensorOperand(a, kI8, false, 0), right = tensorOperand(b, kI8, false, 0),
            dest = tensorOperand(d, kI32, false, 0);
    mc_matmul_call call{};
    call.m = 1, call.n = 1, call.k = 2, call.accumulate = 1;
    call.left = left.abi, call.right = right.abi, call.destination = dest.abi;
    ASSERT_EQ(runTensorMatmul(call), nullptr);
    const std::int64_t exact = std::int64_t(INT32_MAX) + 128 * 128 + 127 * 127;
    EXPECT_EQ(dest.storage.get(0), double(std::int32_t(std::uint32_t(exact))));
}

TEST_P(TensorMatmulTest, HalfDestinationIsRoundedOnce) {
    // 2048 + 1 + 1: in float 2050, a half value; rounded to half after every step it would
    // stay at 2048 (2049 rounds to even). Half inputs, half destination.
    Matrix a{1, 3, {1024, 1, 1}}, b{3, 1, {2, 1, 1}};
    Matrix d{1, 1, {0}};
    Operand left = tensorOperand(a, kF16, false, 0), right = tensorOperand(b, kF16, false, 0),
            dest = tensorOperand(d, kF16, false, 0);
    mc_matmul_call call = tensorCall(left, right, dest, 1, 1, 3);
    ASSERT_EQ(runTensorMatmul(call), nullptr);
    EXPECT_EQ(dest.storage.get(0), 2050.0);
}

TEST_P(TensorMatmulTest, ZeroDepthClearsOrKeeps) {
    for (bool accumulate : {false, true}) {
        Case c{5, 6, 0};
        c.accumulate = accumulate;
        runCase(c, rng_);
    }
}

TEST_P(TensorMatmulTest, DynamicDepthIsTheShorterOperand) {
    const Matrix a = randomMatrix(4, 20, kF32, rng_), b = randomMatrix(13, 5, kF32, rng_);
    Matrix d{4, 5, std::vector<double>(20, 0)};
    Operand left = tensorOperand(a, kF32, false, 0), right = tensorOperand(b, kF32, false, 0),
            dest = tensorOperand(d, kF32, false, 0);
    for (mc_i32 dynamic : {-1, INT_MAX}) {
        const mc_matmul_call call = tensorCall(left, right, dest, 4, 5, dynamic);
        ASSERT_EQ(runTensorMatmul(call), nullptr);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 5; ++j) {
                double sum = 0;
                for (int p = 0; p < 13; ++p) sum += a.at(i, p) * b.at(p, j);
                EXPECT_EQ(dest.storage.get(std::size_t(i * 5 + j)), sum);
            }
    }
}

TEST_P(TensorMatmulTest, InputsOutsideTheirExtentsReadAsZeroAndDestinationIsClipped) {
    // A 10x12 tile over operands that are only partly there: L has 6 of the 10 rows, R 9 of
    // the 12 columns, D is 7x8 inside a wider buffer whose other elements must stay.
    const Matrix a = randomMatrix(6, 8, kF32, rng_), b = randomMatrix(8, 9, kF32, rng_);
    Matrix d{7, 8, std::vector<double>(56, 5)};
    Operand left = tensorOperand(a, kF32, false, 0), right = tensorOperand(b, kF32, false, 0),
            dest = tensorOperand(d, kF32, false, 3);
    mc_matmul_call call = tensorCall(left, right, dest, 10, 12, 8);
    ASSERT_EQ(runTensorMatmul(call), nullptr);
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 11; ++j) {
            const double got = dest.storage.get(std::size_t(i * 11 + j));
            if (j >= 8) {
                EXPECT_EQ(got, kPoison) << "padding written at (" << i << ", " << j << ")";
                continue;
            }
            double sum = 0;
            for (int p = 0; p < 8; ++p)
                if (i < 6 && j < 9) sum += a.at(i, p) * b.at(p, j);
            EXPECT_EQ(got, sum) << "(" << i << ", " << j << ")";
        }
}

INSTANTIATE_TEST_SUITE_P(Microkernels, TensorMatmulTest,
                         ::testing::Values(Microkernel::Generic, Microkernel::Avx2, Microkernel::Avx512,
                                           Microkernel::Automatic),
                         microkernelName);

TEST(TensorOpsTest, UnsupportedTypesFailTheDispatch) {
    mc_matmul_call call{};
    call.left.kind = call.right.kind = call.destination.kind = MC_OPERAND_TENSOR;
    call.left.data_type = MTL::TensorDataTypeInt4;
    call.right.data_type = call.destination.data_type = kF32;
    EXPECT_NE(runTensorMatmul(call), nullptr);
}

// Test that under shader validation (a site and checked pointers) an operand whose footprint
// leaves its region stops the product (reported by validation_fault; without a dispatch here,
// nowhere), and that one inside it, or an unvalidated call, runs.
TEST(TensorOpsTest, ValidatedFootprintsAreCheckedAgainstTheirRegions) {
    std::mt19937 rng(3);
    const Matrix a = randomMatrix(8, 8, kF32, rng), b = randomMatrix(8, 8, kF32, rng);
    Matrix d{8, 8, std::vector<double>(64, kPoison)};
    Operand left = tensorOperand(a, kF32, false, 0), right = tensorOperand(b, kF32, false, 0),
            dest = tensorOperand(d, kF32, false, 0);
    RegionTable& table = RegionTable::shared();
    const std::uint32_t tag = table.acquire(nullptr);
    ASSERT_NE(tag, 0u);
    const auto address = reinterpret_cast<std::uint64_t>(dest.storage.bytes.data());
    mc_matmul_call call = tensorCall(left, right, dest, 8, 8, 8);
    call.destination.checked = RegionTable::tagged(tag, address);
    const mc_site site{"program_source", "kernel", 3, 5};
    call.site = &site;
    setCurrentGroup(nullptr);

    table.set(tag, address, 8 * 7 * sizeof(float)); // the last row is outside
    kernelServices()->tensor_matmul(&call);
    EXPECT_EQ(dest.storage.get(0), kPoison) << "a product past its region ran";

    table.set(tag, address, 8 * 8 * sizeof(float));
    kernelServices()->tensor_matmul(&call);
    double sum = 0;
    for (int p = 0; p < 8; ++p) sum += a.at(0, p) * b.at(p, 0);
    EXPECT_EQ(dest.storage.get(0), sum);

    // A 7x8 tile touches only the rows inside the smaller region.
    table.set(tag, address, 8 * 7 * sizeof(float));
    dest.storage.set(0, kPoison);
    call.m = 7;
    kernelServices()->tensor_matmul(&call);
    EXPECT_EQ(dest.storage.get(0), sum);
    table.release(tag);
}

// ---- reduce_rows / reduce_columns -----------------------------------------------------------

TEST(CooperativeReduceTest, RowsAndColumnsInEveryLayout) {
    std::mt19937 rng(99);
    for (mc_u32 kind : {MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_LAYOUT_APPLE9, MC_COOPERATIVE_LAYOUT_SHUFFLED,
                        MC_COOPERATIVE_LAYOUT_PADDED})
        for (bool columns : {false, true})
            for (mc_u32 op : {MC_REDUCE_SUM, MC_REDUCE_MAX, MC_REDUCE_MIN})
                for (mc_u32 threads : {32u, 128u}) {
                    SCOPED_TRACE(std::to_string(kind) + (columns ? " columns" : " rows") + " op " +
                                 std::to_string(op) + " threads " + std::to_string(threads));
                    const mc_u32 n = 48, m = 32; // destination (n, m)
                    const Matrix values = randomMatrix(m, n, kF32, rng);
                    Operand source = cooperativeOperand(values, kF32, false, kind, MC_COOPERATIVE_DESTINATION, threads);
                    const mc_u32 role = columns ? MC_COOPERATIVE_COLUMN_REDUCTION : MC_COOPERATIVE_ROW_REDUCTION;
                    Operand dest;
                    dest.abi.kind = MC_OPERAND_COOPERATIVE;
                    dest.abi.data_type = kF32;
                    dest.abi.layout = coop::make_layout(kind, role, n, m, threads, 11);
                    for (mc_u32 t = 0; t < threads; ++t) {
                        dest.slots.emplace_back(kF32, dest.abi.layout.capacity);
                        for (mc_u32 i = 0; i < dest.abi.layout.capacity; ++i) dest.slots.back().set(i, kPoison);
                    }
                    std::vector<mc_scope_record> records(threads);
                    for (mc_u32 t = 0; t < threads; ++t) {
                        records[t].thread = t;
                        records[t].storage[MC_SCOPE_LEFT] = source.slots[t].bytes.data();
                        records[t].storage[MC_SCOPE_DESTINATION] = dest.slots[t].bytes.data();
                    }
                    mc_reduce_call call{};
                    call.columns = columns, call.op = op, call.identity = op == MC_REDUCE_SUM ? 0 : op == MC_REDUCE_MAX ? -100 : 100;
                    call.source = source.abi, call.destination = dest.abi;
                    call.records = records.data(), call.record_count = threads;
                    ASSERT_EQ(runCooperativeReduce(call), nullptr);
                    for (mc_u32 t = 0; t < threads; ++t)
                        for (mc_u32 i = 0; i < dest.abi.layout.capacity; ++i) {
                            mc_u32 x = 0, y = 0;
                            const double got = dest.slots[t].get(i);
                            if (!coop::coordinate(dest.abi.layout, t, i, &x, &y)) {
                                EXPECT_EQ(got, kPoison) << "an invalid slot was written";
                                continue;
                            }
                            double fold = call.identity;
                            for (mc_u32 e = 0; e < (columns ? m : n); ++e) {
                                const double v = columns ? values.at(e, x) : values.at(y, e);
                                fold = op == MC_REDUCE_SUM ? fold + v : op == MC_REDUCE_MAX ? std::max(fold, v) : std::min(fold, v);
                            }
                            ASSERT_EQ(got, fold) << "thread " << t << " slot " << i;
                        }
                }
}

TEST(CooperativeReduceTest, DefaultIdentityZeroIsApplesFootgun) {
    // max over an all-negative row with the default identity (0) is 0, as on Apple GPUs.
    const Matrix values{16, 16, std::vector<double>(256, -2)};
    Operand source = cooperativeOperand(values, kF16, false, MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_DESTINATION, 32);
    Operand dest;
    dest.abi.kind = MC_OPERAND_COOPERATIVE;
    dest.abi.data_type = kF16;
    dest.abi.layout = coop::make_layout(MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_ROW_REDUCTION, 16, 16, 32, 11);
    std::vector<mc_scope_record> records(32);
    for (mc_u32 t = 0; t < 32; ++t) {
        dest.slots.emplace_back(kF16, dest.abi.layout.capacity);
        records[t].thread = t;
        records[t].storage[MC_SCOPE_LEFT] = source.slots[t].bytes.data();
        records[t].storage[MC_SCOPE_DESTINATION] = dest.slots[t].bytes.data();
    }
    mc_reduce_call call{};
    call.op = MC_REDUCE_MAX;
    call.source = source.abi, call.destination = dest.abi;
    call.records = records.data(), call.record_count = 32;
    ASSERT_EQ(runCooperativeReduce(call), nullptr);
    EXPECT_EQ(dest.slots[0].get(0), 0.0);
    call.identity = -INFINITY;
    ASSERT_EQ(runCooperativeReduce(call), nullptr);
    EXPECT_EQ(dest.slots[0].get(0), -2.0);
}

// Test that the executor's half conversion equals the compiler's for every one of the 65536
// halves (zeros, subnormals, infinities; NaNs stay NaNs with their sign).
TEST(TensorOps, HalfConversionIsExact) {
    for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
        const auto h = static_cast<std::uint16_t>(bits);
        _Float16 half;
        std::memcpy(&half, &h, sizeof half);
        const float expected = static_cast<float>(half), got = halfBitsToFloat(h);
        if (std::isnan(expected)) {
            EXPECT_TRUE(std::isnan(got)) << bits;
            EXPECT_EQ(std::signbit(got), std::signbit(expected)) << bits;
        } else {
            ASSERT_EQ(std::memcmp(&got, &expected, sizeof got), 0) << bits << ": " << got << " vs " << expected;
        }
    }
}

// Test that the executor's float-to-half rounding equals the compiler's over every float whose
// high 20 bits vary (all exponents, both signs, NaNs and infinities) with low bits that make
// exact halves, ties and near-ties, including the overflow and subnormal edges.
TEST(TensorOps, FloatToHalfRoundsAsTheCompiler) {
    const std::uint32_t lows[] = {0x0000u, 0x0001u, 0x0fffu, 0x1000u, 0x1001u, 0x1fffu, 0x0800u, 0x1800u};
    for (std::uint32_t high = 0; high < (1u << 19); ++high)
        for (std::uint32_t low : lows) {
            const std::uint32_t bits = (high << 13) | low;
            float value;
            std::memcpy(&value, &bits, sizeof value);
            const _Float16 expected = static_cast<_Float16>(value);
            std::uint16_t want;
            std::memcpy(&want, &expected, sizeof want);
            const std::uint16_t got = floatToHalfBits(value);
            if (std::isnan(value)) {
                ASSERT_EQ(got & 0x7e00u, 0x7e00u) << std::hex << bits;
                ASSERT_EQ(got & 0x8000u, want & 0x8000u) << std::hex << bits;
            } else {
                ASSERT_EQ(got, want) << std::hex << bits << ": " << value;
            }
        }
}

} // namespace
} // namespace metalcpu::exec
