// Dispatch data (include/dispatch/dispatch.h): reference-counted bytes, as libdispatch's, for
// Device::newLibrary(dispatch_data_t). Each object owns its bytes (copied) or borrows the
// caller's until the last release hands them to the destructor.
#include <dispatch/dispatch.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

struct dispatch_data_s {
    std::atomic<long> references{1};
    const void* bytes = nullptr;
    size_t size = 0;
    dispatch_block_t destructor = nullptr; ///< for borrowed bytes
    bool owned = false;                    ///< copied, or taken with DESTRUCTOR_FREE: free()d
};

namespace {

void freeBuffer() {}

} // namespace

// A marker, compared by address: "free() the buffer", which a plain function cannot do for
// a buffer it is not given.
extern "C" const dispatch_block_t _dispatch_data_destructor_free = freeBuffer;

extern "C" dispatch_data_t dispatch_data_create(const void* buffer, size_t size, dispatch_queue_t,
                                                dispatch_block_t destructor) {
    auto* data = new (std::nothrow) dispatch_data_s;
    if (!data) return nullptr;
    data->size = buffer ? size : 0;
    if (destructor == DISPATCH_DATA_DESTRUCTOR_DEFAULT && data->size != 0) {
        void* copy = std::malloc(data->size);
        if (!copy) {
            delete data;
            return nullptr;
        }
        std::memcpy(copy, buffer, data->size);
        data->bytes = copy;
        data->owned = true;
    } else {
        data->bytes = buffer;
        data->owned = destructor == DISPATCH_DATA_DESTRUCTOR_FREE;
        data->destructor = data->owned ? nullptr : destructor;
    }
    return data;
}

extern "C" size_t dispatch_data_get_size(dispatch_data_t data) { return data ? data->size : 0; }

extern "C" dispatch_data_t dispatch_data_create_map(dispatch_data_t data, const void** buffer_ptr, size_t* size_ptr) {
    if (buffer_ptr) *buffer_ptr = data ? data->bytes : nullptr;
    if (size_ptr) *size_ptr = data ? data->size : 0;
    if (data) dispatch_retain(data); // its bytes are contiguous already: the map is the data
    return data;
}

extern "C" void dispatch_retain(dispatch_data_t object) {
    if (object) object->references.fetch_add(1, std::memory_order_relaxed);
}

extern "C" void dispatch_release(dispatch_data_t object) {
    if (!object || object->references.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (object->owned)
        std::free(const_cast<void*>(object->bytes));
    else if (object->destructor)
        object->destructor();
    delete object;
}
