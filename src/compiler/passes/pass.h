// What every rewrite pass gets, and the one signature they all have.
#pragma once

namespace metalcpu::msl {

class Diagnostics;
class EditList;
class Unit;
struct Findings;
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

} // namespace metalcpu::msl
