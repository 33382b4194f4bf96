// metalcpu: CA::MetalDrawable, declared so that programs mentioning it compile. metalcpu has
// no display, so no drawable is ever handed out.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "../Metal/MTLDrawable.hpp"

namespace MTL {
class Texture;
}

namespace CA {

class MetalLayer;

class MetalDrawable : public NS::Referencing<MetalDrawable, MTL::Drawable> {
public:
    MetalLayer* layer() const;
    MTL::Texture* texture() const;
};

} // namespace CA
