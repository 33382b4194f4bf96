// The first line of every translated kernel file: the Metal standard library, the
// helpers the generated wrappers call, and the library entry point.
#pragma once

#include <metal_stdlib>
#include <metalcpu/kernel_support.h>
#ifdef METALCPU_VALIDATION
#include <metalcpu/checked.h>
#endif
#include <metalcpu/library_stub.h>
