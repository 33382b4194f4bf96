#include "jit/translated_file.h"

#include "compiler/translate.h"
#include "jit/kernel_compiler.h"
#include "support/hash.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace metalcpu::jit {
namespace {

const char kMathPreambleComment[] = "// metalcpu math settings: MTLMathMode, MTLMathFloatingPointFunctions\n";
const char kMathModeDefine[] = "#define METALCPU_MATH_MODE ";

/// Where sourceRootsPreamble() lines begin.
const char kSourceRootLine[] = "// metalcpu source root: ";

/// The C++ lines that define `macro` (replacing the prelude's default) as `variable`, a
/// string holding `text`: a raw string literal whose delimiter does not occur in the text.
std::string embedSource(const std::string& macro, const std::string& variable, const std::string& text) {
    std::string delimiter = "mcv";
    for (int n = 0; text.find(")" + delimiter + "\"") != std::string::npos; ++n) delimiter = "mcv" + std::to_string(n);
    return "#undef " + macro + "\n#define " + macro + " " + variable + "\nstatic const char " + variable + "[] = R\"" +
           delimiter + "(" + text + ")" + delimiter + "\";\n";
}

} // namespace


/// The first bytes of a file: enough for the preamble of a translated file.
std::string headOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string buffer(kPreambleLimit, '\0');
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    buffer.resize(static_cast<std::size_t>(in.gcount()));
    return buffer;
}

std::string sourceRootsPreamble(const std::vector<std::filesystem::path>& roots) {
    std::string lines;
    for (const std::filesystem::path& root : roots)
        if (root.string().find('\n') == std::string::npos) lines += kSourceRootLine + root.string() + "\n";
    return lines;
}

/// The roots recorded by sourceRootsPreamble() in the preamble at the start of `translatedCpp`.
std::vector<std::string> recordedSourceRoots(const std::string& translatedCpp) {
    std::vector<std::string> roots;
    std::istringstream in(translatedCpp);
    for (std::string line; std::getline(in, line) && (line.rfind("//", 0) == 0 || line.rfind("#define ", 0) == 0);)
        if (line.rfind(kSourceRootLine, 0) == 0 && line.size() > sizeof kSourceRootLine && line[sizeof kSourceRootLine - 1] == '/')
            roots.push_back(line.substr(sizeof kSourceRootLine - 1));
    return roots;
}

std::string mathSettingsPreamble(MathMode mode, MathFunctions functions) {
    return std::string(kMathPreambleComment) + kMathModeDefine +
           std::to_string(static_cast<int>(mode)) + "\n#define METALCPU_MATH_FP32_FUNCTIONS " +
           std::to_string(static_cast<int>(functions)) + "\n";
}

MathMode recordedMathMode(const std::string& translatedCpp) {
    // Only the preamble at the very start counts: an embedded validation flavour carries
    // its own further on.
    const std::string prefix = std::string(kMathPreambleComment) + kMathModeDefine;
    if (translatedCpp.compare(0, prefix.size(), prefix) != 0) return MathMode::Fast;
    int value = -1;
    std::from_chars(translatedCpp.data() + prefix.size(), translatedCpp.data() + translatedCpp.size(), value);
    switch (value) {
    case static_cast<int>(MathMode::Safe):
        return MathMode::Safe;
    case static_cast<int>(MathMode::Relaxed):
        return MathMode::Relaxed;
    default:
        return MathMode::Fast;
    }
}

std::string KernelCompileSettings::key() const {
    support::Hasher hasher;
    for (const auto* list : {&includeDirectories, &quoteDirectories, &systemDirectories, &forcedIncludes, &macros,
                             &undefinedMacros}) {
        for (const std::string& item : *list) hasher.add(item).add(std::string_view("\0", 1));
        hasher.add("|");
    }
    hasher.add(static_cast<std::uint64_t>(languageVersion))
        .add(static_cast<std::uint64_t>(mathMode))
        .add(static_cast<std::uint64_t>(mathFunctions));
    return hasher.hex();
}

std::string insertAfterPrelude(const std::string& translatedCpp, const std::string& lines) {
    const std::size_t at = translatedCpp.find(msl::kPreludeInclude);
    if (at == std::string::npos) return translatedCpp;
    const std::size_t after = at + msl::kPreludeInclude.size();
    return translatedCpp.substr(0, after) + lines + translatedCpp.substr(after);
}

std::string embedValidationSource(const std::string& validationCpp) {
    return embedSource("METALCPU_VALIDATION_SOURCE", "metalcpu_validation_source", validationCpp);
}

namespace {
/// The first line of a validationFailureSource(); each line of the reason follows as an #error.
constexpr std::string_view kValidationFailed =
    "#error metalcpu: this file's shader-validation translation failed, so it has no instrumented flavour:\n";
} // namespace

std::string validationFailureSource(const std::string& reason) {
    std::string text(kValidationFailed);
    std::istringstream lines(reason);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) text += "#error " + line + "\n";
    return text;
}

std::optional<std::string> validationFailureReason(std::string_view validationSource) {
    if (!validationSource.starts_with(kValidationFailed)) return std::nullopt;
    std::string reason;
    std::istringstream lines{std::string(validationSource.substr(kValidationFailed.size()))};
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("#error ")) reason += line.substr(7) + "\n";
    return reason;
}

std::string embedSpecialisationSource(const std::string& translatedCpp) {
    return embedSource("METALCPU_SPECIALISATION_SOURCE", "metalcpu_specialisation_source", translatedCpp);
}

std::string reflectionImageLines() {
    return "#undef METALCPU_KERNEL_CODE\n#define METALCPU_KERNEL_CODE(function) nullptr\n";
}

} // namespace metalcpu::jit
