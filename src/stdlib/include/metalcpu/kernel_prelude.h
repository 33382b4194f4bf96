// The first line of every translated kernel file: the Metal standard library, the
// helpers the generated wrappers call, and the library entry point.
#pragma once

#include <metal_stdlib>
#include <metalcpu/kernel_support.h>
#ifdef METALCPU_VALIDATION
#include <metalcpu/checked.h>
#endif
// Metal 4's tensors: a kernel's own #include of them meets an empty stand-in before
// translation (as every top-level header does), so the prelude brings them, from MSL 4.0 on
// only (earlier kernels may name their own `tensor`).
#if defined(__METAL_VERSION__) && __METAL_VERSION__ >= 400
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
#endif
#include <metalcpu/library_stub.h>
