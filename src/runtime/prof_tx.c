/*
 * msproftx (profiling-and-tools.md §3.4) and step markers (§3.3): stamps,
 * marks, push/pop and start/stop ranges, aclprofStr2Id, tensor-info ranges,
 * and the stream markers that put their device side on the timeline.
 *
 * Failures of the msproftx functions are CANN's internal PROFILING_FAILED,
 * -1, returned as aclError; only the NULL checks CANN makes at its API layer
 * return 100000.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "runtime/prof.h"
#include "runtime/runtime.h"

#define TX_FAIL (-1)
#define STAMPS 100
#define STACK_DEPTH 128

struct stamp {
    bool used;
    char msg[128];
    uint32_t category;
    int32_t payload_type;
    uint64_t payload;
    bool range_open;
    uint64_t range_start;
    uint32_t range_tid;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stamp g_stamps[STAMPS];

static struct stamp *stamp_of(void *p)
{
    uintptr_t a = (uintptr_t)p, base = (uintptr_t)g_stamps;
    if (a < base || a >= base + sizeof(g_stamps) || (a - base) % sizeof(struct stamp))
        return NULL;
    return (struct stamp *)p;
}

/* ---- stream markers ---------------------------------------------------------------- */

struct marker_arg {
    uint8_t kind, level;
    uint16_t device;
    int32_t stream;
    const char *msg;
    uint64_t id;
};

static void marker_reached(void *arg, uint64_t ns)
{
    struct marker_arg *m = arg;
    /* tx markers follow the host-side collection (a host-only msproftx
       config still shows them); steps belong to a profiled device */
    if (m->kind == OACL_REC_STEP ? !oacl_trace_device_on(OACL_TR_STEP, m->device) : !oacl_trace_on(OACL_TR_TX))
        return;
    struct oacl_trace_rec r = {.kind = m->kind,
                               .level = m->level,
                               .device = m->device,
                               .stream = m->stream,
                               .start = ns,
                               .end = ns,
                               .name = m->msg,
                               .a = m->id};
    oacl_trace_emit(&r);
}

int oacl_prof_queue_marker(void *stream, uint8_t rec_kind, uint8_t level, const char *msg, uint64_t flow_id,
                           const char *fn)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, fn);
    if (rc)
        return rc;
    struct marker_arg *m = malloc(sizeof(*m));
    if (!m) {
        oacl_obj_put(&s->obj);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *m = (struct marker_arg){.kind = rec_kind,
                             .level = level,
                             .device = (uint16_t)s->ctx->dev->id,
                             .stream = s->id,
                             .msg = msg,
                             .id = flow_id};
    char err[OACL_BACKEND_ERRLEN] = "";
    int brc = oacl_backend()->queue_marker(s->queue, marker_reached, free, m, err);
    oacl_obj_put(&s->obj);
    if (brc) {
        free(m);
        return oacl_fail(brc, fn, "%s", err);
    }
    return ACL_SUCCESS;
}

/* ---- stamps -------------------------------------------------------------------------- */

OACL_API void *aclprofCreateStamp(void)
{
    if (!oacl_prof_tx_active())
        return NULL;
    pthread_mutex_lock(&g_lock);
    struct stamp *s = NULL;
    for (int i = 0; i < STAMPS && !s; i++)
        if (!g_stamps[i].used) {
            s = &g_stamps[i];
            memset(s, 0, sizeof(*s));
            s->used = true;
        }
    pthread_mutex_unlock(&g_lock);
    return s;
}

OACL_API void aclprofDestroyStamp(void *stamp)
{
    struct stamp *s = stamp_of(stamp);
    if (!s)
        return;
    pthread_mutex_lock(&g_lock);
    s->used = false;
    s->range_open = false;
    pthread_mutex_unlock(&g_lock);
}

OACL_API aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen)
{
    struct stamp *s = stamp_of(stamp);
    if (!s || !msg || msgLen >= sizeof(s->msg))
        return TX_FAIL;
    pthread_mutex_lock(&g_lock);
    size_t n = strnlen(msg, msgLen);
    memcpy(s->msg, msg, n);
    s->msg[n] = '\0';
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

/* Stamp helpers libmsprofiler.so exports without a header (frameworks
 * declare them themselves). */
OACL_API aclError aclprofSetStampPayload(void *stamp, const int32_t type, void *value);
OACL_API aclError aclprofSetStampPayload(void *stamp, const int32_t type, void *value)
{
    struct stamp *s = stamp_of(stamp);
    if (!s)
        return TX_FAIL;
    uint64_t v = 0;
    if (value)
        memcpy(&v, value, sizeof(v));
    pthread_mutex_lock(&g_lock);
    s->payload_type = type;
    s->payload = v;
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

OACL_API aclError aclprofSetStampCategory(void *stamp, uint32_t category);
OACL_API aclError aclprofSetStampCategory(void *stamp, uint32_t category)
{
    struct stamp *s = stamp_of(stamp);
    if (!s)
        return TX_FAIL;
    pthread_mutex_lock(&g_lock);
    s->category = category;
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

OACL_API aclError aclprofSetCategoryName(uint32_t category, const char *categoryName);
OACL_API aclError aclprofSetCategoryName(uint32_t category, const char *categoryName)
{
    (void)category;
    return categoryName ? ACL_SUCCESS : TX_FAIL; /* the trace shows category numbers */
}

static void tx_record(uint8_t level, const struct stamp *snap, uint64_t start, uint64_t end, uint32_t tid,
                      uint64_t flow, const char *msg)
{
    struct oacl_trace_rec r = {.kind = OACL_REC_TX,
                               .level = level,
                               .tid = tid,
                               .start = start,
                               .end = end,
                               .name = oacl_trace_intern(msg),
                               .a = flow};
    if (snap) {
        r.b = snap->category;
        r.extra = (uint32_t)snap->payload_type;
        r.c = snap->payload;
    }
    oacl_trace_emit(&r);
}

OACL_API aclError aclprofMark(void *stamp)
{
    struct stamp *s = stamp_of(stamp);
    if (!oacl_prof_tx_active() || !s)
        return TX_FAIL;
    pthread_mutex_lock(&g_lock);
    struct stamp snap = *s;
    pthread_mutex_unlock(&g_lock);
    uint64_t now = oacl_trace_now();
    tx_record(OACL_TX_MARKER, &snap, now, now, oacl_trace_tid(), 0, snap.msg);
    return ACL_SUCCESS;
}

OACL_API aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream)
{
    if (!oacl_prof_tx_active() || !msg || !stream)
        return TX_FAIL;
    size_t n = strnlen(msg, 156);
    if (n != msgLen || msgLen == 0 || msgLen > 155)
        return TX_FAIL;
    struct oacl_obj *o = oacl_handle_get(stream, OACL_H_STREAM);
    if (!o)
        return TX_FAIL;
    oacl_obj_put(o);
    uint64_t id = oacl_trace_next_id();
    const char *m = oacl_trace_intern(msg);
    uint64_t now = oacl_trace_now();
    tx_record(OACL_TX_MARKER_EX, NULL, now, now, oacl_trace_tid(), id, m);
    if (oacl_prof_queue_marker(stream, OACL_REC_TX_DEV, 0, m, id, __func__) != ACL_SUCCESS)
        return TX_FAIL;
    return ACL_SUCCESS;
}

/* ---- push / pop: one stack per thread (Decision 7) ---------------------------------- */

struct pushed {
    uint64_t start;
    struct stamp snap;
};

static __thread struct pushed *tls_push;
static __thread unsigned tls_push_depth;

OACL_API aclError aclprofPush(void *stamp)
{
    struct stamp *s = stamp_of(stamp);
    if (!stamp)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stamp is NULL");
    if (!oacl_prof_tx_active() || !s)
        return TX_FAIL;
    if (!tls_push && !(tls_push = calloc(STACK_DEPTH, sizeof(*tls_push))))
        return TX_FAIL;
    if (tls_push_depth >= STACK_DEPTH)
        return TX_FAIL;
    struct pushed *p = &tls_push[tls_push_depth++];
    pthread_mutex_lock(&g_lock);
    p->snap = *s;
    pthread_mutex_unlock(&g_lock);
    p->start = oacl_trace_now();
    return ACL_SUCCESS;
}

OACL_API aclError aclprofPop(void)
{
    if (!oacl_prof_tx_active() || !tls_push_depth)
        return TX_FAIL;
    struct pushed *p = &tls_push[--tls_push_depth];
    tx_record(OACL_TX_PUSHPOP, &p->snap, p->start, oacl_trace_now(), oacl_trace_tid(), 0, p->snap.msg);
    if (!tls_push_depth) {
        free(tls_push);
        tls_push = NULL;
    }
    return ACL_SUCCESS;
}

/* ---- start / stop ranges ---------------------------------------------------------------- */

OACL_API aclError aclprofRangeStart(void *stamp, uint32_t *rangeId)
{
    if (!stamp || !rangeId)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", stamp ? "rangeId" : "stamp");
    struct stamp *s = stamp_of(stamp);
    if (!oacl_prof_tx_active() || !s)
        return TX_FAIL;
    pthread_mutex_lock(&g_lock);
    s->range_open = true;
    s->range_start = oacl_trace_now();
    s->range_tid = oacl_trace_tid();
    pthread_mutex_unlock(&g_lock);
    *rangeId = (uint32_t)(s - g_stamps);
    return ACL_SUCCESS;
}

OACL_API aclError aclprofRangeStop(uint32_t rangeId)
{
    if (!oacl_prof_tx_active() || rangeId >= STAMPS)
        return TX_FAIL;
    pthread_mutex_lock(&g_lock);
    struct stamp *s = &g_stamps[rangeId];
    bool open = s->used && s->range_open;
    struct stamp snap = *s;
    s->range_open = false;
    pthread_mutex_unlock(&g_lock);
    if (!open)
        return TX_FAIL;
    tx_record(OACL_TX_STARTEND, &snap, snap.range_start, oacl_trace_now(), snap.range_tid, 0, snap.msg);
    return ACL_SUCCESS;
}

/* ---- aclprofStr2Id and its reverse table -------------------------------------------------- */

#define ID_BUCKETS 1024
#define ID_MAX 65536

struct id_entry {
    struct id_entry *next;
    uint64_t id;
    const char *text;
};

static struct id_entry *g_ids[ID_BUCKETS];
static unsigned g_nids;
static pthread_mutex_t g_id_lock = PTHREAD_MUTEX_INITIALIZER;

OACL_API uint64_t aclprofStr2Id(const char *message)
{
    if (!message || !*message)
        return UINT64_MAX; /* NULL: Decision 8 */
    uint32_t h0 = 0, h1 = 0;
    for (const char *p = message; *p; ++p) {
        uint32_t c = (uint32_t)(int32_t)(signed char)*p;
        h0 = h0 * 29u + c;
        h1 = h1 * 131u + c;
    }
    uint64_t id = ((uint64_t)h0 << 32) | h1;
    pthread_mutex_lock(&g_id_lock);
    struct id_entry **head = &g_ids[id % ID_BUCKETS], *e;
    for (e = *head; e && e->id != id; e = e->next)
        ;
    if (!e && g_nids < ID_MAX && (e = malloc(sizeof(*e)))) {
        e->id = id;
        e->text = oacl_trace_intern(message);
        e->next = *head;
        *head = e;
        g_nids++;
    }
    pthread_mutex_unlock(&g_id_lock);
    return id;
}

const char *oacl_prof_str_of_id(uint64_t id)
{
    pthread_mutex_lock(&g_id_lock);
    struct id_entry *e;
    for (e = g_ids[id % ID_BUCKETS]; e && e->id != id; e = e->next)
        ;
    const char *t = e ? e->text : NULL;
    pthread_mutex_unlock(&g_id_lock);
    return t;
}

/* ---- tensor-info ranges ------------------------------------------------------------------- */

struct pushed_ex {
    aclprofEventAttributes *attr;
    uint64_t start;
};

static __thread struct pushed_ex *tls_ex;
static __thread unsigned tls_ex_depth;

OACL_API aclError aclprofRangePushEx(aclprofEventAttributes *attr)
{
    if (!attr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "attr is NULL");
    if (attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO)
        return TX_FAIL;
    if (!tls_ex && !(tls_ex = calloc(STACK_DEPTH, sizeof(*tls_ex))))
        return TX_FAIL;
    if (tls_ex_depth >= STACK_DEPTH)
        return TX_FAIL;
    tls_ex[tls_ex_depth++] = (struct pushed_ex){attr, oacl_trace_now()};
    return ACL_SUCCESS;
}

static void name_of(uint64_t id, char *out, size_t len)
{
    const char *t = oacl_prof_str_of_id(id);
    if (t)
        snprintf(out, len, "%s", t);
    else
        snprintf(out, len, "0x%016llx", (unsigned long long)id);
}

/* "1,3,224,224;64" for the tensors of one direction. */
static void shapes_of(const aclprofTensorInfo *ti, uint32_t dir, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    uint32_t n = ti->tensorNum > 1024 ? 1024 : ti->tensorNum;
    bool first = true;
    for (uint32_t i = 0; i < n && ti->tensors; i++) {
        const aclprofTensor *t = &ti->tensors[i];
        if (t->type != dir)
            continue;
        used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s", first ? "" : ";");
        first = false;
        uint32_t dims = t->shapeDim > ACL_PROF_TENSOR_DATA_SHAPE_LEN ? ACL_PROF_TENSOR_DATA_SHAPE_LEN : t->shapeDim;
        for (uint32_t d = 0; d < dims; d++)
            used += (size_t)snprintf(out + used, used < len ? len - used : 0, d ? ",%u" : "%u", t->shape[d]);
        if (used >= len)
            break;
    }
}

OACL_API aclError aclprofRangePop(void)
{
    if (!tls_ex_depth)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "no aclprofRangePushEx to pop on this thread");
    struct pushed_ex p = tls_ex[--tls_ex_depth];
    if (!tls_ex_depth) {
        free(tls_ex);
        tls_ex = NULL;
    }
    const aclprofTensorInfo *ti = p.attr->message.tensorInfo;
    if (ti && ti->stream) {
        struct oacl_obj *o = oacl_handle_get(ti->stream, OACL_H_STREAM);
        if (!o)
            return TX_FAIL;
        oacl_obj_put(o);
    }
    if (!ti || !oacl_prof_tx_active())
        return ACL_SUCCESS;
    char op[160], ty[160], in[512], outs[512], both[1400];
    name_of(ti->opNameId, op, sizeof(op));
    name_of(ti->opTypeId, ty, sizeof(ty));
    shapes_of(ti, 0, in, sizeof(in));
    shapes_of(ti, 1, outs, sizeof(outs));
    snprintf(both, sizeof(both), "op %s type %s blocks %u inputs \"%s\" outputs \"%s\"", op, ty, ti->blockNums, in,
             outs);
    struct oacl_trace_rec r = {.kind = OACL_REC_TX,
                               .level = OACL_TX_PUSHPOP,
                               .tid = oacl_trace_tid(),
                               .start = p.start,
                               .end = oacl_trace_now(),
                               .name = oacl_trace_intern(op),
                               .name2 = oacl_trace_intern(both)};
    oacl_trace_emit(&r);
    return ACL_SUCCESS;
}

/* ---- step markers -------------------------------------------------------------------------- */

struct aclprofStepInfo {
    bool startFlag;
    bool endFlag;
    uint64_t indexId;
};

static uint64_t g_step_index; /* atomic */

OACL_API aclprofStepInfo *aclprofCreateStepInfo(void)
{
    struct aclprofStepInfo *s = calloc(1, sizeof(*s));
    if (s)
        s->indexId = __atomic_add_fetch(&g_step_index, 1, __ATOMIC_RELAXED);
    return s;
}

OACL_API void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo) { free(stepinfo); }

OACL_API aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag, aclrtStream stream)
{
    if (!stepInfo)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "stepInfo is NULL");
    bool start = tag == ACL_STEP_START;
    if (start ? stepInfo->startFlag : stepInfo->endFlag)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "step %llu already has its %s marker",
                         (unsigned long long)stepInfo->indexId, start ? "start" : "end");
    int rc = oacl_prof_queue_marker(stream, OACL_REC_STEP, start ? 0 : 1, "Step", stepInfo->indexId, __func__);
    if (rc)
        return oacl_fail(ACL_ERROR_GE_FAILURE, __func__, "the step marker could not be queued (%d)", rc);
    if (start)
        stepInfo->startFlag = true;
    else
        stepInfo->endFlag = true;
    return ACL_SUCCESS;
}
