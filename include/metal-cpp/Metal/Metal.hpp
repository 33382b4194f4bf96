// metalcpu: <Metal/Metal.hpp> under the path of Apple's metal-cpp download. Programs that keep
// metal-cpp unzipped beside their sources include "metal-cpp/Metal/Metal.hpp"; when that copy is not
// there (it is Apple's, and programs ship it as a zip or leave it out), the include reaches
// this file, which gives metalcpu's own header (docs/porting.md).
#pragma once

#include "../../Metal/Metal.hpp"
