#include "oacl/kernel_operator.h"
