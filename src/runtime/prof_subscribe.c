/*
 * Op subscription (profiling-and-tools.md §3.2): subscription configs,
 * aclprofModelSubscribe/UnSubscribe and the getters that decode the 80-byte
 * ProfOpDesc records (§2.2) a subscribed model's executions write to the
 * application's pipe.
 *
 * The subscribable models are captured model runtime instances (aclmdlRI*)
 * and loaded offline models; oacl has neither yet, so every model id is
 * unknown (100011) and no record is produced. The records, their checksum,
 * the op-name table and every getter are complete: oacl_prof_opdesc_make()
 * is what a model executor will call.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/prof.h"
#include "runtime/runtime.h"

#define DESC_SIZE 80u

struct aclprofSubscribeConfig {
    struct aclprofSubscribeConfig *next;
    int8_t time_info;
    aclprofAicoreMetrics metrics;
    int fd;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aclprofSubscribeConfig *g_configs;

/* ---- records ------------------------------------------------------------------ */

static uint32_t g_crc_table[256];
static pthread_once_t g_crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        g_crc_table[n] = c;
    }
}

static uint32_t signature(const uint8_t *rec)
{
    pthread_once(&g_crc_once, crc_init);
    uint32_t sig = 0xFFFFFFFFu;
    for (size_t i = 4; i < DESC_SIZE; i++)
        sig = g_crc_table[(sig ^ rec[i]) & 0xFF] ^ (sig >> 8);
    return sig;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void wr64(uint8_t *p, uint64_t v)
{
    wr32(p, (uint32_t)v);
    wr32(p + 4, (uint32_t)(v >> 32));
}

/* Names and types of ops by index (>= 1); each string is handed out once. */
struct op_entry {
    struct op_entry *next;
    uint64_t index;
    char *name, *type;
};

static struct op_entry *g_ops;
static uint64_t g_next_op;

/* Writes one record for an executed op into rec[80]; the names go to the
 * process table. Used by model executors (and white-box tests). */
void oacl_prof_opdesc_make(uint8_t rec[80], uint32_t model_id, uint32_t flag, uint32_t thread_id, const char *name,
                           const char *type, uint64_t start_us, uint64_t end_us, uint64_t exec_us, uint32_t device);
void oacl_prof_opdesc_make(uint8_t rec[80], uint32_t model_id, uint32_t flag, uint32_t thread_id, const char *name,
                           const char *type, uint64_t start_us, uint64_t end_us, uint64_t exec_us, uint32_t device)
{
    memset(rec, 0, DESC_SIZE);
    struct op_entry *e = calloc(1, sizeof(*e));
    uint64_t index = 0;
    if (e) {
        e->name = strdup(name ? name : "");
        e->type = strdup(type ? type : "");
        pthread_mutex_lock(&g_lock);
        e->index = index = ++g_next_op;
        e->next = g_ops;
        g_ops = e;
        pthread_mutex_unlock(&g_lock);
    }
    wr32(rec + 4, model_id);
    wr32(rec + 8, flag);
    wr32(rec + 12, thread_id);
    wr64(rec + 16, index);
    wr64(rec + 24, end_us - start_us);
    wr64(rec + 32, start_us);
    wr64(rec + 40, end_us);
    wr64(rec + 48, exec_us);
    wr32(rec + 72, device);
    wr32(rec, signature(rec));
}

/* NULL if the data are not whole records with good signatures, or index is
 * past them; else the record. */
static const uint8_t *record(const void *opInfo, size_t len, uint32_t index)
{
    if (!opInfo || len == 0 || len % DESC_SIZE)
        return NULL;
    const uint8_t *p = opInfo;
    for (size_t off = 0; off < len; off += DESC_SIZE)
        if (rd32(p + off) != signature(p + off))
            return NULL;
    if ((size_t)index >= len / DESC_SIZE)
        return NULL;
    return p + (size_t)index * DESC_SIZE;
}

OACL_API aclError aclprofGetOpDescSize(size_t *opDescSize)
{
    if (!opDescSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "opDescSize is NULL");
    *opDescSize = DESC_SIZE;
    return ACL_SUCCESS;
}

OACL_API aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber)
{
    if (!opInfo || !opNumber)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", opInfo ? "opNumber" : "opInfo");
    if (!record(opInfo, opInfoLen, 0))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__,
                         "opInfoLen %zu is not a multiple of 80, or a record's signature is wrong", opInfoLen);
    *opNumber = (uint32_t)(opInfoLen / DESC_SIZE);
    return ACL_SUCCESS;
}

/* The op string of a record (type or name); with take, removes it. */
static aclError op_string(const void *opInfo, size_t len, uint32_t index, bool want_type, char *out, size_t cap,
                          size_t *len_out, const char *fn)
{
    const uint8_t *rec = record(opInfo, len, index);
    if (!rec)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "invalid op data or index %u out of range", index);
    uint64_t op = rd64(rec + 16);
    pthread_mutex_lock(&g_lock);
    struct op_entry **pp = &g_ops, *e;
    while ((e = *pp) && e->index != op)
        pp = &e->next;
    char **slot = e ? (want_type ? &e->type : &e->name) : NULL;
    if (!slot || !*slot) {
        pthread_mutex_unlock(&g_lock);
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "the op %s of record %u is unknown or was already read",
                         want_type ? "type" : "name", index);
    }
    size_t n = strlen(*slot);
    if (len_out) {
        *len_out = n + 1;
        pthread_mutex_unlock(&g_lock);
        return ACL_SUCCESS;
    }
    if (cap < n) {
        pthread_mutex_unlock(&g_lock);
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "the buffer holds %zu bytes; the string needs %zu", cap, n + 1);
    }
    /* CANN: a buffer of exactly strlen bytes gets the string cut by one */
    size_t copy = n < cap ? n : cap - 1;
    memcpy(out, *slot, copy);
    out[copy] = '\0';
    free(*slot);
    *slot = NULL; /* handed out once (keeps the table bounded) */
    if (!e->name && !e->type) {
        *pp = e->next;
        free(e);
    }
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

OACL_API aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opTypeLen)
{
    if (!opInfo || !opTypeLen)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", opInfo ? "opTypeLen" : "opInfo");
    return op_string(opInfo, opInfoLen, index, true, NULL, 0, opTypeLen, __func__);
}

OACL_API aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                                   size_t opTypeLen)
{
    if (!opInfo || !opType)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", opInfo ? "opType" : "opInfo");
    return op_string(opInfo, opInfoLen, index, true, opType, opTypeLen, NULL, __func__);
}

OACL_API aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opNameLen)
{
    if (!opInfo || !opNameLen)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", opInfo ? "opNameLen" : "opInfo");
    return op_string(opInfo, opInfoLen, index, false, NULL, 0, opNameLen, __func__);
}

OACL_API aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                                   size_t opNameLen)
{
    if (!opInfo || !opName)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", opInfo ? "opName" : "opInfo");
    return op_string(opInfo, opInfoLen, index, false, opName, opNameLen, NULL, __func__);
}

OACL_API uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *rec = record(opInfo, opInfoLen, index);
    return rec ? rd64(rec + 32) : 0;
}

OACL_API uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *rec = record(opInfo, opInfoLen, index);
    return rec ? rd64(rec + 40) : 0;
}

OACL_API uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *rec = record(opInfo, opInfoLen, index);
    return rec ? rd64(rec + 24) : 0;
}

OACL_API size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *rec = record(opInfo, opInfoLen, index);
    return rec ? rd32(rec + 4) : (size_t)ACL_ERROR_INVALID_PARAM;
}

OACL_API aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index)
{
    const uint8_t *rec = record(opInfo, opInfoLen, index);
    return rec ? (aclprofSubscribeOpFlag)rd32(rec + 8) : ACL_SUBSCRIBE_NONE; /* Decision 6 */
}

OACL_API const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen, uint32_t index,
                                            aclprofSubscribeOpAttri attri)
{
    static __thread char buf[24];
    const uint8_t *rec = record(opInfo, opInfoLen, index);
    if (!rec || attri != ACL_SUBSCRIBE_ATTRI_THREADID || rd32(rec + 8) != ACL_SUBSCRIBE_OP_THREAD)
        return NULL;
    snprintf(buf, sizeof(buf), "%u", rd32(rec + 12));
    return buf;
}

/* ---- subscription ------------------------------------------------------------------- */

OACL_API aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics,
                                                              void *fd)
{
    if (!fd || (timeInfoSwitch != 0 && timeInfoSwitch != 1)) {
        oacl_note_error("aclprofCreateSubscribeConfig: %s", !fd ? "fd is NULL" : "timeInfoSwitch must be 0 or 1");
        return NULL;
    }
    struct aclprofSubscribeConfig *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->time_info = timeInfoSwitch;
    c->metrics = aicoreMetrics;
    c->fd = *(const int *)fd;
    pthread_mutex_lock(&g_lock);
    c->next = g_configs;
    g_configs = c;
    pthread_mutex_unlock(&g_lock);
    return c;
}

OACL_API aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig)
{
    if (!profSubscribeConfig)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "profSubscribeConfig is NULL");
    pthread_mutex_lock(&g_lock);
    struct aclprofSubscribeConfig **pp = &g_configs;
    while (*pp && *pp != profSubscribeConfig)
        pp = &(*pp)->next;
    struct aclprofSubscribeConfig *c = *pp;
    if (c)
        *pp = c->next;
    pthread_mutex_unlock(&g_lock);
    if (!c)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "profSubscribeConfig %p is not a live config",
                         (const void *)profSubscribeConfig);
    free(c);
    return ACL_SUCCESS;
}

OACL_API aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig)
{
    /* No model runtime exists yet: every id is unknown (checked first, as CANN). */
    (void)profSubscribeConfig;
    return oacl_fail(ACL_ERROR_INVALID_MODEL_ID, __func__, "model %u does not exist (no model is loaded or captured)",
                     modelId);
}

OACL_API aclError aclprofModelUnSubscribe(uint32_t modelId)
{
    return oacl_fail(ACL_ERROR_INVALID_MODEL_ID, __func__, "model %u is not subscribed", modelId);
}
