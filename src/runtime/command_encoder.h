#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

namespace metalcpu::rt {

class CommandBuffer;

/// What every encoder shares: the command buffer it records into (retained), its label,
/// and the end of encoding. endEncoding() may be called once; nothing is recorded after
/// it; an encoder released while still open is reported and closed.
///
/// Implementation classes derive from it through ns::Implements<Public, CommandEncoder>.
class CommandEncoder : public ns::ObjectBase {
public:
    /// Opens the encoder on `commandBuffer` (CommandBuffer::mayBeginEncoder() said yes).
    /// `debugClassName` names the class in debug-layer reports, e.g.
    /// "MTLDebugComputeCommandEncoder".
    CommandEncoder(CommandBuffer* commandBuffer, const char* debugClassName);
    ~CommandEncoder() override;

    Label& label() { return label_; }
    CommandBuffer* commandBuffer() const { return commandBuffer_; }
    void endEncoding();
    bool ended() const { return ended_; }
    /// Whether `selector` may still record; false, reported, after endEncoding().
    bool usable(const char* selector);

protected:
    CommandBuffer* commandBuffer_; ///< retained

private:
    const char* debugClassName_;
    bool ended_ = false;
    Label label_;
};

} // namespace metalcpu::rt
