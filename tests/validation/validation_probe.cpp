// A program without a test framework, for what shader validation does to a whole process:
// process_level_test.cpp runs it under different environments and reads its output and status.
//
//   validation_probe copy <shift> <status>  registers an exit handler and a static object, then
//                                           runs copy_shifted (pipeline "copy") with that shift,
//                                           prints "copied" (no newline, still buffered at exit)
//                                           and returns <status>; at exit, the handler and the
//                                           destructor print " exit handler", " destructor"
//   validation_probe copy <shift> <status> <dispatches>
//                                           the same with that many dispatches of copy_shifted
//   validation_probe pipelines              makes the pipelines "copy" (copy_shifted) and "fill"
//                                           (fill) and prints whether each is validated
#include "copy_shifted.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    if ((argc == 4 || argc == 5) && std::strcmp(argv[1], "copy") == 0) {
        // Registered before the first device, as a program's own cleanup often is: they must
        // still run when METALCPU_SHADER_VALIDATION_EXIT_CODE changes the status.
        std::atexit([] { std::printf(" exit handler"); });
        static struct PrintsWhenDestroyed {
            ~PrintsWhenDestroyed() { std::printf(" destructor"); }
        } destroyedAtExit;
        constexpr NS::UInteger kCount = 64;
        static float storage[kCount + 1];
        MTL::ComputePipelineState* copy = copy_shifted::pipeline("copy_shifted", "copy");
        for (int dispatch = 0, dispatches = argc == 5 ? std::atoi(argv[4]) : 1; dispatch < dispatches; ++dispatch)
            copy_shifted::copy(copy, storage, kCount, static_cast<std::uint32_t>(std::atoi(argv[2])))
                ->waitUntilCompleted();
        copy->release();
        std::printf("copied");
        return std::atoi(argv[3]);
    }
    if (argc == 2 && std::strcmp(argv[1], "pipelines") == 0) {
        for (const char* label : {"copy", "fill"}) {
            const char* function = std::strcmp(label, "copy") == 0 ? "copy_shifted" : "fill";
            MTL::ComputePipelineState* made = copy_shifted::pipeline(function, label);
            std::printf("%s %s\n", label, made->shaderValidation() == MTL::ShaderValidationEnabled ? "validated" : "plain");
            made->release();
        }
        return 0;
    }
    std::fprintf(stderr, "usage: validation_probe copy <shift> <status> | pipelines\n");
    return 2;
}
