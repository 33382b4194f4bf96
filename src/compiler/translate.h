// The MSL front end's one entry point: preprocessed Metal Shading Language in, C++ for the
// host compiler plus kernel reflection out. docs/compiler.md describes the stages.
#pragma once

#include <metalcpu/kernel_abi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::msl {

/// TranslateOptions::tokenLimit's default: an MSL file of 10 MB is 2-3 million tokens.
inline constexpr std::size_t kDefaultTokenLimit = 4'000'000;

/// How translate() names and checks its input. Every field but the two callbacks (which only
/// check files and restore columns of the same text) feeds the kernel cache key.
struct TranslateOptions {
    /// How the main source is reported in diagnostics, #line markers and reflection:
    /// "program_source" for source strings, else the path of the .metal file. Empty: as the
    /// preprocessor's first linemarker names it.
    std::string mainFile;
    /// Distinguishes the threadgroup-variable sites of different files in one library:
    /// site keys are (fileKey << 20) | site number (from 1, in source order); below 2^44.
    std::uint64_t fileKey = 0;
    /// Optional: whether kernel code may read `file` (named as the linemarkers spell it). When
    /// set, every file the linemarkers name must pass (an included file is reported at its
    /// #include), and readOriginalSource is asked only for files that pass. SourceAccess
    /// (source_access.h) checks the same before preprocessing; this is the second line.
    std::function<bool(const std::string& file)> allowsFile;
    /// Optional: whether a `#line` may name `file`, which the front end never reads then (a
    /// display name: SourceAccess::allowsLineName()). Unset: allowsFile decides for `#line` too.
    std::function<bool(const std::string& file)> allowsLineName;
    /// Optional: the original text of a file, given its name as the linemarkers spell it (the
    /// preprocessor's working directory is the base of relative names). `g++ -E` keeps lines
    /// but collapses the spacing inside them; with the originals, every token gets back its
    /// column. Without, only the first token of each line has its true column. Must not throw.
    std::function<std::optional<std::string>(const std::string& file)> readOriginalSource;
    /// The instrumented flavour for shader validation (docs/validation.md): checked pointers
    /// and a site for every access. The output defines METALCPU_VALIDATION.
    bool validation = false;
    /// The most tokens the input may have (0: no limit); past it the translation fails at the
    /// token. translate() runs in the caller's process and needs about 200 bytes a token, so
    /// this bounds its memory and time (METALCPU_COMPILE_TOKEN_LIMIT). Not in the cache key:
    /// it decides only whether a translation fails.
    std::size_t tokenLimit = kDefaultTokenLimit;
    /// Barrier-free kernels with a uniform loop run their group's threads interleaved in it
    /// (passes/interleaved_threads.h; METALCPU_INTERLEAVE_THREADS=0 turns it off).
    bool interleaveThreads = true;
    /// How many neighbouring threads an interleaved kernel runs together: 0 for the front end's
    /// choice (passes/interleaved_threads.h), else that many, 1 to 16 (METALCPU_INTERLEAVE_LANES,
    /// for comparison).
    unsigned interleaveLanes = 0;
    /// An interleaved kernel whose body allows it runs a whole row of a block's threads as the
    /// lanes of host vectors (passes/lane_vectors.h; METALCPU_LANE_VECTORS=0 turns it off).
    bool laneVectors = true;
    /// A file of more kernels than this has its kernels' code selectable in every flavour
    /// (passes/kernel_selection.h), as a file with function constants has: newLibrary(source)
    /// compiles such a file's kernels one at a time (jit, deferred machine code), each with only
    /// the code it reaches. 0: only the validation flavour and files with function constants.
    std::size_t selectKernelsAbove = 0;
};

/// One message about the input, in Tint's style: lower-case, one sentence, no full stop.
struct Diagnostic {
    enum class Severity { Error, Warning, Note };
    Severity severity = Severity::Error;
    std::string file; ///< as reported (TranslateOptions::mainFile for the main file)
    int line = 0, column = 0;
    std::string message;

    /// "file:line:col: error: message" (the location parts are left out when unknown).
    std::string format() const;
};

/// What a kernel parameter binds to. The values are those of mc_param_kind (whose 5,
/// MC_PARAM_ABSENT, the glue writes for a parameter a function constant removes).
enum class ParamKind : std::uint32_t {
    Buffer = 1,
    Threadgroup = 2,
    Builtin = 3,
    Unsupported = 4,
    Texture = 6,
    Sampler = 7,
    Tensor = 8, ///< `tensor<T, Extents>` by value, bound at a buffer index
};

/// The values are those of mc_address_space.
enum class AddressSpace : std::uint32_t { None = 0, Device = 1, Constant = 2, Threadgroup = 3, Thread = 4 };

/// The values are those of mc_access.
enum class Access : std::uint32_t { ReadOnly = 1, WriteOnly = 2, ReadWrite = 3 };

/// Kernel input attributes such as [[thread_position_in_grid]]: made from METALCPU_BUILTINS
/// (kernel_abi.h), as mc_builtin is, so the values are mc_builtin's.
enum class Builtin : std::uint32_t {
    None = 0,
#define METALCPU_BUILTIN_ENUMERATOR(enumerator, attribute, name, uniform) name,
    METALCPU_BUILTINS(METALCPU_BUILTIN_ENUMERATOR)
#undef METALCPU_BUILTIN_ENUMERATOR
};

/// A data member of a struct (passes/argument_buffers.h) and, in an argument buffer, its [[id(n)]].
struct ArgumentMember {
    std::string name;
    std::uint32_t id = 0;
    /// A pointer member (or array of them) at another argument-buffer struct: that struct's
    /// name, for ArgumentEncoder::newArgumentEncoder(id); else "".
    std::string pointee;
    /// A member whose type (or element type) is a struct declared by name: the name, for
    /// MTL::StructMember::structType(); else "".
    std::string held;
};

/// A struct a parameter reaches through pointer members (argument buffers) or members of struct
/// type, and its members (ArgumentMember::pointee or held names it).
struct NestedArguments {
    std::string name;
    std::vector<ArgumentMember> members;
};

/// Reflection of one kernel parameter, taken from the kernel's (primary template) definition.
struct ParamInfo {
    std::string name;     ///< "" when unnamed
    std::string typeText; ///< as written, whitespace normalised: "device const float*"
    ParamKind kind = ParamKind::Buffer;
    std::uint32_t index = 0; ///< [[buffer(n)]] / [[threadgroup(n)]], explicit or implicit (tensors: a buffer index)
    bool explicitIndex = false;
    AddressSpace addressSpace = AddressSpace::None;
    Access access = Access::ReadWrite;
    Builtin builtin = Builtin::None;
    bool isReference = false; ///< T& rather than T*
    int line = 0, column = 0; ///< where the parameter's name (or type) is written
    /// `[[function_constant(c)]]`: the argument exists only when c is true. The front end
    /// records c's name, then the C++ of its value (passes/function_constants.h).
    std::string presentIf;
    /// Textures: the MTL::TextureType and the MTL::DataType of the element (float, half, ...).
    std::uint32_t textureType = 0;
    std::uint32_t textureDataType = 0;
    /// A buffer pointing at an argument-buffer struct: its members, for ArgumentEncoder.
    std::vector<ArgumentMember> arguments;
    /// A buffer pointing at a struct the front end can describe (passes/argument_buffers.h,
    /// findDataStructs), for MTL::StructType: its members (those of `arguments` for an argument
    /// buffer).
    std::vector<ArgumentMember> members;
    /// The structs its members point at or hold, and theirs, each once.
    std::vector<NestedArguments> nestedArguments;
};

/// The parameter of `params` named `name`, or nullptr.
const ParamInfo* parameterNamed(const std::vector<ParamInfo>& params, std::string_view name);

/// One entry point: a non-template kernel, or one [[host_name]] instantiation of a template.
struct KernelInfo {
    std::string hostName;           ///< the name the host asks for
    std::string functionExpression; ///< C++ naming the function: "::add_arrays", "::ns::f<float, 4>"
    std::string frameName;          ///< as a debugger's frame names it: "add_arrays", "f<float, 4>"
    /// [[user_annotation("...")]]: an instantiation's own, else its template definition's;
    /// nullopt when neither has one (MTL::FunctionReflection::userAnnotation is then nil).
    std::optional<std::string> userAnnotation;
    std::string file;               ///< where the kernel is defined, as reported
    int line = 0, column = 0;
    /// A threadgroup_barrier, simdgroup_barrier or SIMD/quad-group collective is reachable.
    bool usesBarriers = false;
    /// The kernel is compiled as a C++20 coroutine that suspends at each barrier (it returns
    /// ::metalcpu_kernel::barrier_task; run_group runs every thread's coroutine through
    /// ::metalcpu_kernel::run_coroutines; there is no run_thread; mc_kernel flags
    /// MC_KERNEL_COROUTINES instead of MC_KERNEL_USES_BARRIERS). Only for kernels that use
    /// barriers or tensor operations, all of them threadgroup_barrier / simdgroup_barrier,
    /// `op.run(...)` and reduce_rows/reduce_columns statements written in the kernel's own body
    /// (not in lambdas, not in functions it calls), and no SIMD/quad-group collective; the
    /// other barrier kernels run one fiber per thread. docs/compiler.md has the exact rules.
    bool usesCoroutines = false;
    /// The kernel is split at its barriers into pieces that each run as a loop over the
    /// group's threads (passes/work_item_loops.h): run_group calls it once per group with
    /// thread 0's builtins, there is no run_thread, and the mc_kernel flags are
    /// MC_KERNEL_WORK_ITEM_LOOPS. Chosen over coroutines when the kernel's barriers sit only in
    /// its body's straight-line code, blocks, loops and ifs (docs/compiler.md has the rules).
    bool usesWorkItemLoops = false;
    /// For a barrier kernel not split into work-item loops (a coroutine, or on fibers):
    /// "file:line:column: why", the first obstacle found; for one reached through a helper,
    /// the kernel's call and, in parentheses, the helper's barrier or collective. Empty for a
    /// kernel that is split, and for an instantiation that reaches no barrier.
    std::string workItemLoopsRefusal;
    /// For a kernel on fibers: "file:line:column" of each `if` before which its SIMD-group's
    /// lanes meet, as if a simdgroup_barrier were written there, because some lanes store to
    /// threadgroup memory that the others may still read (passes/lockstep_points.h); for one
    /// split into work-item loops, of each such `if` its pieces are split for.
    std::vector<std::string> lockstepPoints;
    /// A barrier-free kernel lowered as work-item loops (usesWorkItemLoops) to interleave its
    /// threads: each loop of its body with a uniform header runs once per group and its body
    /// once per thread in each iteration (passes/interleaved_threads.h); mc_kernel flag
    /// MC_KERNEL_INTERLEAVED_THREADS.
    bool interleavesThreads = false;
    /// For such a kernel: how many neighbouring threads run together (lane_block, work_items.h).
    unsigned interleavedLanes = 0;
    /// For a barrier-free kernel with a loop whose header is uniform but whose threads are not
    /// interleaved: "file:line:column: why" (or ": why" with no place). Empty otherwise.
    std::string interleavingRefusal;
    /// An interleaved kernel that runs whole rows of its blocks as vector lanes
    /// (passes/lane_vectors.h); for one that does not, "file:line:column: why".
    bool runsLaneVectors = false;
    std::string laneVectorRefusal;
    /// The kernel's own body has a `for`, `while` or `do` loop: part of its shape, which
    /// decides how its code is generated (emitter/code_generation.h).
    bool loopsInBody = false;
    /// [[max_total_threads_per_threadgroup(n)]]; 0 when absent or not a literal (the generated
    /// mc_kernel then holds the value the host compiler computes).
    std::uint32_t maxTotalThreadsPerThreadgroup = 0;
    std::vector<ParamInfo> params;
    /// Keys of the threadgroup variables declared in the kernel or in functions it calls.
    std::vector<std::uint64_t> threadgroupSites;
};

/// One formatted diagnostic per line (Diagnostic::format()), or "" when there are none.
/// Past `limit` bytes the rest are counted, not shown (a source that is one long macro
/// expansion can make millions).
std::string formatDiagnostics(const std::vector<Diagnostic>& diagnostics, std::size_t limit = SIZE_MAX);

/// The result of translate(). `cpp` is empty when `ok` is false.
struct Translation {
    bool ok = false;
    std::string cpp;
    std::vector<Diagnostic> diagnostics;
    std::vector<KernelInfo> kernels;
    /// The file declares [[function_constant]]s: its libraries carry the translated text so
    /// that the runtime can specialise them (mc_module::specialisation_source).
    bool hasFunctionConstants = false;
    /// The file's vertex and fragment functions, left out of the translation and named in its
    /// module (compiler/render_functions.h).
    std::vector<std::string> renderFunctions;
};

/// Every kernel's entry-point code (its glue, name symbol and table row) sits under
/// `#if METALCPU_SELECTS_KERNEL(<selector>)`, so that a file can be compiled in several
/// processes at once, each building some kernels (METALCPU_IN_PARTITION, jit/kernel_compiler.h).
/// In the shader-validation flavour, and in a file with function constants, so do every
/// kernel's definition and each free function only some kernels reach
/// (passes/kernel_selection.h): compiled with METALCPU_ONLY_KERNEL redefined to one kernel's
/// selector, the file builds only what that kernel reaches, so code whose instrumented form
/// does not compile cannot take other kernels' validation with it (jit/kernel_library.h), and
/// a specialised pipeline compiles its kernel's code only (jit/specialisation.h). The selector is the C++ literal of the 64-bit FNV-1a hash of the
/// host name ("0x0123456789abcdefull"), the one spelling both sides use.
std::string kernelSelector(std::string_view hostName);

/// Every kernel's object defines a symbol that names it ("metalcpu.kernel.<host name>", bytes
/// other than letters, digits and '_' written as $xx): linking two objects that define the
/// same kernel is an error naming both (jit/object_file.h), never a library with two kernels
/// of one name. The symbol is hidden: a library exports nothing by it.
std::string kernelSymbol(std::string_view hostName);
/// The host name a kernelSymbol() encodes; nullopt for any other symbol.
std::optional<std::string> kernelNameOfSymbol(std::string_view symbol);

/// The line by which a translated file includes <metalcpu/kernel_prelude.h>. Only #define
/// lines of what the prelude reads (the file's flavour: math settings, MSL version,
/// validation, tensors) and comments come before it; whatever else the file defines (function
/// constants, embedded texts, the kernel a flavour keeps) comes right after it, replacing the
/// prelude's defaults, so that the prelude can be precompiled once for every file of a flavour
/// (jit/precompiled_prelude.h).
inline constexpr std::string_view kPreludeInclude = "#include <metalcpu/kernel_prelude.h>\n";

/// Translates one preprocessed translation unit (the output of `g++ -E` with metalcpu's stub
/// headers, linemarkers included) into C++ that includes <metalcpu/kernel_prelude.h>, keeps
/// every user token at its original line and column (#line markers), and ends with the
/// trampolines, reflection tables and METALCPU_REGISTER_MODULE of its kernels.
/// Never throws; problems are reported in Translation::diagnostics.
Translation translate(std::string_view preprocessedSource, const TranslateOptions& options);

} // namespace metalcpu::msl
