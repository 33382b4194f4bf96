// The dispatches the runtime runs, counted for dispatchCounts() (<metalcpu/Validation.hpp>): a
// test that ran kernels, none of them validated, checked nothing — and
// whyDispatchesWereNotValidated() says what to change.
#pragma once

namespace metalcpu::val {

/// A dispatch is about to run; `validated` when its pipeline has shader validation.
void dispatchExecuted(bool validated);

} // namespace metalcpu::val
