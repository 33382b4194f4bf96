// Every access form the shader-validation flavour rewrites, and forms it must leave alone.
#include <metal_stdlib>
using namespace metal;

struct Particle { float2 position; float mass; };

float weight(const device float* w, uint i) { return w[i] * 2.0f; }

kernel void accesses(device Particle* particles [[buffer(0)]],
                     const device float* weights [[buffer(1)]],
                     constant float4x4& transform [[buffer(2)]],
                     device atomic_uint* counter [[buffer(3)]],
                     threadgroup float* shared [[threadgroup(0)]],
                     uint i [[thread_position_in_grid]],
                     uint l [[thread_index_in_threadgroup]]) {
    threadgroup float tile[4][8];
    float local[4] = {1, 2, 3, 4};                    // a declarator, not an access
    particles[i].mass += weight(weights, i);          // update through a member
    particles[i].position = (transform * float4(particles[i].position, 0, 1)).xy;
    tile[l % 4][l % 8] = local[i & 3];                // threadgroup store, thread-array load
    shared[l] = tile[0][l % 8];
    device Particle* p = particles + i;
    p->mass = 1.0f;                                   // store through ->
    *p = particles[0];                                // store through *
    device float* m = &p->mass;
    ++m[0];
    atomic_fetch_add_explicit(&counter[0], 1u, memory_order_relaxed);
    auto twice = [&](uint k) { return weights[k] * 2; }; // lambdas keep their introducer
    local[0] = twice(i) + transform[1][2];
    const device uchar* bytes = reinterpret_cast<const device uchar*>(weights);
    particles[i].mass = float(bytes[3]) + local[0];
}

// A template helper taking `device const T*` deduces T from a `device T*` argument.
template <typename T>
T first(const device T* values) { return values[0]; }

kernel void deduces(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = first(data) + first(data + 1);
}

// Program-scope constants are listed for validation; arrays inside structs are checked by index.
struct Row { float v[4]; };
constant float kTable[4] = {1, 2, 3, 4};
namespace tables { constant int kOffsets[2] = {0, 1}; }

kernel void rows(device Row* rows [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    constant float* table = kTable;
    rows[i].v[i & 3] = table[i & 3] + float(tables::kOffsets[i & 1]);
}

// A vector member subscripted where it is named, and members through `(*p)`: their own bytes.
struct Sample { float w; float4 v; };
kernel void samples(device Sample* s [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    s[i].v[1] = (*(s + i)).w + (*s).v[2];
    (*s).w += 1.0f;
}
