// Internal to the work-item loop pass (work_item_loops.h): the planner, which walks one kernel's
// body and decides what runs per thread and what once per group. work_item_loops.cpp holds the
// entry points and the walk over the statements, work_item_names.cpp what names refer to,
// work_item_variables.cpp the per-thread variables and group declarations, and
// work_item_statements.cpp the loops, ifs and SIMD-group function statements that split pieces.
#pragma once

#include "compiler/passes/lockstep_points.h"
#include "compiler/passes/work_item_loops.h"
#include "compiler/signature.h"
#include "compiler/statements.h"
#include "compiler/unit.h"

#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl::work_items {

inline bool contains(const TokenRange& r, std::size_t i) { return i >= r.begin && i < r.end; }

/// Plans the restructuring of one kernel; `ok` turns false at the first thing it cannot do.
class Planner {
public:
    Planner(const Unit& unit, const FunctionDecl& f, const CoroutineKernel& coroutine,
            const std::vector<ThreadgroupDeclaration>& threadgroupVariables, const std::vector<ParamInfo>& params,
            const std::set<std::string>& namespaceVariables, const std::set<std::string>& fileTypes);

    /// Why the kernel cannot be split, and where: the first reason found.
    const WorkItemRefusal& refusal() const { return refusal_; }

    /// For a barrier-free kernel whose threads are interleaved: the keywords of its uniform
    /// loops, which are split points as a loop holding a barrier is (planInterleavedKernel()).
    void setUniformLoops(const std::vector<std::size_t>& loops) { uniformLoops_ = {loops.begin(), loops.end()}; }

    /// Whether to split pieces where a SIMD-group's lanes must be in lockstep (lockstepAt()).
    void keepLockstep(bool keep) { keepLockstep_ = keep; }

    /// After plan(): whether the kernel has places where it would split for lockstep.
    bool splitsForLockstep() const { return !lockstep_.ifs.empty(); }

    /// Fills in `out`; false (and refusal() says why) when the kernel cannot be split.
    bool plan(WorkItemKernel& out);

private:
    /// What a name written in the body refers to, innermost scope last.
    struct Visible {
        std::string name;
        enum class Kind { Group, LoopVariable, PerThread } kind;
        std::size_t variable = 0; ///< WorkItemKernel::variables, for PerThread
    };

    /// What a statement of a block that holds barriers becomes.
    enum class Role {
        Piece,            ///< runs per thread, in the piece with its neighbours
        Skip,             ///< an empty statement
        Barrier,          ///< erased: the pieces around it are the synchronisation
        Collective,       ///< a SIMD-group function as a whole statement: a region of its own
        GroupDeclaration, ///< a declaration that is the same for every thread: runs once
        Block,            ///< a `{}` block holding barriers: its statements, block by block
        GroupStatement,   ///< a loop or an if holding barriers: runs once per group
        DivergentIf,      ///< an if on a per-thread condition holding no threadgroup barrier: guarded pieces
        DivergentLoop,    ///< a loop whose header differs per thread, holding no threadgroup barrier: the same
    };

    /// An interleaved kernel's uniform loops (passes/interleaved_threads.h) are uniform by
    /// their own analysis.
    bool inUniformLoopHeader(const Statement& s) const { return uniformLoops_.count(s.keyword) != 0; }

    /// Whether the name at `i` is assigned, incremented or decremented, or its address taken
    /// there, or with ObjectParts::All one of its parts (`v.x = 0`, `&a[1]`).
    bool modified(std::size_t i, ObjectParts parts) const { return unit_.useOf(i, i, parts).kind != UseKind::Read; }

    // -- The walk over the body's statements, and what each becomes (work_item_loops.cpp) ---------

    bool isBarrierStatement(const Statement& s) const;

    bool holdsBarrierCall(const Statement& s) const;

    /// Whether `s` holds a threadgroup_barrier, which its whole group must reach; a statement
    /// holding only simdgroup_barriers (and SIMD-group functions) need be uniform only across
    /// each SIMD-group.
    bool holdsThreadgroupBarrier(const Statement& s) const;

    /// A barrier or a SIMD-group function statement, or an interleaved kernel's uniform loop:
    /// a split point.
    bool holdsBarrier(const Statement& s) const;

    /// The SIMD-group function statement `s` is, or kNoCollective.
    std::size_t collectiveAt(const Statement& s) const;

    const ThreadgroupDeclaration* threadgroupDeclaration(const Statement& s) const;

    /// Where the lanes of a SIMD-group must be in lockstep: the pieces run thread after thread
    /// (lockstepSplit(), passes/lockstep_points.h). `run`: the piece's statements before `s`.
    LockstepSplit lockstepAt(const Statement& s, const std::vector<const Statement*>& run) const;

    /// The lockstep `if`s at or in `s`, which split: WorkItemKernel::lockstepSplits.
    void noteLockstep(const Statement& s);

    Role role(const Statement& s, LockstepSplit lockstep, const std::vector<std::string>& pieceNames) const;

    /// The names a piece's top-level statement declares.
    void declaredNames(const Statement& s, std::vector<std::string>& names) const;

    void block(const std::vector<Statement>& statements, std::size_t close);

    bool jumpsOut(const Statement& s, bool breakStays, bool continueStays) const;

    // -- What names refer to, and whether a piece may write them (work_item_names.cpp) ------------

    const Visible* lookUp(const std::string& name) const;

    const ParamInfo* parameter(const std::string& name, std::size_t* index = nullptr) const;

    /// The group's threads share the kernel function's parameters: one the body writes itself
    /// (assigned, incremented, its address taken, passed where a non-const reference may bind
    /// it, bound to a reference) gets a slot per thread, as a variable declared at the top of
    /// the body would (passes/written_parameters.h). A pointer's elements and a reference's
    /// object are memory, which the threads share on a GPU too.
    bool checkParameters();

    /// Whether parameter `p`, named at `i`, is written there itself: a builtin through its
    /// lanes too (`lid.x = 0`), a pointer not through its elements (`in[k] = 0` writes memory).
    bool writesParameter(std::size_t i, const ParamInfo& p) const;

    /// Whether an identifier in a declaration that would run once per group refers to
    /// something that differs per thread (a parameter, a per-thread variable, a name the
    /// current piece declares).
    /// With `uniformParameters`, parameters other than per-thread builtins (buffers, uniform
    /// builtins) do not count: what a condition names.
    bool namesThreadState(std::size_t begin, std::size_t end, const std::vector<std::string>& pieceNames,
                          bool uniformParameters = false) const;

    /// Whether evaluating tokens `range` can fault or act (a division or remainder, an index, a
    /// dereference, `->`, a call): what must not run once per group for a branch that no thread
    /// may take. (`*p` and `p->m` read memory exactly as `p[0]` does.)
    bool mayFault(TokenRange range) const;

    /// Whether tokens [begin, end) can only be a constant: literals, operators and names of
    /// constants the group already has or the file declares at namespace scope; no call, no
    /// `&`, no assignment or increment. (A const initialised by a call, an atomic say, must
    /// run in every thread.)
    bool isConstantInitializer(std::size_t begin, std::size_t end) const;

    bool callsIn(TokenRange range) const;

    /// Whether variable `variable` is a const whose initializer names nothing that differs per
    /// thread (`const int n_t = args.n_seq_tokens;`): its value is the group's. With
    /// `perSimdgroup`, simdgroup_index_in_threadgroup counts as uniform too: its value is then
    /// the SIMD-group's (`const int first_row = (tgpig.x * nsg + sgitg) * nr0;`).
    bool uniformConstant(std::size_t variable, int depth, bool perSimdgroup = false) const;

    /// Whether an address into `name` is taken anywhere after `from` in the body: a unary `&`
    /// before it (`&name`, `&name[i]`, `&name.f()`) or before parentheses around it.
    bool addressTaken(const std::string& name, std::size_t from) const;

    /// Whether the variable named at `i` may be written there or later through what it is
    /// bound to: an assignment or an increment, its address, a call argument the callee may
    /// bind to a non-const reference, a member function, or the initializer of a reference.
    bool mayWrite(std::size_t i) const;

    /// Whether the argument at `i` (a name by itself) may be bound to a reference the callee
    /// writes through. A callable or type the body declares (a lambda, say) decides nothing
    /// by its name: yes.
    bool mayBindWritableReference(std::size_t i) const;

    bool namedIn(const std::string& name, std::size_t begin, std::size_t end) const;

    /// The per-thread variables (loads) and builtins a region names, and its guards; false
    /// (and ok_ false) when it may write a loop variable of a loop that runs once per group.
    bool scanNames(WorkItemRegion& r);

    // -- Per-thread variables, and declarations that run once per group (work_item_variables.cpp) ---

    /// Declarations the same for every thread: threadgroup variables, constexpr variables,
    /// types, static_assert, and const variables initialised from nothing thread-specific
    /// (`const uint kTile = 16;`), which later declarations may need as constants.
    bool isGroupDeclaration(const Statement& s, const std::vector<std::string>& pieceNames) const;

    void groupDeclaration(const Statement& s);

    /// A statement that may declare something parseDeclaration() does not read: its names
    /// could not be followed across barriers.
    bool mayDeclareUnknown(const Statement& s) const;

    /// A per-thread variable: a written type that can have slots, and an initializer that can
    /// be read as one (`T x()` declares a function). The slots are made at the top of the body,
    /// so the type may not name anything the body declares (a local type, a constexpr bound);
    /// with `bodyLevel` (the declaration is a statement of the body's own block) it may name a
    /// constant the group declared before, and `late` says the slots are made just before the
    /// declaring piece instead.
    bool canHaveSlots(const DeclaratorParts& parts, bool bodyLevel, bool& late) const;

    /// How many elements the braced initializer of an array declarator lists (`= {a, b, c}` or
    /// `{a, b, c}`: 3), or 0 when that is not plain to count: designators, or for an array of
    /// arrays an element whose braces are elided.
    std::size_t initializerElements(const DeclaratorParts& parts) const;

    /// A const after the last `*`, or anywhere when there is none.
    bool isTopLevelConst(const DeclaratorParts& parts) const;

    void region(const std::vector<const Statement*>& run, std::size_t close);

    // -- Loops and ifs that run once per group, SIMD-group function statements
    //    (work_item_statements.cpp) -------------------------------------------------------------

    /// The header of a loop or if that runs once per group may read per-thread variables in
    /// its condition (the first live thread's value: the condition is uniform, as Metal
    /// requires), but not set up its own variables from them, and may not name builtins that
    /// differ per thread (`for (uint i = lid; ...)`: every thread has its own `i`).
    bool checkHeaderPart(std::size_t begin, std::size_t end, bool readsAllowed);

    /// A loop that holds SIMD-group functions or simdgroup_barriers but no threadgroup barrier
    /// need only be uniform across each SIMD-group, as Metal requires of them, not across the
    /// group: a condition that reads a per-thread variable (llama.cpp's `first_row + row <
    /// args.ne0`, per SIMD-group) cannot run once per group on the first thread's value. Fails
    /// and says so when `header` reads one.
    bool readsPerThreadVariable(TokenRange header);

    /// Where, in statement `s` (part of a block that ends at `blockEnd`), a declaration hides
    /// one of `names`: from the declarator to the end of its block, or, declared in a
    /// for/if/while/switch header, to the end of that statement. A name there is the inner
    /// variable (MLX's sdpa_vector declares an `int i` in loops inside its key loop over `i`).
    void hidingScopes(const Statement& s, std::size_t blockEnd, const std::vector<std::string>& names,
                      std::vector<TokenRange>& scopes) const;

    /// The top-level `;` of a header between `begin` and `end`, or `end`.
    std::size_t headerSemicolon(std::size_t begin, std::size_t end) const;

    /// Whether header tokens [begin, end) declare a variable (`uint n = c`).
    bool declaresVariable(std::size_t begin, std::size_t end) const;

    /// A loop or an `if` holding barriers: it runs once per group, its blocks block by block.
    void groupStatement(const Statement& s);

    /// An `if` whose condition differs per thread, with `{}` branches holding SIMD-group
    /// function statements or simdgroup_barriers and no threadgroup barrier (`if (sg == 0)`,
    /// uniform per SIMD-group only): a region evaluates the condition once per thread
    /// into the guard's slot, and every piece of the branches runs for the threads that take
    /// them. The condition may neither declare nor write anything: it runs once, before the
    /// branch's pieces.
    void divergentIf(const Statement& s);

    /// A `for` or `while` loop with a `{}` body holding SIMD-group function statements or
    /// simdgroup_barriers and no threadgroup barrier, whose header differs per thread
    /// (`for (int i = simd_gid; i < n; i += nsg)`, MLX's sdpa_vector): Metal asks it to be
    /// uniform only across each SIMD-group. The init-statement runs per thread (its variables
    /// are per-thread ones), then the loop runs once per group while some thread goes on: each
    /// round a region runs the increment (after the first round) and the condition per thread
    /// into the guard's slot, and the body's pieces run for the threads whose guard holds, so
    /// a SIMD-group function covers the lanes of each SIMD-group still in the loop. A header
    /// that is the group's after all (it reads only uniform constants) goes to
    /// groupStatement(). Fails, saying why, when the header may differ within a SIMD-group
    /// (simdUniform()) or the loop's shape is not one the rewrite writes.
    void divergentLoop(const Statement& s);

    /// Whether the names of header part `range` have one value across each SIMD-group: group
    /// state, the builtins uniform per group and simdgroup_index_in_threadgroup, per-thread
    /// variables that are such consts (uniformConstant() per SIMD-group), and `own` (the loop's
    /// variables, which only its header writes). Fails, saying why, when not.
    bool simdUniform(TokenRange range, const std::vector<std::string>& own);

    /// The first name in `range` that simdUniform() does not accept, or kNoToken.
    std::size_t nonUniformName(TokenRange range, const std::vector<std::string>& own) const;

    /// A statement of a piece in a divergent loop's body that breaks out of the loop: the
    /// breaks (in `r`) and whether each `if` around one has a condition uniform across each
    /// SIMD-group, reading besides what simdUniform() accepts only variables the piece's
    /// statements `before` it declare from such values and never write (llama.cpp's
    /// `int ic = ic0*C; if (ic >= args.ne11) break;`). Fails, saying why, when not.
    bool loopBreaks(const Statement& s, const std::vector<const Statement*>& before, WorkItemRegion& r);

    /// Whether header part `range` reads anything that differs per thread: a per-thread
    /// builtin, or a per-thread variable that is not a uniformConstant().
    bool readsThreadState(TokenRange range) const;

    /// A SIMD-group function statement: a region of its own whose arguments are evaluated in a
    /// first loop over the threads. Arguments that write anything (`simd_sum(x++)`) are not
    /// split: the second loop does not evaluate them again.
    void collective(const Statement& s, std::size_t close);

    // -- State ---------------------------------------------------------------------------------

    const Unit& unit_;
    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    const FunctionDecl& f_;
    const CoroutineKernel& coroutine_;
    const std::vector<ParamInfo>& params_;
    std::vector<const ThreadgroupDeclaration*> threadgroupStatements_;
    const std::set<std::string>& namespaceVariables_;
    const std::set<std::string>& fileTypes_; ///< types declared anywhere in the file
    // Types declared in the body: a per-thread variable of such a type cannot get its slots
    // before the type exists.
    std::set<std::string> localTypes_;
    std::vector<Visible> visible_;
    TokenRange collectiveArguments_; ///< while planning a SIMD-group function statement
    std::vector<WorkItemGuard> guards_; ///< of the divergent ifs around the statements planned
    std::set<std::size_t> uniformLoops_; ///< setUniformLoops()
    bool keepLockstep_ = true;           ///< keepLockstep()
    LockstepIfs lockstep_;               ///< found by plan() unless interleaved
    bool inUniformLoop_ = false;         ///< planning the body of one of them
    /// Planning the body of a divergent loop, not inside a loop or switch within it: its guard
    /// (a `break` in a piece leaves it), and its own variables; else WorkItemRegion::kNoGuard.
    std::size_t loopGuard_ = WorkItemRegion::kNoGuard;
    std::vector<std::string> loopVariables_;
    WorkItemKernel* out_ = nullptr;
    bool ok_ = true;
    WorkItemRefusal refusal_;

    /// Planning stops at the first thing it cannot do; that one is the reason given.
    void fail(std::size_t at, std::string reason) {
        if (ok_) refusal_ = {coroutine_.function, at, std::move(reason)};
        ok_ = false;
    }
    std::string quoted(std::size_t i) const { return "'" + tokens_[i].spelling + "'"; }
};

} // namespace metalcpu::msl::work_items
