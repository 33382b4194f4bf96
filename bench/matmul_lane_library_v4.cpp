// The 8x4 kernel through the lane-vector library as the x86-64-v4 image would run it:
// 8 threads as the lanes of 512-bit registers (matmul_lane_library.h).
#include "matmul_lane_library.h"

namespace lane_vectors {

bool rowOfThreadsThroughLibraryV4(const float* a, const float* b, float* c, unsigned gidY, unsigned firstGidX,
                                  unsigned rows, unsigned cols, unsigned inner) {
    return rowOfThreads<8>(a, b, c, gidY, firstGidX, rows, cols, inner);
}

} // namespace lane_vectors
