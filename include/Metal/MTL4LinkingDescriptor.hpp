// metalcpu: Metal 4 linking descriptors: functions linked into a pipeline statically or at run time.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL4 {

class StaticLinkingDescriptor : public NS::Copying<StaticLinkingDescriptor> {
public:
    static StaticLinkingDescriptor* alloc();
    StaticLinkingDescriptor* init();

    NS::Array* functionDescriptors() const;
    void setFunctionDescriptors(const NS::Array* functionDescriptors);
    NS::Array* privateFunctionDescriptors() const;
    void setPrivateFunctionDescriptors(const NS::Array* privateFunctionDescriptors);
    NS::Dictionary* groups() const;
    void setGroups(const NS::Dictionary* groups);
};

class PipelineStageDynamicLinkingDescriptor : public NS::Copying<PipelineStageDynamicLinkingDescriptor> {
public:
    static PipelineStageDynamicLinkingDescriptor* alloc();
    PipelineStageDynamicLinkingDescriptor* init();

    NS::Array* binaryLinkedFunctions() const;
    void setBinaryLinkedFunctions(const NS::Array* binaryLinkedFunctions);
    NS::Array* preloadedLibraries() const;
    void setPreloadedLibraries(const NS::Array* preloadedLibraries);
    NS::UInteger maxCallStackDepth() const;
    void setMaxCallStackDepth(NS::UInteger maxCallStackDepth);
};

} // namespace MTL4
