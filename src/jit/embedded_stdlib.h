#pragma once

namespace metalcpu::jit {

/// One header of the kernel standard library, compiled into metalcpu.
struct EmbeddedFile {
    const char* path;     ///< relative to the include root, e.g. "metal_stdlib"
    const char* contents;
};

/// The kernel standard library as it was when metalcpu was built.
const EmbeddedFile* embeddedStdlib(int* count);

} // namespace metalcpu::jit
