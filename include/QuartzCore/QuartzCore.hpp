// metalcpu: QuartzCore for metal-cpp programs. Compute programs include it out of habit; it
// declares the Metal layer and drawable classes and nothing else.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "CAMetalDrawable.hpp"
#include "CAMetalLayer.hpp"
