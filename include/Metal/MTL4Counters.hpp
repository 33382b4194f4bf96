// metalcpu: Metal 4 counter heaps, which hold GPU timestamps.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

#include <cstdint>

namespace MTL4 {

enum CounterHeapType : NS::Integer {
    CounterHeapTypeInvalid,
    CounterHeapTypeTimestamp,
};

enum TimestampGranularity : NS::Integer {
    TimestampGranularityRelaxed = 0,
    TimestampGranularityPrecise = 1,
};

// One entry of a resolved timestamp heap.
struct TimestampHeapEntry {
    std::uint64_t timestamp;
} __attribute__((packed));

class CounterHeapDescriptor : public NS::Copying<CounterHeapDescriptor> {
public:
    static CounterHeapDescriptor* alloc();
    CounterHeapDescriptor* init();

    CounterHeapType type() const;
    void setType(CounterHeapType type);
    NS::UInteger count() const;
    void setCount(NS::UInteger count);
};

// A heap of counter entries that encoders write into (writeTimestamp).
class CounterHeap : public NS::Referencing<CounterHeap> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);
    CounterHeapType type() const;
    NS::UInteger count() const;

    NS::Data* resolveCounterRange(NS::Range range);
    void invalidateCounterRange(NS::Range range);
};

} // namespace MTL4
