// metalcpu: CaptureScope, a named range of work for GPU frame capture.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class CommandQueue;
class Device;

class CaptureScope : public NS::Referencing<CaptureScope> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* pLabel);
    Device* device() const;
    CommandQueue* commandQueue() const;

    void beginScope();
    void endScope();
};

} // namespace MTL
