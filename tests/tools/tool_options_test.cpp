#include "support/files.h"
#include "tools/response_files.h"
#include "tools/tool_options.h"
#include "tools/warning_policy.h"

#include <gtest/gtest.h>

namespace metalcpu::tools {
namespace {

using Strings = std::vector<std::string>;

std::vector<std::string> inputPaths(const MetalOptions& options) {
    std::vector<std::string> paths;
    for (const MetalInput& input : options.inputs) paths.push_back(input.path + (input.source ? "" : " (object)"));
    return paths;
}

// Test the -std= spellings Apple's tool accepts.
TEST(ToolOptions, LanguageVersions) {
    EXPECT_EQ(languageVersionOf("metal3.1"), 310);
    EXPECT_EQ(languageVersionOf("macos-metal2.4"), 240);
    EXPECT_EQ(languageVersionOf("ios-metal1.2"), 120);
    EXPECT_EQ(languageVersionOf("metal4.0"), 400);
    EXPECT_EQ(languageVersionOf("c++17"), -1);
    EXPECT_EQ(languageVersionOf("metal3"), -1);
}

// Test a command line as Xcode and real Makefiles write it: every flag lands where it
// belongs, the ignored ones are recorded for -v, and only the source is an input.
TEST(ToolOptions, ParsesAppleCommandLines) {
    MetalOptions options = parseMetalOptions(
        {"-x", "metal", "-c", "k.src", "-o", "k.air", "-I", "inc", "-Iother", "-iquote", "q", "-isystemsys",
         "-include", "pre.h", "-DX=1", "-D", "Y", "-U", "Z", "-F", "Frameworks", "-std=metal3.1", "-O3", "-g",
         "-Wall", "-Wno-unused", "-Werror", "-MMD", "-MF", "k.d", "-MT", "k.air", "-MQ", "a b$", "-MP",
         "-fmetal-enable-logging", "-target", "air64-apple-macos14.0", "-mmacosx-version-min=14.0", "-arch", "air64",
         "-isysroot", "/sdk", "-serialize-diagnostics", "k.dia", "-fno-fast-math", "-frecord-sources"});
    ASSERT_TRUE(options.error.empty()) << options.error;
    EXPECT_EQ(options.action, MetalAction::Compile);
    EXPECT_EQ(inputPaths(options), Strings{"k.src"});
    EXPECT_EQ(options.output, "k.air");
    EXPECT_EQ(options.settings.includeDirectories, (Strings{"inc", "other"}));
    EXPECT_EQ(options.settings.quoteDirectories, Strings{"q"});
    EXPECT_EQ(options.settings.systemDirectories, Strings{"sys"});
    EXPECT_EQ(options.settings.forcedIncludes, Strings{"pre.h"});
    EXPECT_EQ(options.settings.macros, (Strings{"X=1", "Y", jit::kEnableLoggingMacro}));
    EXPECT_EQ(options.settings.undefinedMacros, Strings{"Z"});
    EXPECT_EQ(options.settings.languageVersion, 310);
    EXPECT_EQ(options.settings.mathMode, jit::MathMode::Safe);
    EXPECT_EQ(options.optimisation, "-O3");
    EXPECT_EQ(options.codeFlags, Strings{"-g"}) << "-frecord-sources does not take -g's information away";
    EXPECT_EQ(options.warnings.hostFlags, (Strings{"-Wall", "-Wno-unused"}));
    EXPECT_TRUE(options.warnings.allAreErrors);
    EXPECT_TRUE(options.dependencies.write);
    EXPECT_TRUE(options.dependencies.userHeadersOnly);
    EXPECT_TRUE(options.dependencies.phonyTargets);
    EXPECT_EQ(options.dependencies.file, "k.d");
    EXPECT_EQ(options.dependencies.targets, (Strings{"k.air", "a\\ b$$"}));
    EXPECT_EQ(options.ignored, (Strings{"-F Frameworks", "-target air64-apple-macos14.0", "-mmacosx-version-min=14.0",
                                        "-arch air64", "-isysroot /sdk", "-serialize-diagnostics k.dia"}));
}

// Test that no flag's value ever becomes an input file: each flag that takes its value from
// the next argument, given one, leaves the source the only input.
TEST(ToolOptions, ValuesNeverBecomeInputs) {
    int separate = 0;
    for (const FlagHelp& flag : metalFlags()) {
        if (flag.usage.find(" <") == std::string::npos) continue;
        ++separate;
        MetalOptions options = parseMetalOptions({std::string(flag.spelling), "metal", "k.metal"});
        EXPECT_TRUE(options.error.empty()) << flag.spelling << ": " << options.error;
        EXPECT_EQ(inputPaths(options), Strings{"k.metal"}) << flag.spelling;
    }
    EXPECT_GE(separate, 17) << "the flags that take a separate value";
}

// Test that inputs are taken by name (.metal and - are sources, anything else is linked)
// until -x metal makes every input after it a source.
TEST(ToolOptions, InputsByNameOrLanguage) {
    MetalOptions options = parseMetalOptions({"a.metal", "b.air", "lib.a", "-", "-x", "metal", "c.msl", "-x", "none", "d.ir"});
    ASSERT_TRUE(options.error.empty()) << options.error;
    EXPECT_EQ(inputPaths(options), (Strings{"a.metal", "b.air (object)", "lib.a (object)", "-", "c.msl", "d.ir (object)"}));
    EXPECT_NE(parseMetalOptions({"-x", "c", "a.metal"}).error.find("unknown language '-x c'"), std::string::npos);
}

// Test that -D and -U apply in the order given, as the preprocessor's do.
TEST(ToolOptions, DefinesAndUndefinesInOrder) {
    MetalOptions undone = parseMetalOptions({"-DA=1", "-DB", "-UA", "k.metal"});
    EXPECT_EQ(undone.settings.macros, Strings{"B"});
    EXPECT_EQ(undone.settings.undefinedMacros, Strings{"A"});
    MetalOptions redefined = parseMetalOptions({"-U__METAL_MACOS__", "-U", "A", "-DA=2", "k.metal"});
    EXPECT_EQ(redefined.settings.macros, Strings{"A=2"});
    EXPECT_EQ(redefined.settings.undefinedMacros, Strings{"__METAL_MACOS__"});
}

// Test that the flag that stops earliest decides what the run does, whatever the order.
TEST(ToolOptions, ActionPrecedence) {
    EXPECT_EQ(parseMetalOptions({"k.metal"}).action, MetalAction::Link);
    EXPECT_EQ(parseMetalOptions({"-E", "-c", "k.metal"}).action, MetalAction::Preprocess);
    EXPECT_EQ(parseMetalOptions({"-c", "-fsyntax-only", "k.metal"}).action, MetalAction::SyntaxOnly);
    EXPECT_EQ(parseMetalOptions({"-c", "-MM", "k.metal"}).action, MetalAction::Dependencies);
    EXPECT_EQ(parseMetalOptions({"-fsyntax-only", "-E", "k.metal"}).action, MetalAction::Preprocess);
}

// Test the debug-information and optimisation flags: the last -g form wins, and
// -frecord-sources gives line tables unless there is more already.
TEST(ToolOptions, DebugInformationAndOptimisation) {
    EXPECT_EQ(parseMetalOptions({"-g", "-gline-tables-only", "k.metal"}).codeFlags, Strings{"-g1"});
    EXPECT_EQ(parseMetalOptions({"-gline-tables-only", "-g", "k.metal"}).codeFlags, Strings{"-g"});
    EXPECT_EQ(parseMetalOptions({"-frecord-sources", "k.metal"}).codeFlags, Strings{"-g1"});
    EXPECT_EQ(parseMetalOptions({"-g", "-fno-inline", "k.metal"}).codeFlags, (Strings{"-g", "-fno-inline"}));
    EXPECT_EQ(parseMetalOptions({"k.metal"}).optimisation, "-O2");
    EXPECT_EQ(parseMetalOptions({"-O0", "k.metal"}).optimisation, "-O0");
    EXPECT_EQ(parseMetalOptions({"-Oz", "k.metal"}).optimisation, "-Os");
    EXPECT_EQ(parseMetalOptions({"-Ofast", "k.metal"}).optimisation, "-O3");
    EXPECT_NE(parseMetalOptions({"-O9", "k.metal"}).error.find("unknown optimisation level -O9"), std::string::npos);
}

// Test -march= and -mcpu=: one level (or native) instead of the default levels; a level of no
// architecture this metalcpu knows is an error listing the known ones.
TEST(ToolOptions, InstructionSetLevels) {
    EXPECT_EQ(parseMetalOptions({"k.metal"}).levels, jit::defaultLevels());
    const std::string baseline = jit::baselineLevel();
    EXPECT_EQ(parseMetalOptions({"-march=" + baseline, "k.metal"}).levels, Strings{baseline});
    EXPECT_EQ(parseMetalOptions({"-march=native", "k.metal"}).levels, Strings{"native"});
    EXPECT_EQ(parseMetalOptions({"-march=native", "-mcpu=" + baseline, "k.metal"}).levels, Strings{baseline})
        << "the last one wins";
    const MetalOptions bad = parseMetalOptions({"-march=pentium4", "k.metal"});
    EXPECT_NE(bad.error.find("unknown instruction-set level -march=pentium4 (" + baseline), std::string::npos) << bad.error;
    EXPECT_NE(parseMetalOptions({"-mcpu=i386", "k.metal"}).error.find("unknown instruction-set level -mcpu=i386"),
              std::string::npos);
}

// Test the warning flags: what goes to the host compiler, which warnings are errors.
TEST(ToolOptions, WarningFlags) {
    MetalOptions options = parseMetalOptions({"-Wall", "-Werror", "-Wno-error", "-Werror=shadow",
                                              "-Wno-error=unused-variable", "-Wno-unused-parameter", "k.metal"});
    ASSERT_TRUE(options.error.empty()) << options.error;
    EXPECT_EQ(options.warnings.hostFlags, (Strings{"-Wall", "-Wshadow", "-Wno-unused-parameter"}));
    EXPECT_FALSE(options.warnings.allAreErrors);
    EXPECT_EQ(options.warnings.errors, Strings{"shadow"});
    EXPECT_EQ(options.warnings.notErrors, Strings{"unused-variable"});
    EXPECT_FALSE(options.warnings.suppressed);
    EXPECT_TRUE(parseMetalOptions({"-w", "k.metal"}).warnings.suppressed);
}

// Test that mistakes are errors with a reason: an unknown flag (never an input), a missing
// value, a bad value, an impossible combination.
TEST(ToolOptions, RejectsBadCommandLines) {
    const std::pair<Strings, std::string> cases[] = {
        {{}, "no input files"},
        {{"-fbogus", "k.metal"}, "unknown argument '-fbogus'"},
        {{"k.metal", "-bogus", "value"}, "unknown argument '-bogus'"},
        {{"-Wl,-z,defs", "k.metal"}, "passes no options to a linker"},
        {{"k.metal", "-o"}, "missing value after -o"},
        {{"k.metal", "-include"}, "missing value after -include"},
        {{"k.metal", "-std=metal9"}, "unknown language standard -std=metal9"},
        {{"k.metal", "-fmetal-math-mode=loose"}, "unknown math mode"},
        {{"-c", "a.metal", "b.metal", "-o", "x.air"}, "-o with -c takes one source file"},
        {{"-c", "-"}, "-c with standard input (-) needs -o"},
        {{"-c", "k.metal", "-o", "-", "-MD"}, "-MD with -o - (standard output) needs -MF"},
    };
    for (const auto& [arguments, message] : cases) {
        MetalOptions options = parseMetalOptions(arguments);
        EXPECT_NE(options.error.find(message), std::string::npos) << options.error;
        EXPECT_TRUE(options.inputs.size() <= 2) << "values never become inputs";
    }
    EXPECT_TRUE(parseMetalOptions({"-c", "-", "-o", "-"}).error.empty()) << "tinygrad's pipe";
    EXPECT_TRUE(parseMetalOptions({"k.metal", "-o", "-"}).error.empty());
    EXPECT_TRUE(parseMetalOptions({"-v"}).error.empty()) << "-v alone prints the version";
    EXPECT_TRUE(parseMetalOptions({"--version"}).version);
}

// Test metallib's command line: default.metallib without -o, as Apple's; flags it does not
// know are errors.
TEST(ToolOptions, MetallibCommandLine) {
    MetallibOptions plain = parseMetallibOptions({"a.air", "lib.a"});
    EXPECT_TRUE(plain.error.empty()) << plain.error;
    EXPECT_EQ(plain.output, "default.metallib");
    EXPECT_EQ(plain.inputs, (Strings{"a.air", "lib.a"}));
    EXPECT_EQ(parseMetallibOptions({"-o", "x.metallib", "a.air"}).output, "x.metallib");
    EXPECT_EQ(parseMetallibOptions({"-ox.metallib", "a.air"}).output, "x.metallib");
    EXPECT_NE(parseMetallibOptions({"-fbogus", "a.air"}).error.find("unknown argument '-fbogus'"), std::string::npos);
    EXPECT_NE(parseMetallibOptions({}).error.find("no input files"), std::string::npos);
}

// Test that docs/tools.md lists every flag metal accepts.
TEST(ToolOptions, EveryFlagIsDocumented) {
    std::string docs = support::readFile(DOCS_DIR "/tools.md").value_or("");
    ASSERT_FALSE(docs.empty());
    for (const FlagHelp& flag : metalFlags())
        EXPECT_NE(docs.find("`" + std::string(flag.spelling)), std::string::npos) << flag.spelling << " is not in docs/tools.md";
}

class ResponseFilesTest : public ::testing::Test {
protected:
    void SetUp() override { dir_ = support::makeTemporaryDirectory("metalcpu-response-test-"); }
    void TearDown() override { support::removeTree(dir_); }
    std::string dir_;
};

// Test @file as GCC reads it: white space separates, quotes group, backslashes escape, and
// @file inside a file is read too.
TEST_F(ResponseFilesTest, Expanded) {
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/args", "-c 'a b.metal'\n\"-DX=1 2\" a\\ c @" + dir_ + "/more\n"));
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/more", "-o\tout.air\n"));
    std::string error;
    EXPECT_EQ(expandResponseFiles({"-Iinc", "@" + dir_ + "/args", "-g"}, &error),
              (Strings{"-Iinc", "-c", "a b.metal", "-DX=1 2", "a c", "-o", "out.air", "-g"}));
    EXPECT_EQ(error, "");
}

/// The arguments of a response file holding `text`.
Strings argumentsOf(const std::string& dir, const std::string& text) {
    EXPECT_TRUE(support::writeFileAtomically(dir + "/file", text));
    std::string error;
    Strings arguments = expandResponseFiles({"@" + dir + "/file"}, &error);
    EXPECT_EQ(error, "");
    return arguments;
}

// Test the backslash as GCC 12's driver reads it (each case was checked with g++ @file; Clang
// 14 agrees but for the last): it makes the next character plain text and goes itself, in
// plain text and inside either quotes alike.
TEST_F(ResponseFilesTest, BackslashesAsGccReadsThem) {
    const std::pair<std::string, Strings> cases[] = {
        {"a\\b C:\\dir\\k.metal", {"ab", "C:dirk.metal"}},            // a Windows-looking path loses them
        {"'c\\d' 'q\\'r' 'a\\\\b'", {"cd", "q'r", "a\\b"}},             // in single quotes
        {"\"e\\f\" \"g\\\"h\" \"m\\\\n\"", {"ef", "g\"h", "m\\n"}},     // in double quotes
        {"k\\'l k\\\"l", {"k'l", "k\"l"}},                                 // an escaped quote opens nothing
        {"i\\ j t\\\tu q\\\nr", {"i j", "t\tu", "q\nr"}},                // escaped white space, newline too
        {"\"it's\" 'say \"hi\"'", {"it's", "say \"hi\""}},                 // the other quote is plain text
        {"'' x\vy\fz", {"", "x", "y", "z"}},                               // empty quotes; all of ISSPACE
        {"'open to\nthe end", {"open to\nthe end"}},                        // an unclosed quote
        {"end\\", {"end"}},                                                // at the end of the file (Clang keeps it)
    };
    for (const auto& [text, expected] : cases) EXPECT_EQ(argumentsOf(dir_, text), expected) << text;
}

// Test that a response file that cannot be read, or that includes itself, is an error.
TEST_F(ResponseFilesTest, Errors) {
    std::string error;
    expandResponseFiles({"@" + dir_ + "/missing"}, &error);
    EXPECT_NE(error.find("cannot read the response file"), std::string::npos) << error;
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/self", "@" + dir_ + "/self\n"));
    expandResponseFiles({"@" + dir_ + "/self"}, &error);
    EXPECT_NE(error.find("nest deeper than 32"), std::string::npos) << error;
}

// Test -Werror, -Werror=x and -Wno-error=x on a build's messages; -w drops every warning with
// its quoted lines and notes, and keeps errors.
TEST(WarningPolicy, ErrorsAndSuppression) {
    const std::string messages = "k.metal: In function 'void k()':\n"
                                 "k.metal:3:9: warning: unused variable 'x' [-Wunused-variable]\n"
                                 "    3 |     int x = 1;\n"
                                 "      |         ^\n"
                                 "k.metal:4:5: warning: declaration of 'y' shadows a parameter [-Wshadow]\n"
                                 "k.metal:2:1: note: shadowed declaration is here\n"
                                 "k.metal:5:1: warning: something the front end says\n"
                                 "k.metal:6:1: warning: shader validation will not be available for this file: z\n"
                                 "k.metal:7:1: error: a real error\n";
    WarningOptions all;
    all.allAreErrors = true;
    PolicyResult promoted = applyWarningPolicy(messages, all);
    EXPECT_EQ(promoted.errors, 3);
    EXPECT_NE(promoted.text.find("k.metal:3:9: error: unused variable 'x' [-Werror,-Wunused-variable]\n    3 |"),
              std::string::npos)
        << promoted.text;
    EXPECT_NE(promoted.text.find("k.metal:5:1: error: something the front end says [-Werror]"), std::string::npos);
    EXPECT_NE(promoted.text.find("k.metal:6:1: warning: shader validation"), std::string::npos)
        << "metalcpu's own limitation is never the user's error";

    WarningOptions some;
    some.errors = {"shadow", "unused-variable"};
    some.notErrors = {"unused-variable"};
    PolicyResult named = applyWarningPolicy(messages, some);
    EXPECT_EQ(named.errors, 1);
    EXPECT_NE(named.text.find("k.metal:4:5: error: declaration of 'y' shadows a parameter [-Werror,-Wshadow]"),
              std::string::npos)
        << named.text;
    EXPECT_NE(named.text.find("k.metal:3:9: warning: unused variable"), std::string::npos);

    // GCC's name of a warning with levels ends in `=`; -Werror=<name> names it without.
    WarningOptions levelled;
    levelled.errors = {"implicit-fallthrough"};
    PolicyResult fallthrough =
        applyWarningPolicy("k.metal:8:3: warning: this statement may fall through [-Wimplicit-fallthrough=]\n", levelled);
    EXPECT_EQ(fallthrough.errors, 1);
    EXPECT_EQ(fallthrough.text,
              "k.metal:8:3: error: this statement may fall through [-Werror,-Wimplicit-fallthrough=]\n");

    WarningOptions quiet;
    quiet.suppressed = true;
    quiet.allAreErrors = true;
    PolicyResult silenced = applyWarningPolicy(messages, quiet);
    EXPECT_EQ(silenced.errors, 0);
    EXPECT_EQ(silenced.text, "k.metal: In function 'void k()':\nk.metal:7:1: error: a real error\n");
}

} // namespace
} // namespace metalcpu::tools
