#include "jit/compile_image.h"

#include "jit/compiler_process.h"
#include "jit/precompiled_prelude.h"
#include "jit/toolchain.h"
#include "support/files.h"
#include "support/log.h"

#include <future>

namespace metalcpu::jit {
namespace {

/// " (kernels a, b)": what a part builds, for its step's name.
std::string kernelList(const std::vector<std::string>& kernels) {
    if (kernels.empty()) return {};
    std::string list = kernels.size() == 1 ? " (kernel " : " (kernels ";
    for (std::size_t k = 0; k < kernels.size(); ++k) list += (k ? ", " : "") + kernels[k];
    return list + ")";
}

} // namespace

CompileResult compileImage(const Toolchain& tools, const std::vector<std::string>& flags,
                           const std::vector<std::string>& task, const std::string& step, const std::string& head,
                           const std::string& workingDirectory, const Scratch& scratch,
                           const std::vector<std::string>& readable, CompileWork work) {
    std::vector<std::string> plain = {tools.compiler, "-x", "c++"};
    plain.insert(plain.end(), flags.begin(), flags.end());
    plain.insert(plain.end(), task.begin(), task.end());
    std::optional<PrecompiledPrelude> prelude = PrecompiledPrelude::of(tools, flags, head);
    if (!prelude || !prelude->prepare(tools))
        return runCompiler(tools, plain, step, workingDirectory, scratch, readable, 0, work);
    std::vector<std::string> argv = prelude->arguments();
    argv.insert(argv.begin(), tools.compiler);
    argv.insert(argv.end(), plain.begin() + 1, plain.end());
    std::vector<std::string> readableWith = readable;
    readableWith.push_back(prelude->file());
    CompileResult result = runCompiler(tools, argv, step, workingDirectory, scratch, readableWith, 0, work);
    if (result.ok) return result;
    // Leased, it is no sweep's to remove; but a cache cleaner (`rm -rf`) may take it away in
    // the middle, which fails the compile however it fails (the confined compiler's view
    // cannot even be made without it).
    if (!support::fileExists(prelude->file())) {
        support::log().debug("compiling again without the precompiled prelude {}, which was removed during the "
                             "compile",
                             prelude->file());
        return runCompiler(tools, plain, step, workingDirectory, scratch, readable, 0, work);
    }
    if (!prelude->mentionedIn(result.diagnostics)) return result;
    support::log().debug("compiling again without the precompiled prelude {}, which the failed compile mentions",
                         prelude->file());
    CompileResult without = runCompiler(tools, plain, step, workingDirectory, scratch, readable, 0, work);
    if (without.ok) prelude->discard(result.diagnostics);
    return without;
}


CompileResult compileImageInParts(const Toolchain& tools, const std::vector<std::string>& flags, const ImageInParts& parts,
                                  const std::string& image, const std::string& head, const Scratch& scratch,
                                  const std::vector<std::string>& readable, CompileWork work,
                                  const std::function<CompileResult()>& whole) {
    support::log().debug("compiling {} in {} parts at once", parts.image, parts.files.size());
    std::vector<std::string> objects, steps;
    std::vector<std::future<CompileResult>> compiles;
    for (std::size_t p = 0; p < parts.files.size(); ++p) {
        objects.push_back(scratch.file((parts.name + "-part" + std::to_string(p) + ".o").c_str()));
        steps.push_back("compiling part " + std::to_string(p + 1) + " of " + std::to_string(parts.files.size()) +
                        " of " + image + (p < parts.kernels.size() ? kernelList(parts.kernels[p]) : std::string()));
        std::vector<std::string> task = {"-c", parts.files[p], "-o", objects.back()}, readablePart = readable;
        readablePart.push_back(parts.files[p]);
        compiles.push_back(std::async(std::launch::async, [&, task, readablePart, step = steps.back()] {
            return compileImage(tools, flags, task, step, head, {}, scratch, readablePart, work);
        }));
    }
    // How the first step that failed without the compiler saying why failed: if the whole
    // compile fails too, it may be why (parts at once need more memory than one process).
    std::string unexplained;
    const auto note = [&](const std::string& step, const CompileResult& result) {
        if (result.ok || !unexplained.empty() || !result.diagnostics.starts_with(failureCause(step))) return;
        const std::string cause = result.diagnostics.substr(failureCause(step).size());
        unexplained = "note: " + image + " was compiled whole because " + step + " failed: " +
                      cause.substr(0, cause.find('\n')) + "\n";
    };
    bool compiled = true;
    for (std::size_t p = 0; p < compiles.size(); ++p) {
        const CompileResult result = compiles[p].get();
        note(steps[p], result);
        compiled = result.ok && compiled;
    }
    if (compiled) {
        std::vector<std::string> argv = {tools.compiler};
        argv.insert(argv.end(), flags.begin(), flags.end());
        if (parts.sharedLibrary) argv.insert(argv.end(), {"-shared", "-nostdlib", "-Wl,-z,defs"});
        else argv.insert(argv.end(), {"-r", "-nostdlib"});
        argv.push_back("-Wl,--allow-multiple-definition");
        argv.insert(argv.end(), objects.begin(), objects.end());
        if (parts.sharedLibrary) argv.push_back("-lgcc");
        argv.insert(argv.end(), {"-o", parts.image});
        const std::string step = "linking the " + std::to_string(objects.size()) + " parts of " + image;
        CompileResult linked = runCompiler(tools, argv, step, {}, scratch, objects);
        if (linked.ok) return linked;
        note(step, linked);
        support::log().debug("compiling {} whole: linking its parts failed: {}", parts.image, linked.diagnostics);
    } else {
        support::log().debug("compiling {} whole: a part of it failed", parts.image);
    }
    CompileResult result = whole();
    if (!result.ok) result.diagnostics += unexplained;
    return result;
}
} // namespace metalcpu::jit
