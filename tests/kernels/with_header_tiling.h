/* Tiling data shared by host and kernel; quote-included from next door. */
#ifndef WITH_HEADER_TILING_H
#define WITH_HEADER_TILING_H
#include <stdint.h>

typedef struct {
    uint32_t total;
    uint32_t tile;
    uint16_t flags;
} tiling_t; /* 12 bytes, alignment 4 */

#define TILING_MAGIC 0x5A
#endif
