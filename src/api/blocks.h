#pragma once

// Objective-C blocks, for the block overloads that the headers declare under __BLOCKS__
// (clang -fblocks). A block is copied to the heap and wrapped in a std::function, so that the
// block overloads forward to the std::function ones. Programs that use blocks link a blocks
// runtime (libBlocksRuntime), which provides _Block_copy and _Block_release.
#if defined(__BLOCKS__)

#include <functional>
#include <memory>

extern "C" void* _Block_copy(const void* block);
extern "C" void _Block_release(const void* block);

namespace metalcpu::api {

/// A std::function that calls `block`; empty for a null block. The heap copy of the block is
/// released with the last copy of the function.
template <class Result, class... Args>
std::function<Result(Args...)> functionOf(Result (^block)(Args...)) {
    if (!block) return {};
    std::shared_ptr<const void> held(_Block_copy((const void*)block), _Block_release);
    return [held](Args... args) -> Result {
        Result (^copied)(Args...) = (Result(^)(Args...))held.get();
        return copied(args...);
    };
}

} // namespace metalcpu::api

#endif
