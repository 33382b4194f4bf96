// metalcpu: Drawable, the base of displayable surfaces (declared so that QuartzCore's
// CA::MetalDrawable has its base class; metalcpu does not present to a display).
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class Drawable : public NS::Referencing<Drawable> {
public:
    NS::UInteger drawableID() const;
    CFTimeInterval presentedTime() const;
};

} // namespace MTL
