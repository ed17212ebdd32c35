/*
 * Shared buffers (mbufs: aclrtAllocBuf and friends). An mbuf is a handle
 * over { data area (shared, reference-counted), data length, 256-byte
 * private user area of which 96 bytes are exposed, next in chain }.
 *
 * CANN forwards these functions to the driver's mbuf pools; here the data
 * area is runtime host memory from the backend (usable by copies and
 * kernels without a context), 64-byte aligned and zero-filled, recorded
 * in the address registry as OACL_MEM_MBUF (host memory for pointer
 * queries, not counted as device memory) and belonging to no device.
 *
 * Chains (decisions where the driver's behaviour is undocumented): only a
 * chain's first mbuf may be freed (it frees the whole chain) or be the
 * head of an append; queries accept any mbuf and count from it; a chain
 * holds at most 128 mbufs. Stale handles are 107017. No function needs
 * aclInit or a context. g_lock protects chain links and frees; different
 * mbufs may be used from different threads; concurrent modification of
 * one chain is the application's business.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/addr_registry.h"
#include "runtime/runtime.h"

#define MBUF_MAX_SIZE (1ull << 32) /* 4 GiB */
#define MBUF_USER_AREA 256u        /* the driver's private area */
#define MBUF_USER_API 96u          /* what the API exposes */
#define MBUF_CHAIN_MAX 128u

struct mbuf_data {
    uint32_t refs; /* atomic: mbufs referring to it */
    void *ptr;
    size_t size; /* requested */
    struct oacl_mem_record *rec;
};

struct mbuf {
    struct oacl_obj obj;
    struct mbuf_data *data;
    size_t data_len; /* atomic */
    unsigned char user[MBUF_USER_AREA];
    struct mbuf *next; /* g_lock */
    bool has_pred;     /* g_lock: a non-first member of a chain */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t page_round(size_t n)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    return (n + ps - 1) & ~(ps - 1);
}

static aclError data_alloc(size_t size, struct mbuf_data **out, const char *fn)
{
    struct mbuf_data *d = calloc(1, sizeof(*d));
    struct oacl_mem_record *r = calloc(1, sizeof(*r));
    if (!d || !r) {
        free(d);
        free(r);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of host memory for an mbuf");
    }
    char err[OACL_BACKEND_ERRLEN] = "";
    void *p = NULL;
    bool locked = false;
    /* No device: the area belongs to none. Fresh pages are zero and
       page-aligned (hence 64-byte aligned). */
    int brc = oacl_backend()->host_alloc(NULL, size, &p, &locked, err);
    if (brc) {
        free(d);
        free(r);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "cannot allocate %zu bytes for an mbuf: %s", size, err);
    }
    r->base = (uintptr_t)p;
    r->size = page_round(size);
    r->user_size = size;
    r->kind = OACL_MEM_MBUF;
    r->device = -1;
    r->locked = locked;
    oacl_registry_wrlock();
    int ins = oacl_registry_insert_locked(OACL_SPACE_ALLOC, r);
    oacl_registry_unlock();
    if (ins) {
        oacl_backend()->host_free(p, size);
        free(d);
        free(r);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "cannot record the mbuf's data area");
    }
    d->refs = 1;
    d->ptr = p;
    d->size = size;
    d->rec = r;
    *out = d;
    return ACL_SUCCESS;
}

static void data_put(struct mbuf_data *d)
{
    if (__atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    oacl_registry_wrlock();
    oacl_registry_remove_locked(OACL_SPACE_ALLOC, (uintptr_t)d->ptr);
    /* Unmapped under the lock, as aclrtFreeHost does: nothing may find a
       record of memory that is half gone. */
    oacl_backend()->host_free(d->ptr, d->size);
    oacl_registry_unlock();
    free(d->rec);
    free(d);
}

static void mbuf_destroy(struct oacl_obj *o)
{
    struct mbuf *m = (struct mbuf *)o;
    data_put(m->data);
    free(m);
}

/* A new mbuf over d (takes over one reference of d); *handle on success. */
static aclError mbuf_new(struct mbuf_data *d, size_t data_len, const unsigned char *user, aclrtMbuf *handle,
                         const char *fn)
{
    struct mbuf *m = calloc(1, sizeof(*m));
    if (!m) {
        data_put(d);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of host memory for an mbuf");
    }
    m->data = d;
    m->data_len = data_len;
    if (user)
        memcpy(m->user, user, sizeof(m->user));
    void *h = oacl_handle_create(&m->obj, OACL_H_MBUF, mbuf_destroy);
    if (!h) {
        data_put(d);
        free(m);
        return oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "handle table exhausted");
    }
    *handle = h;
    return ACL_SUCCESS;
}

/* The mbuf behind a handle argument (+1 reference), or 107017. */
static aclError mbuf_arg(const void *h, const char *name, struct mbuf **out, const char *fn)
{
    struct oacl_obj *o = oacl_handle_get(h, OACL_H_MBUF);
    if (!o)
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, fn, "%s %p is not a live mbuf (freed, or never allocated)",
                         name, h);
    *out = (struct mbuf *)o;
    return ACL_SUCCESS;
}

static void mbuf_put(struct mbuf *m) { oacl_obj_put(&m->obj); }

/* Mbufs from m to the end of its chain (g_lock held). */
static uint32_t chain_len_locked(const struct mbuf *m)
{
    uint32_t n = 0;
    for (; m; m = m->next)
        n++;
    return n;
}

OACL_API aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size)
{
    if (!buf)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "buf is NULL");
    if (size == 0)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "size is 0");
    if (size > MBUF_MAX_SIZE)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "size %zu exceeds the mbuf limit of 4 GiB", size);
    struct mbuf_data *d = NULL;
    aclError rc = data_alloc(size, &d, __func__);
    if (rc)
        return rc;
    aclrtMbuf h = NULL;
    rc = mbuf_new(d, 0, NULL, &h, __func__);
    if (rc == ACL_SUCCESS)
        *buf = h;
    return rc;
}

OACL_API aclError aclrtFreeBuf(aclrtMbuf buf)
{
    if (!buf)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "buf is NULL");
    struct mbuf *m = NULL;
    aclError rc = mbuf_arg(buf, "buf", &m, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&g_lock);
    if (m->has_pred) {
        pthread_mutex_unlock(&g_lock);
        mbuf_put(m);
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                         "buf %p is a member of a chain; free the chain's first mbuf instead", buf);
    }
    /* Retiring under the lock: a concurrent free of the same chain finds
       the handles stale (107017) and nothing is released twice. */
    if (!oacl_obj_retire(&m->obj)) {
        pthread_mutex_unlock(&g_lock);
        mbuf_put(m);
        return oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "buf %p was freed meanwhile", buf);
    }
    struct mbuf *next = m->next;
    m->next = NULL;
    while (next) {
        struct mbuf *n = next->next;
        next->next = NULL;
        next->has_pred = false;
        oacl_obj_retire(&next->obj);
        next = n;
    }
    pthread_mutex_unlock(&g_lock);
    mbuf_put(m);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetBufData(const aclrtMbuf buf, void **dataPtr, size_t *size)
{
    if (!buf || !dataPtr || !size)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !buf ? "buf" : !dataPtr ? "dataPtr" : "size");
    struct mbuf *m = NULL;
    aclError rc = mbuf_arg(buf, "buf", &m, __func__);
    if (rc)
        return rc;
    *dataPtr = m->data->ptr;
    *size = m->data->size;
    mbuf_put(m);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len)
{
    if (!buf || !len)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !buf ? "buf" : "len");
    struct mbuf *m = NULL;
    aclError rc = mbuf_arg(buf, "buf", &m, __func__);
    if (rc)
        return rc;
    *len = __atomic_load_n(&m->data_len, __ATOMIC_ACQUIRE);
    mbuf_put(m);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len)
{
    if (!buf)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "buf is NULL");
    struct mbuf *m = NULL;
    aclError rc = mbuf_arg(buf, "buf", &m, __func__);
    if (rc)
        return rc;
    /* len == capacity is accepted: filling a buffer completely is normal. */
    if (len > m->data->size)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "len %zu exceeds the data area of %zu bytes", len,
                       m->data->size);
    else
        __atomic_store_n(&m->data_len, len, __ATOMIC_RELEASE);
    mbuf_put(m);
    return rc;
}

/* CANN's order: the 96-byte range first (before any NULL check). */
static aclError user_range(size_t size, size_t offset, const char *fn)
{
    if (size > MBUF_USER_API || offset > MBUF_USER_API - size)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn,
                         "offset %zu + size %zu runs past the %u bytes of user data", offset, size, MBUF_USER_API);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetBufUserData(const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset)
{
    aclError rc = user_range(size, offset, __func__);
    if (rc)
        return rc;
    if (!buf || !dataPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !buf ? "buf" : "dataPtr");
    struct mbuf *m = NULL;
    rc = mbuf_arg(buf, "buf", &m, __func__);
    if (rc)
        return rc;
    /* CANN's bounded copy rejects a 0-byte destination. */
    if (size == 0)
        rc = oacl_fail(ACL_ERROR_FAILURE, __func__, "size is 0 (nothing can be copied into a 0-byte buffer)");
    else
        memcpy(dataPtr, m->user + offset, size);
    mbuf_put(m);
    return rc;
}

OACL_API aclError aclrtSetBufUserData(aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset)
{
    aclError rc = user_range(size, offset, __func__);
    if (rc)
        return rc;
    if (!buf || !dataPtr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !buf ? "buf" : "dataPtr");
    struct mbuf *m = NULL;
    rc = mbuf_arg(buf, "buf", &m, __func__);
    if (rc)
        return rc;
    if (size)
        memcpy(m->user + offset, dataPtr, size);
    mbuf_put(m);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf *newBuf)
{
    if (!buf || !newBuf)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !buf ? "buf" : "newBuf");
    struct mbuf *m = NULL;
    aclError rc = mbuf_arg(buf, "buf", &m, __func__);
    if (rc)
        return rc;
    /* Same data area; own copy of the length and the user area; no chain. */
    __atomic_add_fetch(&m->data->refs, 1, __ATOMIC_RELAXED);
    aclrtMbuf h = NULL;
    rc = mbuf_new(m->data, __atomic_load_n(&m->data_len, __ATOMIC_ACQUIRE), m->user, &h, __func__);
    mbuf_put(m);
    if (rc == ACL_SUCCESS)
        *newBuf = h;
    return rc;
}

OACL_API aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf)
{
    if (!headBuf || !buf)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !headBuf ? "headBuf" : "buf");
    struct mbuf *head = NULL, *m = NULL;
    aclError rc = mbuf_arg(headBuf, "headBuf", &head, __func__);
    if (rc)
        return rc;
    rc = mbuf_arg(buf, "buf", &m, __func__);
    if (rc) {
        mbuf_put(head);
        return rc;
    }
    pthread_mutex_lock(&g_lock);
    if (head == m) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "buf and headBuf are the same mbuf %p", buf);
    } else if (head->has_pred) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                       "headBuf %p is a member of a chain, not its first mbuf", headBuf);
    } else if (m->has_pred) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "buf %p is already a member of a chain", buf);
    } else if (!head->obj.handle || !m->obj.handle) {
        rc = oacl_fail(ACL_ERROR_RT_INVALID_HANDLE, __func__, "%s was freed meanwhile",
                       !head->obj.handle ? "headBuf" : "buf");
    } else {
        uint32_t a = chain_len_locked(head), b = chain_len_locked(m);
        if (a + b > MBUF_CHAIN_MAX) {
            rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__,
                           "the chain would hold %u mbufs (%u + %u); at most %u", a + b, a, b, MBUF_CHAIN_MAX);
        } else {
            struct mbuf *tail = head;
            while (tail->next)
                tail = tail->next;
            tail->next = m; /* buf's own chain comes along */
            m->has_pred = true;
        }
    }
    pthread_mutex_unlock(&g_lock);
    mbuf_put(m);
    mbuf_put(head);
    return rc;
}

OACL_API aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf)
{
    if (!headBuf || !buf)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !headBuf ? "headBuf" : "buf");
    struct mbuf *head = NULL;
    aclError rc = mbuf_arg(headBuf, "headBuf", &head, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&g_lock);
    const struct mbuf *m = head;
    for (uint32_t i = 0; m && i < index; i++)
        m = m->next;
    void *h = m ? m->obj.handle : NULL;
    uint32_t n = m ? 0 : chain_len_locked(head);
    pthread_mutex_unlock(&g_lock);
    mbuf_put(head);
    if (!h)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "index %u is outside the chain of %u mbufs", index, n);
    *buf = h;
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t *num)
{
    if (!headBuf || !num)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", !headBuf ? "headBuf" : "num");
    struct mbuf *head = NULL;
    aclError rc = mbuf_arg(headBuf, "headBuf", &head, __func__);
    if (rc)
        return rc;
    pthread_mutex_lock(&g_lock);
    uint32_t n = chain_len_locked(head);
    pthread_mutex_unlock(&g_lock);
    mbuf_put(head);
    *num = n;
    return ACL_SUCCESS;
}
