// metalcpu: MTL4::CompilerTask, the handle of an asynchronous compilation.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL4 {

class Compiler;

enum CompilerTaskStatus : NS::Integer {
    CompilerTaskStatusNone = 0,
    CompilerTaskStatusScheduled = 1,
    CompilerTaskStatusCompiling = 2,
    CompilerTaskStatusFinished = 3,
};

class CompilerTask : public NS::Referencing<CompilerTask> {
public:
    Compiler* compiler() const;
    CompilerTaskStatus status() const;
    void waitUntilCompleted();
};

} // namespace MTL4
