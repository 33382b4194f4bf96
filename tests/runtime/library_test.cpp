#include "jit/library_file.h"
#include "log_capture.h"
#include "metal_test.h"
#include "runtime/debug_layer.h"
#include "scoped_state.h"
#include "support/config.h"
#include "support/files.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

using LibraryTest = MetalTest;

const char* const kTwoKernels = R"(
#include <metal_stdlib>
using namespace metal;
kernel void first(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 1.0f; }
kernel void second(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 2.0f; }
float helper(float x) { return x * 2.0f; }
)";

// A kernel that names something undeclared: the host compiler's error, on line 4.
const char* const kUndefinedName = "#include <metal_stdlib>\n"
                                   "using namespace metal;\n"
                                   "kernel void broken(device float* out [[buffer(0)]]) {\n"
                                   "    out[0] = undefined_name;\n"
                                   "}\n";

NS::String* string(const char* text) { return NS::String::string(text, NS::UTF8StringEncoding); }

// Test that a library compiled from source lists its kernels, and only its kernels.
TEST_F(LibraryTest, FunctionNamesListKernels) {
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(string(kTwoKernels), nullptr, &error);
    ASSERT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "");
    NS::Array* names = library->functionNames();
    ASSERT_EQ(names->count(), 2u);
    EXPECT_EQ(text(names->object<NS::String>(0)), "first");
    EXPECT_EQ(text(names->object<NS::String>(1)), "second");
    MTL::Function* function = library->newFunction(string("second"));
    ASSERT_NE(function, nullptr);
    EXPECT_EQ(text(function->name()), "second");
    EXPECT_EQ(function->functionType(), MTL::FunctionTypeKernel);
    function->release();
    library->release();
}

// A file as Tint writes a WGSL module: its vertex and fragment functions beside its kernel.
const char* const kRenderAndCompute = R"(
#include <metal_stdlib>
using namespace metal;
struct VOut { float4 position [[position]]; };
vertex VOut vertex_main(uint id [[vertex_id]]) { VOut o = {}; o.position = float4(float(id)); return o; }
[[fragment]] float4 fragment_main(VOut in [[stage_in]]) { discard_fragment(); return in.position; }
kernel void fill(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 3.0f; }
)";

// Test that a library with render functions loads with its kernels, lists the render functions
// after them as Apple does, and refuses to make one a function: nil, with an error that says
// render functions are not supported where the call takes one, and a warning where not.
TEST_F(LibraryTest, RenderFunctionsAreNamedButNotSupported) {
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(string(kRenderAndCompute), nullptr, &error);
    ASSERT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "");
    NS::Array* names = library->functionNames();
    ASSERT_EQ(names->count(), 3u);
    EXPECT_EQ(text(names->object<NS::String>(0)), "fill");
    EXPECT_EQ(text(names->object<NS::String>(1)), "vertex_main");
    EXPECT_EQ(text(names->object<NS::String>(2)), "fragment_main");
    MTL::Function* kernel = library->newFunction(string("fill"));
    ASSERT_NE(kernel, nullptr);
    kernel->release();
    {
        LogCapture log;
        EXPECT_EQ(library->newFunction(string("vertex_main")), nullptr);
        EXPECT_EQ(log.count("[warning] newFunction: Function vertex_main is a render function (vertex or fragment), "
                            "and render functions are not supported by metalcpu"),
                  1u)
            << log.text();
    }
    error = nullptr;
    EXPECT_EQ(library->newFunction(string("fragment_main"), nullptr, &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorUnsupported);
    EXPECT_NE(text(error->localizedDescription()).find("Function fragment_main is a render function (vertex or "
                                                       "fragment), and render functions are not supported"),
              std::string::npos)
        << text(error->localizedDescription());
    error = nullptr;
    MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
    EXPECT_EQ(library->newFunction(string("vertex_main"), values, &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorUnsupported);
    values->release();
    // Another name is still not found.
    error = nullptr;
    EXPECT_EQ(library->newFunction(string("compute_main"), nullptr, &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorFunctionNotFound);
    library->release();
}

// Test that a call that succeeds leaves its error out-parameter nil, whatever it held:
// ported code declares `NS::Error* error;` uninitialised and tests `if (error)` after the call
// (VkFFT's Metal backend does), which works on macOS.
TEST_F(LibraryTest, SuccessLeavesTheErrorNil) {
    NS::Error* const stale = reinterpret_cast<NS::Error*>(std::uintptr_t{0x1234});
    NS::Error* error = stale;
    MTL::Library* library = device_->newLibrary(string(kTwoKernels), nullptr, &error);
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(error, nullptr);
    MTL::Function* function = library->newFunction(string("first"));
    ASSERT_NE(function, nullptr);
    error = stale;
    MTL::ComputePipelineState* pipeline = device_->newComputePipelineState(function, &error);
    ASSERT_NE(pipeline, nullptr);
    EXPECT_EQ(error, nullptr);
    MTL::FunctionDescriptor* descriptor = MTL::FunctionDescriptor::alloc()->init();
    descriptor->setName(string("second"));
    error = stale;
    MTL::Function* described = library->newFunction(descriptor, &error);
    ASSERT_NE(described, nullptr);
    EXPECT_EQ(error, nullptr);
    error = stale;
    MTL::Library* fromFile = device_->newLibrary(string(TEST_METALLIB), &error);
    ASSERT_NE(fromFile, nullptr);
    EXPECT_EQ(error, nullptr);
    fromFile->release();
    described->release();
    descriptor->release();
    pipeline->release();
    function->release();
    library->release();
}

// Test that libraries released one after another each give their own kernels: the next
// library's memory file can get a released one's descriptor number, and so its /proc name,
// and the loader would hand back a library it still holds under that name. One with
// SIMD-group functions once held a GNU unique symbol from the kernel headers, which keeps a
// library loaded; kernels are compiled -fno-gnu-unique, and the loader's check covers the rest.
TEST_F(LibraryTest, ReleasedLibrariesNeverLendTheirKernels) {
    for (int round = 0; round < 3; ++round) {
        const std::string name = "reduce_" + std::to_string(round);
        const std::string source = "#include <metal_stdlib>\nusing namespace metal;\nkernel void " + name +
                                   "(device float* out [[buffer(0)]], uint lane [[thread_index_in_simdgroup]]) {\n"
                                   "    out[lane] = simd_sum(float(lane)) + " + std::to_string(round) + ".0f;\n}\n";
        NS::Error* error = nullptr;
        MTL::Library* library = device_->newLibrary(string(source.c_str()), nullptr, &error);
        ASSERT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "");
        MTL::Function* function = library->newFunction(string(name.c_str()));
        ASSERT_NE(function, nullptr) << "round " << round << " got another library's kernels";
        EXPECT_EQ(library->functionNames()->count(), 1u);
        function->release();
        library->release();
    }
}

// Test that an unknown function name gives nullptr (Metal gives no error either).
TEST_F(LibraryTest, UnknownFunctionIsNull) {
    MTL::Library* library = device_->newLibrary(string(kTwoKernels), nullptr, nullptr);
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(library->newFunction(string("helper")), nullptr);
    EXPECT_EQ(library->newFunction(string("nope")), nullptr);
    EXPECT_EQ(library->newFunction(nullptr), nullptr);
    library->release();
}

// Test that an unknown function name is said in the log with the names the library has and
// the closest one: at info level normally (Metal says nothing), as a warning with the debug
// layer; a name that is close to none gets the list without a guess.
TEST_F(LibraryTest, UnknownFunctionNamesTheLibrarysFunctions) {
    MTL::Library* library = device_->newLibrary(string(kTwoKernels), nullptr, nullptr);
    ASSERT_NE(library, nullptr);
    {
        LogCapture log;
        EXPECT_EQ(library->newFunction(string("secnod")), nullptr);
        EXPECT_EQ(log.count("[warning]"), 0u) << "Metal is silent: " << log.text();
    }
    {
        ScopedLogLevel info(spdlog::level::info);
        LogCapture log;
        EXPECT_EQ(library->newFunction(string("secnod")), nullptr);
        EXPECT_EQ(log.count("[info] newFunction: no function 'secnod' in the library (did you mean 'second'?); it "
                            "has: first, second"),
                  1u)
            << log.text();
    }
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog, [](const std::string&) {});
    {
        LogCapture log;
        EXPECT_EQ(library->newFunction(string("unrelated_name")), nullptr);
        EXPECT_EQ(log.count("[warning] newFunction: no function 'unrelated_name' in the library; it has: first, second"),
                  1u)
            << log.text();
    }
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    library->release();
}

// Test that compile errors are ASCII under a UTF-8 locale (GCC would quote names with curly
// quotes): programs read the log with NS::ASCIIStringEncoding (VkFFT), which gives NULL for
// anything else, as Metal's ASCII-quoted messages never do.
TEST_F(LibraryTest, CompileErrorsAreAscii) {
    ScopedEnvironmentVariable locale("LC_ALL", "C.UTF-8");
    const char* source = kUndefinedName;
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newLibrary(string(source), nullptr, &error), nullptr);
    ASSERT_NE(error, nullptr);
    const std::string description = text(error->localizedDescription());
    EXPECT_NE(description.find("'undefined_name'"), std::string::npos) << description;
    for (const char c : description) ASSERT_LT(static_cast<unsigned char>(c), 0x80u) << description;
    EXPECT_NE(error->localizedDescription()->cString(NS::ASCIIStringEncoding), nullptr);
}

// Test that a compile error gives nullptr and an NS::Error pointing at program_source:LINE:COL.
TEST_F(LibraryTest, CompileErrorPointsAtProgramSource) {
    const char* source = kUndefinedName;
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(string(source), nullptr, &error);
    EXPECT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    std::string description = text(error->localizedDescription());
    EXPECT_NE(description.find("program_source:4:14"), std::string::npos) << description;
    EXPECT_NE(description.find("undefined_name"), std::string::npos) << description;
    EXPECT_EQ(description.find(".cpp"), std::string::npos) << "names a generated file: " << description;
    EXPECT_EQ(error->code(), MTL::LibraryErrorCompileFailure);
}

// Test that a syntax error in a kernel signature is reported, not a crash.
TEST_F(LibraryTest, SyntaxErrorIsReported) {
    NS::Error* error = nullptr;
    MTL::Library* library =
        device_->newLibrary(string("kernel void f(device float* out [[buffer(0)]] {"), nullptr, &error);
    EXPECT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("program_source:1:"), std::string::npos)
        << text(error->localizedDescription());
}

// Test that kernels cannot include host headers.
TEST_F(LibraryTest, HostHeadersAreNotAvailable) {
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(
        string("#include <stdio.h>\nkernel void f(device int* out [[buffer(0)]]) { out[0] = 1; }\n"), nullptr, &error);
    EXPECT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("stdio.h"), std::string::npos);
}

// Test that preprocessor macros from CompileOptions reach the kernel.
TEST_F(LibraryTest, CompileOptionsMacros) {
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    NS::Object* keys[] = {string("SCALE")};
    NS::Object* values[] = {NS::Number::number(3)};
    options->setPreprocessorMacros(NS::Dictionary::dictionary(values, keys, 1));
    EXPECT_TRUE(options->fastMathEnabled());
    options->setFastMathEnabled(false);
    EXPECT_EQ(options->mathMode(), MTL::MathModeSafe);
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(
        string("kernel void f(device int* out [[buffer(0)]]) { out[0] = SCALE * 7; }"), options, &error);
    ASSERT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "");
    MTL::Function* function = library->newFunction(string("f"));
    MTL::ComputePipelineState* pipeline = device_->newComputePipelineState(function, &error);
    MTL::Buffer* out = device_->newBuffer(4, MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(out, 0, 0);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(*static_cast<int*>(out->contents()), 21);
    out->release();
    pipeline->release();
    function->release();
    library->release();
    options->release();
}

// Test that preprocessor macros differing only in the order their dictionary was built in
// compile once: the second library loads the first's cache entry and computes the same, as
// an NSDictionary, which has no order, would have them; another value is another entry.
TEST_F(LibraryTest, CompileOptionsMacroOrderIsNotPartOfTheKey) {
    TemporaryDirectory cache;
    ScopedEnvironmentVariable directory("METALCPU_CACHE_DIR", cache.path().string());
    auto entries = [&] {
        std::size_t n = 0;
        for (const auto& entry : std::filesystem::directory_iterator(cache.path() / "kernels"))
            if (entry.path().extension() == ".metallib") ++n;
        return n;
    };
    // out[0] = the kernel's view of A, B and C: the macros of `names` (in that order) with
    // `values`, compiled into a library of their own.
    auto compute = [&](std::vector<const char*> names, std::vector<int> values) -> int {
        std::vector<NS::Object*> keys, objects;
        for (std::size_t i = 0; i < names.size(); ++i) {
            keys.push_back(string(names[i]));
            objects.push_back(NS::Number::number(values[i]));
        }
        MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
        options->setPreprocessorMacros(NS::Dictionary::dictionary(objects.data(), keys.data(), keys.size()));
        NS::Error* error = nullptr;
        MTL::Library* library = device_->newLibrary(
            string("kernel void f(device int* out [[buffer(0)]]) { out[0] = A * 100 + B * 10 + C; }"), options,
            &error);
        options->release();
        EXPECT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "");
        if (!library) return -1;
        MTL::Function* function = library->newFunction(string("f"));
        MTL::ComputePipelineState* pipeline = device_->newComputePipelineState(function, &error);
        MTL::Buffer* out = device_->newBuffer(4, MTL::ResourceStorageModeShared);
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(pipeline);
        encoder->setBuffer(out, 0, 0);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
        const int result = *static_cast<int*>(out->contents());
        out->release();
        pipeline->release();
        function->release();
        library->release();
        return result;
    };
    EXPECT_EQ(compute({"A", "B", "C"}, {1, 2, 3}), 123);
    ASSERT_EQ(entries(), 1u);
    EXPECT_EQ(compute({"C", "A", "B"}, {3, 1, 2}), 123);
    EXPECT_EQ(compute({"B", "C", "A"}, {2, 3, 1}), 123);
    EXPECT_EQ(entries(), 1u) << "the same macros in another order compiled again";
    EXPECT_EQ(compute({"B", "A", "C"}, {2, 1, 4}), 124);
    EXPECT_EQ(entries(), 2u) << "another value of C loaded the first entry";
}

// Test that a missing library file is nullptr plus an error, and a non-library file too.
TEST_F(LibraryTest, BadLibraryFiles) {
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newLibrary(string("/nonexistent/x.metallib"), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorFileNotFound);
    std::string path = ::testing::TempDir() + "/not_a_library.metallib";
    std::ofstream(path) << "hello";
    error = nullptr;
    EXPECT_EQ(device_->newLibrary(NS::URL::fileURLWithPath(string(path.c_str())), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("Invalid library file"), std::string::npos);
}

// Test that damaged .metallib files, opened by path, by URL or as the default library, are
// nullptr plus an NS::Error saying what is wrong, and never a crash (a truncated library
// used to fault inside dlopen).
TEST_F(LibraryTest, DamagedLibraryFiles) {
    const std::string sound = support::readFile(TEST_METALLIB).value_or("");
    ASSERT_GT(sound.size(), 1000u);
    std::string flipped = sound;
    flipped[sound.size() / 2] ^= 0x01;
    const struct {
        const char* name;
        std::string bytes;
        const char* reason;
    } damaged[] = {
        {"truncated", sound.substr(0, 4096), "does not end with a metalcpu library trailer"},
        {"bit-flipped", flipped, "do not match the hash written when it was built"},
        {"zero-length", "", "it is empty"},
        {"unsealed", sound.substr(0, sound.size() - 88), "does not end with a metalcpu library trailer"},
    };
    TemporaryDirectory directory;
    for (const auto& file : damaged) {
        SCOPED_TRACE(file.name);
        const std::string path = (directory.path() / "damaged.metallib").string();
        std::filesystem::remove(path);
        ASSERT_TRUE(support::writeFileAtomically(path, file.bytes));
        NS::Error* byPath = nullptr;
        EXPECT_EQ(device_->newLibrary(string(path.c_str()), &byPath), nullptr);
        NS::Error* byUrl = nullptr;
        EXPECT_EQ(device_->newLibrary(NS::URL::fileURLWithPath(string(path.c_str())), &byUrl), nullptr);
        ScopedEnvironmentVariable defaultLibrary("METALCPU_DEFAULT_LIBRARY", path);
        NS::Error* byDefault = nullptr;
        EXPECT_EQ(device_->newDefaultLibrary(NS::Bundle::mainBundle(), &byDefault), nullptr);
        for (NS::Error* error : {byPath, byUrl, byDefault}) {
            ASSERT_NE(error, nullptr);
            const std::string message = text(error->localizedDescription());
            EXPECT_NE(message.find("Invalid library file " + path), std::string::npos) << message;
            EXPECT_NE(message.find(file.reason), std::string::npos) << message;
        }
        // The same bytes as dispatch data (an embedded library): the same reason, and the
        // error names the data, not the memory file it passed through.
        dispatch_data_t data = dispatch_data_create(file.bytes.data(), file.bytes.size(), nullptr,
                                                    DISPATCH_DATA_DESTRUCTOR_DEFAULT);
        NS::Error* byData = nullptr;
        EXPECT_EQ(device_->newLibrary(data, &byData), nullptr);
        dispatch_release(data);
        ASSERT_NE(byData, nullptr);
        const std::string message = text(byData->localizedDescription());
        EXPECT_NE(message.find("Invalid library data ("), std::string::npos) << message;
        EXPECT_NE(message.find(file.reason), std::string::npos) << message;
        EXPECT_EQ(message.find("/proc/"), std::string::npos) << message;
    }
}

// Test that a .metallib's bytes handed over as dispatch data (newLibraryWithData:error:, how
// programs load a library embedded in their binary) give the library the file gives, and that
// the library keeps no reference to the caller's bytes.
TEST_F(LibraryTest, LibraryFromDispatchData) {
    std::string bytes = support::readFile(TEST_METALLIB).value_or("");
    ASSERT_GT(bytes.size(), 1000u);
    NS::Error* error = nullptr;
    MTL::Library* fromFile = device_->newLibrary(string(TEST_METALLIB), &error);
    ASSERT_NE(fromFile, nullptr);
    dispatch_data_t data = dispatch_data_create(bytes.data(), bytes.size(), nullptr, DISPATCH_DATA_DESTRUCTOR_DEFAULT);
    MTL::Library* fromData = device_->newLibrary(data, &error);
    dispatch_release(data);
    std::fill(bytes.begin(), bytes.end(), '\0');
    ASSERT_NE(fromData, nullptr) << (error ? text(error->localizedDescription()) : "");
    EXPECT_EQ(error, nullptr);
    NS::Array* names = fromData->functionNames();
    ASSERT_EQ(names->count(), fromFile->functionNames()->count());
    ASSERT_GT(names->count(), 0u);
    MTL::Function* function = fromData->newFunction(names->object<NS::String>(0));
    ASSERT_NE(function, nullptr);
    MTL::ComputePipelineState* pipeline = device_->newComputePipelineState(function, &error);
    EXPECT_NE(pipeline, nullptr) << (error ? text(error->localizedDescription()) : "");
    if (pipeline) pipeline->release();
    function->release();
    fromData->release();
    fromFile->release();
    NS::Error* nilError = nullptr;
    EXPECT_EQ(device_->newLibrary(static_cast<dispatch_data_t>(nullptr), &nilError), nullptr);
    ASSERT_NE(nilError, nullptr);
    EXPECT_NE(text(nilError->localizedDescription()).find("it is empty"), std::string::npos);
}

// Test that a .metallib with no image this CPU can run (here one for a level above any CPU's)
// is nullptr plus an NS::Error naming the level it needs, and never a SIGILL: nothing of it
// is loaded.
TEST_F(LibraryTest, NoImageForThisCpu) {
    const std::string sound = support::readFile(TEST_METALLIB).value_or("");
    std::vector<jit::LibraryImage> images;
    ASSERT_EQ(jit::checkLibraryFile(sound, {}, &images), "");
    TemporaryDirectory directory;
    const std::string image = (directory.path() / "image.so").string();
    ASSERT_TRUE(support::writeFileAtomically(image, sound.substr(images[0].offset, images[0].size)));
    const std::string path = (directory.path() / "future.metallib").string();
    ASSERT_EQ(jit::writeLibraryFile(path, {jit::ImageSource{"x86-64-v9", image}}), "");
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newLibrary(string(path.c_str()), &error), nullptr);
    ASSERT_NE(error, nullptr);
    const std::string message = text(error->localizedDescription());
    EXPECT_NE(message.find("it holds code for x86-64-v9 only, which this CPU cannot run"), std::string::npos) << message;
}

// Test that newLibrary(nil source), in both forms, is nullptr and an NS::Error saying so,
// and makes no report with the debug layer off; a source compiles in both forms.
TEST_F(LibraryTest, NilSource) {
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newLibrary(static_cast<NS::String*>(nullptr), nullptr, &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("source must not be nil"), std::string::npos);
    EXPECT_EQ(device_->newLibrary(static_cast<NS::String*>(nullptr), nullptr, nullptr), nullptr);
    int calls = 0;
    device_->newLibrary(static_cast<NS::String*>(nullptr), nullptr, [&](MTL::Library* library, NS::Error* failed) {
        ++calls;
        EXPECT_EQ(library, nullptr);
        ASSERT_NE(failed, nullptr);
        EXPECT_NE(text(failed->localizedDescription()).find("source must not be nil"), std::string::npos);
    });
    EXPECT_EQ(calls, 1);
    device_->newLibrary(string(kTwoKernels), nullptr, [&](MTL::Library* library, NS::Error* failed) {
        ++calls;
        EXPECT_NE(library, nullptr);
        EXPECT_EQ(failed, nullptr);
    });
    EXPECT_EQ(calls, 2);
}

// Test that with the debug layer newLibrary(nil source) reports the assertion, naming the
// form that was called, and a source makes no report.
TEST_F(LibraryTest, NilSourceWithTheDebugLayer) {
    std::vector<std::string> reports;
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog, [&](const std::string& line) { reports.push_back(line); });
    MTL::Library* library = device_->newLibrary(string(kTwoKernels), nullptr, nullptr);
    EXPECT_NE(library, nullptr);
    if (library) library->release();
    EXPECT_TRUE(reports.empty());
    EXPECT_EQ(device_->newLibrary(static_cast<NS::String*>(nullptr), nullptr, nullptr), nullptr);
    device_->newLibrary(static_cast<NS::String*>(nullptr), nullptr, [](MTL::Library*, NS::Error*) {});
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    EXPECT_EQ(reports, (std::vector<std::string>{
                           "-[MTLDebugDevice newLibraryWithSource:options:error:]:1101: failed assertion "
                           "`source must not be nil.'",
                           "-[MTLDebugDevice newLibraryWithSource:options:completionHandler:]:1102: failed assertion "
                           "`source must not be nil.'"}));
}

// Test that newDefaultLibrary honours METALCPU_DEFAULT_LIBRARY and fails cleanly without a file.
TEST_F(LibraryTest, DefaultLibraryLookup) {
    ScopedEnvironmentVariable library("METALCPU_DEFAULT_LIBRARY", "/nonexistent/default.metallib");
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newDefaultLibrary(NS::Bundle::mainBundle(), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorFileNotFound);
}

// What file_kernel of runtime_test_kernels.metal writes.
std::vector<int> fileKernelValues(unsigned count) {
    std::vector<int> values;
    for (unsigned i = 0; i < count; ++i) values.push_back(int(i) * 3 + 17);
    return values;
}

// Test that METALCPU_DEFAULT_LIBRARY naming a real metallib makes it the default library.
TEST_F(LibraryTest, DefaultLibraryFromEnvironment) {
    ScopedEnvironmentVariable library("METALCPU_DEFAULT_LIBRARY", TEST_METALLIB);
    NS::Error* error = nullptr;
    MTL::Library* found = device_->newDefaultLibrary(NS::Bundle::mainBundle(), &error);
    ASSERT_NE(found, nullptr) << (error ? text(error->localizedDescription()) : "");
    ASSERT_EQ(found->functionNames()->count(), 1u);
    EXPECT_EQ(text(found->functionNames()->object<NS::String>(0)), "file_kernel");
    EXPECT_EQ(runIntKernel(found, "file_kernel", 30), fileKernelValues(30));
    found->release();
}

// Test that, with nothing beside the executable, newDefaultLibrary finds default.metallib in
// the working directory, and fails with FileNotFound in a directory without one.
TEST_F(LibraryTest, DefaultLibraryInWorkingDirectory) {
    ASSERT_FALSE(std::filesystem::exists(executableDirectory() / "default.metallib"))
        << "a default.metallib beside the test program hides the working directory's";
    ScopedEnvironmentVariable unset("METALCPU_DEFAULT_LIBRARY", std::nullopt);
    TemporaryDirectory withLibrary, empty;
    withLibrary.copy(TEST_METALLIB, "default.metallib");
    {
        ScopedWorkingDirectory cwd(withLibrary.path());
        NS::Error* error = nullptr;
        MTL::Library* found = device_->newDefaultLibrary(NS::Bundle::mainBundle(), &error);
        ASSERT_NE(found, nullptr) << (error ? text(error->localizedDescription()) : "");
        EXPECT_EQ(runIntKernel(found, "file_kernel", 9), fileKernelValues(9));
        found->release();
    }
    ScopedWorkingDirectory cwd(empty.path());
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newDefaultLibrary(NS::Bundle::mainBundle(), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorFileNotFound);
    EXPECT_NE(text(error->localizedDescription()).find("working directory"), std::string::npos)
        << text(error->localizedDescription());
}

// Test that a default library that is not found says where it was looked for: in the
// NS::Error, and, since newDefaultLibrary() has no error to give, as a warning in the log;
// the form with an error does not warn.
TEST_F(LibraryTest, MissingDefaultLibraryNamesThePathsTried) {
    ScopedEnvironmentVariable unset("METALCPU_DEFAULT_LIBRARY", std::nullopt);
    TemporaryDirectory empty;
    ScopedWorkingDirectory cwd(empty.path());
    const std::string tried = "default.metallib is neither beside the executable (" +
                              (executableDirectory() / "default.metallib").string() +
                              ") nor in the working directory (" + (empty.path() / "default.metallib").string() + ")";
    LogCapture log;
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newDefaultLibrary(NS::Bundle::mainBundle(), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find(tried), std::string::npos) << text(error->localizedDescription());
    EXPECT_EQ(log.count("[warning]"), 0u) << "the caller has the error: " << log.text();
    EXPECT_EQ(device_->newDefaultLibrary(), nullptr);
    EXPECT_EQ(log.count("[warning] newDefaultLibrary: no default library: " + tried), 1u) << log.text();
    EXPECT_NE(log.text().find("METALCPU_DEFAULT_LIBRARY"), std::string::npos) << "says how to name one: " << log.text();
}

// Test that newDefaultLibrary() warns with the reason when the library it finds does not
// load, and says nothing when it loads.
TEST_F(LibraryTest, UnloadableDefaultLibraryIsAWarning) {
    TemporaryDirectory directory;
    const std::string path = (directory.path() / "default.metallib").string();
    ASSERT_TRUE(support::writeFileAtomically(path, "not a library"));
    LogCapture log;
    {
        ScopedEnvironmentVariable library("METALCPU_DEFAULT_LIBRARY", path);
        EXPECT_EQ(device_->newDefaultLibrary(), nullptr);
    }
    EXPECT_EQ(log.count("[warning] newDefaultLibrary: Invalid library file " + path), 1u) << log.text();
    ScopedEnvironmentVariable library("METALCPU_DEFAULT_LIBRARY", TEST_METALLIB);
    MTL::Library* found = device_->newDefaultLibrary();
    ASSERT_NE(found, nullptr);
    found->release();
    EXPECT_EQ(log.count("[warning]"), 1u) << log.text();
}

// Test that a .metallib a Mac built (Apple's format, which begins with MTLB) is refused with
// an error that says so and how to rebuild it; any other foreign file is not called one.
TEST_F(LibraryTest, MacMetallibIsRefusedAsSuch) {
    TemporaryDirectory directory;
    const std::string mac = (directory.path() / "mac.metallib").string();
    const std::string other = (directory.path() / "other.metallib").string();
    ASSERT_TRUE(support::writeFileAtomically(mac, std::string("MTLB\x01\x80\x02\x00", 8) + std::string(200, '\0')));
    ASSERT_TRUE(support::writeFileAtomically(other, std::string("MTL") + std::string(205, '\0')));
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newLibrary(string(mac.c_str()), &error), nullptr);
    ASSERT_NE(error, nullptr);
    const std::string message = text(error->localizedDescription());
    EXPECT_NE(message.find("Invalid library file " + mac + " (it is a macOS metallib"), std::string::npos) << message;
    EXPECT_NE(message.find("rebuild it from its .metal sources with metalcpu's metal and metallib tools"),
              std::string::npos)
        << message;
    error = nullptr;
    EXPECT_EQ(device_->newLibrary(string(other.c_str()), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(text(error->localizedDescription()).find("macOS"), std::string::npos)
        << text(error->localizedDescription());
}

// Test that newLibrary(filepath) resolves relative paths, bare names included, against the
// working directory, and yields working functions.
TEST_F(LibraryTest, NewLibraryWithRelativePath) {
    TemporaryDirectory directory;
    directory.copy(TEST_METALLIB, "kernels.metallib");
    directory.copy(TEST_METALLIB, "sub/dir/kernels.metallib");
    ScopedWorkingDirectory cwd(directory.path());
    for (const char* path : {"kernels.metallib", "sub/dir/kernels.metallib", "./sub/../kernels.metallib"}) {
        NS::Error* error = nullptr;
        MTL::Library* library = device_->newLibrary(string(path), &error);
        ASSERT_NE(library, nullptr) << path << ": " << (error ? text(error->localizedDescription()) : "");
        EXPECT_EQ(error, nullptr);
        EXPECT_EQ(runIntKernel(library, "file_kernel", 20), fileKernelValues(20)) << path;
        library->release();
    }
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newLibrary(string("sub/kernels.metallib"), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorFileNotFound);
}

// Test that newLibrary(NS::URL*) loads a file URL and yields a working function.
TEST_F(LibraryTest, NewLibraryWithURL) {
    TemporaryDirectory directory;
    const std::string path = directory.copy(TEST_METALLIB, "with space/kernels.metallib").string();
    NS::URL* url = NS::URL::fileURLWithPath(string(path.c_str()));
    ASSERT_NE(url, nullptr);
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(url, &error);
    ASSERT_NE(library, nullptr) << (error ? text(error->localizedDescription()) : "");
    MTL::Function* function = library->newFunction(string("file_kernel"));
    ASSERT_NE(function, nullptr);
    EXPECT_EQ(function->functionType(), MTL::FunctionTypeKernel);
    function->release();
    EXPECT_EQ(runIntKernel(library, "file_kernel", 50), fileKernelValues(50));
    library->release();
}

class CompileOptionsLanguageVersion : public MetalTest,
                        public ::testing::WithParamInterface<std::tuple<MTL::LanguageVersion, int>> {};

// Test that CompileOptions::setLanguageVersion reaches the kernel as __METAL_VERSION__.
TEST_P(CompileOptionsLanguageVersion, ReachesTheKernelAsMetalVersion) {
    const auto [version, expected] = GetParam();
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    options->setLanguageVersion(version);
    EXPECT_EQ(options->languageVersion(), version);
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(
        string("kernel void version(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
               "    out[i] = __METAL_VERSION__;\n"
               "}\n"),
        options, &error);
    options->release();
    ASSERT_NE(library, nullptr) << (error ? text(error->localizedDescription()) : "");
    EXPECT_EQ(runIntKernel(library, "version", 3), std::vector<int>(3, expected));
    library->release();
}

INSTANTIATE_TEST_SUITE_P(Versions, CompileOptionsLanguageVersion,
                         ::testing::Values(std::make_tuple(MTL::LanguageVersion1_2, 120),
                                           std::make_tuple(MTL::LanguageVersion2_4, 240),
                                           std::make_tuple(MTL::LanguageVersion3_0, 300),
                                           std::make_tuple(MTL::LanguageVersion3_1, 310),
                                           std::make_tuple(MTL::LanguageVersion4_0, 400)),
                         [](const ::testing::TestParamInfo<std::tuple<MTL::LanguageVersion, int>>& info) {
                             return "Metal" + std::to_string(std::get<1>(info.param));
                         });

// Test that a library compiled without options sees the default language version, 3.2.
TEST_F(LibraryTest, DefaultLanguageVersion) {
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    EXPECT_EQ(options->languageVersion(), MTL::LanguageVersion3_2);
    options->release();
    MTL::Library* library = device_->newLibrary(
        string("kernel void version(device int* out [[buffer(0)]]) { out[0] = __METAL_VERSION__; }"), nullptr,
        nullptr);
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(runIntKernel(library, "version", 1), std::vector<int>{320});
    library->release();
}

} // namespace
} // namespace metalcpu::testing
