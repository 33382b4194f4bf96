#pragma once

#include <Metal/MTL4CommitFeedback.hpp>

#include <vector>

namespace MTL4 {
class CommitOptions;
}

namespace metalcpu::api {

/// The handlers added to `options` (none for nil), in the order they were added.
std::vector<MTL4::CommitFeedbackHandlerFunction> feedbackHandlersOf(const MTL4::CommitOptions* options);

} // namespace metalcpu::api
