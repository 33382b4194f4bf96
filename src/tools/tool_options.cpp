#include "tools/tool_options.h"

#include <cstdlib>

namespace metalcpu::tools {

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
    auto valueOf = [&](size_t& i, const std::string& flag) -> std::string {
        const std::string& argument = arguments[i];
        if (argument.size() > flag.size()) return argument.substr(flag.size());
        if (i + 1 < arguments.size()) return arguments[++i];
        options.error = "missing value after " + flag;
        return {};
    };
    for (size_t i = 0; i < arguments.size() && options.error.empty(); ++i) {
        const std::string& argument = arguments[i];
        if (argument == "-c") {
            options.compileOnly = true;
        } else if (argument == "-h" || argument == "--help") {
            options.help = true;
        } else if (argument.rfind("-o", 0) == 0) {
            options.output = valueOf(i, "-o");
        } else if (argument.rfind("-I", 0) == 0) {
            options.includeDirectories.push_back(valueOf(i, "-I"));
        } else if (argument.rfind("-D", 0) == 0) {
            options.macros.push_back(valueOf(i, "-D"));
        } else if (argument.rfind("-std=", 0) == 0) {
            int version = languageVersionOf(argument.substr(5));
            if (version < 0) options.error = "unknown language standard " + argument;
            else options.languageVersion = version;
        } else if (argument == "-ffast-math") {
            options.mathMode = jit::MathMode::Fast;
            options.mathFunctions = jit::MathFunctions::Fast;
        } else if (argument == "-fno-fast-math") {
            options.mathMode = jit::MathMode::Safe;
            options.mathFunctions = jit::MathFunctions::Precise;
        } else if (argument.rfind("-fmetal-math-mode=", 0) == 0) {
            std::string mode = argument.substr(18);
            if (mode == "fast") options.mathMode = jit::MathMode::Fast;
            else if (mode == "relaxed") options.mathMode = jit::MathMode::Relaxed;
            else if (mode == "safe") options.mathMode = jit::MathMode::Safe;
            else options.error = "unknown math mode " + argument + " (fast, relaxed or safe)";
        } else if (argument.rfind("-fmetal-math-fp32-functions=", 0) == 0) {
            std::string functions = argument.substr(28);
            if (functions == "fast") options.mathFunctions = jit::MathFunctions::Fast;
            else if (functions == "precise") options.mathFunctions = jit::MathFunctions::Precise;
            else options.error = "unknown FP32 math functions " + argument + " (fast or precise)";
        } else if (argument == "-fmetal-enable-logging") {
            options.macros.push_back(jit::kEnableLoggingMacro);
        } else if (argument == "-MD" || argument == "-MMD") {
            // dependencies are written when -MF names the file
        } else if (argument.rfind("-MF", 0) == 0) {
            options.depfile = valueOf(i, "-MF");
        } else if (argument.rfind("-MT", 0) == 0 || argument.rfind("-MQ", 0) == 0) {
            options.depTarget = valueOf(i, argument.substr(0, 3));
        } else if (argument == "-arch" || argument == "-target" || argument == "-isysroot" || argument == "-sdk") {
            ++i; // takes a value that means nothing here
        } else if (!argument.empty() && argument[0] == '-') {
            // -g, -O2, -frecord-sources, -Wall, -mmacos-version-min=… : no effect on CPU kernels
        } else {
            options.inputs.push_back(argument);
        }
    }
    if (options.error.empty() && !options.help && options.inputs.empty()) options.error = "no input files";
    return options;
}

} // namespace metalcpu::tools
