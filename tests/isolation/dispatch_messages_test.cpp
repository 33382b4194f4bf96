#include "isolation/dispatch_messages.h"

#include "validation/allocations.h"

#include <gtest/gtest.h>

#include <random>

namespace metalcpu::iso {
namespace {

/// A dispatch with something of everything the message carries.
struct Sample {
    exec::Dispatch dispatch;
    mc_texture texture{};
    mc_sampler sampler{};
    std::unique_ptr<val::DispatchValidation> validation;

    Sample() {
        dispatch.kernelName = "sum<float>";
        for (int d = 0; d < 3; ++d) {
            dispatch.threadgroups[d] = 3 + d;
            dispatch.gridThreads[d] = 100 + d;
            dispatch.parameters.threads_per_threadgroup[d] = 7 + d;
        }
        dispatch.parameters.simd_width = 16;
        dispatch.parameters.buffers[0] = reinterpret_cast<void*>(0x200000004000ull);
        dispatch.parameters.buffer_lengths[0] = 4096;
        dispatch.threadgroupArgumentLengths[2] = 512;
        dispatch.threadgroupMemoryLimit = 32768;
        texture.width = 17;
        texture.data = reinterpret_cast<unsigned char*>(0x200000100000ull);
        dispatch.parameters.textures[5] = &texture;
        sampler.mag_filter = MC_FILTER_LINEAR;
        dispatch.parameters.samplers[2] = &sampler;
        dispatch.tensors.reserve(1);
        mc_tensor& tensor = dispatch.tensors.emplace_back();
        tensor.rank = 2;
        tensor.extents[0] = 64;
        dispatch.parameters.buffers[4] = &tensor;

        val::DispatchInfo info;
        info.kernel = "sum";
        info.kernelFrameName = "sum<float>";
        info.pipelineLabel = "pipe";
        info.encoderLabel = "0";
        info.dispatchIndex = 3;
        info.concurrentSpan = 77;
        val::BufferBinding binding;
        binding.index = 0;
        binding.argumentName = "out";
        binding.bound = true;
        binding.boundAddress = binding.resourceBegin = 0x200000004000ull;
        binding.resourceLength = 4096;
        binding.label = "results";
        val::ShaderValidationSettings settings;
        settings.failMode = val::FailMode::Allow;
        settings.threadgroupMemory = false;
        settings.extraChecks.hazards = true;
        validation = std::make_unique<val::DispatchValidation>(info, std::vector<val::BufferBinding>{binding}, settings);
    }

    std::vector<std::uint8_t> encode() const {
        DispatchMessage message;
        message.tag = 42;
        message.library = 9;
        message.dispatch = &dispatch;
        message.validation = validation.get();
        message.commandBufferIndex = 11;
        message.log = DispatchMessage::Log{2, 1000};
        return encodeDispatch(message);
    }
};

// Test that a dispatch arrives whole: its parameters, and its textures, samplers and tensors
// by value with the pointers to them made again, its validation and its log.
TEST(DispatchMessages, DispatchArrivesWhole) {
    Sample sample;
    std::unique_ptr<ReceivedDispatch> received = decodeDispatch(sample.encode());
    ASSERT_NE(received, nullptr);
    EXPECT_EQ(received->tag, 42u);
    EXPECT_EQ(received->library, 9u);
    EXPECT_EQ(received->kernel, "sum<float>");
    const exec::Dispatch& d = received->dispatch;
    EXPECT_EQ(d.threadgroups[2], 5u);
    EXPECT_EQ(d.gridThreads[1], 101u);
    EXPECT_EQ(d.parameters.threads_per_threadgroup[0], 7u);
    EXPECT_EQ(d.parameters.simd_width, 16u);
    EXPECT_EQ(d.parameters.buffers[0], sample.dispatch.parameters.buffers[0]);
    EXPECT_EQ(d.threadgroupArgumentLengths[2], 512u);
    ASSERT_NE(d.parameters.textures[5], nullptr);
    EXPECT_NE(d.parameters.textures[5], &sample.texture);
    EXPECT_EQ(d.parameters.textures[5]->width, 17u);
    EXPECT_EQ(d.parameters.textures[5]->data, sample.texture.data);
    EXPECT_EQ(d.parameters.textures[0], nullptr);
    ASSERT_NE(d.parameters.samplers[2], nullptr);
    EXPECT_EQ(d.parameters.samplers[2]->mag_filter, static_cast<mc_u32>(MC_FILTER_LINEAR));
    ASSERT_EQ(d.tensors.size(), 1u);
    EXPECT_EQ(d.parameters.buffers[4], &d.tensors[0]);
    EXPECT_EQ(d.tensors[0].extents[0], 64);
    ASSERT_NE(received->validation, nullptr);
    EXPECT_EQ(d.observer, received->validation.get());
    EXPECT_EQ(received->commandBufferIndex, 11u);
    EXPECT_EQ(received->validation->info().kernelFrameName, "sum<float>");
    EXPECT_EQ(received->validation->info().dispatchIndex, 3u);
    EXPECT_EQ(received->validation->info().concurrentSpan, 77u);
    EXPECT_TRUE(received->validation->settings().extraChecks.hazards);
    EXPECT_FALSE(received->validation->settings().extraChecks.races);
    EXPECT_EQ(received->validation->settings().failMode, val::FailMode::Allow);
    EXPECT_FALSE(received->validation->settings().threadgroupMemory);
    ASSERT_EQ(received->validation->bindings().size(), 1u);
    EXPECT_EQ(received->validation->bindings()[0].label, "results");
    ASSERT_NE(received->log, nullptr);
    EXPECT_EQ(received->log->minimumLevel(), 2u);
    EXPECT_EQ(received->log->remainingCapacity(), 1000u);
}

// Test that an outcome comes back whole, and that a report about an allocation of the host's
// gets the label the host knows it by.
TEST(DispatchMessages, OutcomeArrivesWithTheHostsLabels) {
    const std::uint64_t begin = 0x7f0000001000ull;
    val::AllocationRegistry::shared().add(begin, 256, [] { return std::string("weights"); });
    DispatchOutcome outcome;
    outcome.result = {false, "kernel 'k': it went wrong"};
    outcome.validated = true;
    validation::ShaderValidationReport report;
    report.kind = validation::ReportKind::OutOfBounds;
    report.access = validation::Access::Store;
    report.bufferLabel = allocationLabel(begin);
    report.offset = 300;
    report.location.line = 12;
    report.threadPositionInGrid = {1, 2, 3};
    report.count = 5;
    outcome.findings.reports = {report, report};
    outcome.findings.reports[1].bufferLabel = "results";
    outcome.findings.droppedSites = 4;
    outcome.pageFaulted = true;
    outcome.log = {{3, "com.example", "k", "value 7"}};
    outcome.logDropped = 2;

    std::optional<DispatchOutcome> back = decodeOutcome(encodeOutcome(outcome), 1000);
    val::AllocationRegistry::shared().remove(begin);
    ASSERT_TRUE(back);
    EXPECT_FALSE(back->result.ok);
    EXPECT_EQ(back->result.error, "kernel 'k': it went wrong");
    ASSERT_EQ(back->findings.reports.size(), 2u);
    const validation::ShaderValidationReport& first = back->findings.reports[0];
    EXPECT_EQ(first.bufferLabel, "weights");
    EXPECT_EQ(first.access, validation::Access::Store);
    EXPECT_EQ(first.offset, 300u);
    EXPECT_EQ(first.location.line, 12u);
    EXPECT_EQ(first.threadPositionInGrid, (validation::Position{1, 2, 3}));
    EXPECT_EQ(first.count, 5u);
    EXPECT_EQ(back->findings.reports[1].bufferLabel, "results");
    EXPECT_EQ(back->findings.droppedSites, 4u);
    EXPECT_TRUE(back->pageFaulted);
    ASSERT_EQ(back->log.size(), 1u);
    EXPECT_EQ(back->log[0].text, "value 7");
    EXPECT_EQ(back->logDropped, 2u);
}

// Test that a barrier report's round (METALCPU_SHADER_VALIDATION_CHECKS=barriers) comes back whole.
TEST(DispatchMessages, BarrierReportArrivesWhole) {
    DispatchOutcome outcome;
    outcome.validated = true;
    validation::ShaderValidationReport report;
    report.kind = validation::ReportKind::BarrierDivergence;
    report.location = {"program_source", "", 26, 9};
    report.barrier.threads = 64;
    report.barrier.reached = 32;
    report.barrier.elsewhere = 30;
    report.barrier.returned = 2;
    report.barrier.other = {"kernels.metal", "", 28, 11};
    outcome.findings.reports = {report};
    std::optional<DispatchOutcome> back = decodeOutcome(encodeOutcome(outcome), 1000);
    ASSERT_TRUE(back);
    ASSERT_EQ(back->findings.reports.size(), 1u);
    const validation::ShaderValidationReport& r = back->findings.reports[0];
    EXPECT_EQ(r.kind, validation::ReportKind::BarrierDivergence);
    EXPECT_EQ(r.barrier.threads, 64u);
    EXPECT_EQ(r.barrier.reached, 32u);
    EXPECT_EQ(r.barrier.elsewhere, 30u);
    EXPECT_EQ(r.barrier.returned, 2u);
    EXPECT_EQ(r.barrier.other.file, "kernels.metal");
    EXPECT_EQ(r.barrier.other.line, 28u);
    EXPECT_EQ(r.barrier.other.column, 11u);
    EXPECT_EQ(r.text(), report.text());
}

// Test that a hazard report between dispatches (METALCPU_SHADER_VALIDATION_CHECKS=hazards) comes
// back whole: the earlier dispatch and its access.
TEST(DispatchMessages, HazardReportArrivesWhole) {
    DispatchOutcome outcome;
    outcome.validated = true;
    validation::ShaderValidationReport report;
    report.kind = validation::ReportKind::DispatchHazard;
    report.access = validation::Access::Load;
    report.location = {"program_source", "", 8, 19};
    report.other.access = validation::Access::Store;
    report.other.atomic = true;
    report.otherDispatch.dispatchIndex = 2;
    report.otherDispatch.kernel = "produce";
    outcome.findings.reports = {report};
    std::optional<DispatchOutcome> back = decodeOutcome(encodeOutcome(outcome), 1000);
    ASSERT_TRUE(back);
    ASSERT_EQ(back->findings.reports.size(), 1u);
    const validation::ShaderValidationReport& r = back->findings.reports[0];
    EXPECT_EQ(r.kind, validation::ReportKind::DispatchHazard);
    EXPECT_EQ(r.other.access, validation::Access::Store);
    EXPECT_TRUE(r.other.atomic);
    EXPECT_EQ(r.otherDispatch.dispatchIndex, 2u);
    EXPECT_EQ(r.otherDispatch.kernel, "produce");
    EXPECT_STREQ(r.raceKind(), "read-after-write");
    EXPECT_EQ(r.text(), report.text());
}

// Test that every truncation of a message is refused, and that bytes changed at random never
// crash the reader: the host reads replies from a process kernels can write into.
TEST(DispatchMessages, DamagedMessagesAreRefusedSafely) {
    Sample sample;
    const std::vector<std::uint8_t> dispatch = sample.encode();
    DispatchOutcome outcome;
    outcome.validated = true;
    outcome.findings.reports.resize(3);
    outcome.log = {{1, "s", "c", "text"}};
    const std::vector<std::uint8_t> reply = encodeOutcome(outcome);
    for (std::size_t size = 0; size < dispatch.size(); ++size)
        ASSERT_EQ(decodeDispatch(std::vector<std::uint8_t>(dispatch.begin(), dispatch.begin() + size)), nullptr) << size;
    for (std::size_t size = 0; size < reply.size(); ++size)
        ASSERT_FALSE(decodeOutcome(std::vector<std::uint8_t>(reply.begin(), reply.begin() + size), 1000)) << size;

    std::mt19937 random(7);
    for (int round = 0; round < 3000; ++round) {
        std::vector<std::uint8_t> damaged = round % 2 ? reply : dispatch;
        for (int flips = 1 + round % 4; flips > 0; --flips)
            damaged[random() % damaged.size()] = static_cast<std::uint8_t>(random());
        if (round % 2) (void)decodeOutcome(damaged, 1000);
        else (void)decodeDispatch(damaged);
    }
}

// Test that a reply with more reports than validation makes, or more log messages than the
// request's log could take, is refused: its counts come from a process kernels write into.
TEST(DispatchMessages, CountsBeyondWhatTheRequestAllowsAreRefused) {
    DispatchOutcome outcome;
    outcome.validated = true;
    outcome.findings.reports.resize(kMaxOutcomeReports);
    outcome.log.resize(3);
    const std::vector<std::uint8_t> honest = encodeOutcome(outcome);
    EXPECT_TRUE(decodeOutcome(honest, 3));
    EXPECT_FALSE(decodeOutcome(honest, 2));
    EXPECT_FALSE(decodeOutcome(honest, 0));
    outcome.findings.reports.resize(kMaxOutcomeReports + 1);
    EXPECT_FALSE(decodeOutcome(encodeOutcome(outcome), 3));
}

// Test that the host's log takes from a device process's messages only what its level and
// capacity allow, and counts the rest as dropped: the device process is not trusted to have
// kept to them.
TEST(DispatchMessages, AbsorbedMessagesKeepToTheHostsLevelAndCapacity) {
    exec::ShaderLog log(2, 10);
    log.absorb({{2, "s", "c", "12345"}, {1, "s", "c", "low"}, {3, "s", "c", "too long"}, {2, "", "", "abc"}}, 5);
    const std::vector<exec::ShaderLogMessage> kept = log.take();
    ASSERT_EQ(kept.size(), 2u);
    EXPECT_EQ(kept[0].text, "12345");
    EXPECT_EQ(kept[1].text, "abc");
    EXPECT_EQ(log.dropped(), 5u + 2u);
    EXPECT_EQ(log.remainingCapacity(), 0u);
}

} // namespace
} // namespace metalcpu::iso
