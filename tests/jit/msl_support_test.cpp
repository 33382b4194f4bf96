// docs/msl-support.md, kept true: each row of its tables names a snippet in msl_support/, and
// the row's status must be what the snippet does. A snippet's first line says what to expect:
//   // expect: compiles            every kernel makes a pipeline, plain and with shader validation
//   // expect: error: <text>        newLibrary(source) fails with <text> at the .metal line
// and a second line `// language: 4.0` compiles it as Metal 4.0 (else newLibrary's default).
// A row marked "works" or "partly" needs a snippet that compiles, one marked "no" a snippet
// that fails; a feature that starts (or stops) working makes this test fail until the table
// says so.
#include "runtime/metal_test.h"
#include "scoped_state.h"
#include "support/files.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

namespace metalcpu::jit {
namespace {

const std::string kSnippets = std::string(METALCPU_SOURCE_DIR) + "/tests/jit/msl_support";
const std::string kTable = std::string(METALCPU_SOURCE_DIR) + "/docs/msl-support.md";

struct Expectation {
    bool compiles = false;
    std::string error; ///< the text an error must contain, when it does not compile
};

/// The snippet's first-line expectation; nothing when the line is malformed.
std::optional<Expectation> expectationOf(const std::string& source) {
    const std::string line = source.substr(0, source.find('\n'));
    if (line == "// expect: compiles") return Expectation{true, {}};
    const std::string errorPrefix = "// expect: error: ";
    if (line.starts_with(errorPrefix) && line.size() > errorPrefix.size())
        return Expectation{false, line.substr(errorPrefix.size())};
    return std::nullopt;
}

std::vector<std::string> snippetNames() {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(kSnippets, error))
        if (entry.path().extension() == ".metal") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// Row status by snippet name, from the table rows `| feature | status | notes | `name` |`.
std::map<std::string, std::string> tableRows(const std::string& table) {
    std::map<std::string, std::string> rows;
    static const std::regex row(R"(\n\|[^\n|]*\|\s*(works|partly|no)\s*\|[^\n]*\|\s*`([a-z0-9_]+)`\s*\|)");
    for (auto it = std::sregex_iterator(table.begin(), table.end(), row); it != std::sregex_iterator(); ++it)
        rows[(*it)[2].str()] = (*it)[1].str();
    return rows;
}

class MslSupport : public testing::MetalTest, public ::testing::WithParamInterface<std::string> {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        directory_ = support::makeTemporaryDirectory("metalcpu-msl-support-");
        ASSERT_FALSE(directory_.empty());
        // A cache of its own: the row is about this build's compiler, not an old entry.
        cache_ = std::make_unique<testing::ScopedEnvironmentVariable>("METALCPU_CACHE_DIR", directory_);
    }
    void TearDown() override {
        cache_.reset();
        support::removeTree(directory_);
        MetalTest::TearDown();
    }

    /// A pipeline for `kernel`, with shader validation `validation`; the error text when none.
    std::string pipelineError(MTL::Library* library, NS::String* kernel, MTL::ShaderValidation validation) {
        MTL::Function* function = library->newFunction(kernel);
        if (!function) return "no function";
        std::string why;
        MTL::ComputePipelineState* made = testing::pipelineOf(device_, function, validation, &why);
        function->release();
        if (made) made->release();
        return why;
    }

    std::string directory_;
    std::unique_ptr<testing::ScopedEnvironmentVariable> cache_;
};

// Test that a snippet does what its first line says.
TEST_P(MslSupport, SnippetDoesWhatItSays) {
    const std::string name = GetParam();
    const std::string source = support::readFile(kSnippets + "/" + name + ".metal").value_or("");
    const std::optional<Expectation> expected = expectationOf(source);
    ASSERT_TRUE(expected) << name << ".metal must start with '// expect: compiles' or '// expect: error: <text>'";

    NS::SharedPtr<MTL::CompileOptions> options = NS::TransferPtr(MTL::CompileOptions::alloc()->init());
    if (source.find("\n// language: 4.0\n") != std::string::npos) options->setLanguageVersion(MTL::LanguageVersion4_0);
    NS::Error* error = nullptr;
    MTL::Library* library =
        device_->newLibrary(NS::String::string(source.c_str(), NS::UTF8StringEncoding), options.get(), &error);
    if (!expected->compiles) {
        ASSERT_EQ(library, nullptr) << name << ".metal compiled: mark its row in docs/msl-support.md as working";
        const std::string message = error ? testing::text(error->localizedDescription()) : "";
        EXPECT_NE(message.find(expected->error), std::string::npos) << message;
        // The error points at the construct's line, not into generated C++.
        EXPECT_TRUE(std::regex_search(message, std::regex(R"(program_source:\d+:\d+: error)"))) << message;
        return;
    }
    ASSERT_NE(library, nullptr) << (error ? testing::text(error->localizedDescription()) : "");
    NS::Array* kernels = library->functionNames();
    ASSERT_GT(kernels->count(), 0u) << name << ".metal has no kernel";
    for (NS::UInteger i = 0; i < kernels->count(); ++i) {
        NS::String* kernel = kernels->object<NS::String>(i);
        // The names of render functions, which the library lists but does not hold.
        NS::Error* unsupported = nullptr;
        MTL::Function* function = library->newFunction(kernel, nullptr, &unsupported);
        if (function) function->release();
        if (!function && unsupported && unsupported->code() == MTL::LibraryErrorUnsupported) continue;
        EXPECT_EQ(pipelineError(library, kernel, MTL::ShaderValidationDisabled), "") << testing::text(kernel);
        EXPECT_EQ(pipelineError(library, kernel, MTL::ShaderValidationEnabled), "")
            << testing::text(kernel) << " with shader validation";
    }
    library->release();
}

INSTANTIATE_TEST_SUITE_P(Snippets, MslSupport, ::testing::ValuesIn(snippetNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Test that every row of the table names a snippet whose expectation matches the row's
// status, and that every snippet has a row.
TEST(MslSupportTable, RowsAndSnippetsAgree) {
    const std::string table = support::readFile(kTable).value_or("");
    ASSERT_FALSE(table.empty()) << kTable;
    const std::map<std::string, std::string> rows = tableRows(table);
    const std::vector<std::string> snippets = snippetNames();
    EXPECT_GT(rows.size(), 20u);
    for (const auto& [name, status] : rows) {
        const std::optional<std::string> source = support::readFile(kSnippets + "/" + name + ".metal");
        ASSERT_TRUE(source) << "docs/msl-support.md names " << name << ", which is not in tests/jit/msl_support/";
        const std::optional<Expectation> expected = expectationOf(*source);
        ASSERT_TRUE(expected) << name;
        EXPECT_EQ(expected->compiles, status != "no")
            << name << ": the table says '" << status << "' but the snippet expects "
            << (expected->compiles ? "to compile" : "an error");
    }
    for (const std::string& name : snippets)
        EXPECT_TRUE(rows.count(name)) << name << ".metal has no row in docs/msl-support.md";
}

} // namespace
} // namespace metalcpu::jit
