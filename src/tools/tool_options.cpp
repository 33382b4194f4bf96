#include "tools/tool_options.h"

#include "jit/isa.h"
#include "jit/make_dependencies.h"

#include <algorithm>
#include <cstdlib>

namespace metalcpu::tools {

namespace {

/// How a flag takes its value: none (-c), attached (-std=metal3.1, -O2), the next argument
/// (-target air64-apple-macos14), or either (-I dir, -Idir).
enum class Form { Flag, Joined, Separate, JoinedOrSeparate };

/// What a flag does to the options; nullptr: accepted and ignored (docs/tools.md says why).
using Apply = void (*)(MetalOptions&, const std::string& value);

struct Rule {
    std::string_view spelling;
    Form form;
    std::string_view valueName; ///< for the help text: "-I <dir>"
    Apply apply;
    std::string_view meaning;
};

void setAction(MetalOptions& o, MetalAction action) {
    // The action that stops earliest wins, whatever the order of the flags.
    if (static_cast<int>(action) > static_cast<int>(o.action)) o.action = action;
}

/// The name a -D or -U gives: up to its '='.
std::string macroName(const std::string& definition) { return definition.substr(0, definition.find('=')); }

void define(MetalOptions& o, const std::string& definition) {
    std::vector<std::string>& undefined = o.settings.undefinedMacros;
    undefined.erase(std::remove(undefined.begin(), undefined.end(), macroName(definition)), undefined.end());
    o.settings.macros.push_back(definition);
}

void undefine(MetalOptions& o, const std::string& name) {
    // -D and -U apply in the order given: an -U undoes the -D before it, and undefines what
    // metalcpu predefines (__METAL_MACOS__, __HAVE_BFLOAT__, ...).
    std::vector<std::string>& macros = o.settings.macros;
    macros.erase(std::remove_if(macros.begin(), macros.end(), [&](const std::string& m) { return macroName(m) == name; }),
                 macros.end());
    if (std::find(o.settings.undefinedMacros.begin(), o.settings.undefinedMacros.end(), name) ==
        o.settings.undefinedMacros.end())
        o.settings.undefinedMacros.push_back(name);
}

void setDebugInfo(MetalOptions& o, const std::string& flag, bool onlyIfNone) {
    std::vector<std::string>& flags = o.codeFlags;
    const bool hasDebugInfo = std::any_of(flags.begin(), flags.end(), [](const std::string& f) { return f.starts_with("-g"); });
    if (onlyIfNone && hasDebugInfo) return;
    flags.erase(std::remove_if(flags.begin(), flags.end(), [](const std::string& f) { return f.starts_with("-g"); }),
                flags.end());
    flags.push_back(flag);
}

void warning(MetalOptions& o, const std::string& name) {
    WarningOptions& w = o.warnings;
    if (name == "error") {
        w.allAreErrors = true;
    } else if (name == "no-error") {
        w.allAreErrors = false;
    } else if (name.starts_with("error=")) {
        w.errors.push_back(name.substr(6));
        w.hostFlags.push_back("-W" + name.substr(6));
    } else if (name.starts_with("no-error=")) {
        w.notErrors.push_back(name.substr(9));
    } else if (name.empty() || name.starts_with("l,") || name.starts_with("a,") || name.starts_with("p,")) {
        o.error = "unknown argument '-W" + name + "': metal passes no options to a linker, assembler or preprocessor";
    } else {
        w.hostFlags.push_back("-W" + name);
    }
}

void optimisation(MetalOptions& o, const std::string& level) {
    if (level == "0" || level == "1" || level == "2" || level == "3" || level == "s" || level == "g") o.optimisation = "-O" + level;
    else if (level.empty()) o.optimisation = "-O1";
    else if (level == "z") o.optimisation = "-Os";
    else if (level == "fast" || level == "4") o.optimisation = "-O3";
    else o.error = "unknown optimisation level -O" + level + " (-O0, -O1, -O2, -O3, -Os, -Oz)";
}

/// -march=, -mcpu=: one image, for a level of this machine's architecture or for this CPU.
void instructionSet(MetalOptions& o, const std::string& flag, const std::string& level) {
    const std::vector<std::string>& known = jit::knownLevels();
    if (level == "native" || std::find(known.begin(), known.end(), level) != known.end()) {
        o.levels = {level};
        return;
    }
    std::string names;
    for (const std::string& name : known) names += name + ", ";
    o.error = "unknown instruction-set level " + flag + level + " (" + names + "native)";
}

void language(MetalOptions& o, const std::string& name, bool& sources) {
    if (name == "metal") sources = true;
    else if (name == "none") sources = false;
    else o.error = "unknown language '-x " + name + "': metal compiles Metal sources (-x metal; -x none: by extension)";
}

void standard(MetalOptions& o, const std::string& value) {
    int version = languageVersionOf(value);
    if (version < 0) o.error = "unknown language standard -std=" + value + " (metal3.2, macos-metal2.4, ios-metal2.4, ...)";
    else o.settings.languageVersion = version;
}

void mathMode(MetalOptions& o, const std::string& mode) {
    if (mode == "fast") o.settings.mathMode = jit::MathMode::Fast;
    else if (mode == "relaxed") o.settings.mathMode = jit::MathMode::Relaxed;
    else if (mode == "safe") o.settings.mathMode = jit::MathMode::Safe;
    else o.error = "unknown math mode -fmetal-math-mode=" + mode + " (fast, relaxed or safe)";
}

void mathFunctions(MetalOptions& o, const std::string& functions) {
    if (functions == "fast") o.settings.mathFunctions = jit::MathFunctions::Fast;
    else if (functions == "precise") o.settings.mathFunctions = jit::MathFunctions::Precise;
    else o.error = "unknown FP32 math functions -fmetal-math-fp32-functions=" + functions + " (fast or precise)";
}

const std::vector<Rule>& rules() {
    using O = MetalOptions;
    using S = const std::string&;
    static const std::vector<Rule> table = {
        // What to do.
        {"-c", Form::Flag, "", [](O& o, S) { setAction(o, MetalAction::Compile); },
         "compile each source into an .air object: the -o file, else <source name>.air in the working directory"},
        {"-fsyntax-only", Form::Flag, "", [](O& o, S) { setAction(o, MetalAction::SyntaxOnly); },
         "check the sources (translation and the host compiler's checks) and write nothing"},
        {"-E", Form::Flag, "", [](O& o, S) { setAction(o, MetalAction::Preprocess); },
         "write the preprocessed sources to the -o file or standard output, nothing else; <metal_stdlib> and the "
         "other standard headers are not expanded"},
        {"-M", Form::Flag, "", [](O& o, S) { setAction(o, MetalAction::Dependencies); o.dependencies.write = true; },
         "write the make rule of each source (to -MF, else -o, else standard output), nothing else"},
        {"-MM", Form::Flag, "",
         [](O& o, S) {
             setAction(o, MetalAction::Dependencies);
             o.dependencies.write = o.dependencies.userHeadersOnly = true;
         },
         "as -M, without headers of -isystem directories"},
        {"-o", Form::JoinedOrSeparate, "file", [](O& o, S v) { o.output = v; },
         "the output: the .air with -c, the .metallib (default: default.metallib), the text of -E or -M"},
        // The parser reads -x itself: it changes how the inputs after it are taken.
        {"-x", Form::JoinedOrSeparate, "language", [](O&, S) {},
         "-x metal: the inputs after it are Metal sources whatever their names; -x none: by extension (.metal is "
         "a source, anything else an object or archive to link)"},
        // Preprocessing.
        {"-I", Form::JoinedOrSeparate, "dir", [](O& o, S v) { o.settings.includeDirectories.push_back(v); },
         "search dir for #include \"...\" and <...>"},
        {"-iquote", Form::JoinedOrSeparate, "dir", [](O& o, S v) { o.settings.quoteDirectories.push_back(v); },
         "search dir for #include \"...\" only, before the -I directories"},
        {"-isystem", Form::JoinedOrSeparate, "dir", [](O& o, S v) { o.settings.systemDirectories.push_back(v); },
         "search dir after the -I directories; -MMD and -MM leave its headers out"},
        {"-include", Form::JoinedOrSeparate, "file", [](O& o, S v) { o.settings.forcedIncludes.push_back(v); },
         "read file before the source's first line (looked for in the working directory, then the search path)"},
        {"-D", Form::JoinedOrSeparate, "name[=value]", define, "define a macro"},
        {"-U", Form::JoinedOrSeparate, "name", undefine,
         "undefine a macro: one -D defined before it, or one metalcpu predefines"},
        {"-F", Form::JoinedOrSeparate, "dir", nullptr,
         "ignored: there are no frameworks on Linux (give their headers' directories with -I)"},
        {"-std=", Form::Joined, "version", standard,
         "the language version: metal3.2 (the default), metal4.0, macos-metal2.4, ios-metal2.4, ...; sets "
         "__METAL_VERSION__"},
        // Math.
        {"-ffast-math", Form::Flag, "",
         [](O& o, S) {
             o.settings.mathMode = jit::MathMode::Fast;
             o.settings.mathFunctions = jit::MathFunctions::Fast;
         },
         "fast math mode and fast FP32 functions (the default)"},
        {"-fno-fast-math", Form::Flag, "",
         [](O& o, S) {
             o.settings.mathMode = jit::MathMode::Safe;
             o.settings.mathFunctions = jit::MathFunctions::Precise;
         },
         "safe math mode and precise FP32 functions"},
        {"-fmetal-math-mode=", Form::Joined, "fast|relaxed|safe", mathMode, "the math mode (docs/compiler.md, \"Math modes\")"},
        {"-fmetal-math-fp32-functions=", Form::Joined, "fast|precise", mathFunctions,
         "what the plain metal:: FP32 functions are"},
        {"-fmetal-enable-logging", Form::Flag, "", [](O& o, S) { o.settings.macros.push_back(jit::kEnableLoggingMacro); },
         "os_log in kernels logs (as MTL::CompileOptions::enableLogging)"},
        // Code generation.
        {"-O", Form::Joined, "level", optimisation,
         "the host compiler's optimisation: -O0, -O1, -O2 (the default), -O3, -Os; -Oz is -Os, -Ofast is -O3"},
        {"-g", Form::Flag, "", [](O& o, S) { setDebugInfo(o, "-g", false); },
         "debug information: gdb shows and breaks at the .metal lines and sees the kernel's variables"},
        {"-gline-tables-only", Form::Flag, "", [](O& o, S) { setDebugInfo(o, "-g1", false); },
         "line tables only (-g1): gdb and addr2line map code to .metal lines"},
        {"-frecord-sources", Form::Flag, "", [](O& o, S) { setDebugInfo(o, "-g1", true); },
         "line tables (unless -g gave more); the sources stay in their files, where gdb reads them"},
        {"-fno-inline", Form::Flag, "", [](O& o, S) { o.codeFlags.push_back("-fno-inline"); },
         "no inlining of the kernel's own functions, for stepping through them"},
        {"-march=", Form::Joined, "level", [](O& o, S v) { instructionSet(o, "-march=", v); },
         "one image, for this instruction-set level: x86-64, x86-64-v2, x86-64-v3, x86-64-v4 (armv8-a on "
         "AArch64), or native (this CPU's best level, tuned for it); default: an image each for x86-64, x86-64-v3 "
         "and x86-64-v4, of which the loader takes the best the CPU runs"},
        {"-mcpu=", Form::Joined, "level", [](O& o, S v) { instructionSet(o, "-mcpu=", v); }, "as -march="},
        // Warnings.
        {"-w", Form::Flag, "", [](O& o, S) { o.warnings.suppressed = true; }, "no warnings at all"},
        {"-W", Form::Joined, "warning", [](O& o, S v) { warning(o, v); },
         "-Wall, -Wextra, -Wx, -Wno-x: the host compiler's warnings about the kernel's lines (one it does not know "
         "is ignored; -v lists them); -Werror, -Werror=x, -Wno-error=x: warnings that are errors"},
        // Dependencies.
        {"-MD", Form::Flag, "", [](O& o, S) { o.dependencies.write = true; },
         "also write the make rule: to -MF, else the output's name with .d"},
        {"-MMD", Form::Flag, "",
         [](O& o, S) { o.dependencies.write = o.dependencies.userHeadersOnly = true; },
         "as -MD, without headers of -isystem directories"},
        {"-MF", Form::JoinedOrSeparate, "file", [](O& o, S v) { o.dependencies.file = v; }, "where the make rule goes"},
        {"-MT", Form::JoinedOrSeparate, "target", [](O& o, S v) { o.dependencies.targets.push_back(v); },
         "the rule's target, as written (default: the output)"},
        {"-MQ", Form::JoinedOrSeparate, "target", [](O& o, S v) { o.dependencies.targets.push_back(jit::quoteForMake(v)); },
         "the rule's target, quoted for make"},
        {"-MP", Form::Flag, "", [](O& o, S) { o.dependencies.phonyTargets = true; },
         "an empty rule for each header, so that make goes on when one is removed"},
        // Apple's platform flags: kernels run on this machine's CPU.
        {"-target", Form::Separate, "triple", nullptr, "ignored: kernels are built for this machine"},
        {"--target=", Form::Joined, "triple", nullptr, "ignored, as -target"},
        {"-arch", Form::Separate, "name", nullptr, "ignored, as -target"},
        {"-isysroot", Form::JoinedOrSeparate, "dir", nullptr, "ignored: there is no SDK to read"},
        {"-mmacosx-version-min=", Form::Joined, "version", nullptr, "ignored: no deployment target applies"},
        {"-mmacos-version-min=", Form::Joined, "version", nullptr, "ignored, as -mmacosx-version-min="},
        {"-mios-version-min=", Form::Joined, "version", nullptr, "ignored, as -mmacosx-version-min="},
        {"-miphoneos-version-min=", Form::Joined, "version", nullptr, "ignored, as -mmacosx-version-min="},
        {"-mtargetos=", Form::Joined, "os", nullptr, "ignored, as -mmacosx-version-min="},
        {"-fpreserve-invariance", Form::Flag, "", nullptr,
         "ignored: a CPU computes positions the same way in every kernel"},
        // Apple's tooling flags with no counterpart here.
        {"-serialize-diagnostics", Form::Separate, "file", nullptr,
         "ignored, and the file is not written: messages go to standard error"},
        {"--serialize-diagnostics", Form::Separate, "file", nullptr, "ignored, as -serialize-diagnostics"},
        {"-fmodules", Form::Flag, "", nullptr, "ignored: Metal's headers are not modules here"},
        {"-fno-modules", Form::Flag, "", nullptr, "ignored, as -fmodules"},
        {"-fmodules-cache-path=", Form::Joined, "dir", nullptr, "ignored, as -fmodules"},
        {"-fcolor-diagnostics", Form::Flag, "", nullptr, "ignored: messages are plain text"},
        {"-fno-color-diagnostics", Form::Flag, "", nullptr, "ignored, as -fcolor-diagnostics"},
        // About the tool.
        {"-v", Form::Flag, "", [](O& o, S) { o.verbose = true; },
         "print the version, where the tool is and which compiler builds kernels (on standard error), and the "
         "flags that were ignored; then do the rest"},
        {"--version", Form::Flag, "", [](O& o, S) { o.version = true; }, "print the version and exit"},
        {"-h", Form::Flag, "", [](O& o, S) { o.help = true; }, "print the flags and exit"},
        {"--help", Form::Flag, "", [](O& o, S) { o.help = true; }, "as -h"},
    };
    return table;
}

/// The rule for `argument`: the one with the longest spelling that matches it.
const Rule* ruleFor(const std::string& argument) {
    const Rule* best = nullptr;
    for (const Rule& rule : rules()) {
        const bool exact = argument == rule.spelling;
        const bool prefix = argument.size() > rule.spelling.size() && argument.starts_with(rule.spelling);
        bool matches = false;
        switch (rule.form) {
        case Form::Flag:
        case Form::Separate:
            matches = exact;
            break;
        case Form::Joined:
            matches = prefix || (exact && rule.spelling == "-O");
            break;
        case Form::JoinedOrSeparate:
            matches = exact || prefix;
            break;
        }
        if (matches && (!best || rule.spelling.size() > best->spelling.size())) best = &rule;
    }
    return best;
}

bool isMetalSource(const std::string& path) {
    return path == "-" || (path.size() > 6 && path.ends_with(".metal"));
}

} // namespace

int languageVersionOf(const std::string& standard) {
    // metal3.1, macos-metal2.4, ios-metal2.4, metal1.2 ...
    std::string::size_type at = standard.find("metal");
    if (at == std::string::npos) return -1;
    std::string version = standard.substr(at + 5);
    std::string::size_type dot = version.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 >= version.size()) return -1;
    char* end = nullptr;
    long major = std::strtol(version.c_str(), &end, 10);
    if (end != version.c_str() + dot) return -1;
    long minor = std::strtol(version.c_str() + dot + 1, &end, 10);
    if (*end != '\0') return -1;
    return static_cast<int>(major * 100 + minor * 10);
}

MetalOptions parseMetalOptions(const std::vector<std::string>& arguments) {
    MetalOptions options;
    bool sourcesByFlag = false; // after -x metal
    for (std::size_t i = 0; i < arguments.size() && options.error.empty(); ++i) {
        const std::string& argument = arguments[i];
        if (argument.empty() || argument[0] != '-' || argument == "-") {
            options.inputs.push_back({argument, sourcesByFlag || isMetalSource(argument)});
            continue;
        }
        const Rule* rule = ruleFor(argument);
        if (!rule) {
            options.error = "unknown argument '" + argument + "'";
            break;
        }
        std::string value;
        const bool attached = argument.size() > rule->spelling.size();
        if (attached) {
            value = argument.substr(rule->spelling.size());
        } else if (rule->form == Form::Separate || rule->form == Form::JoinedOrSeparate) {
            if (i + 1 >= arguments.size()) {
                options.error = "missing value after " + argument;
                break;
            }
            value = arguments[++i];
        }
        if (rule->spelling == "-x") language(options, value, sourcesByFlag);
        if (rule->apply) rule->apply(options, value);
        else options.ignored.push_back(attached || value.empty() ? argument : argument + " " + value);
    }
    if (!options.error.empty() || options.help || options.version) return options;
    const auto sources = std::count_if(options.inputs.begin(), options.inputs.end(), [](const MetalInput& in) { return in.source; });
    const bool fromStandardInput = std::any_of(options.inputs.begin(), options.inputs.end(),
                                               [](const MetalInput& in) { return in.path == "-"; });
    if (options.inputs.empty() && !options.verbose)
        options.error = "no input files";
    else if (options.action == MetalAction::Compile && !options.output.empty() && sources > 1)
        options.error = "-o with -c takes one source file";
    else if (options.action == MetalAction::Compile && options.output.empty() && fromStandardInput)
        options.error = "-c with standard input (-) needs -o";
    else if ((options.action == MetalAction::Compile || options.action == MetalAction::Link) && options.output == "-" &&
             options.dependencies.write && options.dependencies.file.empty())
        options.error = "-MD with -o - (standard output) needs -MF: the rule has no file to go beside";
    return options;
}

const std::vector<FlagHelp>& metalFlags() {
    static const std::vector<FlagHelp> flags = [] {
        std::vector<FlagHelp> out;
        for (const Rule& rule : rules()) {
            std::string usage(rule.spelling);
            if (rule.form == Form::Joined) usage += "<" + std::string(rule.valueName) + ">";
            else if (rule.form != Form::Flag) usage += " <" + std::string(rule.valueName) + ">";
            out.push_back({rule.spelling, usage, rule.meaning});
        }
        return out;
    }();
    return flags;
}

MetallibOptions parseMetallibOptions(const std::vector<std::string>& arguments) {
    MetallibOptions options;
    for (std::size_t i = 0; i < arguments.size() && options.error.empty(); ++i) {
        const std::string& argument = arguments[i];
        if (argument == "-o") {
            if (i + 1 < arguments.size()) options.output = arguments[++i];
            else options.error = "missing value after -o";
        } else if (argument.starts_with("-o") && argument.size() > 2) {
            options.output = argument.substr(2);
        } else if (argument == "-h" || argument == "--help") {
            options.help = true;
        } else if (argument == "-v" || argument == "--version") {
            options.version = true;
        } else if (argument.size() > 1 && argument[0] == '-') {
            options.error = "unknown argument '" + argument + "' (metallib takes .air files, archives of them, - for "
                            "standard input and -o)";
        } else {
            options.inputs.push_back(argument);
        }
    }
    if (options.error.empty() && !options.help && !options.version && options.inputs.empty())
        options.error = "no input files";
    return options;
}

} // namespace metalcpu::tools
