/* Two kernels plus a static helper in one source. Exercises parameter-name
 * recovery: a struct pointer named like its tag, `unsigned` alone, a
 * function-pointer parameter, qualifiers, and a kernel declared before it is
 * defined (counted once). */
#include <oacl/kernel_qualifiers.h>

struct scale { uint32_t mul; uint32_t add; };
typedef void (*report_fn)(int v);

__global__ __aicore__ void scale_bytes(const struct scale *scale, unsigned n, uint8_t *restrict out);

static uint8_t oacl_test_apply(const struct scale *s, uint8_t v)
{
    return (uint8_t)(v * s->mul + s->add);
}

__global__ __aicore__ void scale_bytes(const struct scale *scale, unsigned n, uint8_t *restrict out)
{
    for (unsigned i = 0; i < n; i++)
        out[i] = oacl_test_apply(scale, out[i]);
}

/* `cb` is a function pointer written out, `again` one through a typedef,
 * `const volatile int v` a qualified scalar. */
__global__ __aicore__ void call_back(void (*cb)(int v), const volatile int v, report_fn again)
{
    cb(v);
    again(v + 1);
}
