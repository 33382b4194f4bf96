// metalcpu: Metal 4 commit feedback: timing and errors of committed command buffers.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <functional>

namespace MTL4 {

class CommitFeedback;

#if defined(__BLOCKS__)
using CommitFeedbackHandler = void (^)(CommitFeedback*);
#endif
using CommitFeedbackHandlerFunction = std::function<void(CommitFeedback*)>;

// Passed to the feedback handlers of CommitOptions once a commit has finished.
class CommitFeedback : public NS::Referencing<CommitFeedback> {
public:
    NS::Error* error() const;
    CFTimeInterval GPUStartTime() const;
    CFTimeInterval GPUEndTime() const;
};

} // namespace MTL4
