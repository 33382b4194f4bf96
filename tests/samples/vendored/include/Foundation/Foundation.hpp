// Stands for Apple's metal-cpp, vendored into the program's include directory: on Linux its
// headers stop at <objc/runtime.h>; this one says which copy was found.
#error "the program's vendored Apple metal-cpp was found before metalcpu's headers"
