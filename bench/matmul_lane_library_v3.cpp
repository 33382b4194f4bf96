// The 8x4 kernel through the lane-vector library as the x86-64-v3 image would run it:
// 4 threads as the lanes of 256-bit registers (matmul_lane_library.h).
#include "matmul_lane_library.h"

namespace lane_vectors {

bool rowOfThreadsThroughLibraryV3(const float* a, const float* b, float* c, unsigned gidY, unsigned firstGidX,
                                  unsigned rows, unsigned cols, unsigned inner) {
    return rowOfThreads<4>(a, b, c, gidY, firstGidX, rows, cols, inner);
}

} // namespace lane_vectors
