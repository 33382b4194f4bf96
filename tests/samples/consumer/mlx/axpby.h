#pragma once
#define ALPHA 4
#define BETA 3
