/*
 * Compute groups (aclrtSetGroup, aclrtGetGroupCount, aclrt*GroupInfo*): a
 * group is a partition of a device's compute resources that a process
 * selects for its work. CANN has them only on chips with the "device
 * group" capability, among the documented products only Ascend310P; every
 * other chip answers 207000 (and aclrtCreateGroupInfo NULL). oacl does the
 * same per SoC profile.
 *
 * On Ascend310P* profiles the groups come from OACL_GROUPS, items
 * "<id>[*]:<aicore>[:<aivector>[:<aicpu>[:<sdma>[:<asq>]]]]" separated by
 * ';' (ids 0..3, distinct; '*' marks the default group, at most one;
 * aicore >= 1 and their sum within the profile's AI Cores; asq <= 32).
 * Unset means no groups, as on a host-attached 310P. The same table holds
 * for every simulated device.
 *
 * Effect: the group in use on a device (the selected one, else the default
 * one, else the only one) bounds how many blocks of each launch run at once
 * to its AI Core count (combined with the stream/device limits by taking
 * the minimum, stream_limits.c). The selection is device-wide and goes
 * with the device's final reset.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "device/cpu/soc_profile.h"
#include "runtime/runtime.h"

/* CANN's runtime type; oacl keeps its layout (element arithmetic). */
struct tagRtGroupInfo {
    int32_t groupId;
    uint32_t flag; /* bit 0: the default group */
    uint32_t aicoreNum;
    uint32_t aicpuNum;
    uint32_t aivectorNum;
    uint32_t sdmaNum;
    uint32_t activeStreamNum;
    void *extrPtr;
    uint32_t vfID;
    uint32_t poolID;
    uint32_t poolIDMax;
};
#if defined(__LP64__) || defined(_LP64)
_Static_assert(sizeof(struct tagRtGroupInfo) == 56, "tagRtGroupInfo is 56 bytes");
_Static_assert(offsetof(struct tagRtGroupInfo, activeStreamNum) == 24, "tagRtGroupInfo.activeStreamNum");
_Static_assert(offsetof(struct tagRtGroupInfo, extrPtr) == 32, "tagRtGroupInfo.extrPtr");
_Static_assert(offsetof(struct tagRtGroupInfo, poolIDMax) == 48, "tagRtGroupInfo.poolIDMax");
#endif

#define MAX_GROUPS 4
#define MAX_ASQ 32u

static struct tagRtGroupInfo g_groups[MAX_GROUPS]; /* ascending id */
static uint32_t g_count;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static bool supported(void)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    return p && strncmp(p->name, "Ascend310P", 10) == 0;
}

static aclError unsupported(const char *fn)
{
    const struct oacl_config *c = oacl_config();
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn,
                     "%s is not supported on %s (compute groups exist on Ascend310P profiles only)", fn,
                     c->soc ? c->soc->name : c->soc_request);
}

/* One decimal number up to max; *s advances past it. */
static bool number(const char **s, uint32_t max, uint32_t *out)
{
    if (**s < '0' || **s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long v = strtoul(*s, &end, 10);
    if (errno || v > max)
        return false;
    *s = end;
    *out = (uint32_t)v;
    return true;
}

/* Parses OACL_GROUPS into g_groups; NULL when valid, else what is wrong. */
static const char *parse_groups(const char *text, uint32_t aicores)
{
    struct tagRtGroupInfo found[MAX_GROUPS];
    bool seen[MAX_GROUPS] = {false};
    uint32_t n = 0, sum = 0, defaults = 0;
    const char *s = text;
    while (*s) {
        if (*s == ';') { /* empty items are skipped */
            s++;
            continue;
        }
        if (n == MAX_GROUPS)
            return "more than 4 groups";
        uint32_t id, f[5] = {0, 0, 1, 1, MAX_ASQ}; /* aicore, aivector, aicpu, sdma, asq */
        if (!number(&s, MAX_GROUPS - 1, &id))
            return "a group id is not 0..3";
        if (seen[id])
            return "a group id appears twice";
        seen[id] = true;
        bool dflt = *s == '*';
        if (dflt)
            s++;
        if (dflt && ++defaults > 1)
            return "more than one default group ('*')";
        unsigned fields = 0;
        while (*s == ':' && fields < 5) {
            s++;
            if (!number(&s, UINT32_MAX, &f[fields]))
                return "a field is not a number";
            fields++;
        }
        if (fields == 0 || (*s && *s != ';'))
            return "an item is not <id>[*]:<aicore>[:<aivector>[:<aicpu>[:<sdma>[:<asq>]]]]";
        if (f[0] < 1)
            return "a group has no AI Core";
        if (f[4] > MAX_ASQ)
            return "asq exceeds 32";
        sum += f[0];
        if (sum > aicores)
            return "the groups have more AI Cores than the SoC";
        found[n++] = (struct tagRtGroupInfo){.groupId = (int32_t)id,
                                             .flag = dflt ? 1u : 0u,
                                             .aicoreNum = f[0],
                                             .aivectorNum = f[1],
                                             .aicpuNum = f[2],
                                             .sdmaNum = f[3],
                                             .activeStreamNum = f[4]};
    }
    /* Ascending id order. */
    uint32_t k = 0;
    for (int32_t id = 0; id < MAX_GROUPS; id++)
        for (uint32_t i = 0; i < n; i++)
            if (found[i].groupId == id)
                g_groups[k++] = found[i];
    g_count = n;
    return NULL;
}

static void load_groups(void)
{
    if (!supported())
        return;
    const char *text = getenv("OACL_GROUPS");
    if (!text || !*text)
        return;
    const char *bad = parse_groups(text, oacl_config()->soc->aicore_num);
    if (bad) {
        g_count = 0;
        OACL_WARN("OACL_GROUPS='%s' is ignored: %s (no compute groups)", text, bad);
    }
}

static uint32_t group_count(void)
{
    pthread_once(&g_once, load_groups);
    return g_count;
}

static const struct tagRtGroupInfo *group_by_id(int32_t id)
{
    uint32_t n = group_count();
    for (uint32_t i = 0; i < n; i++)
        if (g_groups[i].groupId == id)
            return &g_groups[i];
    return NULL;
}

/* The group dev's work uses: the selected one, else the default one, else
 * the only one; NULL when none applies. */
static const struct tagRtGroupInfo *group_in_use(const struct oacl_device *dev)
{
    uint32_t n = group_count();
    if (n == 0)
        return NULL;
    int32_t sel = __atomic_load_n(&dev->group_sel, __ATOMIC_ACQUIRE);
    if (sel > 0)
        return group_by_id(sel - 1);
    for (uint32_t i = 0; i < n; i++)
        if (g_groups[i].flag & 1u)
            return &g_groups[i];
    return n == 1 ? &g_groups[0] : NULL;
}

uint32_t oacl_group_core_limit(const struct oacl_device *dev)
{
    const struct tagRtGroupInfo *g = group_in_use(dev);
    return g ? g->aicoreNum : 0;
}

aclError oacl_group_stream_check(const struct oacl_device *dev, bool is_default, const char *fn)
{
    if (group_count() <= 1 || group_in_use(dev))
        return ACL_SUCCESS;
    if (is_default) { /* a context's default stream is still created (CANN) */
        OACL_WARN("device %d has %u compute groups and none is selected: its streams need aclrtSetGroup", dev->id,
                  group_count());
        return ACL_SUCCESS;
    }
    return oacl_fail(ACL_ERROR_RT_GROUP_NOT_SET, fn,
                     "device %d has %u compute groups, none is the default: select one with aclrtSetGroup first",
                     dev->id, group_count());
}

void oacl_group_device_reset(struct oacl_device *dev) { __atomic_store_n(&dev->group_sel, 0, __ATOMIC_RELEASE); }

/* The feature check, then a current context (the count query of CANN). */
static aclError groups_available(struct oacl_context **ctx, const char *fn)
{
    if (!supported())
        return unsupported(fn);
    if (ctx)
        return oacl_ctx_current(ctx, fn);
    return oacl_ctx_require(fn);
}

OACL_API aclError aclrtSetGroup(int32_t groupId)
{
    struct oacl_context *ctx = NULL;
    aclError rc = groups_available(&ctx, __func__);
    if (rc)
        return rc;
    if (groupId < 0 || groupId >= MAX_GROUPS)
        rc = oacl_fail(ACL_ERROR_RT_PARAM_INVALID, __func__, "groupId %d is outside 0..3", groupId);
    else if (!group_by_id(groupId))
        rc = oacl_fail(ACL_ERROR_RT_GROUP_NOT_CREATE, __func__,
                       "no compute group %d exists (%u configured by OACL_GROUPS)", groupId, group_count());
    else
        __atomic_store_n(&ctx->dev->group_sel, groupId + 1, __ATOMIC_RELEASE);
    oacl_obj_put(&ctx->obj);
    return rc;
}

OACL_API aclError aclrtGetGroupCount(uint32_t *count)
{
    if (!count)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "count is NULL");
    aclError rc = groups_available(NULL, __func__);
    if (rc)
        return rc;
    *count = group_count();
    return ACL_SUCCESS;
}

/* ---- group-info arrays: a registry of the live ones with their length ---- */

struct info_array {
    struct tagRtGroupInfo *elems;
    uint32_t count;
    struct info_array *next;
};

static struct info_array *g_arrays;
static pthread_mutex_t g_arrays_lock = PTHREAD_MUTEX_INITIALIZER;

OACL_API aclrtGroupInfo *aclrtCreateGroupInfo(void)
{
    if (groups_available(NULL, __func__))
        return NULL;
    uint32_t n = group_count();
    if (n == 0) {
        oacl_note_error("%s: no compute groups exist (OACL_GROUPS is unset or invalid)", __func__);
        return NULL;
    }
    struct info_array *a = malloc(sizeof(*a));
    struct tagRtGroupInfo *e = calloc(n, sizeof(*e));
    if (!a || !e) {
        free(a);
        free(e);
        oacl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, __func__, "out of memory for %u group records", n);
        return NULL;
    }
    a->elems = e;
    a->count = n;
    pthread_mutex_lock(&g_arrays_lock);
    a->next = g_arrays;
    g_arrays = a;
    pthread_mutex_unlock(&g_arrays_lock);
    return e;
}

OACL_API aclError aclrtDestroyGroupInfo(aclrtGroupInfo *groupInfo)
{
    if (!groupInfo)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "groupInfo is NULL");
    struct info_array *found = NULL;
    pthread_mutex_lock(&g_arrays_lock);
    for (struct info_array **p = &g_arrays; *p; p = &(*p)->next) {
        if ((*p)->elems == groupInfo) {
            found = *p;
            *p = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&g_arrays_lock);
    if (!found)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__,
                         "groupInfo %p was not made by aclrtCreateGroupInfo (or is destroyed)", (void *)groupInfo);
    free(found->elems);
    free(found);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetAllGroupInfo(aclrtGroupInfo *groupInfo)
{
    if (!groupInfo)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "groupInfo is NULL");
    aclError rc = groups_available(NULL, __func__);
    if (rc)
        return rc;
    uint32_t n = group_count();
    if (n == 0)
        return oacl_fail(ACL_ERROR_RT_GROUP_NOT_CREATE, __func__, "no compute groups exist (OACL_GROUPS)");
    memcpy(groupInfo, g_groups, n * sizeof(g_groups[0]));
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo *groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
                                          void *attrValue, size_t valueLen, size_t *paramRetSize)
{
    if (!groupInfo || !attrValue || !paramRetSize)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !groupInfo ? "groupInfo" : !attrValue ? "attrValue" : "paramRetSize");
    aclError rc = groups_available(NULL, __func__);
    if (rc)
        return rc;
    uint32_t n = group_count();
    if (groupIndex < 0 || (uint32_t)groupIndex >= n)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "groupIndex %d is outside 0..%d (the group count is %u)",
                         groupIndex, (int)n - 1, n);
    const struct tagRtGroupInfo *g = &groupInfo[groupIndex];
    uint32_t v;
    switch ((int)attr) {
    case ACL_GROUP_AICORE_INT: v = g->aicoreNum; break;
    case ACL_GROUP_AIV_INT: v = g->aivectorNum; break;
    case ACL_GROUP_AIC_INT: v = g->aicpuNum; break;
    case ACL_GROUP_SDMANUM_INT: v = g->sdmaNum; break;
    case ACL_GROUP_ASQNUM_INT: v = g->activeStreamNum; break;
    case ACL_GROUP_GROUPID_INT: v = (uint32_t)g->groupId; break;
    default:
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "attr %d is not an aclrtGroupAttr (0..5)", (int)attr);
    }
    if (valueLen < sizeof(uint32_t))
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "valueLen %zu is smaller than 4", valueLen);
    memcpy(attrValue, &v, sizeof(v)); /* int32_t for the group id: same bytes */
    *paramRetSize = sizeof(uint32_t);
    return ACL_SUCCESS;
}
