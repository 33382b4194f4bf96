// Found through metal_add_library(INCLUDE_DIRECTORIES include).
#pragma once
#define OFFSET 1000
