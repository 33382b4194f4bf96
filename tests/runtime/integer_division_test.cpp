// Integer division in kernels never traps: x / 0 == 0, x % 0 == x, MIN / -1 == MIN,
// MIN % -1 == 0 (docs/compiler.md, "Division"), for every integer width, signed and unsigned,
// scalars and vectors, `/`, `%`, `/=` and `%=`, through a real dispatch. Before, x86-64's
// SIGFPE ended the test process.
#include "runtime/metal_test.h"
#include "scoped_state.h"
#include "support/files.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace metalcpu {
namespace {

/// Each kernel writes, for thread i, a / b, a % b, then a /= b and a %= b on copies.
const char kKernels[] = R"(
#include <metal_stdlib>
using namespace metal;
#define DIVISION_KERNEL(T)                                                                      \
    kernel void divide_##T(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]],   \
                           device T* out [[buffer(2)]], uint i [[thread_position_in_grid]]) {  \
        out[4 * i] = a[i] / b[i];                                                              \
        out[4 * i + 1] = a[i] % b[i];                                                          \
        T q = a[i];                                                                            \
        q /= b[i];                                                                             \
        out[4 * i + 2] = q;                                                                    \
        T r = a[i];                                                                            \
        r %= b[i];                                                                             \
        out[4 * i + 3] = r;                                                                    \
    }
DIVISION_KERNEL(char) DIVISION_KERNEL(uchar) DIVISION_KERNEL(short) DIVISION_KERNEL(ushort)
DIVISION_KERNEL(int) DIVISION_KERNEL(uint) DIVISION_KERNEL(long) DIVISION_KERNEL(ulong)
DIVISION_KERNEL(char4) DIVISION_KERNEL(short2) DIVISION_KERNEL(int4) DIVISION_KERNEL(uint4) DIVISION_KERNEL(long2)
)";

/// Divisions in constant expressions: program-scope constants and array bounds.
const char kConstantKernel[] = R"(
constant int kZero = 0;
constant int kQuotient = 7 / kZero;
constant int kRemainder = 7 % kZero;
template <int N> struct Halves { int v[N / 2]; };
kernel void constants(device int* out [[buffer(0)]]) {
    Halves<6> h;
    out[0] = kQuotient;
    out[1] = kRemainder;
    out[2] = int(sizeof(h.v) / sizeof(int));
}
)";

/// Divisions that are not the built-in integer ones, or are by other types: user operators
/// (members and non-members, on classes and enums, also returning integers) get the divisor
/// as it was; a class that only converts to int, __int128 and unsigned __int128 divide
/// checked; a bit-field is divided by assigning the checked quotient. a[0] holds 0.
const char kOtherDivisionsKernel[] = R"(
#include <metal_stdlib>
using namespace metal;
struct S { int v; operator int() const { return v; } };
int operator/(S s, int d) { return s.v * 100 + d; }
int operator%(S s, int d) { return s.v * 1000 + d; }
struct N { int v; };
int operator/(N n, int d) { return n.v * 10 + d; }
struct C { int v; operator int() const { return v; } };
enum E { e7 = 7 };
int operator/(E e, int d) { return int(e) * 10000 + d; }
struct M { int v; int operator/(int d) const { return v + d; } M& operator/=(int d) { v = v * 2 + d; return *this; } };
struct B { int f : 8; };
kernel void others(device long* a [[buffer(0)]]) {
    const int zero = int(a[0]);
    a[1] = S{3} / 2;
    a[2] = S{3} % 2;
    a[3] = N{4} / 5;
    a[4] = C{9} / zero;
    a[5] = e7 / 3;
    M m{5};
    a[6] = m / 1;
    m /= 1;
    a[7] = m.v;
    const __int128 x = 123456789, min = (__int128)1 << 127, minusOne = zero - 1;
    a[8] = (long)(x / zero);
    a[9] = (long)(x % zero);
    a[10] = (long)((min / minusOne) >> 64);
    a[11] = (long)((unsigned __int128)x / (unsigned __int128)zero);
    B b{100};
    b.f = b.f / zero;
    a[12] = b.f;
}
)";

/// A kernel's element type on the host, its MSL name, and its number of lanes.
template <class E, int Lanes, const char* Name>
struct Case {
    using element = E;
    static constexpr int lanes = Lanes;
    static constexpr const char* name = Name;
};
constexpr char kChar[] = "char", kUchar[] = "uchar", kShort[] = "short", kUshort[] = "ushort", kInt[] = "int",
               kUint[] = "uint", kLong[] = "long", kUlong[] = "ulong", kChar4[] = "char4", kShort2[] = "short2",
               kInt4[] = "int4", kUint4[] = "uint4", kLong2[] = "long2";

/// The documented answer, computed apart from metalcpu's helpers: in the promoted type, as
/// C++ computes `a / b`, then converted back.
template <class E>
E expectedQuotient(E a, E b) {
    using Q = decltype(a / b);
    const Q x = a, y = b;
    if (y == 0) return E(0);
    if constexpr (std::is_signed_v<Q>)
        if (y == -1) return E(static_cast<Q>(std::make_unsigned_t<Q>(0) - static_cast<std::make_unsigned_t<Q>>(x)));
    return E(x / y);
}
template <class E>
E expectedRemainder(E a, E b) {
    using Q = decltype(a % b);
    const Q x = a, y = b;
    if (y == 0) return a;
    if constexpr (std::is_signed_v<Q>)
        if (y == -1) return E(0);
    return E(x % y);
}

/// The operand pairs: zero divisors of every dividend, MIN / -1, and ordinary neighbours.
template <class E>
std::vector<std::pair<E, E>> operands() {
    constexpr E max = std::numeric_limits<E>::max(), min = std::numeric_limits<E>::min();
    std::vector<std::pair<E, E>> pairs = {{7, 0}, {0, 0}, {max, 0}, {min, 0}, {7, 2}, {max, 3}, {max, max}};
    if constexpr (std::is_signed_v<E>)
        pairs.insert(pairs.end(), {{E(-7), 0}, {min, E(-1)}, {E(-7), 2}, {7, E(-1)}, {min, 1}, {E(-7), E(-2)}});
    return pairs;
}

class IntegerDivisionRun : public testing::MetalTest {
protected:
    // The kernels compile into a cache of their own, so that a library cached by an earlier
    // build cannot hide a regression of the front end.
    static void SetUpTestSuite() {
        cacheDirectory_ = support::makeTemporaryDirectory("metalcpu-division-cache-");
        cache_ = std::make_unique<testing::ScopedEnvironmentVariable>("METALCPU_CACHE_DIR", cacheDirectory_);
        library_ = compile(kKernels);
    }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
        cache_.reset();
        support::removeTree(cacheDirectory_);
    }

    /// Runs `kernel` over `threads` threads with buffers a, b (inputs) and out, in groups of
    /// 3 (groups that do not divide the grid). False when it did not complete.
    bool divide(const char* kernel, const void* a, const void* b, void* out, std::size_t inputBytes,
             std::size_t threads) {
        MTL::ComputePipelineState* state = pipeline(library_, kernel);
        if (!state) return false;
        MTL::Buffer* in0 = device_->newBuffer(a, inputBytes, MTL::ResourceStorageModeShared);
        MTL::Buffer* in1 = device_->newBuffer(b, inputBytes, MTL::ResourceStorageModeShared);
        MTL::Buffer* result = device_->newBuffer(4 * inputBytes, MTL::ResourceStorageModeShared);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(in0, 0, 0);
        encoder->setBuffer(in1, 0, 1);
        encoder->setBuffer(result, 0, 2);
        encoder->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(3, 1, 1));
        encoder->endEncoding();
        const bool completed = run(commands) == MTL::CommandBufferStatusCompleted;
        if (completed) std::memcpy(out, result->contents(), 4 * inputBytes);
        for (MTL::Resource* r : {static_cast<MTL::Resource*>(in0), static_cast<MTL::Resource*>(in1),
                                 static_cast<MTL::Resource*>(result)})
            r->release();
        state->release();
        return completed;
    }

    static MTL::Library* library_;
    static std::string cacheDirectory_;
    static std::unique_ptr<testing::ScopedEnvironmentVariable> cache_;
};
MTL::Library* IntegerDivisionRun::library_ = nullptr;
std::string IntegerDivisionRun::cacheDirectory_;
std::unique_ptr<testing::ScopedEnvironmentVariable> IntegerDivisionRun::cache_;

template <class C>
class IntegerDivision : public IntegerDivisionRun {};
using Cases = ::testing::Types<Case<std::int8_t, 1, kChar>, Case<std::uint8_t, 1, kUchar>, Case<std::int16_t, 1, kShort>,
                               Case<std::uint16_t, 1, kUshort>, Case<std::int32_t, 1, kInt>,
                               Case<std::uint32_t, 1, kUint>, Case<std::int64_t, 1, kLong>,
                               Case<std::uint64_t, 1, kUlong>, Case<std::int8_t, 4, kChar4>,
                               Case<std::int16_t, 2, kShort2>, Case<std::int32_t, 4, kInt4>,
                               Case<std::uint32_t, 4, kUint4>, Case<std::int64_t, 2, kLong2>>;
TYPED_TEST_SUITE(IntegerDivision, Cases);

// Test that /, %, /= and %= give the documented values for every operand pair (spread over
// the lanes of vectors) and that nothing traps.
TYPED_TEST(IntegerDivision, DocumentedValuesWithoutASignal) {
    using E = typename TypeParam::element;
    constexpr int lanes = TypeParam::lanes;
    std::vector<std::pair<E, E>> pairs = operands<E>();
    // Every thread gets one vector (or scalar); the pairs fill the lanes in order.
    const std::size_t threads = (pairs.size() + lanes - 1) / lanes;
    std::vector<E> a(threads * lanes, E(1)), b(threads * lanes, E(1)), out(4 * threads * lanes);
    for (std::size_t k = 0; k < pairs.size(); ++k) std::tie(a[k], b[k]) = pairs[k];
    const std::string kernel = std::string("divide_") + TypeParam::name;
    ASSERT_TRUE(this->divide(kernel.c_str(), a.data(), b.data(), out.data(), a.size() * sizeof(E), threads));
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const std::size_t thread = k / lanes, lane = k % lanes;
        const E x = pairs[k].first, y = pairs[k].second;
        SCOPED_TRACE(std::to_string(+x) + " and " + std::to_string(+y));
        EXPECT_EQ(+out[(4 * thread + 0) * lanes + lane], +expectedQuotient(x, y)) << "a / b";
        EXPECT_EQ(+out[(4 * thread + 1) * lanes + lane], +expectedRemainder(x, y)) << "a % b";
        EXPECT_EQ(+out[(4 * thread + 2) * lanes + lane], +expectedQuotient(x, y)) << "a /= b";
        EXPECT_EQ(+out[(4 * thread + 3) * lanes + lane], +expectedRemainder(x, y)) << "a %= b";
    }
}

// Test that divisions in constant expressions (program-scope constants, array bounds of a
// template) compile and give the documented values.
TEST_F(IntegerDivisionRun, ConstantExpressions) {
    MTL::ComputePipelineState* state = pipeline(kConstantKernel, "constants");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* out = device_->newBuffer(3 * sizeof(int), MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(out, 0, 0);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    const int* values = static_cast<const int*>(out->contents());
    EXPECT_EQ(values[0], 0); // 7 / 0
    EXPECT_EQ(values[1], 7); // 7 % 0
    EXPECT_EQ(values[2], 3); // int v[6 / 2]
    out->release();
    state->release();
}

// Test that a user type's own operator/ and operator% get the divisor as it was, also when
// they return an integer (S{3} / 2 used to give 1, and N{4} / 5 did not compile); that a
// class converting to int, __int128 (which trapped) and unsigned __int128 divide checked; and
// that a bit-field divides checked when the quotient is assigned.
TEST_F(IntegerDivisionRun, OtherOperandTypes) {
    MTL::ComputePipelineState* state = pipeline(kOtherDivisionsKernel, "others");
    ASSERT_NE(state, nullptr);
    MTL::Buffer* values = device_->newBuffer(16 * sizeof(std::int64_t), MTL::ResourceStorageModeShared);
    std::fill_n(static_cast<std::int64_t*>(values->contents()), 16, -1);
    static_cast<std::int64_t*>(values->contents())[0] = 0;
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(values, 0, 0);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    const std::int64_t* a = static_cast<const std::int64_t*>(values->contents());
    EXPECT_EQ(a[1], 302);       // S{3} / 2, the user's operator
    EXPECT_EQ(a[2], 3002);      // S{3} % 2
    EXPECT_EQ(a[3], 45);        // N{4} / 5, no conversion to int
    EXPECT_EQ(a[4], 0);         // C{9} / 0, built-in through the conversion
    EXPECT_EQ(a[5], 70003);     // e7 / 3, the user's operator on an enum
    EXPECT_EQ(a[6], 6);         // m / 1, a member operator
    EXPECT_EQ(a[7], 11);        // m /= 1, a member operator
    EXPECT_EQ(a[8], 0);         // __int128 / 0
    EXPECT_EQ(a[9], 123456789); // __int128 % 0
    EXPECT_EQ(a[10], std::numeric_limits<std::int64_t>::min()); // __int128 MIN / -1 wraps to MIN
    EXPECT_EQ(a[11], 0);        // unsigned __int128 / 0
    EXPECT_EQ(a[12], 0);        // b.f = b.f / 0
    values->release();
    state->release();
}

// Test that a bit-field on the left of /= is an error at its line (the checked operator takes
// its left operand by reference, which a bit-field cannot bind to), never an unchecked division.
TEST_F(IntegerDivisionRun, BitFieldCompoundDivisionIsAnError) {
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(
        NS::String::string("struct B { int f : 8; };\n"
                           "kernel void k(device int* a [[buffer(0)]]) {\n"
                           "    B b{100};\n    b.f /= a[0];\n    a[1] = b.f;\n}\n",
                           NS::UTF8StringEncoding),
        nullptr, &error);
    ASSERT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    const std::string message = testing::text(error->localizedDescription());
    EXPECT_NE(message.find("program_source:4:"), std::string::npos) << message;
    EXPECT_NE(message.find("cannot bind bit-field"), std::string::npos) << message;
}

} // namespace
} // namespace metalcpu
