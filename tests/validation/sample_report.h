#pragma once

// A report as shader validation makes it for the PyTorch tutorial's off-by-one store, for
// tests of the report's text and of what consumes reports.

#include <metalcpu/Validation.hpp>

namespace metalcpu::validation {

inline ShaderValidationReport deviceStore() {
    ShaderValidationReport r;
    r.addressSpace = AddressSpace::Device;
    r.access = Access::Store;
    r.offset = 4000;
    r.size = 4;
    r.hasBuffer = true;
    r.bufferLabel = "<unnamed>";
    r.bufferLength = 4000;
    r.bindingIndex = 1;
    r.argumentName = "out";
    r.kernel = "sum_sincos_float";
    r.pipelineUid = "5e1f0c3a9b27d804";
    r.encoderLabel = "0";
    r.commandBufferIndex = 7;
    r.location = {"program_source", "sum_sincos", 9, 20};
    r.threadPositionInGrid = {999, 0, 0};
    r.threadPositionInThreadgroup = {39, 0, 0};
    r.threadgroupPositionInGrid = {15, 0, 0};
    return r;
}

/// A threadgroup array's load: no buffer, no binding.
inline ShaderValidationReport threadgroupArrayLoad() {
    ShaderValidationReport r = deviceStore();
    r.addressSpace = AddressSpace::Threadgroup;
    r.access = Access::Load;
    r.hasBuffer = false;
    r.bufferLabel.clear();
    r.bindingIndex = -1;
    r.argumentName.clear();
    return r;
}

} // namespace metalcpu::validation
