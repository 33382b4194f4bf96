#include "device/sandbox.h"

#include <gtest/gtest.h>
