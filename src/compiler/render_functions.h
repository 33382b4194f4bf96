// Vertex and fragment functions: metalcpu runs compute kernels only, and takes them out of the
// unit before anything reads it.
#pragma once

#include "compiler/scanner.h"
#include "compiler/source.h"
#include "compiler/token.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// Removes every `vertex`/`fragment` function (keyword or attribute; its declarations and its
/// definition, template header included) from `tokens`, matching brackets and scanning the
/// module again, and returns their names in source order (one each). Generators write every
/// entry point of a module into one file (Tint, SPIRV-Cross, naga): its compute kernels are
/// compiled, and the library names the others so that asking for one says why it is not there
/// (mc_module::render_functions). What is left keeps its locations; helpers only the render
/// functions call stay, and are compiled like any other function. `tokens`, `partner` and
/// `module` are unchanged when the unit has none.
std::vector<std::string> removeRenderFunctions(TokenList& tokens, std::vector<std::size_t>& partner, Module& module,
                                               const FileTable& files);

} // namespace metalcpu::msl
