#include "jit/compile_parts.h"

#include "compiler/translate.h"
#include "jit/kernel_compiler.h"
#include "support/config.h"
#include "support/hash.h"

#include <sched.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>

namespace metalcpu::jit {
namespace {

const char kKernelSelectorsLine[] = "// metalcpu kernels: ";

/// How a translated file compiled for one kernel says so (jit::selectingKernel()).
const char kOneKernel[] = "\n#define METALCPU_ONLY_KERNEL ";

/// Where the module of a translated file is registered: the file's last line of code, after
/// every text it carries (which hold registrations of their own, inside string literals).
const char kModuleRegistration[] = "\nMETALCPU_REGISTER_MODULE(";

/// A text a translated file carries (kernel_compiler.h: embedValidationSource(),
/// embedSpecialisationSource()): the variable that holds it and the macro its module reads.
struct CarriedText {
    const char* variable;
    const char* macro;
};
constexpr CarriedText kCarriedTexts[] = {{"metalcpu_validation_source", "METALCPU_VALIDATION_SOURCE"},
                                         {"metalcpu_specialisation_source", "METALCPU_SPECIALISATION_SOURCE"}};

/// The attributes of the one definition of a carried text that all parts of a file share.
const char kSharedText[] = "extern __attribute__((visibility(\"hidden\"))) const char ";

} // namespace

std::string kernelSelectorsPreamble(const std::vector<std::string>& hostNames) {
    if (hostNames.empty()) return {};
    std::string line = kKernelSelectorsLine;
    for (const std::string& name : hostNames) line += msl::kernelSelector(name) + " ";
    line.back() = '\n';
    return line;
}

std::vector<std::string> recordedKernelSelectors(const std::string& translatedCpp) {
    std::vector<std::string> selectors;
    std::istringstream in(translatedCpp);
    // The preamble: comments and #defines before the prelude's include.
    for (std::string line; std::getline(in, line) && (line.starts_with("//") || line.starts_with("#define "));) {
        if (!line.starts_with(kKernelSelectorsLine)) continue;
        std::istringstream words(line.substr(sizeof kKernelSelectorsLine - 1));
        for (std::string word; words >> word;) selectors.push_back(word);
    }
    return selectors;
}

std::vector<std::string> kernelNames(const std::string& translatedCpp, const std::vector<std::string>& selectors) {
    // entry_points.cpp: "#if METALCPU_SELECTS_KERNEL(<selector>)\n" then, for the symbol,
    // "__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.<name>") = 0;".
    constexpr std::string_view kSymbol = "__asm__(\"";
    std::vector<std::string> names;
    for (const std::string& selector : selectors) {
        const std::string guard = "#if METALCPU_SELECTS_KERNEL(" + selector + ")\n";
        std::optional<std::string> name;
        for (std::size_t at = translatedCpp.find(guard); at != std::string::npos && !name;
             at = translatedCpp.find(guard, at + 1)) {
            const std::size_t line = at + guard.size();
            const std::size_t end = translatedCpp.find('\n', line);
            const std::size_t symbol = translatedCpp.substr(line, end - line).find(kSymbol);
            if (symbol == std::string::npos) continue;
            const std::size_t begin = line + symbol + kSymbol.size();
            name = msl::kernelNameOfSymbol(
                std::string_view(translatedCpp).substr(begin, translatedCpp.find('"', begin) - begin));
        }
        names.push_back(name.value_or(selector));
    }
    return names;
}

std::size_t compileJobs() {
    if (support::config().compileJobs > 0) return static_cast<std::size_t>(support::config().compileJobs);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<std::size_t>(CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

std::vector<std::vector<std::string>> compileParts(const std::string& translatedCpp, std::size_t images,
                                                   std::uint64_t codeBytes, std::size_t jobs) {
    if (codeBytes < kPartCodeBytes || translatedCpp.find(kOneKernel) != std::string::npos) return {};
    const std::vector<std::string> selectors = recordedKernelSelectors(translatedCpp);
    const std::size_t count = std::min(selectors.size(), jobs / std::max<std::size_t>(images, 1));
    if (count < 2) return {};
    std::vector<std::vector<std::string>> parts(count);
    for (std::size_t k = 0; k < selectors.size(); ++k) parts[k % count].push_back(selectors[k]);
    return parts;
}

std::string partSource(const std::string& translatedCpp, const std::vector<std::string>& selectors, bool first) {
    std::string condition;
    for (const std::string& selector : selectors) condition += (condition.empty() ? "(s) == " : " || (s) == ") + selector;
    std::string text = insertAfterPrelude(translatedCpp, "#undef METALCPU_IN_PARTITION\n#define METALCPU_IN_PARTITION(s) (" +
                                                             (condition.empty() ? std::string("0") : condition) + ")\n");
    const std::string hash = support::Hasher().add(translatedCpp).hex();
    for (const CarriedText& carried : kCarriedTexts) {
        // Its definition right after the prelude is the file's own: the texts it carries hold none.
        const std::size_t definition = text.find("\nstatic const char " + std::string(carried.variable) + "[] = R\"");
        const std::size_t registration = text.rfind(kModuleRegistration);
        if (definition == std::string::npos || registration == std::string::npos || registration < definition) continue;
        // One symbol, named after the whole text (no other file's), for the one copy of it.
        const std::string symbol = "__asm__(\"metalcpu." + std::string(carried.variable) + "." + hash + "\")";
        if (first) {
            // Declared so before it is defined, without `static`: one definition for every part.
            text.replace(definition + 1, std::string_view("static ").size(),
                         kSharedText + std::string(carried.variable) + "[] " + symbol + ";\n");
        } else {
            // Its own copy is left unused (and out of the object); the module points at the first part's.
            const std::string name = std::string(carried.variable) + "_of_first_part";
            text.insert(registration + 1, kSharedText + name + "[] " + symbol + ";\n#undef " + carried.macro +
                                              "\n#define " + carried.macro + " " + name + "\n");
        }
    }
    return text;
}

} // namespace metalcpu::jit
