// metal: compiles Metal sources into .air objects (-c) or straight into a .metallib, with
// Apple's command line (docs/tools.md):
//   metal -c a.metal -o a.air [-I dir] [-D NAME=VALUE] [-std=metal3.1] [-MMD -MP -MF a.d]
//   metal a.metal b.metal lib.a -o default.metallib
//   metal -E a.metal | metal -x metal -fsyntax-only -

#include "jit/kernel_compiler.h"
#include "jit/make_dependencies.h"
#include "support/files.h"
#include "support/scratch_directories.h"
#include "tools/response_files.h"
#include "tools/standard_streams.h"
#include "tools/tool_info.h"
#include "tools/tool_options.h"
#include "tools/warning_policy.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>
#include <vector>

namespace {

using namespace metalcpu;
namespace fs = std::filesystem;

int fail(const std::string& message) {
    std::fprintf(stderr, "metal: error: %s\n", message.c_str());
    return 1;
}

std::string usage() {
    std::string text = "usage: metal [flags] <file.metal | file.air | archive.a | ->...\n"
                       "  Without -c, -fsyntax-only, -E or -M the inputs are linked into a .metallib.\n"
                       "  @file reads more arguments from file. The flags (docs/tools.md says more):\n";
    for (const tools::FlagHelp& flag : tools::metalFlags()) {
        std::string line = "  " + flag.usage;
        line += std::string(line.size() < 32 ? 32 - line.size() : 1, ' ');
        text += line + std::string(flag.meaning) + "\n";
    }
    return text;
}

/// `path` with its extension replaced ("out/a.air" -> "out/a.d").
std::string withExtension(const std::string& path, const std::string& extension) {
    return fs::path(path).replace_extension(extension).string();
}

/// Writes a file the user asked for (with the umask's mode, unlike metalcpu's private
/// files); "" and "-" are standard output.
bool writeOutput(const std::string& path, const std::string& text) {
    if (path.empty() || path == "-") return std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out.flush());
}

/// One `metal` run.
class MetalRun {
public:
    MetalRun(tools::MetalOptions options, std::string work) : options_(std::move(options)), work_(std::move(work)) {
        build_.warnings = !options_.warnings.suppressed;
        if (build_.warnings && !options_.warnings.hostFlags.empty()) {
            std::vector<std::string> unknown;
            build_.warningFlags = jit::knownWarningFlags(options_.warnings.hostFlags, &unknown);
            for (const std::string& flag : unknown) options_.ignored.push_back(flag + " (the kernel compiler has no such warning)");
        }
        build_.optimisation = options_.optimisation;
        build_.codeFlags = options_.codeFlags;
        build_.levels = options_.levels;
        build_.syntaxOnly = options_.action == tools::MetalAction::SyntaxOnly;
    }

    int run() {
        if (options_.verbose) {
            std::fputs(tools::versionText("metal", true).c_str(), stderr);
            for (const std::string& flag : options_.ignored) std::fprintf(stderr, "metal: ignored: %s\n", flag.c_str());
            if (options_.inputs.empty()) return 0;
        }
        for (std::size_t i = 0; i < options_.inputs.size(); ++i) {
            const tools::MetalInput& input = options_.inputs[i];
            if (input.source) {
                buildSource(input, i);
            } else if (options_.action == tools::MetalAction::Link) {
                objects_.push_back(input.path);
                objectNames_.push_back(input.path);
            } else {
                std::fprintf(stderr, "metal: warning: %s: an object is only used when linking\n", input.path.c_str());
            }
        }
        if (ok_ && options_.action == tools::MetalAction::Link) link();
        // -o -: the object or library was made in this run's directory; now it goes out.
        if (ok_ && toStandardOutput() && !tools::copyFileToStandardOutput(binaryFile()))
            ok_ = !fail("cannot write to standard output");
        if (ok_ && (options_.action == tools::MetalAction::Preprocess || options_.action == tools::MetalAction::Dependencies)) {
            const std::string& file = options_.action == tools::MetalAction::Dependencies && !options_.dependencies.file.empty()
                                          ? options_.dependencies.file
                                          : options_.output;
            if (!writeOutput(file, text_)) ok_ = !fail("cannot write " + file);
        }
        if (ok_ && !rules_.empty()) {
            // -MD with -MF: the rules of every source, in one file.
            if (!writeOutput(options_.dependencies.file, rules_)) ok_ = !fail("cannot write " + options_.dependencies.file);
        }
        return ok_ ? 0 : 1;
    }

private:
    /// The .air a source compiles into: with -c the -o file or <name>.air here, else a file of
    /// this run's own.
    std::string objectFor(const tools::MetalInput& input, std::size_t index) const {
        if (options_.action != tools::MetalAction::Compile) return work_ + "/" + std::to_string(index) + ".air";
        if (toStandardOutput()) return binaryFile();
        if (!options_.output.empty()) return options_.output;
        return fs::path(input.path).stem().string() + ".air";
    }

    /// `-o -` with -c or when linking: the binary is made in binaryFile(), then copied out.
    bool toStandardOutput() const {
        return options_.output == "-" &&
               (options_.action == tools::MetalAction::Compile || options_.action == tools::MetalAction::Link);
    }
    std::string binaryFile() const { return work_ + "/standard-output.bin"; }

    /// Prints a step's messages under the warning options; false when one of them is an error now.
    bool report(const std::string& messages) {
        tools::PolicyResult checked = tools::applyWarningPolicy(messages, options_.warnings);
        std::fputs(checked.text.c_str(), stderr);
        return checked.errors == 0;
    }

    void buildSource(const tools::MetalInput& input, std::size_t index) {
        // Said here, as Apple's driver says it: the compiler behind would name itself (cc1plus).
        std::error_code missing;
        if (input.path != "-" && !fs::is_regular_file(input.path, missing)) {
            ok_ = !fail("no such file or directory: '" + input.path + "'");
            return;
        }
        jit::KernelCompileSettings settings = options_.settings;
        jit::BuildOptions build = build_;
        std::string path = input.path;
        if (input.path == "-") {
            // Standard input is a file of this run's, named <stdin>; its "quoted" includes are
            // looked for in the working directory, as the preprocessor does.
            path = work_ + "/stdin.metal";
            if (!tools::saveStandardInput(path)) {
                ok_ = !fail("cannot write " + path);
                return;
            }
            build.sourceName = "<stdin>";
            settings.quoteDirectories.insert(settings.quoteDirectories.begin(), ".");
        }
        std::vector<std::string> dependencies;
        if (options_.dependencies.write) build.dependencies = &dependencies;

        const std::string object = objectFor(input, index);
        bool built = false;
        if (options_.action == tools::MetalAction::Preprocess || options_.action == tools::MetalAction::Dependencies) {
            std::string preprocessed;
            jit::CompileResult result = jit::preprocessFile(path, {}, settings, &preprocessed, build);
            built = report(result.diagnostics) && result.ok;
            if (built && options_.action == tools::MetalAction::Preprocess) text_ += renamed(preprocessed, path, build.sourceName);
        } else {
            const std::string translated = work_ + "/" + std::to_string(index) + ".cpp";
            const jit::CompileResult result = jit::translateAndCompile(path, {}, settings, translated, object, false, {}, build);
            built = report(result.diagnostics) && result.ok;
            // A failed compile leaves no stale object behind; `-o /dev/null` stays the device.
            if (!built && options_.action == tools::MetalAction::Compile && !support::isSpecialFile(object))
                std::remove(object.c_str());
            objects_.push_back(object);
            objectNames_.push_back(build.sourceName.empty() ? input.path : build.sourceName);
        }
        ok_ = ok_ && built;
        // Standard input has no file a make rule could name.
        if (input.path == "-") dependencies.erase(std::remove(dependencies.begin(), dependencies.end(), path), dependencies.end());
        if (built && options_.dependencies.write) addDependencies(input, object, dependencies);
    }

    /// The preprocessed text of standard input names it <stdin>, not this run's file.
    static std::string renamed(std::string text, const std::string& path, const std::string& name) {
        if (name.empty()) return text;
        const std::string from = "\"" + path + "\"", to = "\"" + name + "\"";
        for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
        return text;
    }

    /// The user's files (without -isystem headers for -MMD and -MM) and this tool.
    std::vector<std::string> userFiles(const std::vector<std::string>& dependencies) const {
        std::vector<std::string> files;
        for (const std::string& file : dependencies) {
            bool system = false;
            for (const std::string& dir : options_.settings.systemDirectories) {
                const fs::path relative = fs::path(file).lexically_normal().lexically_relative(fs::path(dir).lexically_normal());
                system = system || (!relative.empty() && *relative.begin() != "..");
            }
            if (!(system && options_.dependencies.userHeadersOnly)) files.push_back(file);
        }
        // What built the object: when metalcpu is upgraded (or rebuilt), make builds it again.
        if (const std::string tool = tools::toolPath(); !tool.empty()) files.push_back(tool);
        return files;
    }

    void addDependencies(const tools::MetalInput& input, const std::string& object, const std::vector<std::string>& found) {
        const std::vector<std::string> files = userFiles(found);
        if (options_.action == tools::MetalAction::Link) {
            // One rule for the library, on every source's files.
            for (const std::string& file : files)
                if (std::find(linkDependencies_.begin(), linkDependencies_.end(), file) == linkDependencies_.end())
                    linkDependencies_.push_back(file);
            return;
        }
        const std::string target = options_.action == tools::MetalAction::Compile
                                       ? object
                                       : fs::path(input.path == "-" ? "stdin" : input.path).stem().string() + ".air";
        const std::string rule = makeRule(target, files, input.path != "-");
        if (options_.action == tools::MetalAction::Dependencies) {
            text_ += rule;
        } else if (!options_.dependencies.file.empty()) {
            rules_ += rule;
        } else if (const std::string depfile = withExtension(target, ".d"); !writeOutput(depfile, rule)) {
            ok_ = !fail("cannot write " + depfile);
        }
    }

    /// The rule for `target` (unless -MT or -MQ named the targets) on `files`; -MP gives every
    /// file but the source a rule of its own.
    std::string makeRule(const std::string& target, const std::vector<std::string>& files, bool firstIsSource) const {
        std::vector<std::string> targets = options_.dependencies.targets;
        if (targets.empty()) targets.push_back(jit::quoteForMake(target));
        std::vector<std::string> phony;
        if (options_.dependencies.phonyTargets)
            phony.assign(files.begin() + (firstIsSource && !files.empty() ? 1 : 0), files.end());
        return jit::formatMakeRule(targets, files, phony);
    }

    void link() {
        const std::string output = toStandardOutput()        ? binaryFile()
                                   : options_.output.empty() ? "default.metallib"
                                                             : options_.output;
        jit::CompileResult linked = jit::linkLibrary(objects_, output, {}, objectNames_);
        if (!linked.ok) {
            fail("cannot link " + output);
            std::fputs(linked.diagnostics.c_str(), stderr);
            ok_ = false;
            return;
        }
        if (!options_.dependencies.write) return;
        const std::string depfile = options_.dependencies.file.empty() ? withExtension(output, ".d") : options_.dependencies.file;
        std::vector<std::string> phony;
        if (options_.dependencies.phonyTargets) phony = linkDependencies_;
        for (const tools::MetalInput& input : options_.inputs)
            phony.erase(std::remove(phony.begin(), phony.end(), input.path), phony.end());
        std::vector<std::string> targets = options_.dependencies.targets;
        if (targets.empty()) targets.push_back(jit::quoteForMake(output));
        if (!writeOutput(depfile, jit::formatMakeRule(targets, linkDependencies_, phony))) ok_ = !fail("cannot write " + depfile);
    }

    tools::MetalOptions options_;
    std::string work_;
    jit::BuildOptions build_;
    bool ok_ = true;
    std::vector<std::string> objects_, objectNames_;
    std::vector<std::string> linkDependencies_;
    std::string text_;  ///< -E's preprocessed sources or -M's rules
    std::string rules_; ///< -MD's rules when -MF gathers them
};

int run(int argc, char** argv) {
    std::string error;
    const std::vector<std::string> arguments = tools::expandResponseFiles(std::vector<std::string>(argv + 1, argv + argc), &error);
    if (!error.empty()) return fail(error);
    tools::MetalOptions options = tools::parseMetalOptions(arguments);
    if (options.help) {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::fputs(tools::versionText("metal", false).c_str(), stdout);
        return 0;
    }
    if (!options.error.empty()) return fail(options.error + " (metal --help lists the flags)");
    if (options.output == "-" &&
        (options.action == tools::MetalAction::Compile || options.action == tools::MetalAction::Link))
        if (const std::string refusal = tools::binaryOutputRefusal(
                options.action == tools::MetalAction::Compile ? "a compiled .air" : "a .metallib");
            !refusal.empty())
            return fail(refusal);

    std::string work = support::makeScratchDirectory("metalcpu-metal-");
    if (work.empty()) return fail("cannot create a temporary directory");
    int status = MetalRun(std::move(options), work).run();
    support::removeScratchDirectory(work);
    return status;
}

} // namespace

int main(int argc, char** argv) {
    // The MSL front end runs in this process: running out of memory there (before
    // METALCPU_COMPILE_TOKEN_LIMIT stops a huge source) is an error, not std::terminate().
    try {
        return run(argc, argv);
    } catch (const std::bad_alloc&) {
        return fail("out of memory (METALCPU_COMPILE_TOKEN_LIMIT bounds how large a source the front end takes)");
    } catch (const std::exception& e) {
        return fail(std::string("internal error: ") + e.what());
    } catch (...) {
        return fail("internal error");
    }
}
