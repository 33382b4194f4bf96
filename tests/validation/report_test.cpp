// Tests of the report text (Apple's wording, then metalcpu's lines), its JSON form, and the
// delivery of reports to sinks.
#include "validation/sinks.h"

#include "sample_report.h"

#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace metalcpu::validation {
namespace {

// Test that a device store reads as Apple's report, line by line, then ours.
TEST(ShaderValidationReport, DeviceStoreText) {
    EXPECT_EQ(deviceStore().text(),
              "Invalid device store at offset 4000, executing kernel function: \"sum_sincos_float\"\n"
              "buffer: <unnamed>, length:4000, resident:Read Write\n"
              "pipeline: (null), UID: 5e1f0c3a9b27d804 encoder: \"0\", dispatch: 0\n"
              "\t* frame #0: sum_sincos() - /program_source:9:20\n"
              "\tthread_position_in_grid: (999, 0, 0), thread_position_in_threadgroup: (39, 0, 0), "
              "threadgroup_position_in_grid: (15, 0, 0)\n"
              "\targument: out [[buffer(1)]], 4-byte store\n");
}

// Test that an access before the start of a buffer keeps Apple's unsigned offset in the first
// line (its format prints %llu) and says the signed offset in a line of ours; one after the
// start gets no such line.
TEST(ShaderValidationReport, OffsetBeforeTheStart) {
    ShaderValidationReport before = deviceStore();
    before.access = Access::Load;
    before.offset = static_cast<std::uint64_t>(-36);
    const std::string text = before.text();
    EXPECT_EQ(text.rfind("Invalid device load at offset 18446744073709551580, executing", 0), 0u) << text;
    EXPECT_NE(text.find("\tthe offset is -36: the access starts 36 bytes before the start of the buffer\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(deviceStore().text().find("the offset is"), std::string::npos);
}

// Test that threadgroup reports have no buffer line, constant loads say "device", and a
// repeated site says how often.
TEST(ShaderValidationReport, ThreadgroupConstantAndCount) {
    ShaderValidationReport tg = deviceStore();
    tg.addressSpace = AddressSpace::Threadgroup;
    tg.access = Access::Load;
    tg.hasBuffer = false;
    tg.bindingIndex = -1;
    tg.count = 7;
    tg.location.file = "kernels/blur.metal";
    const std::string text = tg.text();
    EXPECT_EQ(text.rfind("Invalid threadgroup load at offset 4000, executing kernel function: \"sum_sincos_float\"\n"
                         "pipeline: (null)",
                         0),
              0u)
        << text;
    EXPECT_NE(text.find(" - kernels/blur.metal:9:20\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("argument:"), std::string::npos) << text;
    EXPECT_NE(text.find("this site made 7 such accesses"), std::string::npos) << text;

    ShaderValidationReport constant = deviceStore();
    constant.addressSpace = AddressSpace::Constant;
    constant.access = Access::Load;
    constant.pipelineLabel = "my pipeline";
    EXPECT_EQ(constant.text().rfind("Invalid device load at offset 4000", 0), 0u);
    EXPECT_NE(constant.text().find("pipeline: my pipeline, UID: 5e1f0c3a9b27d804 encoder: \"0\", dispatch: 0\n"),
              std::string::npos);
}

// Test that the JSON line carries the fields and escapes the text.
TEST(ShaderValidationReport, Json) {
    const std::string json = deviceStore().json();
    EXPECT_EQ(json.front(), '{');
    EXPECT_EQ(json.back(), '}');
    EXPECT_EQ(json.find('\n'), std::string::npos);
    for (const char* field : {"\"access\":\"store\"", "\"addressSpace\":\"device\"", "\"offset\":4000",
                              "\"buffer\":\"<unnamed>\"", "\"bindingIndex\":1", "\"kernel\":\"sum_sincos_float\"",
                              "\"pipelineUid\":\"5e1f0c3a9b27d804\"",
                              "\"commandBuffer\":7", "\"line\":9", "\"column\":20", "\"file\":\"/program_source\"",
                              "\"threadPositionInGrid\":[999,0,0]", "\\\"sum_sincos_float\\\"\\nbuffer"})
        EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;
}

// Test that a null buffer's line has no residency (there is nothing resident), a wild
// pointer's keeps Apple's `resident:Read Write`, and a bound buffer's has it.
TEST(ShaderValidationReport, ResidencyOnlyForSomethingResident) {
    ShaderValidationReport nil = deviceStore();
    nil.kind = ReportKind::NullBuffer;
    nil.bufferLabel = "<nil>";
    nil.bufferLength = 0;
    nil.offset = 12;
    EXPECT_NE(nil.text().find("\nbuffer: <nil>, length:0\npipeline: "), std::string::npos) << nil.text();
    EXPECT_EQ(nil.text().find("resident"), std::string::npos) << nil.text();

    ShaderValidationReport wild = deviceStore();
    wild.kind = ReportKind::WildPointer;
    wild.bufferLabel = "Out of bounds of user address space";
    wild.bufferLength = 1;
    wild.offset = 2116;
    EXPECT_NE(wild.text().find("Invalid device store at offset 2116, executing kernel function: \"sum_sincos_float\"\n"
                               "buffer: Out of bounds of user address space, length:1, resident:Read Write\n"),
              std::string::npos)
        << wild.text();

    EXPECT_NE(deviceStore().text().find("buffer: <unnamed>, length:4000, resident:Read Write\n"), std::string::npos);
}

// Test that frame #0 names an instantiated kernel template as Apple does, `sum_sincos<float>()`,
// once the kernel's frame name is known, and leaves helpers and unknown names as written.
TEST(ShaderValidationReport, TemplateKernelFrame) {
    ShaderValidationReport r = deviceStore();
    EXPECT_NE(r.text().find("\t* frame #0: sum_sincos() - /program_source:9:20\n"), std::string::npos)
        << "not known: the function as written";
    r.kernelFrameName = "sum_sincos<float>";
    EXPECT_NE(r.text().find("\t* frame #0: sum_sincos<float>() - /program_source:9:20\n"), std::string::npos)
        << r.text();
    EXPECT_NE(r.text().find("executing kernel function: \"sum_sincos_float\"\n"), std::string::npos)
        << "the first line keeps the host name";
    EXPECT_NE(r.json().find("\"kernelFrameName\":\"sum_sincos<float>\""), std::string::npos) << r.json();

    ShaderValidationReport helper = r;
    helper.location.function = "sum";
    EXPECT_NE(helper.text().find("\t* frame #0: sum() - /program_source:9:20\n"), std::string::npos)
        << "a helper whose name prefixes the kernel's is not the kernel";
    helper.location.function = "";
    EXPECT_NE(helper.text().find("\t* frame #0: sum_sincos<float>() - "), std::string::npos)
        << "no function recorded: the kernel";
}

// Test the names of kinds, spaces and accesses, as JSON and the matchers' descriptions use them.
// Test that a hazard between dispatches reads as the other reports do, in the shape of Apple's
// first line, with the buffer, and names the earlier dispatch; its JSON says the hazard's kind
// and the other dispatch; the three kinds follow the two accesses.
TEST(ShaderValidationReport, DispatchHazardText) {
    ShaderValidationReport hazard = deviceStore();
    hazard.kind = ReportKind::DispatchHazard;
    hazard.access = Access::Load;
    hazard.offset = 8;
    hazard.other.access = Access::Store;
    hazard.otherDispatch = {0, "produce"};
    hazard.count = 3;
    EXPECT_EQ(hazard.text(),
              "Dispatch hazard (read-after-write): device load at offset 8, executing kernel function: "
              "\"sum_sincos_float\"\n"
              "buffer: <unnamed>, length:4000, resident:Read Write\n"
              "pipeline: (null), UID: 5e1f0c3a9b27d804 encoder: \"0\", dispatch: 0\n"
              "\t* frame #0: sum_sincos() - /program_source:9:20\n"
              "\tthread_position_in_grid: (999, 0, 0), thread_position_in_threadgroup: (39, 0, 0), "
              "threadgroup_position_in_grid: (15, 0, 0)\n"
              "\targument: out [[buffer(1)]], 4-byte load\n"
              "\tdispatch 0 of the encoder (kernel function: \"produce\") stored to these bytes, with no barrier "
              "between the two dispatches: a GPU may run them at once\n"
              "\tthis site made 3 such accesses in the dispatch\n");
    EXPECT_THAT(hazard.json(), ::testing::HasSubstr("\"kind\":\"dispatch-hazard\""));
    EXPECT_THAT(hazard.json(), ::testing::HasSubstr(
                                   "\"hazard\":\"read-after-write\",\"other\":{\"access\":\"store\",\"atomic\":false,"
                                   "\"dispatch\":0,\"kernel\":\"produce\"}"));
    hazard.access = Access::Store;
    EXPECT_STREQ(hazard.raceKind(), "write-after-write");
    hazard.other.access = Access::Load;
    hazard.other.atomic = true;
    EXPECT_STREQ(hazard.raceKind(), "write-after-read");
    EXPECT_THAT(hazard.text(), ::testing::HasSubstr("\"produce\") atomically loaded these bytes"));
    EXPECT_STREQ(name(ReportKind::DispatchHazard), "dispatch-hazard");
}

TEST(ShaderValidationReport, Names) {
    EXPECT_STREQ(name(ReportKind::OutOfBounds), "out-of-bounds");
    EXPECT_STREQ(name(ReportKind::NullBuffer), "null-buffer");
    EXPECT_STREQ(name(ReportKind::WildPointer), "wild-pointer");
    EXPECT_STREQ(name(AddressSpace::Device), "device");
    EXPECT_STREQ(name(AddressSpace::Constant), "constant");
    EXPECT_STREQ(name(AddressSpace::Threadgroup), "threadgroup");
    EXPECT_STREQ(name(Access::Load), "load");
    EXPECT_STREQ(name(Access::Store), "store");
    EXPECT_EQ(::testing::PrintToString(AddressSpace::Threadgroup), "threadgroup");
}

// ---- Sinks ------------------------------------------------------------------------------------

/// Installed while it lives; counts reports and runs `onReport` inside report().
class CountingSink : public ReportSink {
public:
    explicit CountingSink(SinkRole role = SinkRole::Observer) { addReportSink(this, role); }
    ~CountingSink() override { removeReportSink(this); }
    CountingSink(const CountingSink&) = delete;
    CountingSink& operator=(const CountingSink&) = delete;
    void report(const ShaderValidationReport&) override {
        ++received;
        if (onReport) onReport();
    }
    std::atomic<int> received{0};
    std::function<void()> onReport;
};

/// Delivers one report as a finished dispatch does (to sinks only: nothing on stderr).
void deliverOne() { val::deliver(deviceStore(), val::ShaderValidationSettings{}); }

// Test that a sink may remove itself from inside report(): it gets that report and no more,
// and nothing deadlocks.
TEST(ReportSinks, RemoveItselfInsideAReport) {
    CountingSink sink;
    sink.onReport = [&] { removeReportSink(&sink); };
    deliverOne();
    deliverOne();
    EXPECT_EQ(sink.received, 1);
}

// Test that among several sinks one may remove another inside a report: the removed one gets
// nothing from then on, even later in the same delivery, and the others keep receiving.
TEST(ReportSinks, SeveralSinksAndRemovalStopsDelivery) {
    CountingSink first, second, third;
    second.onReport = [&] { removeReportSink(&third); };
    deliverOne();
    EXPECT_EQ(first.received, 1);
    EXPECT_EQ(second.received, 1);
    EXPECT_EQ(third.received, 0) << "removed before delivery reached it";
    removeReportSink(&first);
    deliverOne();
    EXPECT_EQ(first.received, 1) << "removed from outside";
    EXPECT_EQ(second.received, 2);
    CountingSink late;
    second.onReport = [&] { removeReportSink(&second); };
    deliverOne();
    EXPECT_EQ(second.received, 3);
    EXPECT_EQ(late.received, 1);
    deliverOne();
    EXPECT_EQ(second.received, 3);
    EXPECT_EQ(late.received, 2);
}

// Test that removing a sink from another thread waits for a delivery to it in progress, so the
// sink can be destroyed right after.
TEST(ReportSinks, RemovalWaitsForADeliveryOnAnotherThread) {
    std::mutex mutex;
    std::condition_variable changed;
    bool inside = false, release = false;
    CountingSink sink;
    sink.onReport = [&] {
        std::unique_lock lock(mutex);
        inside = true;
        changed.notify_all();
        changed.wait(lock, [&] { return release; });
    };
    std::thread delivery(deliverOne);
    {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return inside; });
    }
    std::atomic<bool> removed{false};
    std::thread remover([&] {
        removeReportSink(&sink);
        removed = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(removed) << "returned while report() was still running";
    {
        std::lock_guard lock(mutex);
        release = true;
    }
    changed.notify_all();
    remover.join();
    delivery.join();
    EXPECT_TRUE(removed);
    EXPECT_EQ(sink.received, 1);
}

// Test that a sink removing itself on two threads at once, each inside its report(), does not
// deadlock (neither waits for the other's delivery).
TEST(ReportSinks, ConcurrentSelfRemovalDoesNotDeadlock) {
    std::mutex mutex;
    std::condition_variable changed;
    int inside = 0;
    CountingSink sink;
    sink.onReport = [&] {
        {
            std::unique_lock lock(mutex);
            ++inside;
            changed.notify_all();
            changed.wait(lock, [&] { return inside == 2; }); // both deliveries are in report()
        }
        removeReportSink(&sink);
    };
    std::thread a(deliverOne), b(deliverOne);
    a.join();
    b.join();
    EXPECT_EQ(sink.received, 2);
    deliverOne();
    EXPECT_EQ(sink.received, 2);
}

// Test that a fallback sink gets only the reports no owner received, whatever the order of
// installation, and that observers do not count as owners.
TEST(ReportSinks, FallbackOnlyWhenNoOwnerTookIt) {
    CountingSink fallback(SinkRole::Fallback);
    CountingSink observer(SinkRole::Observer);
    deliverOne();
    EXPECT_EQ(fallback.received, 1) << "an observer does not take reports";
    EXPECT_EQ(observer.received, 1);
    {
        CountingSink owner(SinkRole::Owner);
        deliverOne();
        EXPECT_EQ(owner.received, 1);
        EXPECT_EQ(fallback.received, 1) << "the owner took it";
        EXPECT_EQ(observer.received, 2);
    }
    deliverOne();
    EXPECT_EQ(fallback.received, 2) << "the owner is gone";
}

// Test that an owner removed during a delivery, before the delivery reached it, did not take
// the report: the fallback gets it.
TEST(ReportSinks, OwnerRemovedBeforeDeliveryReachedIt) {
    CountingSink fallback(SinkRole::Fallback);
    CountingSink first;
    CountingSink owner(SinkRole::Owner);
    first.onReport = [&] { removeReportSink(&owner); };
    deliverOne();
    EXPECT_EQ(owner.received, 0);
    EXPECT_EQ(fallback.received, 1);
}

// Test MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING=0: sinks get nothing either.
TEST(ReportSinks, ErrorReportingOffDeliversNothing) {
    CountingSink sink;
    val::ShaderValidationSettings quiet;
    quiet.errorReporting = false;
    val::deliver(deviceStore(), quiet);
    EXPECT_EQ(sink.received, 0);
    deliverOne();
    EXPECT_EQ(sink.received, 1);
}

} // namespace
} // namespace metalcpu::validation
