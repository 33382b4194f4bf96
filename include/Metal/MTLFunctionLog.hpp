// metalcpu: FunctionLog, the shader-validation reports attached to a command buffer.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class Function;

enum FunctionLogType : NS::UInteger {
    FunctionLogTypeValidation = 0,
};

// The logs of a command buffer (CommandBuffer::logs); a collection of FunctionLog.
class LogContainer : public NS::Referencing<LogContainer, NS::FastEnumeration> {
};

// Where in the shader source a report points.
class FunctionLogDebugLocation : public NS::Referencing<FunctionLogDebugLocation> {
public:
    NS::String* functionName() const;
    NS::URL* URL() const;
    NS::UInteger line() const;
    NS::UInteger column() const;
};

// One report: which function, which encoder, where.
class FunctionLog : public NS::Referencing<FunctionLog> {
public:
    FunctionLogType type() const;
    NS::String* encoderLabel() const;
    Function* function() const;
    FunctionLogDebugLocation* debugLocation() const;
};

} // namespace MTL
