// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void invert(texture2d<float, access::read> in [[texture(0)]], texture2d<float, access::write> out [[texture(1)]],
                   uint2 gid [[thread_position_in_grid]]) {
    if (gid.x >= in.get_width() || gid.y >= in.get_height()) return;
    out.write(1.0f - in.read(gid), gid);
}
