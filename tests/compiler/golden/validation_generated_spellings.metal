// Forms that Slang and Tint write, in the shader-validation flavour: the address space after
// the pointee type (parameters, locals, struct members) is the same type as with the space
// first; a threadgroup array read through a pointer held in a struct, `(*(&c)->tile)[i]`,
// closes each checked access inside the one around it; the render functions beside the kernel
// are left out and named in the module.
#include <metal_stdlib>
using namespace metal;

struct Params { uint scale; };
struct Context { array<uint, 64> threadgroup* tile; };

vertex float4 vertex_main(uint id [[vertex_id]]) { return float4(float(id)); }

kernel void generated(uint device* out [[buffer(0)]], uint const device* in [[buffer(1)]],
                      Params constant* params [[buffer(2)]], uint lid [[thread_position_in_threadgroup]],
                      uint i [[thread_position_in_grid]])
{
    threadgroup array<uint, 64> tile_1;
    array<uint, 64> threadgroup* t = &tile_1;
    Context c;
    (&c)->tile = t;
    (*(&c)->tile)[lid] = in[i] * params->scale;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = (*(&c)->tile)[63 - lid];
}
