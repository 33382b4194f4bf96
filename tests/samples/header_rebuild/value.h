#include "scale.h"

#define VALUE 7
