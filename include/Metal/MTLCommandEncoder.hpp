// metalcpu: CommandEncoder, the base of the compute and blit encoders, and its option types.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class Device;

// How a kernel uses a resource reached only through an argument buffer (useResource).
using ResourceUsage = NS::UInteger;
enum : ResourceUsage {
    ResourceUsageRead = 1,
    ResourceUsageWrite = 1 << 1,
    ResourceUsageSample = 1 << 2,
};

// Which kinds of resources a memory barrier covers.
using BarrierScope = NS::UInteger;
enum : BarrierScope {
    BarrierScopeBuffers = 1,
    BarrierScopeTextures = 1 << 1,
    BarrierScopeRenderTargets = 1 << 2,
};

// Pipeline stages, for barriers and fences.
using Stages = NS::UInteger;
enum : Stages {
    StageVertex = 1,
    StageFragment = 1 << 1,
    StageTile = 1 << 2,
    StageObject = 1 << 3,
    StageMesh = 1 << 4,
    StageResourceState = 1 << 26,
    StageDispatch = 1 << 27,
    StageBlit = 1 << 28,
    StageAccelerationStructure = 1 << 29,
    StageMachineLearning = 1 << 30,
    StageAll = 9223372036854775807,
};

// Records commands into a command buffer until endEncoding().
class CommandEncoder : public NS::Referencing<CommandEncoder> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    Device* device() const;

    void endEncoding();
    void barrierAfterQueueStages(Stages afterQueueStages, Stages beforeStages);

    void insertDebugSignpost(const NS::String* string);
    void pushDebugGroup(const NS::String* string);
    void popDebugGroup();
};

} // namespace MTL
