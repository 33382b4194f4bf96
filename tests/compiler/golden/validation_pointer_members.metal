// Pointers held in struct members and member function calls, in the shader-validation flavour:
// `*list[i].target += v` reads the item's pointer (a load of the member) and updates what it
// points to; Slang's `&((*((&c)->sa_0)))[0] + n` takes an element's address of an array
// reached through a context's pointer; `x[i].f()` and `p->f()` call through member_call(),
// which checks the element as the function's object.
#include <metal_stdlib>
using namespace metal;

struct Item { device float* target; uint weight; };
struct Context { array<float, int(64)> threadgroup* sa_0; };
struct Block {
    float d;
    float rest[3];
    float twice() const { return d * 2.0f; }
};

kernel void pointer_members(constant Item* list [[buffer(0)]], device const float* x [[buffer(1)]],
                            device Block* blocks [[buffer(2)]], device float* out [[buffer(3)]],
                            uint lid [[thread_position_in_threadgroup]], uint i [[thread_position_in_grid]])
{
    *list[i].target += x[i] * float(list[i].weight);
    list[i].target[1] = x[i];
    threadgroup array<float, int(64)> sa_1;
    Context c;
    (&c)->sa_0 = &sa_1;
    threadgroup float* p = &((*((&c)->sa_0)))[int(0)] + lid;
    *p = x[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = blocks[i].twice() + (blocks + i)->twice() + (*((&c)->sa_0))[63 - lid];
}
