// metalcpu: MTL4::PipelineDataSetSerializer, which records pipelines for ahead-of-time builds.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL4 {

using PipelineDataSetSerializerConfiguration = NS::UInteger;
enum : PipelineDataSetSerializerConfiguration {
    PipelineDataSetSerializerConfigurationCaptureDescriptors = 1,
    PipelineDataSetSerializerConfigurationCaptureBinaries = 1 << 1,
};

class PipelineDataSetSerializerDescriptor : public NS::Copying<PipelineDataSetSerializerDescriptor> {
public:
    static PipelineDataSetSerializerDescriptor* alloc();
    PipelineDataSetSerializerDescriptor* init();

    PipelineDataSetSerializerConfiguration configuration() const;
    void setConfiguration(PipelineDataSetSerializerConfiguration configuration);
};

class PipelineDataSetSerializer : public NS::Referencing<PipelineDataSetSerializer> {
public:
    bool serializeAsArchiveAndFlushToURL(const NS::URL* url, NS::Error** error);
    NS::Data* serializeAsPipelinesScript(NS::Error** error);
};

} // namespace MTL4
