#include "custom_kernel.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <utility>

namespace {

// What MLX's utils.h gives every custom kernel that this sample's kernels use: its type
// names and elem_to_loc, which turns an element index into a strided location.
constexpr const char* kPreamble = R"(#include <metal_stdlib>
using namespace metal;

typedef half float16_t;
typedef bfloat bfloat16_t;

template <typename IdxT = int64_t>
METAL_FUNC IdxT elem_to_loc(uint elem, constant const int* shape, constant const int64_t* strides, int ndim) {
    IdxT loc = 0;
    for (int i = ndim - 1; i >= 0 && elem > 0; --i) {
        loc += IdxT(elem % uint(shape[i])) * IdxT(strides[i]);
        elem /= uint(shape[i]);
    }
    return loc;
}
)";

/// The thread attributes a body may name, with the type MLX gives their parameters.
constexpr std::pair<const char*, const char*> kThreadAttributes[] = {
    {"thread_position_in_grid", "uint3"},        {"threads_per_grid", "uint3"},
    {"thread_position_in_threadgroup", "uint3"}, {"threads_per_threadgroup", "uint3"},
    {"threadgroup_position_in_grid", "uint3"},   {"threadgroups_per_grid", "uint3"},
    {"thread_index_in_threadgroup", "uint"},     {"thread_index_in_simdgroup", "uint"},
    {"simdgroup_index_in_threadgroup", "uint"},  {"threads_per_simdgroup", "uint"},
};

bool isIdentifierCharacter(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

} // namespace

CustomKernel::CustomKernel(MTL::Device* device, std::string name, std::vector<std::string> inputNames,
                           std::vector<std::string> outputNames, std::string body, std::string header,
                           bool atomicOutputs)
    : device_(device->retain()), queue_(device->newCommandQueue()), name_(std::move(name)),
      inputNames_(std::move(inputNames)), outputNames_(std::move(outputNames)), body_(std::move(body)),
      header_(std::move(header)), atomicOutputs_(atomicOutputs) {}

CustomKernel::~CustomKernel() {
    if (pipeline_) pipeline_->release();
    queue_->release();
    device_->release();
}

bool CustomKernel::uses(const std::string& word) const {
    for (std::size_t at = body_.find(word); at != std::string::npos; at = body_.find(word, at + 1)) {
        const bool startsWord = at == 0 || !isIdentifierCharacter(body_[at - 1]);
        const std::size_t end = at + word.size();
        if (startsWord && (end == body_.size() || !isIdentifierCharacter(body_[end]))) return true;
    }
    return false;
}

std::string CustomKernel::source(const std::string& type) const {
    std::string parameters;
    int index = 0;
    auto add = [&](const std::string& declaration, const std::string& attribute) {
        if (!parameters.empty()) parameters += ",\n    ";
        parameters += declaration + " [[" + attribute + "]]";
    };
    for (const std::string& input : inputNames_) {
        add("const device T* " + input, "buffer(" + std::to_string(index++) + ")");
        if (uses(input + "_shape")) add("const constant int* " + input + "_shape", "buffer(" + std::to_string(index++) + ")");
        if (uses(input + "_strides"))
            add("const constant int64_t* " + input + "_strides", "buffer(" + std::to_string(index++) + ")");
        if (uses(input + "_ndim")) add("const constant int& " + input + "_ndim", "buffer(" + std::to_string(index++) + ")");
    }
    for (const std::string& output : outputNames_)
        add((atomicOutputs_ ? "device atomic<T>* " : "device T* ") + output, "buffer(" + std::to_string(index++) + ")");
    for (const auto& [attribute, attributeType] : kThreadAttributes)
        if (uses(attribute)) add(std::string(attributeType) + " " + attribute, attribute);

    const std::string kernel = "custom_kernel_" + name_;
    return std::string(kPreamble) + "\n" + header_ + "\ntemplate <typename T>\n[[kernel]] void " + kernel + "(\n    " +
           parameters + ") {\n" + body_ + "\n}\n\ntemplate [[host_name(\"" + kernel + "_" + type +
           "\")]] [[kernel]] decltype(" + kernel + "<" + type + ">) " + kernel + "<" + type + ">;\n";
}

MTL::ComputePipelineState* CustomKernel::pipeline(const std::string& type) {
    if (pipeline_ && compiledType_ == type) return pipeline_;
    NS::Error* error = nullptr;
    const std::string text = source(type);
    MTL::Library* library = device_->newLibrary(NS::String::string(text.c_str(), NS::UTF8StringEncoding), nullptr, &error);
    if (!library) {
        std::fprintf(stderr, "%s: %s\n", name_.c_str(), error->localizedDescription()->utf8String());
        return nullptr;
    }
    const std::string hostName = "custom_kernel_" + name_ + "_" + type;
    MTL::Function* function = library->newFunction(NS::String::string(hostName.c_str(), NS::UTF8StringEncoding));
    library->release();
    if (!function) return nullptr;
    MTL::ComputePipelineState* made = device_->newComputePipelineState(function, &error);
    function->release();
    if (!made) {
        std::fprintf(stderr, "%s: %s\n", name_.c_str(), error->localizedDescription()->utf8String());
        return nullptr;
    }
    if (pipeline_) pipeline_->release();
    pipeline_ = made;
    compiledType_ = type;
    return pipeline_;
}

std::vector<MTL::Buffer*> CustomKernel::run(const std::string& type, const std::vector<Input>& inputs,
                                            const std::vector<Output>& outputs, MTL::Size grid, MTL::Size threadgroup,
                                            std::optional<float> initValue) {
    MTL::ComputePipelineState* state = pipeline(type);
    if (!state || inputs.size() != inputNames_.size() || outputs.size() != outputNames_.size()) return {};

    std::vector<MTL::Buffer*> made;
    for (const Output& output : outputs) {
        MTL::Buffer* buffer = device_->newBuffer(output.elements * sizeof(float), MTL::ResourceStorageModeShared);
        if (initValue) {
            float* contents = static_cast<float*>(buffer->contents());
            for (std::size_t i = 0; i < output.elements; ++i) contents[i] = *initValue;
        }
        made.push_back(buffer);
    }

    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    NS::UInteger index = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Input& input = inputs[i];
        const std::string& name = inputNames_[i];
        encoder->setBuffer(input.data, 0, index++);
        if (uses(name + "_shape")) encoder->setBytes(input.shape.data(), input.shape.size() * sizeof(int), index++);
        if (uses(name + "_strides"))
            encoder->setBytes(input.strides.data(), input.strides.size() * sizeof(std::int64_t), index++);
        if (uses(name + "_ndim")) {
            const int ndim = static_cast<int>(input.shape.size());
            encoder->setBytes(&ndim, sizeof(ndim), index++);
        }
    }
    for (MTL::Buffer* buffer : made) encoder->setBuffer(buffer, 0, index++);
    encoder->dispatchThreads(grid, threadgroup);
    encoder->endEncoding();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    if (commandBuffer->status() != MTL::CommandBufferStatusCompleted) {
        std::fprintf(stderr, "%s: the command buffer failed\n", name_.c_str());
        for (MTL::Buffer* buffer : made) buffer->release();
        return {};
    }
    return made;
}
