// Each entry point as the generated code and the host see it: its reflection (KernelInfo,
// from the kernel's definition and what the analyses found) and what its glue needs.
#pragma once

#include "compiler/emitter/entry_points.h"
#include "compiler/findings.h"

#include <vector>

namespace metalcpu::msl {

class EditList;
class FileTable;
class Unit;

/// One EntryPointCode per entry point, in Findings::entryPoints order. A kernel template
/// whose thread limit depends on its template arguments gets its helper (addMaxThreadsHelper())
/// appended through `edits`, once per template.
std::vector<EntryPointCode> describeEntryPoints(const Unit& unit, EditList& edits, const Findings& found,
                                                const FileTable& files);

} // namespace metalcpu::msl
