// The Mandelbrot set computed by a kernel into an RGBA8 texture, in the style of Apple's
// compute sample: the host makes the texture, binds it with setTexture, dispatches one thread
// per pixel, reads the pixels back with getBytes and writes them as a PPM image.
//
// Usage: mandelbrot [width height [output.ppm]]. Exits non-zero when a check fails: the
// centre of the main cardioid must be inside the set (black) and the far left corner outside.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    const NS::UInteger width = argc > 2 ? std::strtoul(argv[1], nullptr, 10) : 640;
    const NS::UInteger height = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 400;
    const char* path = argc > 3 ? argv[3] : nullptr;
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();

    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::Library* library = device->newDefaultLibrary();
    MTL::Function* function = library->newFunction(NS::String::string("mandelbrot", NS::UTF8StringEncoding));
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = device->newComputePipelineState(function, &error);
    if (!pipeline) {
        std::fprintf(stderr, "pipeline: %s\n", error->localizedDescription()->utf8String());
        return 1;
    }

    MTL::TextureDescriptor* descriptor =
        MTL::TextureDescriptor::texture2DDescriptor(MTL::PixelFormatRGBA8Unorm, width, height, false);
    descriptor->setUsage(MTL::TextureUsageShaderWrite | MTL::TextureUsageShaderRead);
    MTL::Texture* texture = device->newTexture(descriptor);

    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setTexture(texture, 0);
    // Apple's sample sizes groups from the pipeline: execution width by the rest.
    const NS::UInteger w = pipeline->threadExecutionWidth();
    const NS::UInteger h = pipeline->maxTotalThreadsPerThreadgroup() / w;
    encoder->dispatchThreads(MTL::Size(width, height, 1), MTL::Size(w, h, 1));
    encoder->endEncoding();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    if (commandBuffer->status() != MTL::CommandBufferStatusCompleted) {
        std::fprintf(stderr, "the command buffer failed\n");
        return 1;
    }

    std::vector<std::uint8_t> pixels(width * height * 4);
    texture->getBytes(pixels.data(), width * 4, MTL::Region(0, 0, width, height), 0);
    if (path) {
        if (FILE* file = std::fopen(path, "wb")) {
            std::fprintf(file, "P6\n%lu %lu\n255\n", static_cast<unsigned long>(width),
                         static_cast<unsigned long>(height));
            for (NS::UInteger i = 0; i < width * height; ++i) std::fwrite(&pixels[i * 4], 1, 3, file);
            std::fclose(file);
        }
    }

    // c = -0.25 + 0i lies in the main cardioid; c = -2.5 + 1.25i escapes at once.
    auto pixel = [&](double re, double im) {
        const NS::UInteger x = static_cast<NS::UInteger>((re + 2.5) / 3.5 * width);
        const NS::UInteger y = static_cast<NS::UInteger>((im + 1.25) / 2.5 * height);
        return &pixels[(std::min(y, height - 1) * width + std::min(x, width - 1)) * 4];
    };
    const std::uint8_t* inside = pixel(-0.25, 0.0);
    const std::uint8_t* outside = pixel(-2.5, -1.25);
    const bool ok = inside[0] == 0 && inside[1] == 0 && inside[2] == 0 && inside[3] == 255 && outside[2] > 200 &&
                    outside[3] == 255;
    std::printf("mandelbrot %lux%lu: inside (%u, %u, %u), outside (%u, %u, %u): %s\n",
                static_cast<unsigned long>(width), static_cast<unsigned long>(height), inside[0], inside[1],
                inside[2], outside[0], outside[1], outside[2], ok ? "ok" : "WRONG");

    texture->release();
    queue->release();
    pipeline->release();
    function->release();
    library->release();
    device->release();
    pool->release();
    return ok ? 0 : 1;
}
