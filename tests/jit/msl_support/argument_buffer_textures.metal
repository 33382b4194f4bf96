// expect: compiles
#include <metal_stdlib>
using namespace metal;

// SPIRV-Cross's argument buffers (MoltenVK): textures as [[id(n)]] members of a struct the
// host fills with each texture's gpuResourceID().
struct spvDescriptorSetBuffer0 {
    texture2d<float, access::write> uImage [[id(0)]];
    texture2d<float> uImageRead [[id(1)]];
};
kernel void main0(constant spvDescriptorSetBuffer0& spvDescriptorSet0 [[buffer(0)]], uint3 gid [[thread_position_in_grid]]) {
    spvDescriptorSet0.uImage.write(spvDescriptorSet0.uImageRead.read(gid.xy), gid.xy);
}
