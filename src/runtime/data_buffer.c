/*
 * Data buffers (aclCreateDataBuffer and friends): a host object pairing an
 * address with a byte size, used by model and operator APIs to pass
 * tensors. It never owns the memory it describes, nothing about the
 * address or size is checked, and no function needs aclInit, a device or
 * a context. There is no registry of live buffers (a double destroy stays
 * undefined, as in CANN): one allocation per tensor is the whole cost.
 */
#include <stdlib.h>

#include "runtime/runtime.h"

struct aclDataBuffer {
    void *data;
    uint64_t length; /* CANN's layout: { void *data; uint64_t length; } */
};

OACL_API aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
    aclDataBuffer *b = malloc(sizeof(*b));
    if (!b) {
        /* 200000 is not a runtime-layer code: the last error stays. */
        oacl_fail(ACL_ERROR_BAD_ALLOC, __func__, "out of host memory for a data buffer");
        return NULL;
    }
    b->data = data;
    b->length = size;
    return b;
}

OACL_API aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
    if (!dataBuffer)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "dataBuffer is NULL");
    free((void *)dataBuffer);
    return ACL_SUCCESS;
}

OACL_API aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)
{
    if (!dataBuffer)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "dataBuffer is NULL");
    dataBuffer->data = data;
    dataBuffer->length = size;
    return ACL_SUCCESS;
}

OACL_API void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
    return dataBuffer ? dataBuffer->data : NULL;
}

/* The deprecated width: the size modulo 2^32. */
OACL_API uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
    return dataBuffer ? (uint32_t)dataBuffer->length : 0;
}

OACL_API size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
    return dataBuffer ? (size_t)dataBuffer->length : 0;
}
