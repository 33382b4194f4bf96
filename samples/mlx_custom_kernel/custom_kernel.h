// A custom Metal kernel in the style of MLX's mx.fast.metal_kernel: the body of a kernel, the
// names of its inputs and outputs; the rest of the source is generated at run time.
#pragma once

#include <Metal/Metal.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/// An input array: its elements and, for strided reads, its shape and strides (in elements).
struct Input {
    MTL::Buffer* data = nullptr;
    std::vector<int> shape;
    std::vector<std::int64_t> strides;
};

/// An output array of `elements` floats, made by run().
struct Output {
    std::size_t elements = 0;
};

class CustomKernel {
public:
    CustomKernel(MTL::Device* device, std::string name, std::vector<std::string> inputNames,
                 std::vector<std::string> outputNames, std::string body, std::string header = "",
                 bool atomicOutputs = false);
    ~CustomKernel();
    CustomKernel(const CustomKernel&) = delete;
    CustomKernel& operator=(const CustomKernel&) = delete;

    /// The Metal source generated for element type `type` ("float", "bfloat16_t", ...).
    std::string source(const std::string& type) const;

    /// Compiles the kernel for `type` (once), runs it over `grid` threads in groups of
    /// `threadgroup`, and returns the output buffers (+1 each), filled with `initValue` before
    /// the kernel runs when one is given. Empty when compiling or running failed (printed).
    std::vector<MTL::Buffer*> run(const std::string& type, const std::vector<Input>& inputs,
                                  const std::vector<Output>& outputs, MTL::Size grid, MTL::Size threadgroup,
                                  std::optional<float> initValue = std::nullopt);

private:
    bool uses(const std::string& word) const;
    MTL::ComputePipelineState* pipeline(const std::string& type);

    MTL::Device* device_;
    MTL::CommandQueue* queue_;
    std::string name_;
    std::vector<std::string> inputNames_;
    std::vector<std::string> outputNames_;
    std::string body_;
    std::string header_;
    bool atomicOutputs_;
    std::string compiledType_;
    MTL::ComputePipelineState* pipeline_ = nullptr;
};
