#!/usr/bin/env python3
"""Prints the bits of 2/pi used by the sin/cos/tan argument reduction in
src/stdlib/include/metalcpu/stdlib/libm.h, as 32-bit words after a word of leading zeros.

pi comes from Machin's formula in integer arithmetic, so no floating point is involved.
"""

BITS = 320  # enough for float arguments up to FLT_MAX, with margin
GUARD = 64


def arctan_inverse(n, scale):
    """arctan(1/n) * scale, by its Taylor series in integers."""
    total, term, k, sign = 0, scale // n, 1, 1
    while term:
        total += sign * (term // k)
        term //= n * n
        k += 2
        sign = -sign
    return total


def main():
    scale = 1 << (BITS + GUARD)
    pi = 4 * (4 * arctan_inverse(5, scale) - arctan_inverse(239, scale))
    two_over_pi = (2 * scale * scale) // pi  # 2/pi scaled by 2^(BITS + GUARD)
    bits = two_over_pi >> GUARD              # the first BITS bits after the binary point
    words = [0] + [(bits >> (BITS - 32 * (i + 1))) & 0xFFFFFFFF for i in range(BITS // 32)]
    print(", ".join(f"0x{w:08X}u" for w in words))


if __name__ == "__main__":
    main()
