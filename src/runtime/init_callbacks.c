/*
 * Init/finalize callbacks (aclInitCallbackRegister and friends): two
 * process-wide lists, each an ordered multimap from aclRegisterCallbackType
 * to (function, user data) in registration order. A type other than
 * ACL_REG_TYPE_OTHER holds at most one callback per list; the type value
 * is not range-checked. Registrations persist across aclInit/aclFinalize
 * cycles until unregistered.
 *
 * aclInit/aclFinalize (init.c) notify one type at a time, at CANN's
 * positions. Each notification runs from a snapshot of the list taken when
 * it starts, with no lock of this file held: a callback may register or
 * unregister (effective from the next step or cycle) without deadlock.
 * While aclInit/aclFinalize callbacks run, the calling thread is marked so
 * that a nested aclInit/aclFinalize is refused instead of deadlocking on
 * the init lock.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

enum { LIST_INIT = 0, LIST_FINALIZE = 1 };

struct entry {
    int type;
    void (*fn)(void); /* aclInitCallbackFunc or aclFinalizeCallbackFunc */
    void *user;
};

struct list {
    struct entry *v;
    size_t n, cap;
};

static struct list g_lists[2];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread unsigned t_in_callbacks;

static const char *const g_list_names[2] = {"init", "finalize"};

bool oacl_in_lifecycle_callback(void) { return t_in_callbacks != 0; }

static aclError add(int list, int type, void (*fn)(void), void *user, const char *fn_name)
{
    struct list *l = &g_lists[list];
    pthread_mutex_lock(&g_lock);
    if (type != ACL_REG_TYPE_OTHER) {
        for (size_t i = 0; i < l->n; i++) {
            if (l->v[i].type == type) {
                pthread_mutex_unlock(&g_lock);
                return oacl_fail(ACL_ERROR_INTERNAL_ERROR, fn_name,
                                 "type %d already has %s callback (only ACL_REG_TYPE_OTHER takes several)", type,
                                 list == LIST_INIT ? "an init" : "a finalize");
            }
        }
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        struct entry *v = realloc(l->v, cap * sizeof(*v));
        if (!v) {
            pthread_mutex_unlock(&g_lock);
            return oacl_fail(ACL_ERROR_BAD_ALLOC, fn_name, "out of memory for a %s callback", g_list_names[list]);
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (struct entry){.type = type, .fn = fn, .user = user};
    pthread_mutex_unlock(&g_lock);
    return ACL_SUCCESS;
}

static aclError remove_entry(int list, int type, void (*fn)(void), const char *fn_name)
{
    struct list *l = &g_lists[list];
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < l->n; i++) {
        if (l->v[i].type == type && l->v[i].fn == fn) {
            memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(l->v[0]));
            l->n--;
            pthread_mutex_unlock(&g_lock);
            return ACL_SUCCESS;
        }
    }
    pthread_mutex_unlock(&g_lock);
    return oacl_fail(ACL_ERROR_INTERNAL_ERROR, fn_name, "no %s callback with that function is registered under type %d",
                     g_list_names[list], type);
}

static const char *type_name(int type)
{
    switch (type) {
    case ACL_REG_TYPE_ACL_MODEL: return "ACL_REG_TYPE_ACL_MODEL";
    case ACL_REG_TYPE_ACL_OP_EXECUTOR: return "ACL_REG_TYPE_ACL_OP_EXECUTOR";
    case ACL_REG_TYPE_ACL_OP_COMPILER: return "ACL_REG_TYPE_ACL_OP_COMPILER";
    case ACL_REG_TYPE_ACL_DVPP: return "ACL_REG_TYPE_ACL_DVPP";
    case ACL_REG_TYPE_OTHER: return "ACL_REG_TYPE_OTHER";
    default: return "another type";
    }
}

/* Runs the callbacks of `type` of a list in registration order from a
 * snapshot; the first non-zero result stops the sequence and is returned
 * (with a message naming fn, the aclInit/aclFinalize being run). */
static aclError notify(int list, int type, const char *text, size_t len, const char *fn)
{
    struct entry local[16], *snap = local;
    size_t n = 0;
    pthread_mutex_lock(&g_lock);
    const struct list *l = &g_lists[list];
    size_t want = 0;
    for (size_t i = 0; i < l->n; i++)
        want += l->v[i].type == type;
    if (want > sizeof(local) / sizeof(local[0]))
        snap = malloc(want * sizeof(*snap));
    if (snap)
        for (size_t i = 0; i < l->n; i++)
            if (l->v[i].type == type)
                snap[n++] = l->v[i];
    pthread_mutex_unlock(&g_lock);
    if (!snap)
        return oacl_fail(ACL_ERROR_BAD_ALLOC, fn, "out of memory for the %s callbacks", g_list_names[list]);
    aclError rc = ACL_SUCCESS;
    t_in_callbacks++;
    for (size_t i = 0; i < n && rc == ACL_SUCCESS; i++) {
        if (list == LIST_INIT)
            rc = ((aclInitCallbackFunc)snap[i].fn)(text, len, snap[i].user);
        else
            rc = ((aclFinalizeCallbackFunc)snap[i].fn)(snap[i].user);
        if (rc != ACL_SUCCESS)
            oacl_fail(rc, fn, "the %s %s callback #%zu returned %d", type_name(type), g_list_names[list], i + 1, rc);
    }
    t_in_callbacks--;
    if (snap != local)
        free(snap);
    return rc;
}

aclError oacl_notify_init_callbacks(int type, const char *text, size_t len)
{
    return notify(LIST_INIT, type, text, len, "aclInit");
}

aclError oacl_notify_finalize_callbacks(int type, const char *fn)
{
    return notify(LIST_FINALIZE, type, NULL, 0, fn);
}

OACL_API aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void *userData)
{
    if (!cbFunc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "cbFunc is NULL");
    aclError rc = add(LIST_INIT, (int)type, (void (*)(void))cbFunc, userData, __func__);
    if (rc)
        return rc;
    /* Already initialized: run it now with the configuration in effect;
       its result is ignored and the registration stays. */
    const char *text = NULL;
    size_t len = 0;
    if (oacl_init_config_text(&text, &len))
        (void)cbFunc(text, len, userData);
    return ACL_SUCCESS;
}

OACL_API aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc)
{
    if (!cbFunc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "cbFunc is NULL");
    return remove_entry(LIST_INIT, (int)type, (void (*)(void))cbFunc, __func__);
}

OACL_API aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                              void *userData)
{
    if (!cbFunc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "cbFunc is NULL");
    return add(LIST_FINALIZE, (int)type, (void (*)(void))cbFunc, userData, __func__);
}

OACL_API aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc)
{
    if (!cbFunc)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "cbFunc is NULL");
    return remove_entry(LIST_FINALIZE, (int)type, (void (*)(void))cbFunc, __func__);
}
