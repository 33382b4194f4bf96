#include "runtime/tensor_copy.h"

#include "runtime/buffer.h"
#include "runtime/commands.h"
#include "runtime/debug_layer.h"

#include <string>

namespace metalcpu::rt {
namespace {

constexpr const char* kSelector =
    "copyFromTensor:sourceOrigin:sourceDimensions:toTensor:destinationOrigin:destinationDimensions:";

/// Why the slice at `origin` of `dimensions` is not one of `tensor`'s ("" when it is), with
/// `side` ("source", "destination") naming it.
std::string sliceProblem(const Tensor& tensor, Tensor::Extents origin, Tensor::Extents dimensions, const char* side) {
    const std::string rank = std::to_string(tensor.rank());
    if (origin.size() != tensor.rank())
        return std::string(side) + "Origin has rank " + std::to_string(origin.size()) + " but the " + side +
               " tensor has rank " + rank + ".";
    if (dimensions.size() != tensor.rank())
        return std::string(side) + "Dimensions has rank " + std::to_string(dimensions.size()) + " but the " + side +
               " tensor has rank " + rank + ".";
    for (std::uint32_t d = 0; d < tensor.rank(); ++d)
        if (origin[d] < 0 || dimensions[d] < 0 || origin[d] + dimensions[d] > tensor.extent(d))
            return std::string("(") + side + "Origin[" + std::to_string(d) + "] + " + side + "Dimensions[" +
                   std::to_string(d) + "])(" + std::to_string(origin[d] + dimensions[d]) + ") must be <= the " + side +
                   " tensor's extent(" + std::to_string(tensor.extent(d)) + ").";
    return {};
}

std::int64_t elementCount(Tensor::Extents dimensions) {
    std::int64_t count = 1;
    for (std::int64_t extent : dimensions) count *= extent;
    return count;
}

/// Walks a slice's elements in order (dimension 0 fastest), giving each one's byte offset in
/// its tensor's buffer.
class SliceWalk {
public:
    SliceWalk(const Tensor& tensor, Tensor::Extents origin, Tensor::Extents dimensions)
        : tensor_(tensor), dimensions_(dimensions), index_(dimensions.size(), 0),
          element_(std::int64_t(Tensor::elementSize(tensor.dataType()))) {
        offset_ = std::int64_t(tensor.bufferOffset());
        for (std::uint32_t d = 0; d < tensor.rank(); ++d) offset_ += origin[d] * tensor.stride(d) * element_;
    }
    std::int64_t offset() const { return offset_; }
    void next() {
        for (std::size_t d = 0; d < index_.size(); ++d) {
            offset_ += tensor_.stride(std::uint32_t(d)) * element_;
            if (++index_[d] < dimensions_[d]) return;
            offset_ -= index_[d] * tensor_.stride(std::uint32_t(d)) * element_;
            index_[d] = 0;
        }
    }

private:
    const Tensor& tensor_;
    Tensor::Extents dimensions_;
    std::vector<std::int64_t> index_;
    std::int64_t element_;
    std::int64_t offset_ = 0;
};

} // namespace

void encodeTensorCopy(CommandSink& sink, const char* debugClassName, const MTL::Tensor* source,
                      Tensor::Extents sourceOrigin, Tensor::Extents sourceDimensions, const MTL::Tensor* destination,
                      Tensor::Extents destinationOrigin, Tensor::Extents destinationDimensions) {
    auto reject = [&](unsigned line, const std::string& message) {
        DebugLayer::report({debugClassName, kSelector, line}, message);
        sink.append(InvalidCommand{std::string("copyFromTensor: ") + message});
    };
    Tensor* from = ns::implOf<Tensor>(source);
    Tensor* to = ns::implOf<Tensor>(destination);
    if (!from) return reject(1310, "sourceTensor must not be nil.");
    if (!to) return reject(1311, "destinationTensor must not be nil.");
    if (from->dataType() != to->dataType())
        return reject(1315, "the source tensor's data type (" + Tensor::dataTypeName(from->dataType()) +
                                ") must be the destination tensor's (" + Tensor::dataTypeName(to->dataType()) + ").");
    if (std::string problem = sliceProblem(*from, sourceOrigin, sourceDimensions, "source"); !problem.empty())
        return reject(1320, problem);
    if (std::string problem = sliceProblem(*to, destinationOrigin, destinationDimensions, "destination");
        !problem.empty())
        return reject(1325, problem);
    const std::int64_t count = elementCount(sourceDimensions);
    if (count != elementCount(destinationDimensions))
        return reject(1330, "sourceDimensions hold " + std::to_string(count) + " elements but destinationDimensions hold " +
                                std::to_string(elementCount(destinationDimensions)) + ".");
    sink.keepAlive(from->asPublicClass());
    sink.keepAlive(to->asPublicClass());
    sink.useBuffer(from->buffer(), false);
    sink.useBuffer(to->buffer(), true);
    // Consecutive elements whose bytes follow each other on both sides make one copy.
    const std::int64_t element = std::int64_t(Tensor::elementSize(from->dataType()));
    SliceWalk read(*from, sourceOrigin, sourceDimensions), write(*to, destinationOrigin, destinationDimensions);
    std::int64_t runFrom = read.offset(), runTo = write.offset(), runBytes = 0;
    for (std::int64_t i = 0; i < count; ++i, read.next(), write.next()) {
        if (runBytes > 0 && read.offset() == runFrom + runBytes && write.offset() == runTo + runBytes) {
            runBytes += element;
            continue;
        }
        if (runBytes > 0)
            sink.append(CopyCommand{from->buffer(), std::uint64_t(runFrom), to->buffer(), std::uint64_t(runTo),
                                    std::uint64_t(runBytes)});
        runFrom = read.offset(), runTo = write.offset(), runBytes = element;
    }
    if (runBytes > 0)
        sink.append(CopyCommand{from->buffer(), std::uint64_t(runFrom), to->buffer(), std::uint64_t(runTo),
                                std::uint64_t(runBytes)});
}

} // namespace metalcpu::rt
