#include "jit/compiler_process.h"
#include "jit/kernel_compiler.h"
#include "jit/library_file.h"
#include "jit/object_file.h"
#include "jit/toolchain.h"
#include "support/files.h"

#include <algorithm>
#include <future>
#include <sstream>

namespace metalcpu::jit {
namespace {

/// The levels every one of `objects` was compiled for, in the first one's order; empty with
/// the levels of each in `error` when they have none in common.
std::vector<std::string> commonLevels(const std::vector<ObjectKernels>& objects, std::string* error) {
    std::vector<std::string> common;
    for (const ObjectImage& image : objects.front().images) common.push_back(image.level);
    for (const ObjectKernels& object : objects)
        std::erase_if(common, [&](const std::string& level) {
            return std::none_of(object.images.begin(), object.images.end(),
                                [&](const ObjectImage& image) { return image.level == level; });
        });
    if (common.empty())
        for (const ObjectKernels& object : objects) {
            *error += *error == "" ? "error: the objects were compiled for no instruction-set level in common:" : ";";
            for (std::size_t i = 0; i < object.images.size(); ++i)
                *error += (i == 0 ? " " + object.name + " for " : ", ") + object.images[i].level;
        }
    return common;
}

} // namespace

CompileResult linkLibrary(const std::vector<std::string>& objects, const std::string& outputPath,
                          const std::string& cacheKey, const std::vector<std::string>& objectNames) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (!tools) return missingToolchain(error);
    std::vector<ObjectKernels> kernels;
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const std::string& name = i < objectNames.size() ? objectNames[i] : objects[i];
        std::optional<LinkInput> input = readLinkInput(objects[i], name, &error);
        if (!input) return CompileResult{false, "error: " + error + "\n"};
        kernels.insert(kernels.end(), input->objects.begin(), input->objects.end());
    }
    if (std::string duplicates = duplicateKernels(kernels); !duplicates.empty()) {
        std::string text;
        std::istringstream lines(duplicates);
        for (std::string line; std::getline(lines, line);) text += "error: " + line + "\n";
        return CompileResult{false, text};
    }
    if (kernels.empty()) return CompileResult{false, "error: there is nothing to link\n"};
    const std::vector<std::string> levels = commonLevels(kernels, &error);
    if (levels.empty()) return CompileResult{false, error + "\n"};
    // Each level's objects (archive members among them) as files of their own, linked by one
    // linker process per level, all at once.
    Scratch scratch;
    // What the links are, for an error that the linker's output cannot explain: the first
    // few inputs by name (a build may link hundreds).
    constexpr std::size_t kNamedInputs = 3;
    std::string inputs;
    for (std::size_t i = 0; i < std::min(objects.size(), kNamedInputs); ++i)
        inputs += (i ? ", " : "") + (i < objectNames.size() ? objectNames[i] : objects[i]);
    if (objects.size() > kNamedInputs) inputs += " and " + std::to_string(objects.size() - kNamedInputs) + " more";
    std::vector<ImageSource> images;
    std::vector<std::future<CompileResult>> links;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        std::vector<std::string> argv = {tools->compiler, "-shared", "-nostdlib", "-Wl,-z,defs"};
        std::vector<std::string> readable;
        for (std::size_t o = 0; o < kernels.size(); ++o) {
            const std::string path = scratch.file((std::to_string(l) + "-" + std::to_string(o) + ".o").c_str());
            auto image = std::find_if(kernels[o].images.begin(), kernels[o].images.end(),
                                      [&](const ObjectImage& i) { return i.level == levels[l]; });
            if (!support::writeFileAtomically(path, image->bytes)) return CompileResult{false, "cannot write " + path + "\n"};
            argv.push_back(path);
            readable.push_back(path);
        }
        images.push_back(ImageSource{levels[l], scratch.file((std::to_string(l) + ".so").c_str())});
        argv.insert(argv.end(), {"-lgcc", "-o", images.back().path});
        const std::string step = "linking " + inputs + " for " + levels[l];
        links.push_back(std::async(std::launch::async, [&, argv, readable, step] {
            return runCompiler(*tools, argv, step, {}, scratch, readable);
        }));
    }
    CompileResult linked{true, {}};
    for (std::future<CompileResult>& link : links) {
        CompileResult result = link.get();
        if (linked.ok && !result.ok) linked = result;
    }
    if (!linked.ok) return linked;
    const std::string made = scratch.file("library.metallib");
    if (std::string problem = writeLibraryFile(made, images, cacheKey); !problem.empty())
        return CompileResult{false, "error: " + problem + "\n"};
    return delivered(made, outputPath);
}

} // namespace metalcpu::jit
