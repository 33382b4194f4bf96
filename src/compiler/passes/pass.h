// What every rewrite pass and every check gets, and the one signature each kind has.
#pragma once

#include <vector>

namespace metalcpu::msl {

class Diagnostics;
class EditList;
class FileTable;
class Unit;
struct Findings;
struct IncludeEvent;
struct TranslateOptions;

/// The inputs and outputs of a pass: it reads the unit's syntax and what the analyses found,
/// writes edits and diagnostics, and records what the generated code needs in `findings`.
struct PassContext {
    const Unit& unit;
    EditList& edits;
    Diagnostics& diagnostics;
    const TranslateOptions& options;
    Findings& findings;
};

/// A rewrite pass (compiler/pipeline.h lists them in the order they run).
using PassFunction = void (*)(PassContext&);

/// The inputs and the one output of a check: it reads the unit's syntax and what the lexer saw
/// of the files, and writes only diagnostics. A check never edits, so it can run on the MSL
/// as written, before any analysis.
struct CheckContext {
    const Unit& unit;
    /// The #include and #line events the lexer read from the preprocessor's linemarkers
    /// (Lexer::includes()): which files the kernel code reached, and from where.
    const std::vector<IncludeEvent>& includes;
    /// The file table the events' and the tokens' file numbers index.
    const FileTable& files;
    const TranslateOptions& options;
    Diagnostics& diagnostics;
};

/// A check of the restricted dialect (compiler/pipeline.h lists them).
using CheckFunction = void (*)(const CheckContext&);

} // namespace metalcpu::msl
