// metalcpu: the part of libdispatch that Metal's host API takes, dispatch data, so that
// `Device::newLibrary(dispatch_data_t, NS::Error**)` (Apple's newLibraryWithData:error:) and the
// code around it build unchanged. Programs embed a .metallib in their binary or read it
// themselves, wrap its bytes with dispatch_data_create() and hand them to Metal.
//
// Debian has no libdispatch package, so this header stands in for <dispatch/dispatch.h>; do not
// mix it with another libdispatch in one program. Queues and blocks are not here: a
// destructor is a plain function (a lambda without captures converts to one), and a queue
// argument is accepted and ignored (the destructor runs in the thread that releases the data).
#pragma once

#include <cstddef>

extern "C" {

typedef struct dispatch_data_s* dispatch_data_t;
typedef struct dispatch_queue_s* dispatch_queue_t;
/// What dispatch_data_create() calls when the data is destroyed (libdispatch takes a block).
typedef void (*dispatch_block_t)(void);

/// Copy the bytes when the data is made; the caller keeps its buffer.
#define DISPATCH_DATA_DESTRUCTOR_DEFAULT nullptr
/// The data takes the buffer, which malloc() made, and free()s it when destroyed.
#define DISPATCH_DATA_DESTRUCTOR_FREE (_dispatch_data_destructor_free)
extern const dispatch_block_t _dispatch_data_destructor_free;

/// Dispatch data over `size` bytes at `buffer`: copied with DISPATCH_DATA_DESTRUCTOR_DEFAULT,
/// else the caller's buffer, which `destructor` gets back when the last reference goes.
/// Its reference count is 1.
dispatch_data_t dispatch_data_create(const void* buffer, size_t size, dispatch_queue_t queue,
                                     dispatch_block_t destructor);
/// The number of bytes; 0 for nullptr.
size_t dispatch_data_get_size(dispatch_data_t data);
/// New data over the same bytes, contiguous, and where they are; the caller releases it.
dispatch_data_t dispatch_data_create_map(dispatch_data_t data, const void** buffer_ptr, size_t* size_ptr);
void dispatch_retain(dispatch_data_t object);
void dispatch_release(dispatch_data_t object);

} // extern "C"
