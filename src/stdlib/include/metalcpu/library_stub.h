// The entry point and the few runtime functions every kernel library carries. Every
// translated file includes it; the definitions are weak, so a library linked from several
// files keeps one copy. Kernel libraries link with -nostdlib and must not import symbols,
// which is why memcpy and friends are defined here.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_support.h>

extern "C" {

extern const mc_module* const __start_metalcpu_modules[] __attribute__((visibility("hidden"), weak));
extern const mc_module* const __stop_metalcpu_modules[] __attribute__((visibility("hidden"), weak));
extern const mc_threadgroup_site __start_metalcpu_threadgroup_sites[] __attribute__((visibility("hidden"), weak));
extern const mc_threadgroup_site __stop_metalcpu_threadgroup_sites[] __attribute__((visibility("hidden"), weak));

__attribute__((weak, used, visibility("default"))) int metalcpu_library_open(
    const mc_services* services, const mc_module* const** modules, mc_u32* module_count,
    const mc_threadgroup_site** sites, mc_u32* site_count) {
    metalcpu_kernel::g_services = services;
    metalcpu_kernel::g_regions = services->regions;
    metalcpu_kernel::g_access_watch = services->access_watch;
    *modules = __start_metalcpu_modules;
    *module_count = static_cast<mc_u32>(__stop_metalcpu_modules - __start_metalcpu_modules);
    *sites = __start_metalcpu_threadgroup_sites;
    *site_count = static_cast<mc_u32>(__stop_metalcpu_threadgroup_sites - __start_metalcpu_threadgroup_sites);
    return static_cast<int>(METALCPU_KERNEL_ABI_VERSION);
}

// The compiler may turn struct copies and loops into calls to these. The attribute keeps
// it from turning their own loops back into calls to themselves.
// (Default visibility: the compiler insists on it for these names; the library is opened
// RTLD_LOCAL, so they never stand in for the process's own.)
#define METALCPU_NO_LIBCALLS __attribute__((weak, optimize("no-tree-loop-distribute-patterns")))

METALCPU_NO_LIBCALLS void* memcpy(void* destination, const void* source, decltype(sizeof 0) n) {
    char* d = static_cast<char*>(destination);
    const char* s = static_cast<const char*>(source);
    for (decltype(sizeof 0) i = 0; i < n; ++i) d[i] = s[i];
    return destination;
}

METALCPU_NO_LIBCALLS void* memmove(void* destination, const void* source, decltype(sizeof 0) n) {
    char* d = static_cast<char*>(destination);
    const char* s = static_cast<const char*>(source);
    if (d < s) {
        for (decltype(sizeof 0) i = 0; i < n; ++i) d[i] = s[i];
    } else {
        for (decltype(sizeof 0) i = n; i > 0; --i) d[i - 1] = s[i - 1];
    }
    return destination;
}

METALCPU_NO_LIBCALLS void* memset(void* destination, int value, decltype(sizeof 0) n) {
    unsigned char* d = static_cast<unsigned char*>(destination);
    for (decltype(sizeof 0) i = 0; i < n; ++i) d[i] = static_cast<unsigned char>(value);
    return destination;
}

METALCPU_NO_LIBCALLS int memcmp(const void* a, const void* b, decltype(sizeof 0) n) {
    const unsigned char* x = static_cast<const unsigned char*>(a);
    const unsigned char* y = static_cast<const unsigned char*>(b);
    for (decltype(sizeof 0) i = 0; i < n; ++i)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

#undef METALCPU_NO_LIBCALLS

// Static objects with destructors would register them here; kernel libraries are never
// unloaded while in use, so there is nothing to run.
__attribute__((weak, visibility("hidden"))) void* __dso_handle = nullptr;
__attribute__((weak, visibility("hidden"))) int __cxa_atexit(void (*)(void*), void*, void*) { return 0; }

} // extern "C"
