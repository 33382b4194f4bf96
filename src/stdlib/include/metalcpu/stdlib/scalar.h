// MSL's scalar type names. They live in the global namespace, where MSL code expects them,
// and are repeated in namespace metal. Where glibc defines the same name (uint, ushort, ulong,
// the <stdint.h> types, size_t, ptrdiff_t) the typedef is identical to glibc's on x86-64, so a
// hosted translation unit may include both.
#pragma once

#include <metalcpu/stdlib/bfloat.h>
#include <metalcpu/stdlib/config.h>

typedef unsigned char uchar;
typedef unsigned short int ushort;
typedef unsigned int uint;
typedef unsigned long int ulong;
// MSL's 16-bit IEEE float. Each arithmetic operation rounds to half (GCC does not keep excess
// precision for _Float16 on x86-64), as on the GPU.
typedef _Float16 half;

typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int int16_t;
typedef unsigned short int uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int int64_t;
typedef unsigned long int uint64_t;
typedef long int intptr_t;
typedef unsigned long int uintptr_t;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

static_assert(sizeof(long) == 8 && sizeof(half) == 2 && static_cast<char>(-1) < 0,
              "metalcpu kernels need an LP64 target with a signed char, as MSL defines them");

namespace metal {
using ::bfloat;
using ::half;
using ::int16_t;
using ::int32_t;
using ::int64_t;
using ::int8_t;
using ::intptr_t;
using ::ptrdiff_t;
using ::size_t;
using ::uchar;
using ::uint;
using ::uint16_t;
using ::uint32_t;
using ::uint64_t;
using ::uint8_t;
using ::uintptr_t;
using ::ulong;
using ::ushort;
} // namespace metal
