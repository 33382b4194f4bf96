// Publishing the function templates of metalcpu_stdlib under MSL's names.
//
// Implementations live in metalcpu_stdlib::math (one version), or in math_fast and
// math_precise (two versions); these macros add using-declarations to metal::,
// metal::fast:: and metal::precise::. Calls between the two-version functions are written
// `(name)(...)`, which turns off argument-dependent lookup: it would also find metal::name,
// the other version when the math mode is not the one being defined.
#pragma once

// Which set plain metal:: names: MTLCompileOptions.mathFloatingPointFunctions, with its values
// (0 fast, 1 precise). The kernel compiler defines METALCPU_MATH_FP32_FUNCTIONS at the top of
// every translated file; elsewhere (the stdlib's own tests) fast math decides, as the
// `metal` tool's -ffast-math / -fno-fast-math do.
#ifndef METALCPU_MATH_FP32_FUNCTIONS
#ifdef __FAST_MATH__
#define METALCPU_MATH_FP32_FUNCTIONS 0
#else
#define METALCPU_MATH_FP32_FUNCTIONS 1
#endif
#endif

// METALCPU_EXPORT_FAST_PRECISE(name): metal::fast::name, metal::precise::name, and metal::name
// as the one METALCPU_MATH_FP32_FUNCTIONS selects.
#if METALCPU_MATH_FP32_FUNCTIONS == 0
#define METALCPU_EXPORT_FAST_PRECISE(name)                                                      \
    namespace metal {                                                                           \
    namespace fast {                                                                            \
    using metalcpu_stdlib::math_fast::name;                                                     \
    }                                                                                           \
    namespace precise {                                                                         \
    using metalcpu_stdlib::math_precise::name;                                                  \
    }                                                                                           \
    using metalcpu_stdlib::math_fast::name;                                                     \
    }
#else
#define METALCPU_EXPORT_FAST_PRECISE(name)                                                      \
    namespace metal {                                                                           \
    namespace fast {                                                                            \
    using metalcpu_stdlib::math_fast::name;                                                     \
    }                                                                                           \
    namespace precise {                                                                         \
    using metalcpu_stdlib::math_precise::name;                                                  \
    }                                                                                           \
    using metalcpu_stdlib::math_precise::name;                                                  \
    }
#endif

// METALCPU_EXPORT_MATH(name): one implementation, under metal::, metal::fast:: and
// metal::precise::.
#define METALCPU_EXPORT_MATH(name)                                                              \
    namespace metal {                                                                           \
    namespace fast {                                                                            \
    using metalcpu_stdlib::math::name;                                                          \
    }                                                                                           \
    namespace precise {                                                                         \
    using metalcpu_stdlib::math::name;                                                          \
    }                                                                                           \
    using metalcpu_stdlib::math::name;                                                          \
    }

