#pragma once

namespace accelerate_test {

// one_letter_macros.cpp: 100 * the last element of the 2 x 3 product of 2 x 4 and 4 x 3
// matrices of ones, plus the sum of its elements (4 * 100 + 24 = 424).
float cornerOfProductOfOnes();

} // namespace accelerate_test
