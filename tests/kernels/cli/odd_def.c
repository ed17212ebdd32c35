/* Definitions for odd_decl.c and a kernel with unusual parameter
 * declarations: a function-typed parameter (adjusted to a pointer), an
 * attribute, a parenthesised name and a pointer to an array. */
#include <string.h>

#include <oacl/kernel_qualifiers.h>

void odd_unnamed(uint8_t *out, uint32_t v, const double d);
void odd_unnamed(uint8_t *out, uint32_t v, const double d)
{
    memcpy(out, &v, sizeof(v));
    memcpy(out + 8, &d, sizeof(d));
}

__global__ __aicore__ void odd_params(int fn(int), __attribute__((unused)) int ignored,
                                      uint8_t *(out), int32_t (*rows)[2])
{
    int32_t r = fn(rows[1][0]);
    memcpy(out, &r, sizeof(r));
}
