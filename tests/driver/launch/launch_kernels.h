/* Host wrappers of the kernels in this directory (kernels and their <<<>>>
 * launches, compiled with `oacl-cc -c` and linked into test_launch_link. */
#ifndef LAUNCH_KERNELS_H
#define LAUNCH_KERNELS_H

#include <cstdint>

struct Tiling {
    uint32_t count;
    uint16_t step;
    float bias;
};

int32_t RunFill(uint32_t blocks, void *stream, float *out, float value, uint32_t base);
int RunFillTwiceCaptured(void *stream, float *out);
int RunTemplates(void *stream, float *f, int32_t *i);
int RunSum(void *stream, int32_t *out);
int RunMixed(void *stream, uint8_t *out, Tiling t);
int RunNoParams(void *stream);
int RunNamespaced(void *stream, uint32_t *out);
int RunTrap(void *stream, uint32_t *out);
int RunBadBlocks(void *stream, float *out, long blocks);
int RunConstPointer(void *stream, const uint32_t *in, uint32_t *out);
int RunOtherTu(void *stream, uint32_t *out);
int RunFromOtherTu(void *stream, uint32_t *out);

#endif
