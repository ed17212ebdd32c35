/* C kernel with mixed scalar parameters and a 12-byte struct by value: it
 * writes every received value into `out` so the test can compare them. */
#include <string.h>

#include <oacl/kernel_qualifiers.h>

struct pair {
    uint32_t a;
    float b;
    int32_t c;
};

/* Layout of `out` (all offsets fixed, see test_oacl_cc.c). */
enum { MIX_N = 0, MIX_SCALE = 4, MIX_TAG = 8, MIX_BIG = 16, MIX_PAIR = 24, MIX_D = 40, MIX_SIZE = 48 };

__global__ __aicore__ void mixed_c(uint8_t *out, uint32_t n, float scale, int8_t tag, uint64_t big,
                                   struct pair p, double d)
{
    memcpy(out + MIX_N, &n, sizeof(n));
    memcpy(out + MIX_SCALE, &scale, sizeof(scale));
    memcpy(out + MIX_TAG, &tag, sizeof(tag));
    memcpy(out + MIX_BIG, &big, sizeof(big));
    memcpy(out + MIX_PAIR, &p, sizeof(p));
    memcpy(out + MIX_D, &d, sizeof(d));
}
