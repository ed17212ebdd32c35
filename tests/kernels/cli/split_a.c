/* Sees only the declaration of split_k (the definition is in split_b.c). */
#include "split_kernel.h"

uint32_t split_a_helper(uint32_t v);
uint32_t split_a_helper(uint32_t v) { return v * 2u; }
