#include "runtime/mtl4_compiler.h"

#include <Metal/MTL4PipelineDataSetSerializer.hpp>

namespace metalcpu::rt {

Mtl4Compiler::Mtl4Compiler(Device* device, MTL4::PipelineDataSetSerializer* serializer)
    : device_(device), serializer_(serializer) {
    if (serializer_) serializer_->retain();
}

Mtl4Compiler::~Mtl4Compiler() {
    ns::releaseIfAny(serializer_);
}

CompilerTask::CompilerTask(Mtl4Compiler* compiler) : compiler_(compiler) { compiler_->retain(); }

CompilerTask::~CompilerTask() { compiler_->release(); }

} // namespace metalcpu::rt
