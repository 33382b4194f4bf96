#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTL4Compiler.hpp>
#include <Metal/MTL4CompilerTask.hpp>

namespace metalcpu::rt {

class Device;

/// MTL4::Compiler: the Metal 4 way to build libraries and pipelines. It adds no compiler of
/// its own: libraries go through Device::newLibrary(source, options) and pipelines through
/// the classic pipeline creation (api/metal4_compiler.cpp resolves the descriptors), so the
/// kernel cache, shader validation and error texts are the same as there.
class Mtl4Compiler final : public ns::Implements<MTL4::Compiler> {
public:
    /// `serializer` (may be null) is retained.
    Mtl4Compiler(Device* device, MTL4::PipelineDataSetSerializer* serializer);
    ~Mtl4Compiler() override;

    const char* className() const override { return "MTL4Compiler"; }
    Device* device() const { return device_; }
    Label& label() { return label_; }
    MTL4::PipelineDataSetSerializer* pipelineDataSetSerializer() const { return serializer_; }

private:
    Device* device_;
    Label label_;
    MTL4::PipelineDataSetSerializer* serializer_;
};

/// What the completion-handler forms of the compiler return. They compile synchronously
/// and call the handler before returning, so a task is always finished.
class CompilerTask final : public ns::Implements<MTL4::CompilerTask> {
public:
    /// `compiler` is retained.
    explicit CompilerTask(Mtl4Compiler* compiler);
    ~CompilerTask() override;

    const char* className() const override { return "MTL4CompilerTask"; }
    Mtl4Compiler* compiler() const { return compiler_; }
    MTL4::CompilerTaskStatus status() const { return MTL4::CompilerTaskStatusFinished; }

private:
    Mtl4Compiler* compiler_;
};

} // namespace metalcpu::rt
