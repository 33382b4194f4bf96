// metalcpu: MTL4::LibraryDescriptor, source and options for MTL4::Compiler::newLibrary.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {
class CompileOptions;
}

namespace MTL4 {

class LibraryDescriptor : public NS::Copying<LibraryDescriptor> {
public:
    static LibraryDescriptor* alloc();
    LibraryDescriptor* init();

    NS::String* source() const;
    void setSource(const NS::String* source);
    MTL::CompileOptions* options() const;
    void setOptions(const MTL::CompileOptions* options);
    NS::String* name() const;
    void setName(const NS::String* name);
};

} // namespace MTL4
