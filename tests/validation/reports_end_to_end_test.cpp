// Shader-validation reports end to end: the fields a report carries (labels, atomics,
// threadgroup atomics, pointers the host wrote into a struct, a prebuilt .metallib's source
// location) and where reports go (the JSON-lines file, the library's log, stderr once, sinks
// that remove themselves). API validation's nslog mode is here too, for its stderr output.
// Every negative test asserts the report's fields; its positive twin must stay silent.
#include "validation_fixture.h"

#include "foundation/test_support.h"
#include "log_capture.h"
#include "runtime/compute_pipeline.h"
#include "runtime/debug_layer.h"
#include "support/log.h"
#include "validation/settings.h"

#include <gmock/gmock.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace metalcpu::testing {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using validation::Access;
using validation::AddressSpace;
using validation::ReportKind;
using validation::ShaderValidationReport;

// Line numbers matter: the tests assert them.
const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

kernel void store_at(device float* out [[buffer(0)]], constant int& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[int(i) + offset] = 1.0f;
}
kernel void atomic_read(device atomic_uint* counters [[buffer(0)]], device uint* out [[buffer(1)]], constant uint& offset [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    out[i] = atomic_load_explicit(&counters[i + offset], memory_order_relaxed);
}
kernel void atomic_write(device atomic_uint* counters [[buffer(0)]], constant uint& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    atomic_store_explicit(&counters[i + offset], i + 1, memory_order_relaxed);
}
kernel void tg_atomics(device uint* out [[buffer(0)]], constant uint& offset [[buffer(1)]], uint l [[thread_index_in_threadgroup]], uint g [[threadgroup_position_in_grid]]) {
    threadgroup atomic_uint counts[4];
    if (l < 4) atomic_store_explicit(&counts[l], 0u, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    atomic_fetch_add_explicit(&counts[l % 4 + offset], 1u, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (l < 4) out[g * 4 + l] = atomic_load_explicit(&counts[l], memory_order_relaxed);
}
struct Span {
    device float* data;
    uint length;
};
kernel void through_struct(device const Span& span [[buffer(0)]], device uint* layout [[buffer(1)]], constant uint& offset [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    span.data[i + offset] = float(span.length);
    if (i == 0) { layout[0] = sizeof(Span); layout[1] = span.length; }
}
template <typename T>
kernel void scale(device T* out [[buffer(0)]], constant uint& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i + offset] = T(2);
}
template [[host_name("scale_float")]] kernel void scale<float>(device float*, constant uint&, uint);
)";

constexpr unsigned kStoreLine = 5, kAtomicReadLine = 8, kAtomicWriteLine = 11, kTgAtomicLine = 17, kStructLine = 26,
                   kScaleLine = 31;

/// The host's view of the kernels' `Span`: a device pointer is one 64-bit gpuAddress.
struct Span {
    std::uint64_t data;
    std::uint32_t length;
};

/// Shader validation on for the process (as MTL_SHADER_VALIDATION=1), the kernels above.
class ReportsEndToEnd : public ValidationOnFixture {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    MTL::ComputePipelineState* kernel(const char* name, const char* label = nullptr,
                                      MTL::ShaderValidation validation = MTL::ShaderValidationDefault) {
        return pipeline(library_, name, label, validation);
    }
    /// store_at over 4 threads into a 4-float buffer; offset 1 stores one float past its end.
    MTL::CommandBuffer* storeAt(int offset, const char* bufferLabel = nullptr) {
        MTL::Buffer* out = buffer(4 * sizeof(float), bufferLabel);
        return dispatch(kernel("store_at"), 4, 4, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
    }

    static MTL::Library* library_;
};

MTL::Library* ReportsEndToEnd::library_ = nullptr;

/// Counts the places `needle` occurs in `haystack`.
std::size_t occurrences(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
    return n;
}

// ---- Labels -----------------------------------------------------------------------------------

// Test that the pipeline's label, the encoder's label set by the program and the dispatch's
// index within its encoder are the report's, in its fields and its location line.
TEST_F(ReportsEndToEnd, PipelineAndEncoderLabels) {
    MTL::ComputePipelineState* labelled = kernel("store_at", "labelled pipeline");
    MTL::Buffer* out = buffer(4 * sizeof(float));
    for (int bad : {0, 1}) {
        dispatchAll(
            {labelled, labelled}, 4, 4,
            [&](MTL::ComputeCommandEncoder* e, std::size_t i) {
                int offset = i == 1 ? bad : 0; // only the second dispatch may store past the end
                e->setBuffer(out, 0, 0);
                e->setBytes(&offset, sizeof offset, 1);
            },
            "my encoder");
        std::vector<ShaderValidationReport> got = reports();
        if (bad == 0) {
            EXPECT_THAT(got, IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        const ShaderValidationReport& r = got[0];
        EXPECT_EQ(r.pipelineLabel, "labelled pipeline");
        EXPECT_EQ(r.encoderLabel, "my encoder");
        EXPECT_EQ(r.dispatchIndex, 1u);
        EXPECT_EQ(r.commandBufferIndex, validation::commandBuffersCommitted()) << "the last one committed";
        EXPECT_EQ(r.kernel, "store_at");
        const std::string uid = ns::implOf<rt::ComputePipelineState>(labelled)->uid();
        EXPECT_THAT(uid, ::testing::MatchesRegex("[0-9a-f]{16}"));
        EXPECT_EQ(r.pipelineUid, uid);
        EXPECT_THAT(r.text(), HasSubstr("\npipeline: labelled pipeline, UID: " + uid +
                                        " encoder: \"my encoder\", dispatch: 1\n"));
    }
}

// ---- Atomics ------------------------------------------------------------------------------------

// Test that atomic_load_explicit past the end is a load (reads zero) and atomic_store_explicit
// a store, and that both stay silent in bounds.
TEST_F(ReportsEndToEnd, AtomicLoadIsALoadAndAtomicStoreAStore) {
    MTL::Buffer* counters = buffer(8 * sizeof(std::uint32_t), "counters");
    MTL::Buffer* out = buffer(8 * sizeof(std::uint32_t));
    for (std::uint32_t i = 0; i < 8; ++i) words(counters)[i] = 100 + i;
    MTL::ComputePipelineState* read = kernel("atomic_read");
    MTL::ComputePipelineState* write = kernel("atomic_write");
    for (std::uint32_t offset : {0u, 8u}) {
        dispatch(read, 8, 8, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(counters, 0, 0);
            e->setBuffer(out, 0, 1);
            e->setBytes(&offset, sizeof offset, 2);
        });
        std::vector<ShaderValidationReport> loads = reports();
        dispatch(write, 8, 8, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(counters, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        std::vector<ShaderValidationReport> stores = reports();
        if (offset == 0) {
            EXPECT_THAT(loads, IsEmpty());
            EXPECT_THAT(stores, IsEmpty());
            EXPECT_EQ(words(out)[7], 107u);
            EXPECT_EQ(words(counters)[7], 8u) << "atomic_store_explicit wrote i + 1";
            continue;
        }
        ASSERT_EQ(loads.size(), 1u);
        EXPECT_THAT(loads[0], AllOf(InvalidLoad("atomic_read", 0), AtLine(kAtomicReadLine), AtOffset(32),
                                    InAddressSpace(AddressSpace::Device), OfKind(ReportKind::OutOfBounds)));
        EXPECT_EQ(loads[0].size, sizeof(std::uint32_t));
        EXPECT_EQ(loads[0].bufferLabel, "counters");
        EXPECT_EQ(loads[0].count, 8u);
        EXPECT_THAT(loads[0].text(), ::testing::StartsWith("Invalid device load at offset 32, executing kernel function: "
                                                           "\"atomic_read\"\n"));
        EXPECT_EQ(words(out)[0], 0u) << "zerofill: the bad atomic load read 0";

        ASSERT_EQ(stores.size(), 1u);
        EXPECT_THAT(stores[0], AllOf(InvalidStore("atomic_write", 0), AtLine(kAtomicWriteLine), AtOffset(32)));
        EXPECT_THAT(stores[0].text(), ::testing::StartsWith("Invalid device store at offset 32"));
    }
}

// Test that an atomic on a threadgroup array past its end is a threadgroup store, without a
// buffer line, and that the in-bounds twin counts and stays silent.
TEST_F(ReportsEndToEnd, ThreadgroupAtomicsOutOfBounds) {
    MTL::Buffer* out = buffer(2 * 4 * sizeof(std::uint32_t));
    MTL::ComputePipelineState* atomics = kernel("tg_atomics");
    for (std::uint32_t offset : {0u, 1u}) {
        dispatch(atomics, 64, 32, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 0) {
            EXPECT_THAT(got, IsEmpty());
            for (int i = 0; i < 8; ++i) EXPECT_EQ(words(out)[i], 8u) << i;
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        const ShaderValidationReport& r = got[0];
        EXPECT_THAT(r, AllOf(InvalidStore("tg_atomics", -1), AtLine(kTgAtomicLine), AtOffset(16),
                             InAddressSpace(AddressSpace::Threadgroup), OfKind(ReportKind::OutOfBounds)));
        EXPECT_FALSE(r.hasBuffer);
        EXPECT_EQ(r.size, sizeof(std::uint32_t));
        EXPECT_EQ(r.count, 16u) << "l % 4 == 3 in both groups of 32";
        EXPECT_EQ(r.threadPositionInThreadgroup.x % 4, 3u);
        EXPECT_THAT(r.text(), ::testing::StartsWith("Invalid threadgroup store at offset 16, executing kernel function: "
                                                    "\"tg_atomics\"\npipeline: "));
        EXPECT_EQ(words(out)[0], 0u) << "counts[l % 4 + 1]: nothing adds to counts[0]";
        EXPECT_EQ(words(out)[3], 8u) << "counts[3] got the adds of l % 4 == 2";
    }
}

// ---- Pointers the host wrote ----------------------------------------------------------------------

// Test that a `device float*` the host stored in a struct (a gpuAddress) is checked against the
// buffer it points into, and that the struct has the same layout validated or not: checked
// pointers are the size of raw ones.
TEST_F(ReportsEndToEnd, HostWrittenPointerInAStruct) {
    MTL::Buffer* target = buffer(8 * sizeof(float), "target");
    MTL::Buffer* span = buffer(sizeof(Span));
    MTL::Buffer* layout = buffer(2 * sizeof(std::uint32_t));
    *static_cast<Span*>(span->contents()) = Span{target->gpuAddress(), 8};
    auto run = [&](MTL::ComputePipelineState* through, std::uint32_t offset) {
        for (int i = 0; i < 8; ++i) floats(target)[i] = 0.0f;
        words(layout)[0] = words(layout)[1] = 0;
        dispatch(through, 8, 8, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(span, 0, 0);
            e->setBuffer(layout, 0, 1);
            e->setBytes(&offset, sizeof offset, 2);
            e->useResource(target, MTL::ResourceUsageWrite);
        });
        return reports();
    };
    MTL::ComputePipelineState* plain = kernel("through_struct", nullptr, MTL::ShaderValidationDisabled);
    EXPECT_THAT(run(plain, 0), IsEmpty());
    EXPECT_EQ(words(layout)[0], sizeof(Span)) << "plain flavour";
    EXPECT_EQ(floats(target)[7], 8.0f);

    MTL::ComputePipelineState* checked = kernel("through_struct");
    EXPECT_THAT(run(checked, 0), IsEmpty());
    EXPECT_EQ(words(layout)[0], sizeof(Span)) << "a checked pointer is as big as a raw one";
    EXPECT_EQ(words(layout)[1], 8u) << "and the field after it is where the host wrote it";
    EXPECT_EQ(floats(target)[7], 8.0f);

    std::vector<ShaderValidationReport> got = run(checked, 1);
    ASSERT_EQ(got.size(), 1u);
    const ShaderValidationReport& r = got[0];
    EXPECT_THAT(r, AllOf(InvalidStore("through_struct", -1), AtLine(kStructLine), AtOffset(8 * sizeof(float)),
                         InAddressSpace(AddressSpace::Device), OfKind(ReportKind::OutOfBounds)));
    EXPECT_EQ(r.bufferLabel, "target");
    EXPECT_EQ(r.bufferLength, 8 * sizeof(float));
    EXPECT_EQ(r.location.column, 27u) << "the column of the assignment";
    EXPECT_EQ(r.threadPositionInGrid.x, 7u);
    EXPECT_EQ(floats(target)[7], 8.0f) << "the in-range stores happened";
    EXPECT_THAT(r.text(), HasSubstr("\nbuffer: target, length:32, resident:Read Write\n"));
}

// ---- Frames -------------------------------------------------------------------------------------

// Test the frame of a template kernel's instantiation: the report names the [[host_name]] as
// the kernel and the template as the function. Apple's frame is `scale<float>()`; metalcpu
// prints that once the runtime fills kernelFrameName (until then `scale()`).
TEST_F(ReportsEndToEnd, TemplateKernelFrame) {
    MTL::Buffer* out = buffer(4 * sizeof(float));
    MTL::ComputePipelineState* scale = kernel("scale_float");
    for (std::uint32_t offset : {0u, 1u}) {
        dispatch(scale, 4, 4, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 0) {
            EXPECT_THAT(got, IsEmpty());
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        EXPECT_THAT(got[0], AllOf(InvalidStore("scale_float", 0), AtLine(kScaleLine), AtOffset(16)));
        EXPECT_EQ(got[0].location.function, "scale");
        EXPECT_THAT(got[0].text(), HasSubstr("executing kernel function: \"scale_float\"\n"));
        EXPECT_EQ(got[0].kernelFrameName, "scale<float>");
        EXPECT_THAT(got[0].text(), HasSubstr("\t* frame #0: scale<float>() - /program_source:31:21\n"));
    }
}

// Test that a kernel from a .metallib the build made from a .metal file is validated without
// rebuilding anything, and that its frame names the .metal path and line.
TEST_F(ReportsEndToEnd, PrebuiltMetallibNamesTheMetalFile) {
    struct stat before {};
    ASSERT_EQ(stat(METALCPU_TEST_METALLIB, &before), 0) << METALCPU_TEST_METALLIB;
    NS::Error* error = nullptr;
    MTL::Library* library =
        device_->newLibrary(NS::String::string(METALCPU_TEST_METALLIB, NS::UTF8StringEncoding), &error);
    ASSERT_NE(library, nullptr) << text(error ? error->localizedDescription() : nullptr);
    MTL::ComputePipelineState* store = pipeline(library, "prebuilt_store");
    library->release();
    ASSERT_NE(store, nullptr);
    EXPECT_EQ(store->shaderValidation(), MTL::ShaderValidationEnabled);
    MTL::Buffer* out = buffer(4 * sizeof(float));
    for (int offset : {0, 1}) {
        dispatch(store, 4, 4, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        if (offset == 0) {
            EXPECT_THAT(got, IsEmpty());
            EXPECT_EQ(floats(out)[3], 2.0f);
            continue;
        }
        ASSERT_EQ(got.size(), 1u);
        const ShaderValidationReport& r = got[0];
        EXPECT_THAT(r, AllOf(InvalidStore("prebuilt_store", 0), AtLine(6), AtOffset(16)));
        EXPECT_EQ(r.location.file, METALCPU_TEST_METAL_SOURCE);
        EXPECT_EQ(r.location.column, 26u);
        EXPECT_THAT(r.text(),
                    HasSubstr(std::string("\t* frame #0: prebuilt_store() - ") + METALCPU_TEST_METAL_SOURCE + ":6:26\n"));
    }
    struct stat after {};
    ASSERT_EQ(stat(METALCPU_TEST_METALLIB, &after), 0);
    EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec) << "the .metallib was not rebuilt";
    EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
}

// ---- Where reports go ---------------------------------------------------------------------------

// Test that the JSON-lines file gets one line per report with every field, and nothing for a
// clean dispatch.
TEST_F(ReportsEndToEnd, JsonLinesCarryEveryField) {
    char path[] = "/tmp/metalcpu-reports-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.jsonPath = path;
    configure(settings);
    MTL::ComputePipelineState* store = kernel("store_at", "json pipeline");
    MTL::Buffer* out = buffer(4 * sizeof(float), "json target");
    for (int offset : {0, 1}) {
        dispatchAll(
            {store}, 4, 4,
            [&](MTL::ComputeCommandEncoder* e, std::size_t) {
                e->setBuffer(out, 0, 0);
                e->setBytes(&offset, sizeof offset, 1);
            },
            "json encoder");
    }
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    std::ifstream in(path);
    std::string line, extra;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_FALSE(std::getline(in, extra)) << "the clean dispatch wrote nothing";
    std::remove(path);
    EXPECT_EQ(line, got[0].json());
    const std::string uid = ns::implOf<rt::ComputePipelineState>(store)->uid();
    EXPECT_THAT(line, HasSubstr("\"pipelineUid\":\"" + uid + "\","));
    EXPECT_THAT(line, HasSubstr("\\npipeline: json pipeline, UID: " + uid + " encoder: \\\"json encoder\\\", dispatch: 0\\n"));
    for (const char* field :
         {"{\"kind\":\"out-of-bounds\",", "\"addressSpace\":\"device\",", "\"access\":\"store\",", "\"offset\":16,",
          "\"size\":4,", "\"buffer\":\"json target\",", "\"bufferLength\":16,", "\"bindingIndex\":0,",
          "\"argument\":\"out\",", "\"kernel\":\"store_at\",", "\"kernelFrameName\":", "\"pipeline\":\"json pipeline\",",
          "\"encoder\":\"json encoder\",", "\"dispatch\":0,", "\"threadPositionInGrid\":[3,0,0],",
          "\"threadPositionInThreadgroup\":[3,0,0],", "\"threadgroupPositionInGrid\":[0,0,0],",
          "\"file\":\"/program_source\",", "\"function\":\"store_at\",", "\"line\":5,", "\"column\":26,", "\"count\":1,",
          "\"text\":\"Invalid device store at offset 16, executing kernel function: \\\"store_at\\\"\\nbuffer: json "
          "target, length:16, resident:Read Write\\npipeline: json pipeline, UID: ",
          "\\t* frame #0: store_at() - /program_source:5:26\\n"})
        EXPECT_THAT(line, HasSubstr(field));
}

// Test that reports always reach the library's log, at level info with Apple's [GPUDebug]
// category, and that a clean kernel logs nothing.
TEST_F(ReportsEndToEnd, ReportsReachTheLibraryLog) {
    ScopedLogLevel info(spdlog::level::info); // reports reach the log's sinks from info up
    ns::testing::LogCapture log;
    ::testing::internal::CaptureStderr(); // the log's stderr sink shows them too at this level
    storeAt(0);
    EXPECT_THAT(reports(), IsEmpty());
    EXPECT_THAT(log.text(), Not(HasSubstr("[GPUDebug]")));
    storeAt(1, "logged");
    const std::string printed = ::testing::internal::GetCapturedStderr();
    ASSERT_EQ(reports().size(), 1u);
    EXPECT_THAT(log.text(), HasSubstr("[info] [GPUDebug] Invalid device store at offset 16, executing kernel function: "
                                      "\"store_at\"\nbuffer: logged, length:16, resident:Read Write\n"));
    EXPECT_EQ(occurrences(log.text(), "[GPUDebug]"), 1u);
    EXPECT_EQ(occurrences(printed, "Invalid device store"), 1u) << printed;
}

// Test that with MTL_SHADER_VALIDATION_REPORT_TO_STDERR=1 and the log at info a report shows
// on stderr once, in Apple's form, and still reaches the log's other sinks.
TEST_F(ReportsEndToEnd, StderrShowsAReportOnce) {
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.reportToStderr = true;
    configure(settings);
    ScopedLogLevel info(spdlog::level::info); // reports reach the log's sinks from info up
    ns::testing::LogCapture log;
    ::testing::internal::CaptureStderr();
    storeAt(0);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << "a clean kernel prints nothing";
    ::testing::internal::CaptureStderr();
    storeAt(1);
    const std::string printed = ::testing::internal::GetCapturedStderr();
    ASSERT_EQ(reports().size(), 1u);
    EXPECT_THAT(printed, ::testing::StartsWith("Invalid device store at offset 16, executing kernel function: "
                                               "\"store_at\"\n"));
    EXPECT_EQ(occurrences(printed, "Invalid device store"), 1u) << printed;
    EXPECT_EQ(occurrences(log.text(), "[GPUDebug] Invalid device store at offset 16"), 1u) << log.text();
}

// Test that with MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING=0 a bad store is still dropped
// but reported nowhere: not to sinks, not to stderr.
TEST_F(ReportsEndToEnd, ErrorReportingOffReportsNothing) {
    val::ShaderValidationSettings settings;
    settings.enabled = true;
    settings.reportToStderr = true;
    settings.errorReporting = false;
    configure(settings);
    Neighbours n = neighbours(4);
    floats(n.high)[0] = 42.0f;
    int offset = n.index;
    ::testing::internal::CaptureStderr();
    dispatch(kernel("store_at"), 1, 1, [&](MTL::ComputeCommandEncoder* e) {
        e->setBuffer(n.low, 0, 0); // thread 0 stores past its buffer, into the other
        e->setBytes(&offset, sizeof offset, 1);
    });
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    EXPECT_THAT(reports(), IsEmpty());
    EXPECT_EQ(floats(n.high)[0], 42.0f) << "still contained";
}

/// Removes itself from inside its first report(): the deadlock of issue 3's sinks.
class OneShotSink : public validation::ReportSink {
public:
    OneShotSink() { validation::addReportSink(this); }
    ~OneShotSink() override { validation::removeReportSink(this); }
    OneShotSink(const OneShotSink&) = delete;
    OneShotSink& operator=(const OneShotSink&) = delete;
    void report(const ShaderValidationReport& report) override {
        received.push_back(report);
        validation::removeReportSink(this);
    }
    std::vector<ShaderValidationReport> received;
};

// Test that a sink may remove itself while it handles a report from a real dispatch: it gets
// the first report only, the collector gets both, and nothing hangs.
TEST_F(ReportsEndToEnd, SinkRemovesItselfDuringADispatch) {
    OneShotSink once;
    storeAt(1);
    storeAt(1);
    ASSERT_EQ(once.received.size(), 1u);
    EXPECT_THAT(once.received[0], AllOf(InvalidStore("store_at", 0), AtLine(kStoreLine)));
    EXPECT_EQ(reports().size(), 2u);
}

// ---- API validation's nslog mode ----------------------------------------------------------------

// Test that in nslog mode a report shows on stderr once (not again through the log's stderr
// sink) and still reaches the log's other sinks; a valid call prints nothing.
TEST_F(ReportsEndToEnd, DebugLayerNSLogPrintsOnce) {
    const std::string report =
        "-[MTLDebugDevice validateNewBufferArgs:options:]:365: failed assertion `Cannot create buffer of zero length.'";
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog);
    ns::testing::LogCapture log;
    ::testing::internal::CaptureStderr();
    MTL::Buffer* fine = device_->newBuffer(16, MTL::ResourceStorageModeShared);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    ASSERT_NE(fine, nullptr);
    fine->release();
    ::testing::internal::CaptureStderr();
    MTL::Buffer* empty = device_->newBuffer(0, MTL::ResourceStorageModeShared);
    const std::string printed = ::testing::internal::GetCapturedStderr();
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    EXPECT_EQ(empty, nullptr);
    EXPECT_EQ(printed, report + "\n");
    EXPECT_EQ(occurrences(log.text(), report), 1u) << log.text();
    EXPECT_THAT(log.text(), HasSubstr("[error] API validation: " + report));
}

// Test that nslog mode's reports are kept for the GoogleTest listener, in order, as printed: the
// latest 256, with a line counting those not kept; a valid call adds none.
TEST_F(ReportsEndToEnd, DebugLayerNSLogReportsAreKeptForTests) {
    const std::string report =
        "-[MTLDebugDevice validateNewBufferArgs:options:]:365: failed assertion `Cannot create buffer of zero length.'";
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog);
    const std::uint64_t before = validation::apiValidationReportCount();
    ::testing::internal::CaptureStderr();
    MTL::Buffer* fine = device_->newBuffer(16, MTL::ResourceStorageModeShared);
    EXPECT_EQ(validation::apiValidationReportCount(), before);
    for (int n = 0; n < 300; ++n) EXPECT_EQ(device_->newBuffer(0, MTL::ResourceStorageModeShared), nullptr);
    ::testing::internal::GetCapturedStderr();
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    fine->release();
    EXPECT_EQ(validation::apiValidationReportCount(), before + 300);
    std::uint64_t next = 0;
    const std::vector<std::string> kept = validation::apiValidationReportsSince(before, &next);
    EXPECT_EQ(next, before + 300);
    ASSERT_EQ(kept.size(), 257u);
    EXPECT_EQ(kept[0], "(44 earlier debug-layer reports were not kept)");
    EXPECT_EQ(kept[1], report);
    EXPECT_EQ(kept[256], report);
    EXPECT_THAT(validation::apiValidationReportsSince(before + 299), ElementsAre(report));
    EXPECT_THAT(validation::apiValidationReportsSince(next, &next), IsEmpty());
    EXPECT_EQ(next, before + 300);
}

} // namespace
} // namespace metalcpu::testing
