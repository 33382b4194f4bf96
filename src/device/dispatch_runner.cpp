#include "device/dispatch_runner.h"

#include "device/fault_handler.h"
#include "exec/executor.h"

namespace metalcpu::device {
namespace {

iso::DispatchOutcome run(const std::vector<std::uint8_t>& request, const LibraryTable& libraries) {
    iso::DispatchOutcome outcome;
    std::unique_ptr<iso::ReceivedDispatch> received = iso::decodeDispatch(request);
    if (!received) {
        outcome.result = {false, "the device process received a malformed dispatch"};
        return outcome;
    }
    exec::Dispatch& dispatch = received->dispatch;
    dispatch.tag = received->tag;
    dispatch.kernel = libraries.find(received->library, received->kernel);
    if (!dispatch.kernel) {
        outcome.result = {false, "the device process has no kernel '" + received->kernel + "' in that library"};
        return outcome;
    }
    setThreadActivity(received->tag, dispatch.kernelName.c_str());
    if (received->validation) received->validation->begin(dispatch.parameters, received->commandBufferIndex);
    outcome.result = exec::Executor::shared().run(dispatch);
    if (received->validation) {
        outcome.validated = true;
        outcome.findings = received->validation->collect();
        outcome.pageFaulted = received->validation->pageFaulted();
    }
    if (received->log) {
        outcome.log = received->log->take();
        outcome.logDropped = received->log->dropped();
    }
    setThreadActivity(0, nullptr);
    return outcome;
}

} // namespace

void serveChannel(iso::Channel channel, const LibraryTable& libraries) {
    giveThreadSignalStack();
    std::vector<std::uint8_t> request;
    while (channel.awaitRequest(request)) {
        iso::DispatchOutcome outcome = run(request, libraries);
        std::vector<std::uint8_t> reply = iso::encodeOutcome(outcome);
        if (reply.size() > iso::Channel::kPayloadBytes) {
            // Too much to send back: the log's messages are dropped (and counted) first.
            outcome.logDropped += outcome.log.size();
            outcome.log.clear();
            reply = iso::encodeOutcome(outcome);
        }
        if (reply.size() > iso::Channel::kPayloadBytes) {
            outcome.findings.droppedSites += outcome.findings.reports.size();
            outcome.findings.reports.clear();
            reply = iso::encodeOutcome(outcome);
        }
        channel.reply(reply);
    }
}

} // namespace metalcpu::device
