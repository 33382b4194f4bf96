// One image (one instruction-set level) of a translated file compiled by the host compiler:
// whole, with the precompiled prelude when there is one, or in parts (compile_parts.h).
#pragma once

#include "jit/compiler_process.h"
#include "jit/kernel_compiler.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace metalcpu::jit {

struct Toolchain;
class Scratch;

/// Compiles one translated file into one image: `task` (the input, the output and what to
/// make) with `flags`. The prelude is read precompiled when there is one for the file (whose
/// start is `head`) and these flags (precompiled_prelude.h); a compile with it that fails
/// over it is done again without it, and that one's result is the result, so the prelude
/// changes how long a compile takes, never what it makes or says. `work`: the file's
/// code size and time factor, which its time limit grows with (runCompiler()). `step` says what the compile is
/// (runCompiler()).
CompileResult compileImage(const Toolchain& tools, const std::vector<std::string>& flags,
                           const std::vector<std::string>& task, const std::string& step, const std::string& head,
                           const std::string& workingDirectory, const Scratch& scratch,
                           const std::vector<std::string>& readable, CompileWork work);

/// One image compiled in parts (compile_parts.h): the part files and the kernels each builds
/// (their host names), what names this image's objects in the scratch directory, the image
/// to make and whether it is a shared library (else a relocatable object, for an .air).
struct ImageInParts {
    std::vector<std::string> files;
    std::vector<std::vector<std::string>> kernels;
    std::string name;
    std::string image;
    bool sharedLibrary = false;
};

/// Compiles each part of an image at once, then links their objects into the image with the
/// image's flags. Parts repeat what every kernel shares: an inline function or template
/// instance is kept once (COMDAT), and a function of the user's with external linkage, the
/// same code in each part, once (--allow-multiple-definition). When a part fails, the image
/// is compiled whole (`whole`), whose messages are those of a compile without parts; when that
/// fails too, and the part had failed without the compiler saying why, a note after them
/// says how the part failed (which may be why: a part killed for want of memory). `image`
/// says what is compiled, for the steps of runCompiler(): "program_source for x86-64-v3".
CompileResult compileImageInParts(const Toolchain& tools, const std::vector<std::string>& flags, const ImageInParts& parts,
                                  const std::string& image, const std::string& head, const Scratch& scratch,
                                  const std::vector<std::string>& readable, CompileWork work,
                                  const std::function<CompileResult()>& whole);

} // namespace metalcpu::jit
