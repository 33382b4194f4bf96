#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace metalcpu::exec {

/// Where a validated kernel's invalid accesses go instead of the memory they named: one
/// per worker. A kernel may keep a reference to what it was given (`device float& r =
/// out[bad]`), so storage handed out is never moved or freed while the worker lives; a
/// larger request adds a larger block instead of resizing.
class FaultScratch {
public:
    /// At least `size` zero bytes, 16-byte aligned.
    void* zeroed(std::size_t size);

private:
    static constexpr std::size_t kFirstBlock = 256;
    std::vector<std::unique_ptr<unsigned char[]>> blocks_; ///< the last one is in use
    std::size_t capacity_ = 0;                             ///< its size
};

} // namespace metalcpu::exec
