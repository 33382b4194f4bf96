// End-to-end tests: tests/compiler/golden/<name>.metal is preprocessed as the tools do it
// (`c++ -E -nostdinc -I../stubs`, run in the golden directory), translated, and compared with
// <name>.expected.cpp, or with <name>.expected.errors when the translation must fail. Every
// expected .cpp is also compiled (-fsyntax-only) against mock_prelude/, so the expectations
// are always C++ that parses. Set METALCPU_UPDATE_GOLDEN=1 (see update_golden.sh) to rewrite
// the expectations instead of comparing.
#include "compiler/translate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace metalcpu::msl {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldenDir = fs::path(METALCPU_TEST_SOURCE_DIR) / "tests" / "compiler" / "golden";

std::vector<std::string> goldenNames() {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(kGoldenDir, error))
        if (entry.path().extension() == ".metal") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<std::string> readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Runs `command` through the shell; returns its standard output and exit status.
std::pair<std::string, int> run(const std::string& command) {
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return {"", -1};
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    int status = pclose(pipe);
    return {output, status};
}

bool updating() {
    const char* value = std::getenv("METALCPU_UPDATE_GOLDEN");
    return value && *value && std::string(value) != "0";
}

/// Goldens named validation_* are translated in the shader-validation flavour.
bool isValidationGolden(const std::string& name) { return name.rfind("validation_", 0) == 0; }

class Golden : public ::testing::TestWithParam<std::string> {};

// Test that each golden input translates to exactly its expected output (or errors).
TEST_P(Golden, Translation) {
    const std::string name = GetParam();
    auto [preprocessed, status] = run("cd '" + kGoldenDir.string() + "' && '" METALCPU_TEST_CXX
                                      "' -E -nostdinc -I../stubs -x c++ '" + name + ".metal' 2>&1");
    ASSERT_EQ(status, 0) << preprocessed;

    TranslateOptions options;
    options.mainFile = name + ".metal";
    options.validation = isValidationGolden(name);
    options.readOriginalSource = [](const std::string& file) { return readText(kGoldenDir / file); };
    Translation t = translate(preprocessed, options);
    std::string actual;
    if (t.ok) {
        actual = t.cpp;
    } else {
        for (const Diagnostic& d : t.diagnostics) actual += d.format() + "\n";
    }
    const fs::path expectedPath = kGoldenDir / (name + (t.ok ? ".expected.cpp" : ".expected.errors"));
    const fs::path stalePath = kGoldenDir / (name + (t.ok ? ".expected.errors" : ".expected.cpp"));
    if (updating()) {
        std::ofstream(expectedPath, std::ios::binary) << actual;
        std::error_code ignored;
        fs::remove(stalePath, ignored);
        return;
    }
    auto expected = readText(expectedPath);
    ASSERT_TRUE(expected) << "missing " << expectedPath << (fs::exists(stalePath) ? " (the translation "
                              "succeeded or failed unexpectedly)" : "") << "; run update_golden.sh";
    EXPECT_EQ(actual, *expected);
}

/// The goldens that translate (error cases have an .expected.errors instead).
std::vector<std::string> translatingGoldenNames() {
    std::vector<std::string> names;
    for (const std::string& name : goldenNames())
        if (fs::exists(kGoldenDir / (name + ".expected.cpp"))) names.push_back(name);
    return names;
}

class GoldenOutput : public ::testing::TestWithParam<std::string> {};

// Test that each expected translation is C++ the host compiler accepts, warnings included.
TEST_P(GoldenOutput, Compiles) {
    const fs::path expected = kGoldenDir / (GetParam() + ".expected.cpp");
    const fs::path root = fs::path(METALCPU_TEST_SOURCE_DIR);
    // The validation flavour needs the real checked pointers, so it is compiled against the
    // real standard library, freestanding as kernels are.
    const std::string includes =
        isValidationGolden(GetParam())
            ? "-nostdinc -ffreestanding -fno-exceptions -fno-rtti -I'" + (root / "src/stdlib/include").string() + "'"
            : "-Wall -Wextra -Werror -I'" + (root / "tests/compiler/mock_prelude").string() + "' -I'" +
                  (root / "src/stdlib/include").string() + "'";
    auto [output, status] = run("'" METALCPU_TEST_CXX "' -std=c++20 -fsyntax-only " + includes + " -x c++ '" +
                                expected.string() + "' 2>&1");
    EXPECT_EQ(status, 0) << output;
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Compiler, Golden, ::testing::ValuesIn(goldenNames()), testName);
INSTANTIATE_TEST_SUITE_P(Compiler, GoldenOutput, ::testing::ValuesIn(translatingGoldenNames()), testName);

} // namespace
} // namespace metalcpu::msl
