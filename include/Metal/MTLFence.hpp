// metalcpu: Fence, which orders work between encoders of one queue.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class Device;

class Fence : public NS::Referencing<Fence> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    Device* device() const;
};

} // namespace MTL
