#include "compiler/emitter/entry_points.h"

#include "compiler/emitter/code_generation.h"
#include "compiler/passes/threadgroup_variables.h"
#include "compiler/reflection.h"
#include "compiler/source.h"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace metalcpu::msl {

namespace {

std::string argumentSetup(const EntryPointCode& e, const std::string& k, bool validation) {
    std::string out;
    for (std::size_t i = 0; i < e.info.params.size(); ++i) {
        const ParamInfo& p = e.info.params[i];
        std::string param = "::metalcpu_kernel::parameter_t<__mc_" + k + "_fn, " + std::to_string(i) + ">";
        std::string a = "__a" + std::to_string(i);
        // A reference or value argument is checked as one load at its declaration.
        const std::string site = "::mc_site{" + quoteString(e.info.file) + ", " + quoteString(e.info.hostName) +
                                 ", " + std::to_string(p.line) + "u, " + std::to_string(p.column) + "u}";
        if (p.kind == ParamKind::Buffer && validation) {
            // An argument a false function constant removes is not loaded (nor checked).
            const std::string present = p.presentIf.empty() ? "" : ", " + p.presentIf;
            out += "    auto&& " + a + " = ::metalcpu_kernel::checked_buffer_argument<" + param + ">(__g, " +
                   std::to_string(p.index) + ", " + site + present + ");\n";
        } else if (p.kind == ParamKind::Buffer) {
            // One a false function constant removes points at zeros (kernel_support.h).
            const std::string present = p.presentIf.empty() ? "" : ", " + p.presentIf;
            out += "    auto&& " + a + " = ::metalcpu_kernel::buffer_argument<" + param + ">(__g, " +
                   std::to_string(p.index) + present + ");\n";
        } else if (p.kind == ParamKind::Threadgroup && validation) {
            out += "    auto&& " + a + " = ::metalcpu_kernel::checked_threadgroup_argument<" + param + ">(__g, " +
                   std::to_string(p.index) + ", " + site + ");\n";
        } else if (p.kind == ParamKind::Threadgroup) {
            out += "    auto&& " + a + " = ::metalcpu_kernel::threadgroup_argument<" + param + ">(__g, " +
                   std::to_string(p.index) + ");\n";
        } else if (p.kind == ParamKind::Texture || p.kind == ParamKind::Sampler) {
            out += "    auto&& " + a + " = ::metalcpu_kernel::" +
                   (p.kind == ParamKind::Texture ? "texture_argument<" : "sampler_argument<") + param + ">(__g, " +
                   std::to_string(p.index) + ");\n";
        } else if (p.kind == ParamKind::Tensor) {
            // The handle is built from the mc_tensor the encoder put at buffers[index].
            out += "    auto&& " + a + " = ::metalcpu_kernel::tensor_argument<" + param + ">(__g, " +
                   std::to_string(p.index) + ");\n";
        } else if (p.kind == ParamKind::Unsupported) {
            out += "    auto&& " + a + " = ::metalcpu_kernel::unsupported_argument<" + param + ">(__g, " +
                   std::to_string(p.index) + ");\n";
        }
    }
    return out;
}

std::string callArguments(const EntryPointCode& e, const std::string& k) {
    std::string out;
    for (std::size_t i = 0; i < e.info.params.size(); ++i) {
        const ParamInfo& p = e.info.params[i];
        if (p.kind == ParamKind::Builtin) {
            out += "::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_" + k + "_fn, " +
                   std::to_string(i) + ">, " + builtinEnumerator(p.builtin) + ">(__g, __t), ";
        } else {
            out += "__a" + std::to_string(i) + ", ";
        }
    }
    return out + "__g";
}

/// The parameter's mc_param_kind; for `[[function_constant(c)]]`, MC_PARAM_ABSENT in a
/// library where c is false (the compiler decides, with the specialised values).
std::string presentKind(const ParamInfo& p) {
    if (p.presentIf.empty()) return paramKindEnumerator(p.kind);
    return "(" + p.presentIf + " ? " + paramKindEnumerator(p.kind) + " : MC_PARAM_ABSENT)";
}

// The members of the struct a buffer parameter points at (mc_argument): an argument buffer's,
// for ArgumentEncoder, or another struct's, for MTL::StructType. The host compiler itself lays
// them out and names their types (metalcpu/data_types.h): ArgumentEncoder writes where the
// kernel reads, and a reflected offset is the kernel's. The structs its members point at or
// hold get arrays of their own (`array`_1, _2, ...), declared first, since a list's struct
// points at itself. "" for other parameters.
std::string memberReflection(const ParamInfo& p, const std::string& array, const std::string& param) {
    if (p.members.empty()) return "";
    auto reached = [](const ArgumentMember& m) -> const std::string& { return m.pointee.empty() ? m.held : m.pointee; };
    // Each struct's C++ type, named through the member that first reaches it.
    std::vector<std::string> types(p.nestedArguments.size());
    std::vector<std::pair<const std::vector<ArgumentMember>*, std::string>> queue = {
        {&p.members, "::metalcpu_kernel::argument_struct_t<" + param + ">"}};
    auto nestedIndex = [&](const std::string& name) -> std::size_t {
        if (name.empty()) return p.nestedArguments.size();
        for (std::size_t n = 0; n < p.nestedArguments.size(); ++n)
            if (p.nestedArguments[n].name == name) return n;
        return p.nestedArguments.size();
    };
    for (std::size_t q = 0; q < queue.size(); ++q)
        for (const ArgumentMember& m : *queue[q].first) {
            const std::size_t n = nestedIndex(reached(m));
            if (n == types.size() || !types[n].empty()) continue;
            types[n] = "::metalcpu_kernel::member_struct_t<decltype(" + queue[q].second + "::" + m.name + ")>";
            queue.push_back({&p.nestedArguments[n].members, types[n]});
        }
    const bool argumentBuffer = !p.arguments.empty();
    auto rows = [&](const std::vector<ArgumentMember>& members, const std::string& type) {
        std::string out;
        for (const ArgumentMember& m : members) {
            const std::string member = "decltype(" + type + "::" + m.name + ")";
            const std::string shape = "::metalcpu_kernel::member_shape<" + member + ">::";
            const std::size_t n = nestedIndex(reached(m));
            const std::string nested = n < types.size() && !types[n].empty()
                                           ? std::to_string(p.nestedArguments[n].members.size()) + ", " + array +
                                                 "_" + std::to_string(n + 1)
                                           : "0, nullptr";
            out += "    {" + quoteString(m.name) + ", " + std::to_string(argumentBuffer ? m.id : 0) +
                   ", ::metalcpu_kernel::argument_kind<" + member + ">, __builtin_offsetof(" + type + ", " + m.name +
                   "), sizeof(" + member + "), ::metalcpu_kernel::argument_elements<" + member + ">, alignof(" +
                   member + "), " + shape + "pointee_size, " + shape + "pointee_align, " + nested + ", " + shape +
                   "data_type, " + shape + "element_type, " + shape + "pointee_type, " + shape + "length, " + shape +
                   "access, " + shape + "stride},\n";
        }
        return out;
    };
    std::string out = "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Winvalid-offsetof\"\n";
    for (std::size_t n = 0; n < types.size(); ++n)
        if (!types[n].empty()) out += "extern const ::mc_argument " + array + "_" + std::to_string(n + 1) + "[];\n";
    out += "const ::mc_argument " + array + "[] = {\n" + rows(p.members, queue[0].second) + "};\n";
    for (std::size_t n = 0; n < types.size(); ++n)
        if (!types[n].empty())
            out += "const ::mc_argument " + array + "_" + std::to_string(n + 1) + "[] = {\n" +
                   rows(p.nestedArguments[n].members, types[n]) + "};\n";
    return out + "#pragma GCC diagnostic pop\n";
}

/// mc_param's tensor_rank and tensor_data_type: read from the parameter's type by the kernel
/// library (the front end does not evaluate `dextents<int, 2>`), 0 for other kinds.
std::string tensorReflection(const ParamInfo& p, const std::string& param) {
    if (p.kind != ParamKind::Tensor) return "0, 0";
    const std::string traits = "::metalcpu_kernel::tensor_parameter<" + param + ">";
    return traits + "::rank, static_cast<mc_u32>(" + traits + "::data_type)";
}

/// mc_param's pointee_data_type: what a buffer points at, or a tensor's index type.
std::string pointeeDataType(const ParamInfo& p, const std::string& param) {
    if (p.kind == ParamKind::Tensor) return "::metalcpu_kernel::tensor_parameter<" + param + ">::index_type";
    return "::metalcpu_kernel::pointee_data_type<" + param + ">";
}

/// The line that opens a kernel's part of a file whose kernels can be selected (see kernelSelector()).
std::string selection(const std::string& hostName) {
    return "#if METALCPU_SELECTS_KERNEL(" + kernelSelector(hostName) + ")\n";
}

} // namespace

std::string kernelSelector(std::string_view hostName) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (unsigned char c : hostName) {
        hash ^= c;
        hash *= 0x100000001b3ull;
    }
    char literal[32];
    std::snprintf(literal, sizeof literal, "0x%016llxull", static_cast<unsigned long long>(hash));
    return literal;
}

namespace {
constexpr std::string_view kKernelSymbolPrefix = "metalcpu.kernel.";

bool isIdentifierByte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}
} // namespace

std::string kernelSymbol(std::string_view hostName) {
    std::string symbol(kKernelSymbolPrefix);
    for (unsigned char c : hostName) {
        if (isIdentifierByte(c)) {
            symbol += static_cast<char>(c);
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "$%02x", c);
            symbol += escaped;
        }
    }
    return symbol;
}

std::optional<std::string> kernelNameOfSymbol(std::string_view symbol) {
    if (!symbol.starts_with(kKernelSymbolPrefix)) return std::nullopt;
    std::string name;
    for (std::size_t i = kKernelSymbolPrefix.size(); i < symbol.size(); ++i) {
        if (symbol[i] != '$') {
            name += symbol[i];
            continue;
        }
        const int high = i + 2 < symbol.size() ? hexValue(symbol[i + 1]) : -1;
        const int low = high >= 0 ? hexValue(symbol[i + 2]) : -1;
        if (low < 0) return std::nullopt;
        name += static_cast<char>(high * 16 + low);
        i += 2;
    }
    return name;
}

std::string renderFunctionTable(const std::vector<std::string>& names) {
    if (names.empty()) return {};
    std::string out = "static const char* const __mc_render_functions[] = {";
    for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + quoteString(names[i]);
    out += "};\n#undef METALCPU_RENDER_FUNCTIONS\n#define METALCPU_RENDER_FUNCTIONS " + std::to_string(names.size()) +
           ", __mc_render_functions\n";
    return out;
}

std::string generateEntryPoints(const std::vector<EntryPointCode>& entryPoints, const std::string& moduleFile,
                                bool validation, const std::vector<ProgramConstant>& constants,
                                std::size_t firstLine, bool selectsKernels) {
    std::string out;
    std::vector<std::string> tableRows;
    std::string nameSymbols;
    for (std::size_t n = 0; n < entryPoints.size(); ++n) {
        const EntryPointCode& e = entryPoints[n];
        const KernelInfo& info = e.info;
        const std::string k = std::to_string(n);
        const std::string fn = "__mc_" + k + "_fn";

        std::string open, close, scope = "::";
        for (const std::string& ns : e.namespaces) {
            open += "namespace " + ns + " { ";
            close += " }";
            scope += ns + "::";
        }
        out += "// " + quoteString(info.hostName) + "\n";
        if (selectsKernels) out += selection(info.hostName);
        out += open + "namespace {\n";
        if (e.instantiationLine > 0) {
            // The instantiation's own line for the one statement that names it, then back.
            out += "#line " + std::to_string(e.instantiationLine) + " " + quoteString(e.instantiationFile) + "\n";
            out += "using " + fn + " = decltype(&" + info.functionExpression + ");\n";
            const auto lines = static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n'));
            out += "#line " + std::to_string(firstLine + lines + 1) + " " + quoteString(kGeneratedFileName) + "\n";
        } else {
            out += "using " + fn + " = decltype(&" + info.functionExpression + ");\n";
        }

        std::string setup = argumentSetup(e, k, validation);
        std::string call = "    " + info.functionExpression + "(" + callArguments(e, k) + ");\n";
        const bool usesT = call.find("__t") != std::string::npos;
        // The loop over the threads is what the host compiler vectorises, each thread a lane
        // (for_each_thread): only with the kernel inlined into it can it. GCC's own limits
        // leave a kernel of a few dozen lines (and every instrumented one) a call per thread.
        // A coroutine kernel is started per thread. A work-item-loop kernel holds its loops
        // itself and is called once per group: inlined only when the group function's
        // optimisation level is to apply to it.
        const CodeGeneration decision = codeGenerationFor(kernelShape(info));
        const bool loopsOverThreads = !info.usesWorkItemLoops && !info.usesCoroutines;
        // MC_KERNEL_USES_BARRIERS means "needs fibers": coroutine kernels synchronise without.
        const bool fibers = info.usesBarriers && loopsOverThreads;
        // The executor runs a fiber kernel's threads by run_thread only (exec/executor.cpp): it
        // has no group function, so the host compiler does not optimise the kernel a second
        // time, flattened into a loop nobody calls (bench/README.md, "Compile time of library
        // files"). A barrier-free kernel keeps its run_thread, which nothing calls either: the
        // kernel's second caller changes what GCC inlines into the group function.
        std::string runGroup = "nullptr";
        if (!fibers) {
            runGroup = "METALCPU_KERNEL_CODE(&" + scope + "__mc_" + k + "_run_group)";
            std::string attributes;
            if (validation || loopsOverThreads || info.interleavesThreads || !decision.optimisation.empty())
                attributes = "flatten";
            if (!decision.optimisation.empty()) attributes += ", optimize(\"" + decision.optimisation + "\")";
            std::string prefix = attributes.empty() ? "" : "__attribute__((" + attributes + ")) ";
            if (decision.narrowVectors) prefix += "METALCPU_NARROW_VECTORS ";
            out += prefix + "void __mc_" + k + "_run_group(const ::mc_group* __g) {\n";
            out += setup;
            if (info.usesWorkItemLoops) {
                // One call per group: the kernel loops over the threads itself, and rebinds the
                // builtins that differ per thread; the parameters carry thread 0's.
                out += "    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};\n";
                if (!usesT) out += "    (void)__t;\n";
                out += call;
                out += "}\n";
            } else if (info.usesCoroutines) {
                // Each thread's coroutine starts suspended; run_coroutines resumes them in turn.
                out += "    ::metalcpu_kernel::run_coroutines(__g, [&](const ::metalcpu_kernel::thread_ids& __t) {\n";
                if (!usesT) out += "        (void)__t;\n";
                out += "        return " + call.substr(4);
            } else {
                const std::string loop = "    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) "
                                         "__attribute__((always_inline)) {\n" +
                                         std::string(usesT ? "" : "        (void)__t;\n");
                if (validation && !e.rowCheckedParams.empty()) {
                    // The rows' accesses (`p[i]`, i the thread's position) checked once for
                    // the group: where all are inside, the threads run without those checks.
                    std::string pointers;
                    for (std::size_t i : e.rowCheckedParams) pointers += ", __a" + std::to_string(i);
                    out += "    if (::metalcpu_kernel::rows_inside(__g" + pointers + ")) {\n";
                    out += "        ::metalcpu_kernel::for_each_thread_in_rows(__g, [&](const ::metalcpu_kernel::thread_ids& __t) "
                           "__attribute__((always_inline)) {\n";
                    if (!usesT) out += "            (void)__t;\n";
                    out += "            " + info.functionExpression + "(" + callArguments(e, k) + ", true);\n";
                    out += "        });\n        return;\n    }\n";
                }
                out += loop;
                out += "    " + call;
            }
            if (!info.usesWorkItemLoops) out += "    });\n}\n";
        }
        std::string runThread = "nullptr";
        if (loopsOverThreads) {
            runThread = "METALCPU_KERNEL_CODE(&" + scope + "__mc_" + k + "_run_thread)";
            out += "void __mc_" + k + "_run_thread(const ::mc_group* __g, mc_u32 __i) {\n";
            out += "    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);\n";
            out += setup;
            if (!usesT) out += "    (void)__t;\n";
            out += call;
            out += "}\n";
        }

        std::string params = "nullptr";
        if (!info.params.empty()) {
            params = scope + "__mc_" + k + "_params";
            for (std::size_t i = 0; i < info.params.size(); ++i)
                out += memberReflection(info.params[i], "__mc_" + k + "_members_" + std::to_string(i),
                                        "::metalcpu_kernel::parameter_t<" + fn + ", " + std::to_string(i) + ">");
            out += "const ::mc_param __mc_" + k + "_params[] = {\n";
            for (std::size_t i = 0; i < info.params.size(); ++i) {
                const ParamInfo& p = info.params[i];
                std::string param = "::metalcpu_kernel::parameter_t<" + fn + ", " + std::to_string(i) + ">";
                // An argument buffer's members are its arguments too: one table.
                const std::string table = ", " + std::to_string(p.members.size()) + ", " + scope + "__mc_" + k +
                                          "_members_" + std::to_string(i);
                const std::string members = p.members.empty() ? ", 0, nullptr" : table;
                const std::string arguments = p.arguments.empty() ? ", 0, nullptr" : table;
                out += "    {" + quoteString(p.name) + ", " + quoteString(p.typeText) + ", " +
                       presentKind(p) + ", " + std::to_string(p.index) + ", " +
                       addressSpaceEnumerator(p.addressSpace) + ", " + accessEnumerator(p.access) + ", " +
                       builtinEnumerator(p.builtin) + ", " + (p.isReference ? "1" : "0") +
                       ", ::metalcpu_kernel::pointee_size<" + param + ">, ::metalcpu_kernel::pointee_align<" +
                       param + ">, " + std::to_string(p.line) + ", " + std::to_string(p.column) + ", " +
                       std::to_string(p.textureType) + ", " + std::to_string(p.textureDataType) + ", " +
                       tensorReflection(p, param) + arguments + ", " + pointeeDataType(p, param) + members + "},\n";
            }
            out += "};\n";
        }
        std::string sites = "nullptr";
        if (!info.threadgroupSites.empty()) {
            sites = scope + "__mc_" + k + "_sites";
            out += "const mc_u64 __mc_" + k + "_sites[] = {";
            for (std::size_t i = 0; i < info.threadgroupSites.size(); ++i)
                out += (i ? ", " : "") + siteKeyLiteral(info.threadgroupSites[i]);
            out += "};\n";
        }
        std::string maxThreads = std::to_string(info.maxTotalThreadsPerThreadgroup);
        if (!e.maxThreadsExpression.empty()) {
            out += "constexpr mc_u32 __mc_" + k + "_max_threads = static_cast<mc_u32>(" +
                   e.maxThreadsExpression + ");\n";
            maxThreads = scope + "__mc_" + k + "_max_threads";
        }
        std::string threadgroupOwner;
        if (!e.threadgroupOwnerExpression.empty()) {
            // Evaluated here, where the template arguments resolve as written.
            out += "constexpr mc_u64 __mc_" + k + "_threadgroup_owner = " + e.threadgroupOwnerExpression + ";\n";
            threadgroupOwner = scope + "__mc_" + k + "_threadgroup_owner";
        }
        out += "}" + close + "\n";
        if (selectsKernels) out += "#endif\n";
        out += "\n";

        const std::string flags = std::string(info.interleavesThreads ? "MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS"
                                              : info.usesWorkItemLoops ? "MC_KERNEL_WORK_ITEM_LOOPS"
                                              : info.usesCoroutines  ? "MC_KERNEL_COROUTINES"
                                              : info.usesBarriers    ? "MC_KERNEL_USES_BARRIERS"
                                                                     : "0u") +
                                  codeGenerationFlags(decision);

        // The kernel's name as a symbol of the object: a second object defining the same
        // kernel is refused when objects are linked into a library (translate.h, kernelSymbol()).
        nameSymbols += (selectsKernels ? selection(info.hostName) : std::string()) +
                       "__attribute__((used, visibility(\"hidden\"))) char __mc_" + k + "_name __asm__(" +
                       quoteString(kernelSymbol(info.hostName)) + ") = 0;\n" + (selectsKernels ? "#endif\n" : "");
        tableRows.push_back((selectsKernels ? selection(info.hostName) : std::string()) + "    {" +
                            quoteString(info.hostName) + ", " + quoteString(info.file) + ", " +
                            std::to_string(info.line) + ", " + std::to_string(info.column) + ", " +
                            flags + ", " + maxThreads + ", " + std::to_string(info.params.size()) + ", " +
                            params + ", " + runGroup + ", " + runThread + ", " +
                            std::to_string(info.threadgroupSites.size()) + ", " + sites + ", " +
                            quoteString(info.frameName.empty() ? info.hostName : info.frameName) +
                            ", " + (threadgroupOwner.empty() ? std::string("0") : threadgroupOwner) + ", " +
                            quoteString(fibers ? info.workItemLoopsRefusal : std::string()) + ", " +
                            (info.userAnnotation ? quoteString(*info.userAnnotation) : std::string("nullptr")) + "},\n" +
                            (selectsKernels ? "#endif\n" : ""));
    }
    std::string constantTable = "nullptr, 0";
    if (!constants.empty()) {
        out += "const ::mc_constant_data __mc_constants[] = {\n";
        for (const ProgramConstant& c : constants)
            out += "    {&" + c.expression + ", sizeof(" + c.expression + "), " + quoteString(c.name) + "},\n";
        out += "};\n";
        constantTable = "__mc_constants, " + std::to_string(constants.size());
    }
    std::string kernelTable = "nullptr, 0";
    if (!entryPoints.empty()) {
        out += nameSymbols;
        out += "const ::mc_kernel __mc_kernels[] = {\n";
        for (const std::string& row : tableRows) out += row;
        if (selectsKernels) {
            // With one kernel selected the others' rows are gone: a last empty row keeps the
            // array from being empty, and the count leaves it out.
            out += "    {},\n};\n";
            kernelTable = "__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1";
        } else {
            out += "};\n";
            kernelTable = "__mc_kernels, " + std::to_string(entryPoints.size());
        }
    }
    out += "METALCPU_REGISTER_MODULE(" + kernelTable + ", " + quoteString(moduleFile) + ", " + constantTable + ")\n";
    return out;
}

} // namespace metalcpu::msl
