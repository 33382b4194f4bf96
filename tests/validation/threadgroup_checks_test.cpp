// The checks beyond Apple's (METALCPU_SHADER_VALIDATION_CHECKS=races,uninitialized,
// validation/threadgroup_checks.h): a race on threadgroup memory between SIMD-groups with no
// barrier between the two accesses, or within one with no SIMD-group synchronisation either,
// and a load of threadgroup memory no thread stored to. Each
// kernel has a silent twin; every test runs over threadgroup sizes (1, 7 and 33 threads, which
// are not multiples of the 32-thread SIMD-group, 64 and 128) and over the three lowerings: the
// kernels as written (their barriers become work-item loops), with every barrier under an `if`
// on the thread's index (a condition naming a per-thread builtin keeps the kernel a coroutine)
// and with every barrier called through a lambda (which keeps the kernel on fibers). Every
// kernel ends with a barrier, so that even the barrier-free ones take the lowering under test.
#include "runtime/lowering.h"
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::AddressSpace;
using validation::ReportKind;
using validation::ShaderValidationReport;

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

// Each thread stores its slot, then reads the slot 32 threads on: another SIMD-group's, when
// the group has more than 32 threads.
kernel void rw(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
               uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[128];
    t[l] = float(l);
    out[i] = t[(l + 32) % n];
    BARRIER;
}
kernel void rw_fenced(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                      uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[128];
    t[l] = float(l);
    BARRIER;
    out[i] = t[(l + 32) % n];
    BARRIER;
}
// Threads l and l + 32 store to one slot.
kernel void ww(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
               uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[32];
    t[l % 32] = float(l);
    BARRIER;
    out[i] = t[l % 32];
    BARRIER;
}
// Threads l and l + 32 store the same value to one slot: no report (Oclgrind's same-value
// suppression; PyTorch's int8mm has SIMD-groups store the same scales).
kernel void same_value(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                       uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[32];
    t[l % 32] = float(l % 32);
    BARRIER;
    out[i] = t[l % 32];
    BARRIER;
}
// Every thread clears a row, then fills it: the row ends as every SIMD-group leaves it, whichever
// runs first (PyTorch's int8mm builds its diagonal matrix of scales so).
kernel void clear_then_fill(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                            uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[8];
    for (uint j = 0; j < 8; ++j) {
        t[j] = 0.0f;
        t[j] = float(j) + 1.0f;
    }
    BARRIER;
    out[i] = t[l % 8];
    BARRIER;
}
// The neighbouring lane's slot, in the same SIMD-group, with nothing between the store and the
// load: Metal does not promise that a SIMD-group runs in lockstep (candle's argsort without its
// first barrier).
kernel void lanes(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                  uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[128];
    t[l] = float(l);
    out[i] = t[(l ^ 1u) < n ? (l ^ 1u) : l];
    BARRIER;
}
// The same with a simdgroup_barrier between them.
kernel void lanes_simd_fenced(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                              uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    SIMD_FENCE_DECL
    threadgroup float t[128];
    t[l] = float(l);
    SIMD_BARRIER;
    out[i] = t[(l ^ 1u) < n ? (l ^ 1u) : l];
    BARRIER;
}
// Every lane reads its SIMD-group's slot, then lane 0 stores to it with nothing between
// (llama.cpp's flash_attn_ext_vec keeps S and M so): the front end keeps the lanes of a kernel on
// fibers in lockstep there (a lockstep point), which must not hide the race from the check.
kernel void lane_zero_keeps(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                            uint lane [[thread_index_in_simdgroup]], uint sg [[simdgroup_index_in_threadgroup]],
                            uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[4];
    if (lane == 0) t[sg] = 1.0f;
    BARRIER;
    float s = 0.0f;
    s = simd_sum(1.0f);
    const float seen = t[sg];
    if (lane == 0) {
        t[sg] = s;
    }
    out[i] = seen;
    BARRIER;
}
// The same with a SIMD-group function between them.
kernel void lanes_collective(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                             uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[128];
    float lanes = 0.0f;
    t[l] = float(l);
    lanes = simd_sum(1.0f);
    out[i] = t[(l ^ 1u) < n ? (l ^ 1u) : l] + 0.0f * lanes;
    BARRIER;
}
// A tile reused without a second barrier: the next round's store races with this round's load.
kernel void war(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[128];
    float sum = 0.0f;
    for (uint k = 0; k < 2; ++k) {
        t[l] = float(l + k);
        BARRIER;
        sum += t[(l + 32) % n];
    }
    out[i] = sum;
    BARRIER;
}
kernel void war_fenced(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                       uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[128];
    float sum = 0.0f;
    for (uint k = 0; k < 2; ++k) {
        t[l] = float(l + k);
        BARRIER;
        sum += t[(l + 32) % n];
        BARRIER;
    }
    out[i] = sum;
    BARRIER;
}
// Every thread counts itself with atomics and no barrier between the atomics: no race.
kernel void atomics(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                    uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup atomic_uint c[1];
    if (l == 0) atomic_store_explicit(&c[0], 0u, memory_order_relaxed);
    BARRIER;
    atomic_fetch_add_explicit(&c[0], 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(&c[0], 1u, memory_order_relaxed);
    BARRIER;
    out[i] = float(atomic_load_explicit(&c[0], memory_order_relaxed));
    BARRIER;
}
// Thread n - 1 reads t[n], which no thread stored to.
kernel void uninit(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                   uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[129];
    t[l] = 1.0f;
    BARRIER;
    out[i] = t[l + 1];
    BARRIER;
}
// A scalar threadgroup variable: the last thread stores it, every thread loads it, with no
// barrier between them.
kernel void scalar_rw(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                      uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float total;
    if (l == 0) total = 0.0f;
    BARRIER;
    if (l == n - 1) total = 1.0f;
    out[i] = total;
    BARRIER;
}
kernel void scalar_fenced(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                          uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float total;
    threadgroup atomic_uint count;
    if (l == 0) atomic_store_explicit(&count, 0u, memory_order_relaxed);
    BARRIER;
    if (l == n - 1) total = 1.0f;
    atomic_fetch_add_explicit(&count, 1u, memory_order_relaxed);
    BARRIER;
    out[i] = total + float(atomic_load_explicit(&count, memory_order_relaxed));
    BARRIER;
}
// No thread stores the scalar.
kernel void scalar_uninit(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                          uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float total;
    if (l == n) total = 1.0f;
    BARRIER;
    out[i] = total;
    BARRIER;
}
kernel void init(device float* out [[buffer(0)]], uint l [[thread_index_in_threadgroup]],
                 uint n [[threads_per_threadgroup]], uint i [[thread_position_in_grid]]) {
    FENCE_DECL
    threadgroup float t[129];
    t[l] = 1.0f;
    BARRIER;
    out[i] = t[(l + 1) % n];
    BARRIER;
}
)";

enum class Lowering { WorkItems, Coroutines, Fibers };
constexpr Lowering kLowerings[] = {Lowering::WorkItems, Lowering::Coroutines, Lowering::Fibers};

/// kKernels with its barriers as written, under an `if` every thread takes, or called through
/// a lambda.
std::string kernels(Lowering lowering) {
    std::string source = kKernels;
    const auto replaceAll = [&source](const std::string& from, const std::string& to) {
        for (std::size_t at = source.find(from); at != std::string::npos; at = source.find(from, at + to.size()))
            source.replace(at, from.size(), to);
    };
    const bool fibers = lowering == Lowering::Fibers;
    replaceAll("SIMD_FENCE_DECL", fibers ? "auto simd_fence = []() { simdgroup_barrier(mem_flags::mem_threadgroup); };" : "");
    replaceAll("FENCE_DECL", fibers ? "auto fence = []() { threadgroup_barrier(mem_flags::mem_threadgroup); };" : "");
    replaceAll("SIMD_BARRIER;", fibers ? "simd_fence();"
                                : lowering == Lowering::Coroutines ? "if (l != 0xFFFFFFFFu) simdgroup_barrier(mem_flags::mem_threadgroup);"
                                                                   : "simdgroup_barrier(mem_flags::mem_threadgroup);");
    replaceAll("BARRIER;", fibers                              ? "fence();"
                           : lowering == Lowering::Coroutines ? "if (l != 0xFFFFFFFFu) threadgroup_barrier(mem_flags::mem_threadgroup);"
                                                              : "threadgroup_barrier(mem_flags::mem_threadgroup);");
    return source;
}

/// The first line of kKernels holding `text` after the line holding `after`.
unsigned lineOf(const char* after, const char* text) {
    const std::string source = kernels(Lowering::WorkItems);
    const std::size_t from = source.find(after);
    const std::size_t at = source.find(text, from);
    return at == std::string::npos ? 0 : unsigned(1 + std::count(source.begin(), source.begin() + at, '\n'));
}

/// Line `line` of kKernels.
std::string lineText(unsigned line) {
    const std::string source = kernels(Lowering::WorkItems);
    std::size_t at = 0;
    for (unsigned l = 1; l < line; ++l) at = source.find('\n', at) + 1;
    return source.substr(at, source.find('\n', at) - at);
}

struct Case {
    Lowering lowering;
    NS::UInteger group;
};

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    const char* const names[] = {"work_items", "coroutines", "fibers"};
    return std::string(names[int(info.param.lowering)]) + "_by" + std::to_string(info.param.group);
}

class ThreadgroupChecks : public ValidationOnFixture, public ::testing::WithParamInterface<Case> {
protected:
    static void SetUpTestSuite() {
        for (Lowering lowering : kLowerings) libraries_[int(lowering)] = compile(kernels(lowering));
    }
    static void TearDownTestSuite() {
        for (MTL::Library*& library : libraries_) {
            if (library) library->release();
            library = nullptr;
        }
    }

    void SetUp() override {
        ValidationOnFixture::SetUp();
        val::ShaderValidationSettings settings;
        settings.enabled = true;
        settings.extraChecks.races = true;
        settings.extraChecks.uninitialized = true;
        configure(settings);
    }

    NS::UInteger group() const { return GetParam().group; }
    bool acrossSimdGroups() const { return group() > 32; }

    /// Two groups of `name`; the reports. `out` gets one float per thread, between canaries.
    std::vector<ShaderValidationReport> run(const char* name) {
        const NS::UInteger count = 2 * group();
        out_ = buffer((count + 2) * sizeof(float), "out");
        for (NS::UInteger k = 0; k < count + 2; ++k) words(out_)[k] = k == 0 || k == count + 1 ? kCanary : 0;
        MTL::ComputePipelineState* state =
            pipeline(libraries_[int(GetParam().lowering)], name, nullptr, MTL::ShaderValidationEnabled);
        if (!state) return {};
        dispatch(state, count, group(), [&](MTL::ComputeCommandEncoder* e) { e->setBuffer(out_, sizeof(float), 0); });
        EXPECT_EQ(words(out_)[0], kCanary);
        EXPECT_EQ(words(out_)[count + 1], kCanary);
        return reports();
    }
    float result(NS::UInteger thread) const { return floats(out_)[1 + thread]; }

    /// The race reports among `reports` between SIMD-groups (`sameSimdgroup` false) or within
    /// one (true). (A racing load may also read bytes not stored to yet, which the
    /// uninitialized check reports too: it is a load a GPU may make.)
    static std::vector<ShaderValidationReport> races(const std::vector<ShaderValidationReport>& reports,
                                                     bool sameSimdgroup = false) {
        std::vector<ShaderValidationReport> found;
        for (const ShaderValidationReport& r : reports)
            if (r.kind == ReportKind::ThreadgroupRace && r.other.sameSimdgroup == sameSimdgroup) found.push_back(r);
        return found;
    }

    /// The one race report between SIMD-groups among `all`, checked for what every such
    /// report says.
    ShaderValidationReport race(const std::vector<ShaderValidationReport>& all) {
        const std::vector<ShaderValidationReport> reports = races(all);
        EXPECT_EQ(reports.size(), 1u) << ::testing::PrintToString(all);
        if (reports.size() != 1) return {};
        const ShaderValidationReport& r = reports[0];
        EXPECT_EQ(r.kind, ReportKind::ThreadgroupRace);
        EXPECT_EQ(r.addressSpace, AddressSpace::Threadgroup);
        EXPECT_NE(r.threadPositionInThreadgroup.x / 32, r.other.threadPositionInThreadgroup.x / 32)
            << "two threads of different SIMD-groups";
        EXPECT_GE(r.count, 2u) << "the same race in both groups";
        EXPECT_THAT(r.text(), ::testing::HasSubstr("no threadgroup barrier between them"));
        EXPECT_THAT(r.json(), ::testing::HasSubstr("\"kind\":\"threadgroup-race\""));
        return r;
    }

    static constexpr std::uint32_t kCanary = 0xC0FFEE11u;
    static inline MTL::Library* libraries_[3] = {nullptr, nullptr, nullptr};
    MTL::Buffer* out_ = nullptr;
};

// Test that a load of a slot another SIMD-group stored to with no barrier between them is
// reported as a read-write race naming both sites, and only when the two threads are in
// different SIMD-groups.
TEST_P(ThreadgroupChecks, ReadWriteRaceBetweenSimdGroups) {
    const std::vector<ShaderValidationReport> reports = run("rw");
    if (!acrossSimdGroups()) {
        EXPECT_THAT(races(reports), ::testing::IsEmpty()) << "one SIMD-group runs in lockstep";
        return;
    }
    const ShaderValidationReport r = race(reports);
    EXPECT_STREQ(r.raceKind(), "read-write");
    const std::set<unsigned> lines{r.location.line, r.other.location.line};
    EXPECT_EQ(lines, (std::set<unsigned>{lineOf("kernel void rw(", "t[l] = float(l);"),
                                         lineOf("kernel void rw(", "out[i] = t[(l + 32) % n];")}));
    EXPECT_NE(r.access, r.other.access);
    EXPECT_GT(r.location.column, 0u);
}

TEST_P(ThreadgroupChecks, BarrierBetweenTheAccessesIsSilent) {
    EXPECT_THAT(run("rw_fenced"), ::testing::IsEmpty());
    for (NS::UInteger k = 0; k < 2 * group(); ++k) EXPECT_EQ(result(k), float((k % group() + 32) % group()));
}

// Test that two stores to one slot by threads of different SIMD-groups are a write-write race.
TEST_P(ThreadgroupChecks, WriteWriteRace) {
    const std::vector<ShaderValidationReport> reports = run("ww");
    if (!acrossSimdGroups()) {
        EXPECT_THAT(reports, ::testing::IsEmpty()) << "each thread stores its own slot";
        return;
    }
    const ShaderValidationReport r = race(reports);
    EXPECT_STREQ(r.raceKind(), "write-write");
    EXPECT_EQ(r.access, Access::Store);
    EXPECT_EQ(r.other.access, Access::Store);
    EXPECT_EQ(r.location.line, lineOf("kernel void ww(", "t[l % 32] = float(l);"));
    EXPECT_EQ(r.offset % 4, 0u);
    EXPECT_THAT(r.json(), ::testing::HasSubstr("\"race\":\"write-write\""));
}

// (Whether the neighbour's slot was stored to first depends on how closely the lowering keeps
// lockstep, so only races are asked about.)
TEST_P(ThreadgroupChecks, StoresOfTheSameValueAreSilent) {
    EXPECT_THAT(run("same_value"), ::testing::IsEmpty());
    for (NS::UInteger k = 0; k < 2 * group(); ++k) EXPECT_EQ(result(k), float(k % group() % 32));
}

TEST_P(ThreadgroupChecks, StoresThatAgreeAtTheBarrierAreSilent) {
    EXPECT_THAT(run("clear_then_fill"), ::testing::IsEmpty());
    for (NS::UInteger k = 0; k < 2 * group(); ++k) EXPECT_EQ(result(k), float(k % group() % 8 + 1));
}

// Test that a load of a neighbouring lane's slot with nothing between it and the lane's store is
// a race within the SIMD-group (Metal does not promise lockstep), in its own words, and that a
// simdgroup_barrier or a SIMD-group function between them makes it silent.
TEST_P(ThreadgroupChecks, SameSimdGroupRaces) {
    const std::vector<ShaderValidationReport> reports = run("lanes");
    EXPECT_THAT(races(reports), ::testing::IsEmpty()) << "no thread reads another SIMD-group's slot";
    const std::vector<ShaderValidationReport> within = races(reports, true);
    if (group() == 1) {
        EXPECT_THAT(within, ::testing::IsEmpty()) << "a thread alone reads its own slot";
        return;
    }
    ASSERT_EQ(within.size(), 1u) << ::testing::PrintToString(reports);
    const ShaderValidationReport& r = within[0];
    EXPECT_STREQ(r.raceKind(), "read-write");
    EXPECT_EQ(r.threadPositionInThreadgroup.x / 32, r.other.threadPositionInThreadgroup.x / 32);
    EXPECT_NE(r.threadPositionInThreadgroup.x, r.other.threadPositionInThreadgroup.x);
    EXPECT_EQ(r.threadPositionInThreadgroup.x ^ 1u, r.other.threadPositionInThreadgroup.x) << "neighbouring lanes";
    const std::set<unsigned> lines{r.location.line, r.other.location.line};
    EXPECT_EQ(lines, (std::set<unsigned>{lineOf("kernel void lanes(", "t[l] = float(l);"),
                                         lineOf("kernel void lanes(", "out[i] = t[(l ^ 1u) < n ? (l ^ 1u) : l];")}));
    EXPECT_GE(r.count, 2u) << "in both groups";
    EXPECT_THAT(r.text(), ::testing::HasSubstr(", in the same SIMD-group, with no simdgroup_barrier, SIMD-group "
                                               "function or threadgroup barrier between them\n"));
    EXPECT_THAT(r.json(), ::testing::HasSubstr("\"sameSimdgroup\":true"));
}

// Test that lanes' reads of a slot and lane 0's store to it after them are a race within the
// SIMD-group on every lowering, where the front end keeps fibers' lanes in lockstep too, and
// that every lane still reads the value stored before the barrier.
TEST_P(ThreadgroupChecks, LockstepPointHidesNoRace) {
    const std::vector<ShaderValidationReport> reports = run("lane_zero_keeps");
    EXPECT_THAT(races(reports), ::testing::IsEmpty()) << "each SIMD-group has its own slot";
    for (NS::UInteger k = 0; k < 2 * group(); ++k) EXPECT_EQ(result(k), 1.0f) << k;
    const std::vector<ShaderValidationReport> within = races(reports, true);
    if (group() == 1) {
        EXPECT_THAT(within, ::testing::IsEmpty());
        return;
    }
    ASSERT_EQ(within.size(), 1u) << ::testing::PrintToString(reports);
    const ShaderValidationReport& r = within[0];
    const std::set<unsigned> lines{r.location.line, r.other.location.line};
    EXPECT_EQ(lines, (std::set<unsigned>{lineOf("kernel void lane_zero_keeps(", "const float seen = t[sg];"),
                                         lineOf("kernel void lane_zero_keeps(", "t[sg] = s;")}));
    EXPECT_STREQ(r.raceKind(), "read-write");
}

TEST_P(ThreadgroupChecks, SimdgroupBarrierBetweenLanesIsSilent) {
    EXPECT_THAT(run("lanes_simd_fenced"), ::testing::IsEmpty());
    for (NS::UInteger k = 0; k < 2 * group(); ++k) {
        const NS::UInteger l = k % group();
        EXPECT_EQ(result(k), float((l ^ 1u) < group() ? (l ^ 1u) : l)) << k;
    }
}

TEST_P(ThreadgroupChecks, SimdgroupFunctionBetweenLanesIsSilent) {
    EXPECT_THAT(run("lanes_collective"), ::testing::IsEmpty());
    for (NS::UInteger k = 0; k < 2 * group(); ++k) {
        const NS::UInteger l = k % group();
        EXPECT_EQ(result(k), float((l ^ 1u) < group() ? (l ^ 1u) : l)) << k;
    }
}

// Test that a tile stored to again after a round's loads, with no second barrier, is a race
// between the store and the other SIMD-group's load of the round before.
TEST_P(ThreadgroupChecks, WriteAfterReadWithoutTheSecondBarrier) {
    const std::vector<ShaderValidationReport> reports = run("war");
    if (!acrossSimdGroups()) {
        EXPECT_THAT(races(reports), ::testing::IsEmpty()); // within the SIMD-group: SameSimdGroupRaces
        return;
    }
    // Which of the two comes first depends on the lowering's order of the threads: on fibers
    // thread 0 stores the next round's value before thread 32 loads this round's.
    const ShaderValidationReport r = race(reports);
    EXPECT_STREQ(r.raceKind(), "read-write");
    const ShaderValidationReport::OtherAccess& store = r.access == Access::Store ? ShaderValidationReport::OtherAccess{
        r.access, false, r.threadPositionInGrid, r.threadPositionInThreadgroup, r.location} : r.other;
    const ShaderValidationReport::OtherAccess& load = r.access == Access::Store ? r.other : ShaderValidationReport::OtherAccess{
        r.access, false, r.threadPositionInGrid, r.threadPositionInThreadgroup, r.location};
    EXPECT_EQ(store.access, Access::Store);
    EXPECT_EQ(store.location.line, lineOf("kernel void war(", "t[l] = float(l + k);"));
    EXPECT_EQ(load.access, Access::Load);
    EXPECT_EQ(load.location.line, lineOf("kernel void war(", "sum += t[(l + 32) % n];"));
}

TEST_P(ThreadgroupChecks, SecondBarrierIsSilent) { EXPECT_THAT(run("war_fenced"), ::testing::IsEmpty()); }

TEST_P(ThreadgroupChecks, AtomicsNeverRace) {
    EXPECT_THAT(run("atomics"), ::testing::IsEmpty());
    for (NS::UInteger k = 0; k < 2 * group(); ++k) EXPECT_EQ(result(k), float(2 * group()));
}

// Test that a load of bytes no thread stored to is reported once per site, counted in both
// groups, and reads the poison (a NaN) rather than zero.
TEST_P(ThreadgroupChecks, UninitializedLoadIsReported) {
    const std::vector<ShaderValidationReport> reports = run("uninit");
    ASSERT_EQ(reports.size(), 1u) << ::testing::PrintToString(reports);
    const ShaderValidationReport& r = reports[0];
    EXPECT_EQ(r.kind, ReportKind::UninitializedLoad);
    EXPECT_EQ(r.access, Access::Load);
    EXPECT_EQ(r.offset, group() * sizeof(float)) << "t[n]";
    EXPECT_EQ(r.count, 2u) << "thread n - 1 of each group";
    EXPECT_EQ(r.threadPositionInThreadgroup, (validation::Position{std::uint32_t(group() - 1), 0, 0}));
    EXPECT_EQ(r.location.line, lineOf("kernel void uninit(", "out[i] = t[l + 1];"));
    EXPECT_THAT(r.text(), ::testing::StartsWith("Uninitialized threadgroup load at offset"));
    EXPECT_TRUE(std::isnan(result(group() - 1))) << "the poison, not zero";
    if (group() > 1) {
        EXPECT_EQ(result(0), 1.0f);
    }
}

TEST_P(ThreadgroupChecks, StoredThenLoadedIsSilent) {
    EXPECT_THAT(run("init"), ::testing::IsEmpty());
    for (NS::UInteger k = 0; k < 2 * group(); ++k) EXPECT_EQ(result(k), 1.0f);
}

// Test that each library's kernels take the lowering the suite runs them under, validated: a
// kernel that fell back would leave that lowering's watch untested.
TEST_P(ThreadgroupChecks, KernelsTakeTheLowering) {
    const std::uint32_t expected[] = {MC_KERNEL_WORK_ITEM_LOOPS, MC_KERNEL_COROUTINES, MC_KERNEL_USES_BARRIERS};
    const std::uint32_t lowering = expected[int(GetParam().lowering)];
    expectLowerings({{"rw", lowering}, {"rw_fenced", lowering}, {"ww", lowering}, {"war", lowering},
                     {"atomics", lowering}, {"uninit", lowering}, {"scalar_rw", lowering},
                     {"lanes_simd_fenced", lowering}},
                    [&](const char* name) {
                        MTL::ComputePipelineState* state =
                            pipeline(libraries_[int(GetParam().lowering)], name, nullptr, MTL::ShaderValidationEnabled);
                        return state ? state->retain() : nullptr;
                    });
}

std::vector<Case> allCases() {
    std::vector<Case> cases;
    for (Lowering lowering : kLowerings)
        for (NS::UInteger group : {1, 7, 33, 64, 128}) cases.push_back({lowering, group});
    return cases;
}

// Test that a scalar threadgroup variable is watched as an array is: its store and the other
// SIMD-group's loads race with no barrier between them, a load of it no thread stored is
// uninitialised, and the fenced twin (its atomics included) is silent.
TEST_P(ThreadgroupChecks, ScalarVariableRace) {
    const std::vector<ShaderValidationReport> reports = run("scalar_rw");
    if (!acrossSimdGroups()) {
        EXPECT_THAT(races(reports), ::testing::IsEmpty());
        return;
    }
    const ShaderValidationReport r = race(reports);
    EXPECT_STREQ(r.raceKind(), "read-write");
    EXPECT_EQ(r.offset, 0u);
    EXPECT_EQ(r.size, sizeof(float));
    const std::set<unsigned> lines{r.location.line, r.other.location.line};
    EXPECT_EQ(lines, (std::set<unsigned>{lineOf("kernel void scalar_rw(", "if (l == n - 1) total = 1.0f;"),
                                         lineOf("kernel void scalar_rw(", "out[i] = total;")}));
}

TEST_P(ThreadgroupChecks, ScalarVariableFencedIsSilent) {
    EXPECT_THAT(run("scalar_fenced"), ::testing::IsEmpty());
    for (NS::UInteger k = 0; k < 2 * group(); ++k) EXPECT_EQ(result(k), 1.0f + float(group()));
}

TEST_P(ThreadgroupChecks, ScalarVariableUninitializedLoad) {
    const std::vector<ShaderValidationReport> reports = run("scalar_uninit");
    ASSERT_EQ(reports.size(), 1u) << ::testing::PrintToString(reports);
    const ShaderValidationReport& r = reports[0];
    EXPECT_EQ(r.kind, ReportKind::UninitializedLoad);
    EXPECT_EQ(r.offset, 0u);
    EXPECT_EQ(r.count, 2 * group()) << "every thread of both groups";
    EXPECT_EQ(r.location.line, lineOf("kernel void scalar_uninit(", "out[i] = total;"));
    EXPECT_EQ(r.location.column, unsigned(lineText(r.location.line).find("total") + 1));
    EXPECT_TRUE(std::isnan(result(0))) << "the poison, not zero";
}

INSTANTIATE_TEST_SUITE_P(Lowerings, ThreadgroupChecks, ::testing::ValuesIn(allCases()), caseName);

// Test that without METALCPU_SHADER_VALIDATION_CHECKS the same race is not looked for, and
// threadgroup memory reads as zero again.
class ThreadgroupChecksOff : public ValidationOnFixture {};

TEST_F(ThreadgroupChecksOff, NothingIsWatched) {
    MTL::Library* library = compile(kernels(Lowering::WorkItems));
    ASSERT_NE(library, nullptr);
    MTL::Buffer* out = buffer(128 * sizeof(float), "out");
    for (const char* name : {"rw", "uninit"}) {
        MTL::ComputePipelineState* state = pipeline(library, name, nullptr, MTL::ShaderValidationEnabled);
        ASSERT_NE(state, nullptr);
        dispatch(state, 64, 64, [&](MTL::ComputeCommandEncoder* e) { e->setBuffer(out, 0, 0); });
        EXPECT_THAT(reports(), ::testing::IsEmpty()) << name;
    }
    EXPECT_EQ(floats(out)[63], 0.0f) << "zeroed threadgroup memory";
    library->release();
}

// ggml's kernel_cumsum_blk (ggml-metal.metal), its threadgroup part as written: the last lane of
// each SIMD-group stores its sum, SIMD-group 0 scans all 32 slots with
// simd_prefix_exclusive_sum and stores them back, and every thread reads its SIMD-group's slot.
const char* const kCumsum = R"(#include <metal_stdlib>
using namespace metal;
kernel void cumsum(constant uint& n [[buffer(0)]], device const float* src [[buffer(1)]],
                   device float* dst [[buffer(2)]], threadgroup char* shmem [[threadgroup(0)]],
                   uint3 tgpig [[threadgroup_position_in_grid]], ushort3 tpitg [[thread_position_in_threadgroup]],
                   ushort sgitg [[simdgroup_index_in_threadgroup]], ushort tiisg [[thread_index_in_simdgroup]],
                   ushort3 ntg [[threads_per_threadgroup]]) {
    const uint i00 = tgpig[0] * ntg.x;
    threadgroup float* shmem_f32 = (threadgroup float*)shmem;
    float v = 0.0f;
    if (i00 + tpitg.x < n) v = src[i00 + tpitg.x];
    float s = simd_prefix_inclusive_sum(v);
    if (tiisg == 31) {
        shmem_f32[sgitg] = s;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (sgitg == 0) {
        shmem_f32[tiisg] = simd_prefix_exclusive_sum(shmem_f32[tiisg]);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    s += shmem_f32[sgitg];
    if (i00 + tpitg.x < n) dst[i00 + tpitg.x] = s;
}
)";

// Test what the checks say of ggml's cumsum_blk, whose results are right: the one report is the
// load SIMD-group 0 makes of the slots no SIMD-group stored (one per SIMD-group short of 32),
// whose values only the lanes whose results are discarded use. No store goes unseen: the
// stores through the scan's result are watched, so the final read of each SIMD-group's slot is
// silent, and there is no race (docs/validation.md, "Checks beyond Apple's").
class ThreadgroupChecksCumsum : public ValidationOnFixture, public ::testing::WithParamInterface<NS::UInteger> {};

TEST_P(ThreadgroupChecksCumsum, OnlyTheLoadOfSlotsNoSimdgroupStored) {
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.extraChecks.races = true;
    settings.extraChecks.uninitialized = true;
    configure(settings);
    MTL::Library* library = compile(kCumsum);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "cumsum", nullptr, MTL::ShaderValidationEnabled);
    const NS::UInteger group = GetParam(), groups = 3, n = groups * group - 5;
    MTL::Buffer* src = buffer(n * sizeof(float));
    MTL::Buffer* dst = buffer(n * sizeof(float));
    for (NS::UInteger k = 0; k < n; ++k) floats(src)[k] = 1.0f;
    dispatch(state, groups * group, group, [&](MTL::ComputeCommandEncoder* e) {
        const std::uint32_t count = std::uint32_t(n);
        e->setBytes(&count, sizeof count, 0);
        e->setBuffer(src, 0, 1);
        e->setBuffer(dst, 0, 2);
        e->setThreadgroupMemoryLength(32 * sizeof(float), 0);
    });
    const std::vector<ShaderValidationReport> r = reports();
    const NS::UInteger simdgroups = group / 32;
    if (simdgroups == 32) {
        EXPECT_THAT(r, ::testing::IsEmpty());
    } else {
        ASSERT_EQ(r.size(), 1u) << ::testing::PrintToString(r);
        EXPECT_EQ(r[0].kind, ReportKind::UninitializedLoad);
        EXPECT_EQ(r[0].location.line, 18u) << "shmem_f32[tiisg] of SIMD-group 0";
        EXPECT_EQ(r[0].offset, simdgroups * sizeof(float)) << "the first slot no SIMD-group stored";
        EXPECT_EQ(r[0].count, (32 - simdgroups) * groups);
    }
    for (NS::UInteger k = 0; k < n; ++k) ASSERT_EQ(floats(dst)[k], float(k % group + 1)) << k;
    library->release();
}

INSTANTIATE_TEST_SUITE_P(GroupSizes, ThreadgroupChecksCumsum, ::testing::Values(32, 64, 256, 1024),
                         [](const ::testing::TestParamInfo<NS::UInteger>& info) {
                             return "by" + std::to_string(info.param);
                         });

} // namespace
} // namespace metalcpu::testing
