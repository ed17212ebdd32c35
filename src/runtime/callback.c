/*
 * Host work in stream order.
 *
 * Callbacks (aclrtLaunchCallback) run on a thread of the application that
 * subscribed to the stream (aclrtSubscribeReport) and calls
 * aclrtProcessReport in a loop. Host functions (aclrtLaunchHostFunc) run on
 * a thread that subscribed with aclrtSubscribeHostFunc and calls
 * aclrtProcessHostFunc, or, without one, on a thread the runtime starts for
 * the stream. Both kinds of subscription may hold one stream at once: a
 * report thread subscribed to a stream never runs its host functions.
 *
 * Each launch becomes a host step of the stream's queue: when the stream
 * reaches it, the work item is handed to its thread; the stream goes on
 * when the function has returned (or, for ACL_CALLBACK_NO_BLOCK, as soon
 * as the callback has been handed over).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "runtime/runtime.h"

#define MAX_SUBSCRIBERS 1024

enum sub_kind { SUB_REPORT, SUB_HOSTFUNC };

struct item {
    void (*fn)(void *);
    void *arg;
    void *token;               /* the host step to finish; NULL once finished */
    struct oacl_stream *stream;
    struct subscriber *sub;    /* NULL: the stream's own host thread */
    struct item *next;
    bool keep;                 /* recorded in a task graph: runs at every replay, freed by
                                  its drop (holds a stream reference) */
};

/* Items handed to one thread. */
struct inbox {
    pthread_cond_t cond;
    struct item *head, *tail;
};

struct subscriber {
    uint64_t thread_id;
    enum sub_kind kind;
    int32_t device;
    uint32_t streams;          /* streams bound to it now */
    struct inbox box;
    struct subscriber *next;
};

/* A runtime-owned thread running one stream's host functions. */
struct oacl_host_thread {
    pthread_t tid;
    struct inbox box;
    bool stop;
};

/* One lock for subscriptions, inboxes and the stream fields they touch. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct subscriber *g_subs;
static uint32_t g_nsubs;

static void inbox_init(struct inbox *b)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&b->cond, &a);
    pthread_condattr_destroy(&a);
    b->head = b->tail = NULL;
}

static void inbox_push_locked(struct inbox *b, struct item *it)
{
    it->next = NULL;
    if (b->tail)
        b->tail->next = it;
    else
        b->head = it;
    b->tail = it;
    pthread_cond_broadcast(&b->cond);
}

/* Waits (lock held) up to timeout_ms (-1: forever) for an item. */
static struct item *inbox_pop_locked(struct inbox *b, int32_t timeout_ms, bool *stop)
{
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    if (timeout_ms > 0) {
        deadline.tv_sec += timeout_ms / 1000;
        deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
    }
    while (!b->head && !(stop && *stop)) {
        if (timeout_ms < 0)
            pthread_cond_wait(&b->cond, &g_lock);
        else if (pthread_cond_timedwait(&b->cond, &g_lock, &deadline) == ETIMEDOUT)
            break;
    }
    struct item *it = b->head;
    if (it) {
        b->head = it->next;
        if (!b->head)
            b->tail = NULL;
    }
    return it;
}

static void finish(struct item *it)
{
    void *token = it->token;
    bool keep = it->keep; /* a kept item may arrive again once the step is done */
    it->token = NULL;
    if (token)
        oacl_backend()->host_step_done(token);
    if (!keep)
        free(it);
}

/* ---- the stream's own host thread ------------------------------------------ */

static void *host_thread_main(void *arg)
{
    struct oacl_host_thread *h = arg;
    pthread_mutex_lock(&g_lock);
    for (;;) {
        struct item *it = inbox_pop_locked(&h->box, -1, &h->stop);
        if (!it)
            break; /* stopping, inbox empty */
        pthread_mutex_unlock(&g_lock);
        it->fn(it->arg);
        finish(it);
        pthread_mutex_lock(&g_lock);
    }
    pthread_mutex_unlock(&g_lock);
    return NULL;
}

void oacl_stream_host_release(struct oacl_stream *s)
{
    pthread_mutex_lock(&g_lock);
    if (s->report_sub)
        s->report_sub->streams--;
    if (s->hostfunc_sub)
        s->hostfunc_sub->streams--;
    s->report_sub = s->hostfunc_sub = NULL;
    struct oacl_host_thread *h = s->host_thread;
    s->host_thread = NULL;
    if (h) {
        h->stop = true;
        pthread_cond_broadcast(&h->box.cond);
    }
    pthread_mutex_unlock(&g_lock);
    if (h) {
        pthread_join(h->tid, NULL);
        pthread_cond_destroy(&h->box.cond);
        free(h);
    }
}

/* ---- host steps ---------------------------------------------------------- */

/* The stream reached the step: hand the item to its thread. */
static void item_arrive(void *arg, void *token)
{
    struct item *it = arg;
    it->token = token;
    pthread_mutex_lock(&g_lock);
    struct oacl_stream *s = it->stream;
    if (it->sub) {
        struct subscriber *want = it->sub->kind == SUB_REPORT ? s->report_sub : s->hostfunc_sub;
        if (want != it->sub) {
            /* Unsubscribed meanwhile: nobody will run it, so it completes
               unrun rather than blocking the stream forever. */
            pthread_mutex_unlock(&g_lock);
            OACL_WARN("stream %d: a host callback was dropped: its thread unsubscribed before it ran", s->id);
            finish(it);
            return;
        }
        inbox_push_locked(&it->sub->box, it);
    } else if (s->host_thread) {
        inbox_push_locked(&s->host_thread->box, it);
    } else { /* a replay after the stream's thread went away */
        pthread_mutex_unlock(&g_lock);
        finish(it);
        return;
    }
    pthread_mutex_unlock(&g_lock);
}

/* A no-block callback: the stream goes on once it is handed over. */
static void item_arrive_noblock(void *arg, void *token)
{
    struct item *it = arg;
    oacl_backend()->host_step_done(token);
    pthread_mutex_lock(&g_lock);
    struct oacl_stream *s = it->stream;
    if (s->report_sub == it->sub) {
        it->token = NULL;
        inbox_push_locked(&it->sub->box, it);
        it = NULL;
    }
    pthread_mutex_unlock(&g_lock);
    if (it) {
        OACL_WARN("stream %d: a host callback was dropped: its thread unsubscribed before it ran", s->id);
        free(it);
    }
}

static void item_drop(void *arg)
{
    struct item *it = arg;
    if (it->keep)
        oacl_obj_put(&it->stream->obj);
    free(it);
}

/* Removes it from inbox b if it is still there (lock held). */
static bool inbox_unlink_locked(struct inbox *b, struct item *it)
{
    struct item *prev = NULL;
    for (struct item *x = b->head; x; prev = x, x = x->next) {
        if (x != it)
            continue;
        if (prev)
            prev->next = x->next;
        else
            b->head = x->next;
        if (b->tail == x)
            b->tail = prev;
        return true;
    }
    return false;
}

/* The stream is destroyed by force while the item waits in an inbox: take
 * it out and finish it unrun (an item already taken finishes by itself). */
static void item_cancel(void *arg)
{
    struct item *it = arg;
    pthread_mutex_lock(&g_lock);
    struct oacl_stream *s = it->stream;
    bool found = false;
    if (it->sub)
        found = inbox_unlink_locked(&it->sub->box, it);
    else if (s->host_thread)
        found = inbox_unlink_locked(&s->host_thread->box, it);
    pthread_mutex_unlock(&g_lock);
    if (found)
        finish(it);
}

/* ---- subscriptions ---------------------------------------------------------- */

static struct subscriber *find_sub_locked(uint64_t tid, enum sub_kind kind)
{
    for (struct subscriber *s = g_subs; s; s = s->next)
        if (s->thread_id == tid && s->kind == kind)
            return s;
    return NULL;
}

static aclError subscribe(uint64_t tid, aclrtStream stream, enum sub_kind kind, const char *fn)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, fn);
    if (rc)
        return rc;
    int32_t dev = s->ctx->dev->id;
    pthread_mutex_lock(&g_lock);
    struct subscriber *sub = find_sub_locked(tid, kind);
    struct subscriber *held = kind == SUB_REPORT ? s->report_sub : s->hostfunc_sub;
    if (held) {
        rc = oacl_fail(ACL_ERROR_RT_STREAM_SUBSCRIBE, fn, "the stream already has a %s thread (thread %llu)",
                       kind == SUB_REPORT ? "callback (report)" : "host function",
                       (unsigned long long)held->thread_id);
    } else if (sub && sub->streams && sub->device != dev) {
        rc = oacl_fail(ACL_ERROR_RT_THREAD_SUBSCRIBE, fn, "thread %llu already serves streams of device %d",
                       (unsigned long long)tid, sub->device);
    } else if (!sub && g_nsubs >= MAX_SUBSCRIBERS) {
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, fn, "more than %d subscribed threads", MAX_SUBSCRIBERS);
    } else {
        if (!sub) {
            sub = calloc(1, sizeof(*sub));
            if (!sub) {
                rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, fn, "out of memory");
            } else {
                sub->thread_id = tid;
                sub->kind = kind;
                inbox_init(&sub->box);
                sub->next = g_subs;
                g_subs = sub;
                g_nsubs++;
            }
        }
        if (sub) {
            sub->device = dev;
            sub->streams++;
            if (kind == SUB_REPORT)
                s->report_sub = sub;
            else
                s->hostfunc_sub = sub;
        }
    }
    pthread_mutex_unlock(&g_lock);
    oacl_obj_put(&s->obj);
    return rc;
}

static aclError unsubscribe(uint64_t tid, aclrtStream stream, enum sub_kind kind, const char *fn)
{
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_QUERY, &s, fn);
    if (rc)
        return rc;
    struct item *orphans = NULL;
    pthread_mutex_lock(&g_lock);
    struct subscriber *cur = kind == SUB_REPORT ? s->report_sub : s->hostfunc_sub;
    if (!find_sub_locked(tid, kind)) {
        rc = oacl_fail(ACL_ERROR_RT_THREAD_SUBSCRIBE, fn, "thread %llu is not subscribed", (unsigned long long)tid);
    } else if (!cur || cur->thread_id != tid) {
        rc = oacl_fail(ACL_ERROR_RT_STREAM_SUBSCRIBE, fn, "the stream is not subscribed by thread %llu",
                       (unsigned long long)tid);
    } else {
        if (kind == SUB_REPORT)
            s->report_sub = NULL;
        else
            s->hostfunc_sub = NULL;
        cur->streams--;
        /* Items of this stream still waiting in the thread's inbox will
           never be processed: finish them unrun. */
        struct item **link = &cur->box.head, *last = NULL;
        while (*link) {
            struct item *it = *link;
            if (it->stream == s) {
                *link = it->next;
                it->next = orphans;
                orphans = it;
            } else {
                last = it;
                link = &it->next;
            }
        }
        cur->box.tail = last;
    }
    pthread_mutex_unlock(&g_lock);
    if (orphans)
        OACL_WARN("stream %d: host callbacks still pending at unsubscription were dropped", s->id);
    while (orphans) {
        struct item *it = orphans;
        orphans = it->next;
        finish(it);
    }
    oacl_obj_put(&s->obj);
    return rc;
}

static aclError process(int32_t timeout, enum sub_kind kind, const char *fn)
{
    if (timeout == 0 || timeout < -1)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "timeout %d: use -1 (no limit) or a positive number of ms",
                         timeout);
    uint64_t me = (uint64_t)pthread_self();
    pthread_mutex_lock(&g_lock);
    struct subscriber *sub = find_sub_locked(me, kind);
    if (!sub || !sub->streams) {
        pthread_mutex_unlock(&g_lock);
        return oacl_fail(ACL_ERROR_RT_THREAD_SUBSCRIBE, fn, "the calling thread is not subscribed to any stream");
    }
    struct item *it = inbox_pop_locked(&sub->box, timeout, NULL);
    pthread_mutex_unlock(&g_lock);
    if (!it)
        return oacl_fail(ACL_ERROR_RT_REPORT_TIMEOUT, fn, "nothing arrived within %d ms", timeout);
    it->fn(it->arg);
    finish(it);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    return subscribe(threadId, stream, SUB_REPORT, __func__);
}

OACL_API aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
    return unsubscribe(threadId, stream, SUB_REPORT, __func__);
}

OACL_API aclError aclrtProcessReport(int32_t timeout) { return process(timeout, SUB_REPORT, __func__); }

OACL_API aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    return subscribe(hostFuncThreadId, exeStream, SUB_HOSTFUNC, __func__);
}

OACL_API aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
    return unsubscribe(hostFuncThreadId, exeStream, SUB_HOSTFUNC, __func__);
}

OACL_API aclError aclrtProcessHostFunc(int32_t timeout) { return process(timeout, SUB_HOSTFUNC, __func__); }

/* ---- launches ------------------------------------------------------------------ */

static aclError enqueue(struct oacl_stream *s, struct item *it, bool block, const char *fn)
{
    char err[OACL_BACKEND_ERRLEN] = "";
    if (s->ri_capture) {
        /* Recorded: the item serves every replay (a replay waits for the
           callback, so an item is never in an inbox twice). */
        it->keep = true;
        block = true;
        oacl_obj_ref(&s->obj);
    }
    /* A no-block callback has finished its step once it arrives: there is
       nothing to cancel then. */
    int rc = oacl_backend()->queue_host_step(s->queue, block ? item_arrive : item_arrive_noblock, item_drop,
                                             block ? item_cancel : NULL, it, err);
    if (rc) {
        if (it->keep)
            oacl_obj_put(&s->obj);
        free(it);
        return oacl_fail(rc, fn, "%s", err);
    }
    return ACL_SUCCESS;
}

OACL_API aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                      aclrtStream stream)
{
    OACL_PROF_API("CallbackLaunch");
    if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "blockType %d is neither ACL_CALLBACK_BLOCK nor _NO_BLOCK",
                         (int)blockType);
    if (!fn)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "fn is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc)
        return rc;
    struct item *it = calloc(1, sizeof(*it));
    pthread_mutex_lock(&g_lock);
    struct subscriber *sub = s->report_sub;
    pthread_mutex_unlock(&g_lock);
    if (!sub)
        rc = oacl_fail(ACL_ERROR_RT_STREAM_NO_CB_REG, __func__,
                       "no thread is subscribed to the stream (aclrtSubscribeReport)");
    else if (!it)
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    if (rc) {
        free(it);
        oacl_obj_put(&s->obj);
        return rc;
    }
    it->fn = fn;
    it->arg = userData;
    it->stream = s;
    it->sub = sub;
    rc = enqueue(s, it, blockType == ACL_CALLBACK_BLOCK, __func__);
    oacl_obj_put(&s->obj);
    return rc;
}

OACL_API aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
    OACL_PROF_API("LaunchHostFunc");
    if (!fn)
        return oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "fn is NULL");
    struct oacl_stream *s = NULL;
    aclError rc = oacl_stream_arg(stream, OACL_STREAM_ENQUEUE, &s, __func__);
    if (rc)
        return rc;
    struct item *it = calloc(1, sizeof(*it));
    pthread_mutex_lock(&g_lock);
    if (!it) {
        rc = oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory");
    } else if (!s->hostfunc_sub && !s->host_thread) {
        /* No subscribed thread: the stream gets a thread of its own. */
        struct oacl_host_thread *h = calloc(1, sizeof(*h));
        if (h) {
            inbox_init(&h->box);
            if (pthread_create(&h->tid, NULL, host_thread_main, h) != 0) {
                pthread_cond_destroy(&h->box.cond);
                free(h);
                h = NULL;
            }
        }
        if (h)
            s->host_thread = h;
        else
            rc = oacl_fail(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, __func__, "cannot start a host function thread");
    }
    struct subscriber *sub = s->hostfunc_sub;
    pthread_mutex_unlock(&g_lock);
    if (rc) {
        free(it);
        oacl_obj_put(&s->obj);
        return rc;
    }
    it->fn = fn;
    it->arg = args;
    it->stream = s;
    it->sub = sub;
    rc = enqueue(s, it, true, __func__);
    oacl_obj_put(&s->obj);
    return rc;
}
