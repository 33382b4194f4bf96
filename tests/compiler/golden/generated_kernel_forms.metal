// Forms tinygrad's Metal renderer writes: a local buffer with a GNU alignment attribute between
// `threadgroup` and the type, register arrays, and `__builtin_convertvector` for vector casts.
#include <metal_stdlib>
using namespace metal;

kernel void r_16_16(device float* data0_16, device float* data1_256, uint3 gid [[threadgroup_position_in_grid]],
                    uint3 lid [[thread_position_in_threadgroup]]) {
  threadgroup __attribute__((aligned(16))) float buf0[16];
  float buf1[1];
  int gidx0 = gid.x; /* 16 */
  int lidx0 = lid.x; /* 16 */
  *(buf1+0) = (*(data1_256+(gidx0<<4)+lidx0));
  *(buf0+lidx0) = (*(buf1+0));
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (lidx0==0) {
    float acc0 = 0.0f;
    for (int Ridx0 = 0; Ridx0 < 16; Ridx0++) {
      float val0 = (*(buf0+Ridx0));
      acc0 = ((acc0<val0)?val0:acc0);
    }
    *(data0_16+gidx0) = acc0;
  }
}

kernel void E_4(device float4* data0_4, device half4* data1_4, uint3 gid [[threadgroup_position_in_grid]]) {
  int gidx0 = gid.x; /* 4 */
  half4 val0 = (*(data1_4+gidx0));
  *(data0_4+gidx0) = __builtin_convertvector(val0, float4);
}
