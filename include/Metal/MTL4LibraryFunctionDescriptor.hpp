// metalcpu: MTL4::LibraryFunctionDescriptor, a function named by library and name.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTL4FunctionDescriptor.hpp"
#include "MTLDefines.hpp"

namespace MTL {
class Library;
}

namespace MTL4 {

class LibraryFunctionDescriptor : public NS::Copying<LibraryFunctionDescriptor, FunctionDescriptor> {
public:
    static LibraryFunctionDescriptor* alloc();
    LibraryFunctionDescriptor* init();

    MTL::Library* library() const;
    void setLibrary(const MTL::Library* library);
    NS::String* name() const;
    void setName(const NS::String* name);
};

} // namespace MTL4
