// Shader validation of string literals read through `constant` pointers (PyTorch's
// c10/metal/error.h copies a message literal, `__FILE__` and the function's name into an
// error buffer). A literal is a known region of the constant address space: reads inside it
// are silent and read its bytes, a read one past its end (past the terminating zero) is
// reported against the literal and reads zero. Program-scope `constant` arrays, constant
// arrays of pointers to literals and literals passed to helpers are checked the same way.
#include "validation_fixture.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using validation::Access;
using validation::ReportKind;
using validation::ShaderValidationReport;

// Line numbers matter: the tests assert them.
constexpr const char* kKernels = R"(#include <metal_stdlib>
using namespace metal;
// Thread i reads byte (i % 9) + k of a 9-byte literal: k = 0 stays inside, k = 1 reads one
// past the end in every ninth thread.
kernel void literal_bytes(device uint* o [[buffer(0)]], constant uint& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    constant const char* text = "metalcpu";
    o[i] = uint(text[i % 9 + k]);
}
static uint byte_of(constant const char* s, uint at) { return uint(s[at]); }
kernel void literal_helper(device uint* o [[buffer(0)]], constant uint& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    o[i] = byte_of("abc", i % 4 + k);
}
constant char kWord[] = "shader";
constant const char* constant kNames[3] = {"zero", "one", "two"};
kernel void constant_strings(device uint* o [[buffer(0)]], constant uint& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    constant const char* name = kNames[i % 3];
    o[2 * i] = uint(kWord[i % 7 + k]);
    o[2 * i + 1] = uint(name[(i % 3 == 0 ? 4 : 3) + k]);
}
// c10/metal/error.h's pattern: a bounded copy of constant strings into a device buffer.
struct ErrorMessage { char file[64]; char func[32]; char message[48]; uint line; };
// A sloppy copy is off by one: it also copies the byte after the terminating zero.
template <uint N> void copy_string(device char (&dst)[N], constant const char* src, bool sloppy = false) {
    uint j = 0;
    for (; j + 1 < N && src[j] != 0; ++j) dst[j] = src[j];
    dst[j] = 0;
    if (sloppy && j + 2 < N) dst[j + 1] = src[j + 1];
}
#define REPORT_ERROR(buf, text, sloppy) do { copy_string(buf->file, __FILE__); copy_string(buf->func, __func__); copy_string(buf->message, text, sloppy); buf->line = __LINE__; } while (0)
kernel void error_report(device ErrorMessage* error [[buffer(0)]], device uint* o [[buffer(1)]], constant uint& n [[buffer(2)]],
                         constant uint& sloppy [[buffer(3)]], uint i [[thread_position_in_grid]]) {
    o[i] = i;
    if (i + 1 == n) REPORT_ERROR(error, "index out of range", sloppy != 0);
}
struct Named {
    constant const char* name;
    constexpr Named(constant const char* n) constant : name(n) {}
};
constant Named kNamed("named");
kernel void named_object(device uint* o [[buffer(0)]], constant uint& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    o[i] = uint(kNamed.name[i % 6 + k]);
}
// A literal in a braced initialiser whose declaration writes no `*`: the class's member is a pointer.
struct Entry { uint id; constant const char* name; };
constant Entry kEntries[] = {{1, "entry"}, {2, "entry"}};
kernel void braced_entry(device uint* o [[buffer(0)]], constant uint& k [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    o[i] = uint(kEntries[i & 1].name[i % 6 + k]);
}
)";

constexpr unsigned kLiteralLine = 7, kHelperLine = 9, kWordLine = 17, kNameLine = 18, kSloppyLine = 27, kReportLine = 33,
                   kNamedLine = 41, kBracedLine = 47;

class StringLiterals : public ShapedValidationFixture<&kKernels> {
protected:
    /// Runs `kernel`, in which thread i reads byte i % size + k of the literal `bytes` (its
    /// terminating zero included) into o[i], with k = 0 and k = 1: expects the bytes and no
    /// report, then zero and one report against the literal, one past its end, at `line` of
    /// `function`, counting the threads that read there.
    void expectReadsOfOneLiteral(const char* kernel, const std::string& bytes, unsigned line, const char* function) {
        const std::size_t n = GetParam().count, size = bytes.size();
        MTL::ComputePipelineState* pipeline = this->pipeline(library_, kernel);
        ASSERT_NE(pipeline, nullptr);
        for (std::uint32_t k : {0u, 1u}) {
            MTL::Buffer* out = output(n);
            dispatch(pipeline, n, GetParam().group, [&](MTL::ComputeCommandEncoder* e) {
                e->setBuffer(out, sizeof(std::uint32_t), 0);
                e->setBytes(&k, sizeof k, 1);
            });
            std::vector<ShaderValidationReport> got = reports();
            std::uint64_t past = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t at = i % size + k;
                if (at >= size) ++past;
                EXPECT_EQ(words(out)[1 + i], at >= size ? 0u : static_cast<std::uint32_t>(bytes[at]))
                    << kernel << ", k " << k << ", thread " << i;
            }
            expectCanaries(out, n);
            if (past == 0) {
                EXPECT_THAT(got, ::testing::IsEmpty()) << kernel << ", k " << k;
                continue;
            }
            ASSERT_EQ(got.size(), 1u) << kernel;
            EXPECT_EQ(got[0].kind, ReportKind::OutOfBounds);
            EXPECT_EQ(got[0].access, Access::Load);
            EXPECT_EQ(got[0].addressSpace, validation::AddressSpace::Constant);
            EXPECT_EQ(got[0].bufferLabel, "constant \"" + std::string(bytes.c_str()) + "\"");
            EXPECT_EQ(got[0].bufferLength, size);
            EXPECT_EQ(got[0].offset, size);
            EXPECT_EQ(got[0].count, past);
            EXPECT_EQ(got[0].location.line, line);
            EXPECT_EQ(got[0].location.function, function);
        }
    }
};

// Test that reading a literal's bytes through a `constant const char*` is silent and reads
// them, and that reading one past its terminating zero reports a constant-space load against
// the literal, at offset 9 of its 9 bytes, once per thread that made it, and reads zero.
TEST_P(StringLiterals, LiteralBytes) {
    expectReadsOfOneLiteral("literal_bytes", std::string("metalcpu", 9), kLiteralLine, "literal_bytes");
}

// Test that a literal passed to a helper taking `constant const char*` reads as written, and
// that the helper's read one past its end is reported against it at the helper's line.
TEST_P(StringLiterals, LiteralPassedToHelper) {
    expectReadsOfOneLiteral("literal_helper", std::string("abc", 4), kHelperLine, "byte_of");
}

// Test that a program-scope object whose constexpr constructor keeps a pointer to a literal is
// constant-initialised in the instrumented flavour, and reads through the pointer are checked
// against the literal.
TEST_P(StringLiterals, ConstantObjectKeepingLiteral) {
    expectReadsOfOneLiteral("named_object", std::string("named", 6), kNamedLine, "named_object");
}

// Test that a literal in a braced initialiser of a class whose member is a pointer
// (`constant Entry kEntries[] = {{1, "entry"}}`, no `*` in the declaration) is a region of its
// own: reads inside it are silent, one past its end is reported against it (it was a wild
// pointer).
TEST_P(StringLiterals, BracedInitialiserOfPointerMember) {
    expectReadsOfOneLiteral("braced_entry", std::string("entry", 6), kBracedLine, "braced_entry");
}

// Test a program-scope `constant char` array initialised by a literal and a program-scope
// `constant` array of pointers to literals: reads inside them are silent and read their bytes;
// one past the end of the array is reported against `constant kWord`, one past the end of
// each literal against that literal, each once per thread that read it.
TEST_P(StringLiterals, ProgramScopeConstantStrings) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    const std::string word("shader", 7);
    const std::string names[3] = {std::string("zero", 5), std::string("one", 4), std::string("two", 4)};
    MTL::ComputePipelineState* pipeline = this->pipeline(library_, "constant_strings");
    ASSERT_NE(pipeline, nullptr);
    for (std::uint32_t k : {0u, 1u}) {
        MTL::Buffer* out = output(2 * n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, sizeof(std::uint32_t), 0);
            e->setBytes(&k, sizeof k, 1);
        });
        std::vector<ShaderValidationReport> got = reports();
        std::map<std::string, std::uint64_t> expected; // label -> threads past its end
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = i % 7 + k;
            if (at >= 7) ++expected["constant kWord"];
            EXPECT_EQ(words(out)[1 + 2 * i], at >= 7 ? 0u : static_cast<std::uint32_t>(word[at])) << "k " << k << ", thread " << i;
            const std::string& name = names[i % 3];
            const std::size_t nameAt = (i % 3 == 0 ? 4 : 3) + k;
            if (nameAt >= name.size()) ++expected["constant \"" + std::string(name.c_str()) + "\""];
            EXPECT_EQ(words(out)[2 + 2 * i], nameAt >= name.size() ? 0u : static_cast<std::uint32_t>(name[nameAt]))
                << "k " << k << ", thread " << i;
        }
        expectCanaries(out, 2 * n);
        if (k == 0) {
            EXPECT_THAT(got, ::testing::IsEmpty());
        }
        std::map<std::string, std::uint64_t> counted;
        for (const ShaderValidationReport& r : got) {
            counted[r.bufferLabel] += r.count;
            EXPECT_EQ(r.access, Access::Load);
            EXPECT_EQ(r.addressSpace, validation::AddressSpace::Constant);
            const bool isWord = r.bufferLabel == "constant kWord";
            EXPECT_EQ(r.location.line, isWord ? kWordLine : kNameLine) << r.bufferLabel;
            EXPECT_EQ(r.offset, r.bufferLength) << r.bufferLabel; // one past the end
            EXPECT_EQ(r.bufferLength, isWord ? 7u : r.bufferLabel == "constant \"zero\"" ? 5u : 4u) << r.bufferLabel;
        }
        EXPECT_EQ(counted, expected) << "k " << k;
    }
}

struct ErrorMessage {
    char file[64];
    char func[32];
    char message[48];
    std::uint32_t line;
};

// Test c10/metal/error.h's pattern: the last thread copies `__FILE__`, `__func__` and a
// message literal into an error buffer with a bounded copy. Validated, the copy is silent and
// the buffer holds what the plain flavour writes; a copy off by one, which reads byte 19 of the
// 19-byte message, is reported against the message, once, and copies a zero.
TEST_P(StringLiterals, ErrorMessageCopy) {
    const Shape shape = GetParam();
    const std::size_t n = shape.count;
    const std::uint32_t count = static_cast<std::uint32_t>(n);
    auto run = [&](MTL::ComputePipelineState* pipeline, std::uint32_t sloppy, ErrorMessage* message) {
        MTL::Buffer* error = buffer(sizeof(ErrorMessage), "error");
        std::memset(error->contents(), 0x5a, sizeof(ErrorMessage));
        MTL::Buffer* out = output(n);
        dispatch(pipeline, shape.count, shape.group, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(error, 0, 0);
            e->setBuffer(out, sizeof(std::uint32_t), 1);
            e->setBytes(&count, sizeof count, 2);
            e->setBytes(&sloppy, sizeof sloppy, 3);
        });
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(words(out)[1 + i], i);
        expectCanaries(out, n);
        std::memcpy(message, error->contents(), sizeof(ErrorMessage));
    };
    MTL::ComputePipelineState* plain = this->pipeline(library_, "error_report", "plain", MTL::ShaderValidationDisabled);
    MTL::ComputePipelineState* validated = this->pipeline(library_, "error_report");
    ASSERT_NE(plain, nullptr);
    ASSERT_NE(validated, nullptr);
    ErrorMessage expected{}, got{};
    run(plain, 0, &expected);
    EXPECT_THAT(reports(), ::testing::IsEmpty());
    EXPECT_STREQ(expected.message, "index out of range");
    EXPECT_STREQ(expected.func, "error_report");
    EXPECT_EQ(expected.line, kReportLine);
    run(validated, 0, &got);
    EXPECT_THAT(reports(), ::testing::IsEmpty());
    EXPECT_EQ(std::memcmp(&got, &expected, sizeof got), 0)
        << "file " << got.file << ", func " << got.func << ", message " << got.message << ", line " << got.line;

    run(validated, 1, &got);
    std::vector<ShaderValidationReport> sloppy = reports();
    ASSERT_EQ(sloppy.size(), 1u) << ::testing::PrintToString(sloppy);
    EXPECT_EQ(sloppy[0].access, Access::Load);
    EXPECT_EQ(sloppy[0].bufferLabel, "constant \"index out of range\"");
    EXPECT_EQ(sloppy[0].bufferLength, 19u);
    EXPECT_EQ(sloppy[0].offset, 19u);
    EXPECT_EQ(sloppy[0].count, 1u);
    EXPECT_EQ(sloppy[0].location.line, kSloppyLine);
    EXPECT_EQ(sloppy[0].threadPositionInGrid, (validation::Position{count - 1, 0, 0}));
    EXPECT_EQ(std::memcmp(got.message, "index out of range", 19), 0);
    EXPECT_EQ(got.message[19], 0);    // the reported read, zero-filled
    EXPECT_EQ(got.message[20], 0x5a); // untouched
}

INSTANTIATE_TEST_SUITE_P(Shapes, StringLiterals, ::testing::Values(Shape{1, 1}, Shape{33, 33}, Shape{64, 64}, Shape{100, 33}),
                         shapeName);

} // namespace
} // namespace metalcpu::testing
