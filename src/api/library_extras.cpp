// The MTL::Library and MTL::Function methods beyond library.cpp: functions by descriptor, the
// completion-handler forms (which run synchronously, as Device::newLibrary's do), argument
// encoders (argument_encoding.h), function reflection (binding_reflection.h), and what needs
// intersection functions, which log once.
#include "api/argument_encoding.h"
#include "api/binding_reflection.h"
#include "api/blocks.h"
#include "api/function_constants.h"
#include "api/not_yet.h"
#include "runtime/errors.h"
#include "runtime/library.h"

#include <Metal/MTLFunctionDescriptor.hpp>
#include <Metal/MTLLibrary.hpp>

using metalcpu::api::notYet;
using metalcpu::ns::implOf;
using Lib = metalcpu::rt::Library;
using Fn = metalcpu::rt::Function;

MTL::Function* MTL::Library::newFunction(const FunctionDescriptor* descriptor, NS::Error** error) {
    metalcpu::rt::clearError(error);
    if (!implOf<Lib>(this)) return nullptr;
    // The specialised name and options change nothing on a CPU; the name and constants do.
    if (!descriptor) return newFunction(static_cast<const NS::String*>(nullptr), nullptr, error);
    return newFunction(descriptor->name(), descriptor->constantValues(), error);
}
void MTL::Library::newFunction(const NS::String* pFunctionName, const FunctionConstantValues* pConstantValues,
                               const FunctionCompletionHandlerFunction& completionHandler) {
    if (!implOf<Lib>(this)) return;
    NS::Error* error = nullptr;
    Function* function = newFunction(pFunctionName, pConstantValues, &error);
    if (completionHandler) completionHandler(function, error);
    if (function) function->release();
}
void MTL::Library::newFunction(const FunctionDescriptor* pDescriptor,
                               const FunctionCompletionHandlerFunction& completionHandler) {
    if (!implOf<Lib>(this)) return;
    NS::Error* error = nullptr;
    Function* function = newFunction(pDescriptor, &error);
    if (completionHandler) completionHandler(function, error);
    if (function) function->release();
}
#if defined(__BLOCKS__)
void MTL::Library::newFunction(const NS::String* name, const FunctionConstantValues* constantValues,
                               void (^completionHandler)(Function*, NS::Error*)) {
    if (implOf<Lib>(this))
        newFunction(name, constantValues, FunctionCompletionHandlerFunction(metalcpu::api::functionOf(completionHandler)));
}
void MTL::Library::newFunction(const FunctionDescriptor* descriptor, void (^completionHandler)(Function*, NS::Error*)) {
    if (implOf<Lib>(this))
        newFunction(descriptor, FunctionCompletionHandlerFunction(metalcpu::api::functionOf(completionHandler)));
}
#endif

// Intersection functions belong to ray tracing.
MTL::Function* MTL::Library::newIntersectionFunction(const IntersectionFunctionDescriptor*, NS::Error** error) {
    metalcpu::rt::clearError(error);
    notYet<Lib>(this, "MTL::Library::newIntersectionFunction", error);
    return nullptr;
}
void MTL::Library::newIntersectionFunction(const IntersectionFunctionDescriptor* pDescriptor,
                                           const FunctionCompletionHandlerFunction& completionHandler) {
    if (!implOf<Lib>(this)) return;
    NS::Error* error = nullptr;
    Function* function = newIntersectionFunction(pDescriptor, &error);
    if (completionHandler) completionHandler(function, error);
}
#if defined(__BLOCKS__)
void MTL::Library::newIntersectionFunction(const IntersectionFunctionDescriptor* descriptor,
                                           void (^completionHandler)(Function*, NS::Error*)) {
    if (implOf<Lib>(this))
        newIntersectionFunction(descriptor,
                                FunctionCompletionHandlerFunction(metalcpu::api::functionOf(completionHandler)));
}
#endif

// Apple's compiler records a function's reflection when it builds the library, and metalcpu's
// always does, so every kernel functionNames() lists has one, with the same bindings a
// pipeline's reflection gives; unknown names and render functions (which a library here does
// not hold) have none.
MTL::FunctionReflection* MTL::Library::reflectionForFunction(const NS::String* functionName) {
    auto* self = implOf<Lib>(this);
    if (!self || !functionName || !functionName->utf8String()) return nullptr;
    const mc_kernel* kernel = self->kernels()->find(functionName->utf8String());
    if (!kernel) return nullptr;
    return metalcpu::ns::autoreleased(metalcpu::api::newFunctionReflection(*kernel, self->kernels()));
}

NS::Dictionary* MTL::Function::functionConstantsDictionary() const {
    return metalcpu::api::functionConstantsDictionary(this);
}
// Kernels have no vertex or stage-in attributes (stage-in is not supported) and are not
// post-tessellation functions.
NS::Array* MTL::Function::stageInputAttributes() const { return nullptr; }
NS::Array* MTL::Function::vertexAttributes() const { return nullptr; }
MTL::PatchType MTL::Function::patchType() const { return PatchTypeNone; }
NS::Integer MTL::Function::patchControlPointCount() const { return 0; }
// For the argument-buffer struct the kernel's buffer points at (api/argument_encoding.h).
MTL::ArgumentEncoder* MTL::Function::newArgumentEncoder(NS::UInteger bufferIndex) {
    auto* self = implOf<Fn>(this);
    return self ? metalcpu::api::newArgumentEncoder(self->device(), self->kernel(), bufferIndex, self->library())
                : nullptr;
}
// Argument reflection objects are not made: `reflection` receives nil.
MTL::ArgumentEncoder* MTL::Function::newArgumentEncoder(NS::UInteger bufferIndex, const AutoreleasedArgument* reflection) {
    if (reflection) *const_cast<AutoreleasedArgument*>(reflection) = nullptr;
    return newArgumentEncoder(bufferIndex);
}
