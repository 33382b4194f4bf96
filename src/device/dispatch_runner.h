// A channel's thread in the device process: it takes each dispatch the host sends through
// the channel, runs it on the executor and answers with its outcome.
#pragma once

#include "device/library_table.h"
#include "isolation/channel.h"

namespace metalcpu::device {

/// Serves `channel` until the host closes it.
void serveChannel(iso::Channel channel, const LibraryTable& libraries);

} // namespace metalcpu::device
