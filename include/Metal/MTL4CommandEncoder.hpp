// metalcpu: MTL4::CommandEncoder, the base of Metal 4 encoders, with explicit barriers.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLCommandEncoder.hpp"
#include "MTLDefines.hpp"

namespace MTL {
class Fence;
}

namespace MTL4 {

class CommandBuffer;

using VisibilityOptions = NS::UInteger;
enum : VisibilityOptions {
    VisibilityOptionNone = 0,
    VisibilityOptionDevice = 1,
    VisibilityOptionResourceAlias = 1 << 1,
};

// Metal 4 does not track hazards: order work with barriers and fences.
class CommandEncoder : public NS::Referencing<CommandEncoder> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    CommandBuffer* commandBuffer() const;

    void barrierAfterQueueStages(MTL::Stages afterQueueStages, MTL::Stages beforeStages,
                                 VisibilityOptions visibilityOptions);
    void barrierAfterStages(MTL::Stages afterStages, MTL::Stages beforeQueueStages,
                            VisibilityOptions visibilityOptions);
    void barrierAfterEncoderStages(MTL::Stages afterEncoderStages, MTL::Stages beforeEncoderStages,
                                   VisibilityOptions visibilityOptions);
    void updateFence(const MTL::Fence* fence, MTL::Stages afterEncoderStages);
    void waitForFence(const MTL::Fence* fence, MTL::Stages beforeEncoderStages);

    void endEncoding();

    void insertDebugSignpost(const NS::String* string);
    void pushDebugGroup(const NS::String* string);
    void popDebugGroup();
};

} // namespace MTL4
