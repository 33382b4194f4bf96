#include "compiler/emitter/entry_points.h"
#include "jit/compile_image.h"
#include "jit/compile_parts.h"
#include "jit/compiler_messages.h"
#include "jit/compiler_process.h"
#include "jit/kernel_compiler.h"
#include "jit/kernel_flags.h"
#include "jit/library_file.h"
#include "jit/object_file.h"
#include "jit/toolchain.h"
#include "jit/translated_file.h"
#include "support/files.h"

#include <future>

namespace metalcpu::jit {
namespace {

/// The name the host compiler's messages give the source of `translatedCpp`: that of its
/// first #line directive about the user's code (which follows the prelude), as GCC writes it
/// ("program_source", "shaders/blur.metal"); "the translated kernels" when it has none.
std::string sourceNameOf(const std::string& translatedCpp) {
    for (std::size_t directive = translatedCpp.find("\n#line "); directive != std::string::npos;
         directive = translatedCpp.find("\n#line ", directive + 1)) {
        const std::size_t open = translatedCpp.find('"', directive);
        if (open == std::string::npos || translatedCpp.find('\n', directive + 1) < open) continue;
        std::string name;
        for (std::size_t i = open + 1; i < translatedCpp.size() && translatedCpp[i] != '"' && translatedCpp[i] != '\n';
             ++i)
            name += translatedCpp[i] == '\\' && i + 1 < translatedCpp.size() ? translatedCpp[++i] : translatedCpp[i];
        if (name != msl::kGeneratedFileName) return name;
    }
    return "the translated kernels";
}

} // namespace

CompileResult compileTranslation(const std::string& cppPath, const std::string& workingDirectory,
                                 const std::string& outputPath, bool sharedLibrary, const std::string& cacheKey,
                                 const BuildOptions& build) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) return missingToolchain(error);
    const std::string head = headOf(inDirectory(workingDirectory, cppPath));
    const std::optional<std::string> whole = support::readFile(inDirectory(workingDirectory, cppPath));
    const std::uint64_t codeBytes = whole ? translatedCodeBytes(*whole) : 0;
    const CompileWork work{codeBytes, build.compileTimeFactor};
    std::vector<Target> targets = targetsOf(build);
    if (build.syntaxOnly) targets.resize(1);
    std::vector<std::string> readable = recordedSourceRoots(head);
    readable.insert(readable.end(), {absoluteIn(workingDirectory, cppPath), tools->includeDir});
    Scratch scratch;
    // A big file of several kernels is compiled in parts when there are CPUs for them
    // (compile_parts.h); not when its warnings are shown, which each part would repeat.
    std::vector<std::string> partFiles;
    std::vector<std::vector<std::string>> partKernels;
    if (whole && !build.syntaxOnly && !build.warnings)
        for (const std::vector<std::string>& part : compileParts(*whole, targets.size(), codeBytes, compileJobs())) {
            partKernels.push_back(kernelNames(*whole, part));
            partFiles.push_back(scratch.file(("part" + std::to_string(partFiles.size()) + ".cpp").c_str()));
            if (!support::writeFileAtomically(partFiles.back(), partSource(*whole, part, partFiles.size() == 1)))
                return CompileResult{false, "cannot write " + partFiles.back() + "\n"};
        }
    // One compiler process per level (per part of it), all at once: on two cores the three
    // default levels take about 2.9 times one level's CPU time but 1.6 times its wall time
    // (docs/tools.md).
    std::vector<ImageSource> images;
    std::vector<std::future<CompileResult>> compiles;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const std::string image = scratch.file((std::to_string(i) + (sharedLibrary ? ".so" : ".o")).c_str());
        images.push_back(ImageSource{targets[i].level, image});
        std::vector<std::string> flags = codeFlags(recordedMathMode(head), targets[i], build);
        // The standard library is a system directory: its own code warns about nothing the
        // user wrote.
        flags.insert(flags.end(), {"-isystem", tools->includeDir});
        std::vector<std::string> task;
        if (build.syntaxOnly) task = {"-fsyntax-only", cppPath};
        else if (sharedLibrary) task = {"-shared", "-nostdlib", "-Wl,-z,defs", cppPath, "-lgcc", "-o", image};
        else task = {"-c", cppPath, "-o", image};
        const ImageInParts parts{partFiles, partKernels, std::to_string(i), image, sharedLibrary};
        // What the compile is, for an error that its compiler's output cannot explain.
        const std::string compiled = (whole ? sourceNameOf(*whole) : cppPath) + " for " + targets[i].level;
        compiles.push_back(std::async(std::launch::async, [&, flags, task, parts, compiled] {
            const auto compileWhole = [&] {
                return compileImage(*tools, flags, task, (build.syntaxOnly ? "checking " : "compiling ") + compiled,
                                    head, workingDirectory, scratch, readable, work);
            };
            if (parts.files.empty()) return compileWhole();
            return compileImageInParts(*tools, flags, parts, compiled, head, scratch, readable, work,
                                       compileWhole);
        }));
    }
    // The first level's messages are the file's (every level warns alike); another level's
    // only when it alone fails.
    CompileResult compiled = compiles[0].get();
    for (std::size_t i = 1; i < compiles.size(); ++i) {
        CompileResult result = compiles[i].get();
        if (compiled.ok && !result.ok)
            compiled = CompileResult{false, "error: compiling for " + targets[i].level + ":\n" + result.diagnostics};
    }
    const std::string messages =
        userMessages(whole ? sourceColumns(compiled.diagnostics, *whole) : compiled.diagnostics,
                     {cppPath, absoluteIn(workingDirectory, cppPath), tools->includeDir});
    if (!compiled.ok) return CompileResult{false, messages};
    if (build.syntaxOnly) return CompileResult{true, messages};
    const std::string made = scratch.file(sharedLibrary ? "library.metallib" : "object.air");
    std::string problem = sharedLibrary ? writeLibraryFile(made, images, cacheKey) : writeObjectBundle(made, images);
    CompileResult result = problem.empty() ? delivered(made, inDirectory(workingDirectory, outputPath))
                                           : CompileResult{false, "error: " + problem + "\n"};
    result.diagnostics = messages + result.diagnostics;
    return result;
}

} // namespace metalcpu::jit
