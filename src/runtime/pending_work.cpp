// <metalcpu/Validation.hpp>'s waits for pending work: shader validation's reports arrive when
// command buffers finish, and knowing which have is the runtime's business (in_flight.h).
#include "runtime/in_flight.h"

#include <metalcpu/Validation.hpp>

namespace metalcpu::validation {

void waitForPendingWork() { rt::InFlight::shared().wait(); }

} // namespace metalcpu::validation
