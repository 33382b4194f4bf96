/* The binary interface between a kernel library (.metallib) and the metalcpu runtime.
 *
 * Included by generated kernel code, which is compiled freestanding (no host headers),
 * and by the runtime. Plain C structs only; any change bumps METALCPU_KERNEL_ABI_VERSION,
 * which the runtime checks when it opens a library. docs/kernel-abi.md explains the flow.
 */
#ifndef METALCPU_KERNEL_ABI_H
#define METALCPU_KERNEL_ABI_H

#define METALCPU_KERNEL_ABI_VERSION 24u /* 16-24: docs/kernel-abi.md, string literals; why a kernel keeps the fibers; threadgroup watch and barrier rounds; sampler mip filter and simdgroup_barrier sites; argument-buffer members and render functions' names; nested argument buffers; buffers' struct types; device accesses watched; user annotations */
/* Device limits the kernel library and the host agree on (Apple7+ and Mac2 families); the
   runtime reports them (MTL::Device) and the front end and executor enforce them. */
#define METALCPU_MAX_BUFFER_BINDINGS 31
#define METALCPU_MAX_THREADGROUP_BINDINGS 31
#define METALCPU_MAX_THREADS_PER_THREADGROUP 1024
#define METALCPU_MAX_THREADGROUP_MEMORY_LENGTH 32768
#define METALCPU_THREADGROUP_SITE_CACHE 16
/* Shader validation: a checked pointer is one 64-bit word holding the address in its low
   48 bits and the tag of the region it came from in the high 16 (docs/validation.md). */
#define METALCPU_REGION_TAG_SHIFT 48
#define METALCPU_REGION_COUNT 65536
/* The region every address is inside, never handed out: the pointer of an argument a false
   function constant removes carries it (it points at zeros of the kernel library's own), so a
   validated kernel reads it unchecked where its value is dead, as a plain one does. */
#define METALCPU_ABSENT_REGION_TAG (METALCPU_REGION_COUNT - 1)
/* SIMD-groups: the widest a dispatch may have, and the most bytes one lane's value takes in
   a collective (two long4s: simd_shuffle_and_fill_* exchanges a pair). */
#define METALCPU_MAX_SIMD_WIDTH 64
#define METALCPU_SIMD_VALUE_BYTES 64

typedef unsigned int mc_u32;
typedef unsigned long long mc_u64;
typedef int mc_i32;
typedef long long mc_i64;

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Textures and samplers (ABI 8) ---------------------------------------------------- */
#define METALCPU_MAX_TEXTURE_BINDINGS 31
#define METALCPU_MAX_SAMPLER_BINDINGS 16
#define METALCPU_MAX_TEXTURE_LEVELS 16

/* How a texel's components are stored; the kernel converts them as MSL specifies. */
enum mc_component_kind {
    MC_COMPONENT_UNORM = 1,
    MC_COMPONENT_SNORM = 2,
    MC_COMPONENT_UINT = 3,
    MC_COMPONENT_SINT = 4,
    MC_COMPONENT_FLOAT = 5,
    MC_COMPONENT_UNORM_SRGB = 6 /* unorm holding sRGB-encoded colour; alpha is linear */
};

/* A texture as kernels see it: the runtime's Texture owns one, stable while it lives. Level
   `l` is max(1, extent >> l) texels in each dimension, stored at `data + level_offsets[l]`
   as array_length slices of depth images of rows, tightly packed unless row_pitch says
   otherwise (a texture over a buffer: one level, one slice). */
typedef struct mc_texture {
    unsigned char* data;
    mc_u32 texture_type; /* MTL::TextureType */
    mc_u32 width, height, depth, array_length, mip_levels;
    mc_u32 component_kind;  /* mc_component_kind */
    mc_u32 component_bytes; /* 1, 2 or 4 */
    mc_u32 channels;        /* 1 to 4 */
    mc_u32 bgra;            /* 1 when memory holds B, G, R, A (BGRA8Unorm) */
    mc_u64 level_offsets[METALCPU_MAX_TEXTURE_LEVELS];
    mc_u64 row_pitch; /* bytes from one row to the next; 0 for tightly packed rows */
} mc_texture;

enum mc_sampler_filter { MC_FILTER_NEAREST = 0, MC_FILTER_LINEAR = 1 };
/* The values of MTL::SamplerMipFilter (ABI 19). */
enum mc_sampler_mip_filter { MC_MIP_FILTER_NONE = 0, MC_MIP_FILTER_NEAREST = 1, MC_MIP_FILTER_LINEAR = 2 };
/* The values of MTL::SamplerAddressMode. */
enum mc_sampler_address {
    MC_ADDRESS_CLAMP_TO_EDGE = 0,
    MC_ADDRESS_MIRROR_CLAMP_TO_EDGE = 1,
    MC_ADDRESS_REPEAT = 2,
    MC_ADDRESS_MIRRORED_REPEAT = 3,
    MC_ADDRESS_CLAMP_TO_ZERO = 4,
    MC_ADDRESS_CLAMP_TO_BORDER_COLOR = 5
};

/* A sampler state: what MTL::SamplerDescriptor says, or a kernel's constexpr sampler. */
typedef struct mc_sampler {
    mc_u32 min_filter, mag_filter; /* mc_sampler_filter */
    mc_u32 address[3];             /* s, t, r: mc_sampler_address */
    mc_u32 normalized_coordinates;
    mc_u32 border_color; /* MTL::SamplerBorderColor */
    /* ABI 19: how sample() picks among mip levels, and the range its level of detail is
       clamped to (lodMinClamp/lodMaxClamp, or a constexpr sampler's lod_clamp). */
    mc_u32 mip_filter; /* mc_sampler_mip_filter */
    float lod_min_clamp, lod_max_clamp;
} mc_sampler;

/* ---- Tensors and GPU families (ABI 9) -------------------------------------------------- */
#define METALCPU_MAX_TENSOR_RANK 16

/* A tensor as kernels see it: what an MTL::Tensor bound at a tensor_handle parameter's index
   describes. Extents and strides are innermost first (dim 0 is contiguous when strides[0] is
   1); strides count elements. The runtime owns it for the dispatch's lifetime. */
typedef struct mc_tensor {
    void* data;
    mc_u64 checked;    /* validated dispatches: data as a checked pointer (tag | address) */
    mc_u32 rank;       /* 1 to METALCPU_MAX_TENSOR_RANK */
    mc_u32 data_type;  /* MTL::TensorDataType */
    mc_i64 extents[METALCPU_MAX_TENSOR_RANK];
    mc_i64 strides[METALCPU_MAX_TENSOR_RANK];
} mc_tensor;

/* The Apple GPU family a device emulates (METALCPU_GPU_FAMILY): MTL::GPUFamilyAppleN. */
enum mc_gpu_family {
    MC_GPU_FAMILY_APPLE7 = 1007,
    MC_GPU_FAMILY_APPLE8 = 1008,
    MC_GPU_FAMILY_APPLE9 = 1009,
    MC_GPU_FAMILY_APPLE10 = 1010
};

/* How a cooperative tensor's elements are divided among the threads of its scope: the
   device-specific, undocumented part of Metal 4 (METALCPU_COOPERATIVE_LAYOUT;
   metalcpu/cooperative_layout.h computes each). */
enum mc_cooperative_layout_kind {
    MC_COOPERATIVE_LAYOUT_APPLE10 = 1,  /* 16x16 fragments, the lane map MLX and PyTorch hard-code */
    MC_COOPERATIVE_LAYOUT_APPLE9 = 2,   /* 8x8 fragments in simdgroup_matrix's lane map */
    MC_COOPERATIVE_LAYOUT_SHUFFLED = 3, /* a keyed permutation (tests) */
    MC_COOPERATIVE_LAYOUT_PADDED = 4    /* shuffled, with invalid slots in every thread (tests) */
};

/* Which operand of an operation a cooperative tensor holds. */
enum mc_cooperative_role {
    MC_COOPERATIVE_DESTINATION = 0,
    MC_COOPERATIVE_LEFT = 1,
    MC_COOPERATIVE_RIGHT = 2,
    MC_COOPERATIVE_ROW_REDUCTION = 3,   /* extents (1, m) of a destination (n, m) */
    MC_COOPERATIVE_COLUMN_REDUCTION = 4 /* extents (n, 1) */
};

/* What every threadgroup of one dispatch shares. */
typedef struct mc_dispatch {
    mc_u32 threads_per_grid[3];        /* [[threads_per_grid]] */
    mc_u32 threadgroups_per_grid[3];   /* [[threadgroups_per_grid]] */
    mc_u32 threads_per_threadgroup[3]; /* as dispatched: [[dispatch_threads_per_threadgroup]] */
    mc_u32 simd_width;                 /* [[threads_per_simdgroup]]: a power of two, 4 to 64 */
    void* buffers[METALCPU_MAX_BUFFER_BINDINGS];         /* bound address: contents + offset */
    mc_u64 buffer_lengths[METALCPU_MAX_BUFFER_BINDINGS]; /* bytes from the bound address to the end */
    /* Validated dispatches only: the bound addresses as checked pointers (tag | address). */
    mc_u64 checked_buffers[METALCPU_MAX_BUFFER_BINDINGS];
    const mc_texture* textures[METALCPU_MAX_TEXTURE_BINDINGS]; /* [[texture(n)]] (ABI 8) */
    const mc_sampler* samplers[METALCPU_MAX_SAMPLER_BINDINGS]; /* [[sampler(n)]] (ABI 8) */
    /* ABI 9: the device's emulated family and cooperative-tensor layout (a tensor_handle
       parameter's buffers[i] points to an mc_tensor). */
    mc_u32 gpu_family;         /* mc_gpu_family */
    mc_u32 cooperative_layout; /* mc_cooperative_layout_kind */
    mc_u64 cooperative_seed;   /* key of the shuffled and padded layouts */
    /* ABI 18: validated dispatches only, the checks beyond Apple's that kernel code takes
       part in (mc_dispatch_checks bits); 0 otherwise. */
    mc_u32 checks;
} mc_dispatch;

enum mc_dispatch_checks {
    MC_CHECK_BARRIERS = 1u /* tell the runtime of barrier rounds some threads missed (barrier_round) */
};

/* One threadgroup being executed. */
typedef struct mc_group {
    const mc_dispatch* dispatch;
    mc_u32 position[3]; /* [[threadgroup_position_in_grid]] */
    mc_u32 size[3];     /* threads in this group, smaller at the edges of dispatchThreads */
    char* threadgroup_arguments[METALCPU_MAX_THREADGROUP_BINDINGS]; /* [[threadgroup(n)]] */
    void* executor;     /* the executor's per-group state; opaque to kernels */
    /* Kernel-side cache of threadgroup variable addresses, so that a declaration reached
       again (in a loop, by the next thread) costs a compare instead of a services call.
       Zeroed by the executor for every group; owned by kernel code after that. */
    mc_u64 threadgroup_site_keys[METALCPU_THREADGROUP_SITE_CACHE];
    void* threadgroup_site_addresses[METALCPU_THREADGROUP_SITE_CACHE];
    /* The linear index of the thread running now: written by the fiber scheduler and by
       run_coroutines in every flavour (cooperative tensors find their thread by it), and by
       work-item loops in validated kernels only (for reports). An unsigned short (groups have
       at most 1024 threads), so that writing it for every thread cannot alias the 32- and
       64-bit fields kernels read (type-based aliasing). */
    unsigned short current_thread;
    /* Kernel-owned, zeroed by the executor: while a kernel split into work-item loops computes
       a SIMD-group function, the values it replays instead of the runtime's rendezvous. */
    void* simd_replay;
} mc_group;

/* Runs every thread of a group, for kernels that never wait at a barrier. */
typedef void (*mc_group_fn)(const mc_group* group);
/* Runs one thread (linear index in the group), for kernels that do; each runs on a fiber. */
typedef void (*mc_thread_fn)(const mc_group* group, mc_u32 thread_index);

enum mc_param_kind {
    MC_PARAM_BUFFER = 1,      /* [[buffer(n)]], explicit or implicit */
    MC_PARAM_THREADGROUP = 2, /* [[threadgroup(n)]] */
    MC_PARAM_BUILTIN = 3,     /* [[thread_position_in_grid]] and friends */
    MC_PARAM_UNSUPPORTED = 4, /* depth textures, acceleration structures, ...: pipeline creation fails */
    MC_PARAM_ABSENT = 5,      /* [[buffer(n), function_constant(c)]] with c false in this library */
    MC_PARAM_TEXTURE = 6,     /* [[texture(n)]] (ABI 8) */
    MC_PARAM_SAMPLER = 7,     /* [[sampler(n)]] (ABI 8) */
    MC_PARAM_TENSOR = 8       /* tensor<T, Extents> (tensor_handle) at buffer index `index` (ABI 9) */
};

enum mc_address_space {
    MC_ADDRESS_SPACE_NONE = 0,
    MC_ADDRESS_SPACE_DEVICE = 1,
    MC_ADDRESS_SPACE_CONSTANT = 2,
    MC_ADDRESS_SPACE_THREADGROUP = 3,
    MC_ADDRESS_SPACE_THREAD = 4
};

enum mc_access { MC_ACCESS_READ_ONLY = 1, MC_ACCESS_WRITE_ONLY = 2, MC_ACCESS_READ_WRITE = 3 };

/* The kernel-input attributes whose values the kernel library computes (kernel_support.h),
   one X(ENUMERATOR, attribute, FrontEndName, uniform) each, `uniform` 1 when every thread of
   a threadgroup sees the same value. The order is the ABI (mc_builtin's values):
   new ones go at the end, after DISPATCH_QUADGROUPS_PER_THREADGROUP (ABI 10). The front end's
   Builtin and its attribute table are made from this list (compiler/translate.h,
   compiler/reflection.cpp). */
#define METALCPU_BUILTINS(X) \
    X(THREAD_POSITION_IN_GRID, thread_position_in_grid, ThreadPositionInGrid, 0)                                     \
    X(THREAD_POSITION_IN_THREADGROUP, thread_position_in_threadgroup, ThreadPositionInThreadgroup, 0)                \
    X(THREAD_INDEX_IN_THREADGROUP, thread_index_in_threadgroup, ThreadIndexInThreadgroup, 0)                         \
    X(THREADGROUP_POSITION_IN_GRID, threadgroup_position_in_grid, ThreadgroupPositionInGrid, 1)                      \
    X(THREADS_PER_THREADGROUP, threads_per_threadgroup, ThreadsPerThreadgroup, 1)                                    \
    X(DISPATCH_THREADS_PER_THREADGROUP, dispatch_threads_per_threadgroup, DispatchThreadsPerThreadgroup, 1)          \
    X(THREADS_PER_GRID, threads_per_grid, ThreadsPerGrid, 1)                                                         \
    X(THREADGROUPS_PER_GRID, threadgroups_per_grid, ThreadgroupsPerGrid, 1)                                          \
    X(THREAD_EXECUTION_WIDTH, thread_execution_width, ThreadExecutionWidth, 1)                                       \
    X(THREADS_PER_SIMDGROUP, threads_per_simdgroup, ThreadsPerSimdgroup, 1)                                          \
    X(THREAD_INDEX_IN_SIMDGROUP, thread_index_in_simdgroup, ThreadIndexInSimdgroup, 0)                               \
    X(SIMDGROUP_INDEX_IN_THREADGROUP, simdgroup_index_in_threadgroup, SimdgroupIndexInThreadgroup, 0)                \
    X(SIMDGROUPS_PER_THREADGROUP, simdgroups_per_threadgroup, SimdgroupsPerThreadgroup, 1)                           \
    X(DISPATCH_SIMDGROUPS_PER_THREADGROUP, dispatch_simdgroups_per_threadgroup, DispatchSimdgroupsPerThreadgroup, 1) \
    X(THREAD_INDEX_IN_QUADGROUP, thread_index_in_quadgroup, ThreadIndexInQuadgroup, 0)                               \
    X(QUADGROUP_INDEX_IN_THREADGROUP, quadgroup_index_in_threadgroup, QuadgroupIndexInThreadgroup, 0)                \
    X(QUADGROUPS_PER_THREADGROUP, quadgroups_per_threadgroup, QuadgroupsPerThreadgroup, 1)                           \
    X(GRID_ORIGIN, grid_origin, GridOrigin, 1)                                                                       \
    X(GRID_SIZE, grid_size, GridSize, 1)                                                                             \
    X(DISPATCH_QUADGROUPS_PER_THREADGROUP, dispatch_quadgroups_per_threadgroup, DispatchQuadgroupsPerThreadgroup, 1)

enum mc_builtin {
    MC_BUILTIN_NONE = 0,
#define METALCPU_BUILTIN_ENUMERATOR(enumerator, attribute, name, uniform) MC_BUILTIN_##enumerator,
    METALCPU_BUILTINS(METALCPU_BUILTIN_ENUMERATOR)
#undef METALCPU_BUILTIN_ENUMERATOR
};

/* One round of a SIMD-group collective, as the calling thread sees it when every live thread
   of its SIMD-group has arrived: the values the threads handed in, one per lane at
   `values + lane * METALCPU_SIMD_VALUE_BYTES`, valid until the caller's next collective. */
typedef struct mc_simd_round {
    const unsigned char* values;
    mc_u64 active; /* bit i: lane i took part (exists and has not returned) */
    mc_u32 lane;   /* the calling thread's lane */
    mc_u32 width;  /* lanes of a SIMD-group (mc_dispatch::simd_width) */
} mc_simd_round;

/* Where a SIMD-group collective is called (ABI 12): the kernel's source position and the
   function, so that lanes at different collectives meet in different rounds. Two sites are
   the same collective when all four fields are equal (`file` by its text). */
typedef struct mc_simd_site {
    const char* file;
    mc_u32 line;
    mc_u32 column;
    const void* kind; /* one address per function and value type */
} mc_simd_site;

/* A call, in kernel code, of a function that can reach a SIMD-group collective (ABI 14): where
   it is, and the call it is made in (null in the kernel's own body). A collective's place is
   its site together with the chain of calls it was reached through, so one helper reached
   from two calls is two collectives, and the order of places is the order of the calls. */
typedef struct mc_simd_call {
    mc_simd_site site;
    const struct mc_simd_call* caller;
} mc_simd_call;

/* ABI 18: a round of a threadgroup barrier that the group's threads did not all reach together
   (METALCPU_SHADER_VALIDATION_CHECKS=barriers): when the round opened, `reached` threads were at
   `site`, the barrier the lowest-numbered waiting thread was at; `elsewhere` waited at other
   barriers (the first of them at `other`); `finished` had returned from the kernel. */
/* The `kind` of a simdgroup_barrier's site: one value for every library, so that the runtime
   tells a SIMD-group barrier from the SIMD-group functions, which may be reached by part of a
   SIMD-group (their `kind`s are addresses). A round of a SIMD-group barrier
   (mc_services::barrier_round) has it as its site's kind, and counts the SIMD-group's threads. */
#define MC_SIMD_BARRIER_KIND ((const void*)1)
/* The `kind` of a lockstep point the front end inserted (compiler/passes/lockstep_points.h):
   a rendezvous like a simdgroup_barrier, which the race check does not count as a SIMD-group
   synchronisation, since the kernel's source has none there. */
#define MC_SIMD_LOCKSTEP_KIND ((const void*)2)

typedef struct mc_barrier_round {
    mc_simd_site site;
    mc_simd_site other;   /* line 0 when elsewhere is 0 */
    mc_u32 threads;       /* in the group */
    mc_u32 reached, elsewhere, finished;
    mc_u32 first_missing; /* linear index in the group of the first thread not at `site` */
} mc_barrier_round;

/* What a member of an argument buffer holds (ABI 20). */
enum mc_argument_kind {
    MC_ARGUMENT_BUFFER = 1,  /* a device or constant pointer: the buffer's gpuAddress() + offset */
    MC_ARGUMENT_TEXTURE = 2, /* a texture: its gpuResourceID() */
    MC_ARGUMENT_SAMPLER = 3, /* a sampler: its gpuResourceID() */
    MC_ARGUMENT_CONSTANT = 4 /* plain data the host writes through ArgumentEncoder::constantData */
};

/* One member of the struct an argument-buffer parameter points at, a struct whose members carry
   [[id(n)]] (ABI 20): where MTL::ArgumentEncoder writes resource `id`. An array member takes
   ids id .. id + array_length - 1, its elements size / array_length bytes apart. */
typedef struct mc_argument {
    const char* name;
    mc_u32 id;
    mc_u32 kind; /* mc_argument_kind */
    mc_u64 offset;
    mc_u64 size;
    mc_u32 array_length; /* 1 for a member that is not an array */
    mc_u32 alignment;
    /* ABI 21: a pointer member (or array of pointers) at another argument-buffer struct: that
       struct's size, alignment and members, for ArgumentEncoder::newArgumentEncoder(id) (else
       0 and null; the aggregate initialisers of other members leave them out). */
    mc_u64 pointee_size;
    mc_u64 pointee_align;
    mc_u32 member_count;
    const struct mc_argument* members;
    /* ABI 22: the member as MTL::StructMember describes it (a row of a buffer's struct type,
       mc_param::members): `data_type` its MTL::DataType (Struct, Array, Pointer, Float4, ...);
       an array's outermost `length`, its elements' `stride` and `element_type`; a pointer's (or
       an array of pointers') `pointee_type` and `access` (mc_access of the pointee), with
       pointee_size and pointee_align above. `members` are then those of the struct the member
       holds, holds an array of, or points at, when the front end could name it, else null. */
    mc_u32 data_type;
    mc_u32 element_type;
    mc_u32 pointee_type;
    mc_u32 length;
    mc_u32 access;
    mc_u64 stride;
} mc_argument;

/* Reflection of one kernel parameter. */
typedef struct mc_param {
    const char* name;      /* as declared; "" when unnamed */
    const char* type_name; /* the declared type as written, e.g. "device const float*" */
    mc_u32 kind;           /* mc_param_kind */
    mc_u32 index;          /* binding index for buffers and threadgroup memory */
    mc_u32 address_space;  /* mc_address_space */
    mc_u32 access;         /* mc_access */
    mc_u32 builtin;        /* mc_builtin, for MC_PARAM_BUILTIN */
    mc_u32 is_reference;   /* 1 for T&, 0 for T* */
    mc_u64 pointee_size;   /* sizeof the pointee (0 for void) */
    mc_u64 pointee_align;
    mc_u32 line, column;   /* where the parameter is declared */
    mc_u32 texture_type;      /* MC_PARAM_TEXTURE: MTL::TextureType (ABI 8) */
    mc_u32 texture_data_type; /* MC_PARAM_TEXTURE: MTL::DataType of the element (ABI 8) */
    mc_u32 tensor_rank;       /* MC_PARAM_TENSOR: the rank of its extents (ABI 9) */
    mc_u32 tensor_data_type;  /* MC_PARAM_TENSOR: MTL::TensorDataType of the element (ABI 9) */
    /* ABI 20: a buffer parameter pointing at an argument-buffer struct: its members (else 0 and
       null; the aggregate initialisers of parameters without them leave them out). */
    mc_u32 argument_count;
    const mc_argument* arguments;
    /* ABI 22: the MTL::DataType of what a buffer parameter points at, and when it is a struct
       the front end could describe (no base class, no bit-field, a name of its own in the file),
       its members (an argument buffer's are `arguments`); else 0 and null. For MC_PARAM_TENSOR,
       pointee_data_type is the MTL::DataType of its extents' index type (0 in libraries made
       before that: the binding's indexType is then DataTypeNone). */
    mc_u32 pointee_data_type;
    mc_u32 member_count;
    const mc_argument* members;
} mc_param;

enum mc_kernel_flags {
    MC_KERNEL_USES_BARRIERS = 1u, /* barriers reachable from helpers: run_thread on fibers */
    MC_KERNEL_COROUTINES = 2u,    /* barriers only in the kernel body: run_group resumes one
                                     coroutine per thread (run_thread is null) */
    MC_KERNEL_WORK_ITEM_LOOPS = 4u, /* barriers only in the body's loops and blocks: run_group
                                       runs the pieces between barriers as loops over the
                                       threads (run_thread is null) */
    /* How the front end had the code generated (ABI 11; only logged, METALCPU_LOG_LEVEL=debug): */
    MC_KERNEL_VECTORISED_THREADS = 8u, /* the loops over the threads run them as SIMD lanes */
    MC_KERNEL_OPTIMISED_O3 = 16u,      /* run_group is compiled at -O3 (the command line's is -O2) */
    MC_KERNEL_NARROW_VECTORS = 32u,    /* run_group's own loops vectorise 128 bits wide at most */
    MC_KERNEL_INTERLEAVED_THREADS = 64u /* with MC_KERNEL_WORK_ITEM_LOOPS: a barrier-free kernel
                                           whose uniform loops run the group's threads together */
};

/* Reflection and entry points of one kernel function. */
typedef struct mc_kernel {
    const char* name; /* host name: the function name, or [[host_name("...")]] */
    const char* file; /* source as reported: "program_source" for strings, else the .metal path */
    mc_u32 line, column;
    mc_u32 flags;                             /* mc_kernel_flags */
    mc_u32 max_total_threads_per_threadgroup; /* [[max_total_threads_per_threadgroup(n)]], 0 if absent */
    mc_u32 param_count;
    const mc_param* params;
    mc_group_fn run_group;
    mc_thread_fn run_thread;
    mc_u32 threadgroup_site_count; /* threadgroup variables declared in or called from the kernel */
    const mc_u64* threadgroup_sites;
    const char* frame_name; /* the function as debuggers name it: "sum<float>" for an instantiation */
    mc_u64 threadgroup_owner; /* ABI 15: the instantiation its body's sites record as their owner, 0 if none */
    /* ABI 17: for a kernel that runs on fibers (MC_KERNEL_USES_BARRIERS), why the front end did
       not split it into work-item loops, "file:line:column: why"; "" otherwise. */
    const char* fibers_reason;
    /* ABI 24: the kernel's [[user_annotation("...")]] (an explicit instantiation's own, else its
       template's), for MTL::FunctionReflection::userAnnotation; null when it has none. */
    const char* user_annotation;
} mc_kernel;

/* A program-scope `constant` variable of the instrumented flavour, or a string literal it keeps
   in a named object (ABI 16, `name` the literal as written: "\"abc\""): shader validation
   accepts addresses inside it that carry no tag (`constant float* p = kTable;`,
   `constant const char* s = "abc";`). */
typedef struct mc_constant_data {
    const void* begin;
    mc_u64 length;
    const char* name;
} mc_constant_data;

enum mc_function_constant_flags {
    MC_FUNCTION_CONSTANT_REQUIRED = 1u, /* never named in is_function_constant_defined() */
    MC_FUNCTION_CONSTANT_DEFINED = 2u   /* this library was compiled with a value for it */
};

/* A program-scope `constant T name [[function_constant(index)]]` (ABI 8). */
typedef struct mc_function_constant {
    const char* name;
    mc_u64 index;
    mc_u32 data_type; /* MTLDataType */
    mc_u32 flags;     /* mc_function_constant_flags */
    mc_u32 kernel_count;
    const char* const* kernels; /* host names of the kernels whose code reaches it; null where a
                                   library compiled for one kernel (METALCPU_ONLY_KERNEL) left one out */
} mc_function_constant;

/* One translated .metal file. */
typedef struct mc_module {
    mc_u32 abi_version;
    mc_u32 kernel_count;
    const mc_kernel* kernels;
    const char* source;
    /* The C++ of the same file translated with shader validation (compiled by the runtime
       the first time a validated pipeline needs it), or null in a validation library. */
    const char* validation_source;
    /* Its program-scope constants (instrumented flavour only; else none). */
    mc_u32 constant_count;
    const mc_constant_data* constants;
    /* The file's function constants, and the translated text the runtime compiles again with
       their values (null in a library already specialised and in a validation library). */
    mc_u32 function_constant_count;
    const mc_function_constant* function_constants;
    const char* specialisation_source;
    /* ABI 20: the names of the file's vertex and fragment functions, which metalcpu does not
       compile; the library names them so that asking for one says so. */
    mc_u32 render_function_count;
    const char* const* render_functions;
} mc_module;

/* Shader validation: the bytes a tagged pointer may touch, [begin, begin + length). Tag 0
   is the empty region of pointers that carry no tag (addresses read from buffers). */
typedef struct mc_region {
    mc_u64 begin;
    mc_u64 length;
} mc_region;

/* Where in the source a checked access is written. */
typedef struct mc_site {
    const char* file;     /* as #line names it: "program_source" or the .metal path */
    const char* function; /* the function containing the access */
    mc_u32 line, column;
} mc_site;

/* MC_OP_ATOMIC (ABI 18) marks the access of an atomic function; MC_OP_AGGREGATE one of a
   struct or array as a whole (its padding may never have been written). Only the watches
   (mc_services::threadgroup_access, device_access) read them. MC_OP_THREADGROUP marks a
   failed check of a threadgroup pointer, for validation_fault alone: an untagged one made from
   nullptr is, as in Metal, an offset into the group's threadgroup memory (a runtime that does
   not know the bit reads such an access as a wild device pointer's, as before). */
enum mc_access_op { MC_OP_LOAD = 1, MC_OP_STORE = 2, MC_OP_ATOMIC = 4, MC_OP_AGGREGATE = 8, MC_OP_THREADGROUP = 16 };
/* threadgroup_barrier_passed's `mem_flags` bit for a SIMD-group synchronisation (not one of
   Metal's mem_flags, which are small). */
#define MC_SIMD_SYNC 0x80000000u

/* The size and alignment of one threadgroup variable: constant data of the library. A
 * variable in a template may have several (one per instantiation). A variable in a kernel
 * template's own body names the kernel instantiation it belongs to (`owner`, the
 * instantiation's mc_kernel::threadgroup_owner), which counts only its own record; any other
 * kernel takes the largest record of the site. An instantiation in which the variable's
 * branch is dead (its `if` condition a constant false there) has no record. */
typedef struct mc_threadgroup_site {
    mc_u64 key;
    mc_u64 size;
    mc_u64 align;
    mc_u64 owner; /* ABI 15: 0 for a variable outside a kernel template's body */
} mc_threadgroup_site;

/* Shader logging (ABI 8): one argument of an os_log message, as printf would receive it. */
enum mc_log_argument_kind {
    MC_LOG_SIGNED = 1,   /* bits: a sign-extended integer */
    MC_LOG_UNSIGNED = 2, /* bits: a zero-extended integer */
    MC_LOG_FLOAT = 3,    /* bits: a double (floats and halves promoted, as for printf) */
    MC_LOG_STRING = 4,   /* bits: the address of a NUL-terminated constant string */
    MC_LOG_POINTER = 5   /* bits: an address, for %p */
};
typedef struct mc_log_argument {
    mc_u32 kind; /* mc_log_argument_kind */
    mc_u64 bits;
} mc_log_argument;

/* ---- Tensor operations (ABI 9) -------------------------------------------------------- */

/* A cooperative tensor's layout: which element each slot of each thread of the scope holds. */
typedef struct mc_cooperative_layout {
    mc_u32 kind;     /* mc_cooperative_layout_kind */
    mc_u32 role;     /* mc_cooperative_role */
    mc_u32 e0, e1;   /* extents of the tile divided (for reductions: the destination's) */
    mc_u32 threads;  /* threads in the scope: 32 x SIMD-groups */
    mc_u32 capacity; /* slots per thread */
    mc_u64 seed;     /* shuffled and padded layouts */
} mc_cooperative_layout;

/* One thread's part of a scope operation: its index in the scope and where its cooperative
   operands' slots are (null for a tensor operand). Slots are in the operand's element type. */
enum { MC_SCOPE_LEFT = 0, MC_SCOPE_RIGHT = 1, MC_SCOPE_DESTINATION = 2, MC_SCOPE_EXTRA = 3 };
typedef struct mc_scope_record {
    mc_u32 thread;           /* index in the scope */
    mc_u32 scope_simdgroups; /* the operation's scope: N of execution_simdgroups<N>, 0 for
                                execution_thread; a kernel built while it was a reserved 0
                                passes 0, and the runtime then does not check the scope) */
    void* storage[4];
} mc_scope_record;

/* Runs a scope's operation once, given the records of every thread of the scope that arrived
   (threads that returned are absent: their input elements read as zero, their outputs drop). */
typedef void (*mc_scope_fn)(void* context, const mc_scope_record* records, mc_u32 count);

enum mc_tensor_operand_kind { MC_OPERAND_NONE = 0, MC_OPERAND_TENSOR = 1, MC_OPERAND_COOPERATIVE = 2 };

/* An operand of a tensor operation, as 2-D (dim 0 innermost). A tensor operand is its data,
   extents and strides (origin applied: data points at element (0, 0)); a cooperative operand
   is its layout, its slots found through the scope records. */
typedef struct mc_tensor_operand {
    mc_u32 kind;      /* mc_tensor_operand_kind */
    mc_u32 data_type; /* MTL::TensorDataType of the elements */
    void* data;
    mc_u64 checked;   /* validated kernels: data as a checked pointer, else 0 */
    mc_i64 extents[2];
    mc_i64 strides[2];
    mc_cooperative_layout layout;
} mc_tensor_operand;

/* matmul2d's run for one scope: destination (n x m tile, dims (n, m)) = or += left (m x k) x
   right (k x n); k < 0 means dynamic (the operands' shorter K extent). */
typedef struct mc_matmul_call {
    mc_i32 m, n, k;
    mc_u32 transpose_left, transpose_right, relaxed_precision, accumulate;
    mc_tensor_operand left, right, destination;
    const mc_scope_record* records;
    mc_u32 record_count;
    const mc_site* site; /* validated kernels: where run is called, else null */
} mc_matmul_call;

enum mc_reduction_op { MC_REDUCE_SUM = 0, MC_REDUCE_MAX = 1, MC_REDUCE_MIN = 2 };

/* reduce_rows / reduce_columns for one scope: destination slot = fold(identity, the valid
   source elements of its row or column). */
typedef struct mc_reduce_call {
    mc_u32 columns;  /* 0: reduce_rows, 1: reduce_columns */
    mc_u32 op;       /* mc_reduction_op */
    double identity; /* in the element type's value */
    mc_tensor_operand source, destination;
    const mc_scope_record* records;
    mc_u32 record_count;
    const mc_site* site; /* validated kernels: where the reduction is called, else null (it
                            touches no memory: kept for reports about the call) */
} mc_reduce_call;

/* What the runtime provides to kernels. */
typedef struct mc_services {
    mc_u32 abi_version;
    /* threadgroup_barrier(): waits for the other threads of the calling thread's group. */
    void (*threadgroup_barrier)(mc_u32 mem_flags);
    /* The calling thread's group (for code that has no group pointer at hand). */
    const mc_group* (*current_group)(void);
    /* The storage of one `threadgroup` variable in `group`, the same for all its threads. */
    void* (*threadgroup_variable)(const mc_group* group, mc_u64 site_key, mc_u64 size, mc_u64 align);
    /* Memory (64-byte aligned) from the calling worker's per-group arena, for coroutine
       frames and the per-thread slots of work-item loop kernels; freed all at once when the
       next group starts. */
    void* (*coroutine_frame)(mc_u64 size);

    /* Shader validation. `regions` is indexed by pointer tag. validation_fault is called for
       an access of `size` bytes at `pointer` + `byte_offset` that is not inside the pointer's
       region: it reports and returns the address to use instead (zero-filled scratch, or the
       real address when the fail mode allows the access and it is safe). */
    const mc_region* regions;
    void* (*validation_fault)(mc_u64 pointer, mc_u64 byte_offset, mc_u64 size, mc_u32 op, const mc_site* site);
    /* A [[threadgroup(n)]] argument and a threadgroup variable as checked pointers. */
    mc_u64 (*checked_threadgroup_argument)(const mc_group* group, mc_u32 index);
    mc_u64 (*checked_threadgroup_variable)(const mc_group* group, mc_u64 site_key, mc_u64 size, mc_u64 align);

    /* SIMD-group collectives (ABI 8; `site` ABI 12): hands in the calling thread's value
       (`size` bytes, at most METALCPU_SIMD_VALUE_BYTES; 0 for simdgroup_barrier), waits until
       every live thread of its SIMD-group has done the same (at this collective or another),
       and describes the round in `round`: the lanes at the same `site` only. Threads that
       have returned count as arrived; the rest of the threadgroup runs on meanwhile. */
    void (*simdgroup_exchange)(const void* value, mc_u32 size, const mc_simd_site* site, mc_simd_round* round);

    /* Shader logging (ABI 8): an os_log message of the calling thread. `level` is an
       MTLLogLevel; the runtime formats `format` with `args` and keeps or drops the message. */
    void (*log_message)(mc_u32 level, const char* subsystem, const char* category, const char* format,
                        const mc_log_argument* args, mc_u32 arg_count);

    /* Tensor operations (ABI 9). scope_call hands in the calling thread's record and waits
       until every live thread of its scope (`simdgroups` consecutive SIMD-groups) has done
       the same; one of them runs fn(context, records, count) meanwhile, with its own context
       (the operation's uniform arguments). Threads that have returned count as arrived. */
    void (*scope_call)(mc_u32 simdgroups, const mc_scope_record* mine, mc_scope_fn fn, void* context);
    /* One matmul2d run over a whole scope, done by the runtime with blocked, vectorised code. */
    void (*tensor_matmul)(const mc_matmul_call* call);
    /* One reduce_rows or reduce_columns over a whole scope. */
    void (*cooperative_reduce)(const mc_reduce_call* call);

    /* Call paths of collectives (ABI 14): makes `innermost` the calling thread's current call
       (the one its next collective is reached through) and returns the one before, which the
       caller restores when the call returns. Outside a group on fibers it does nothing and
       returns null. */
    const mc_simd_call* (*simd_call_path)(const mc_simd_call* innermost);

    /* The threadgroup watch of shader validation's checks beyond Apple's (ABI 18; races,
       uninitialised reads: docs/validation.md). Instrumented kernels read *access_watch
       at each access of threadgroup memory and, only while it is non-zero, call
       threadgroup_access with the object's address (tag | address, as a checked pointer's
       bits), its size and MC_OP_* bits. Kernels split into work-item loops or coroutines,
       whose barriers never reach threadgroup_barrier, call threadgroup_barrier_passed
       instead: for the whole group (`whole_group` 1, work-item loops, once per barrier) or
       for the calling thread (coroutines, as it passes). With MC_SIMD_SYNC in `mem_flags`
       the call tells of a SIMD-group synchronisation instead (a simdgroup_barrier or a SIMD-group
       function passed, in work-item loops, coroutines and fibers alike): it orders the accesses of
       that SIMD-group's threads for the race check, and nothing across SIMD-groups. A runtime
       that ignores the bit takes it for a threadgroup barrier, which only hides races. */
    const mc_u32* access_watch;
    void (*threadgroup_access)(mc_u64 bits, mc_u64 size, mc_u32 op, const mc_site* site);
    void (*threadgroup_barrier_passed)(mc_u32 mem_flags, mc_u32 whole_group);
    /* Barrier rounds (ABI 18). threadgroup_barrier_at is threadgroup_barrier with the barrier's
       site, which validated kernels pass; barrier_round tells the runtime of a round of
       `group` that not all its threads reached at one barrier (kernels split at their
       barriers find those themselves when mc_dispatch::checks has MC_CHECK_BARRIERS). */
    void (*threadgroup_barrier_at)(mc_u32 mem_flags, const mc_simd_site* site);
    void (*barrier_round)(const mc_group* group, const mc_barrier_round* round);
    /* The watch over device memory (ABI 23; the hazard check between dispatches:
       docs/validation.md). While *access_watch is non-zero, instrumented kernels also call
       device_access for each access of device or constant memory through a checked pointer
       they make inside its region: the object's address (tag | address), its size and
       MC_OP_* bits. */
    void (*device_access)(mc_u64 bits, mc_u64 size, mc_u32 op, const mc_site* site);
} mc_services;

/* Exported by every kernel library. Hands the services over and returns the modules and
 * the threadgroup variable sites of the library. */
typedef int (*mc_library_open_fn)(const mc_services* services, const mc_module* const** modules,
                                   mc_u32* module_count, const mc_threadgroup_site** sites,
                                   mc_u32* site_count);
#define METALCPU_LIBRARY_OPEN_SYMBOL "metalcpu_library_open"

#ifdef __cplusplus
}
#endif

#endif /* METALCPU_KERNEL_ABI_H */
