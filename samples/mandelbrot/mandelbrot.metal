// Colours each pixel of `output` by how quickly its point of the complex plane escapes the
// Mandelbrot iteration z = z^2 + c.
#include <metal_stdlib>
using namespace metal;

kernel void mandelbrot(texture2d<float, access::write> output [[texture(0)]],
                       uint2 gid [[thread_position_in_grid]]) {
    const uint width = output.get_width(), height = output.get_height();
    if (gid.x >= width || gid.y >= height) return;
    // The view [-2.5, 1] x [-1.25, 1.25].
    const float2 c = float2(-2.5f + 3.5f * (float(gid.x) + 0.5f) / float(width),
                            -1.25f + 2.5f * (float(gid.y) + 0.5f) / float(height));
    const int kMaxIterations = 256;
    float2 z = 0.0f;
    int i = 0;
    for (; i < kMaxIterations && dot(z, z) <= 4.0f; ++i)
        z = float2(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
    const float t = float(i) / float(kMaxIterations);
    const float4 colour = i == kMaxIterations ? float4(0.0f, 0.0f, 0.0f, 1.0f)
                                              : float4(t, sqrt(t), 1.0f - t, 1.0f);
    output.write(colour, gid);
}
