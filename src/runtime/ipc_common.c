/*
 * Shared parts of the inter-process chapter: SoC availability, keys,
 * whitelists and the service glue (runtime/ipc.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/cpu/soc_profile.h"
#include "runtime/ipc.h"

/* ---- SoC availability ---------------------------------------------------------- */

enum oacl_ipc_family oacl_ipc_family(void)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    if (!p)
        return OACL_FAM_A2;
    const char *fam = p->short_name ? p->short_name : "";
    if (strcmp(fam, "Ascend910_93") == 0)
        return OACL_FAM_A3;
    if (strcmp(fam, "Ascend950") == 0)
        return strncmp(p->name, "Ascend950DT", 11) == 0 ? OACL_FAM_950DT : OACL_FAM_950PR;
    if (strcmp(fam, "Ascend350") == 0)
        return OACL_FAM_950PR; /* decision D27 */
    if (strcmp(fam, "Ascend310B") == 0)
        return OACL_FAM_310B;
    if (strcmp(fam, "Ascend310P") == 0)
        return OACL_FAM_310P;
    if (strcmp(fam, "Ascend910") == 0)
        return OACL_FAM_910;
    return OACL_FAM_A2;
}

const char *oacl_soc_name(void)
{
    const struct oacl_soc_profile *p = oacl_config()->soc;
    return p ? p->name : oacl_config()->soc_request;
}

/* Rows of the table in spec 1.2; columns in enum oacl_ipc_family order:
 * 950PR 950DT A3 A2 310B 310P 910. */
static const char *const g_table[] = {
    [OACL_FEAT_IPC_MEM] = "YYYYNYY",
    [OACL_FEAT_INTER_SERVER] = "NNYNNNN",
    [OACL_FEAT_IPC_NOTIFY] = "YNYYNYY",
    [OACL_FEAT_BATCH_RESET] = "YYYYNNN",
    [OACL_FEAT_IPC_EVENT] = "YNYYNNN",
    [OACL_FEAT_NO_UC] = "NNYNNNN",
    [OACL_FEAT_P2P_MAP] = "YYYYNYY",
    [OACL_FEAT_FABRIC] = "NNYNNNN",
};

aclError oacl_ipc_feature_check(enum oacl_ipc_feature f, const char *fn)
{
    if (g_table[f][oacl_ipc_family()] == 'Y')
        return ACL_SUCCESS;
    return oacl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, fn, "%s is not supported on %s", fn, oacl_soc_name());
}

bool oacl_ipc_sdid_is_local(uint32_t sdid)
{
    /* Each simulated device reports its index as its SuperPOD device id
       (device_query.c). */
    return sdid < oacl_config()->device_count;
}

/* ---- keys ------------------------------------------------------------------------ */

static uint64_t g_next_id; /* atomic */

uint64_t oacl_ipc_next_id(void) { return __atomic_add_fetch(&g_next_id, 1, __ATOMIC_RELAXED); }

void oacl_ipc_key_new(char kind, struct oacl_ipc_key *out)
{
    out->kind = kind;
    out->pid = getpid();
    out->id = oacl_ipc_next_id();
    oacl_ipc_random(out->secret, sizeof(out->secret));
}

void oacl_ipc_key_format(const struct oacl_ipc_key *k, char out[64])
{
    int n = snprintf(out, 64, "oacl-%c-%d-%016llx-", k->kind, (int)k->pid, (unsigned long long)k->id);
    for (unsigned i = 0; i < OACL_KEY_SECRET && n + 2 < 64; i++)
        n += snprintf(out + n, (size_t)(64 - n), "%02x", k->secret[i]);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

bool oacl_ipc_key_parse(const char *s, char kind, struct oacl_ipc_key *out)
{
    size_t len = strnlen(s, OACL_KEY_BUF_MIN);
    if (len >= OACL_KEY_BUF_MIN || len < 50 || strncmp(s, "oacl-", 5) != 0 || s[5] != kind || s[6] != '-')
        return false;
    const char *p = s + 7;
    /* pid: 1..7 decimal digits, no leading zero */
    long pid = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        pid = pid * 10 + (*p - '0');
        p++;
        digits++;
    }
    if (digits < 1 || digits > 7 || p[-digits] == '0' || *p != '-')
        return false;
    p++;
    uint64_t id = 0;
    for (int i = 0; i < 16; i++, p++) {
        int v = hexval(*p);
        if (v < 0)
            return false;
        id = id << 4 | (uint64_t)v;
    }
    if (*p != '-')
        return false;
    p++;
    for (unsigned i = 0; i < OACL_KEY_SECRET; i++, p += 2) {
        int hi = hexval(p[0]), lo = hi < 0 ? -1 : hexval(p[1]);
        if (lo < 0)
            return false;
        out->secret[i] = (uint8_t)(hi << 4 | lo);
    }
    if (*p != '\0' || id == 0)
        return false;
    out->kind = kind;
    out->pid = (pid_t)pid;
    out->id = id;
    return true;
}

const char *oacl_ipc_key_show(const char *key, char buf[72])
{
    size_t i = 0;
    for (; i < 64 && key[i]; i++)
        buf[i] = isprint((unsigned char)key[i]) ? key[i] : '?';
    if (i == 64 && key[i]) {
        memcpy(buf + 61, "...", 3);
    }
    buf[i] = '\0';
    return buf;
}

/* ---- whitelists ------------------------------------------------------------------ */

static int cmp_pid(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

bool oacl_pidset_has(const struct oacl_pidset *s, int32_t pid)
{
    return s->n && bsearch(&pid, s->pids, s->n, sizeof(int32_t), cmp_pid) != NULL;
}

aclError oacl_pidset_add(struct oacl_pidset *s, const int32_t *pids, size_t n, size_t limit)
{
    /* Count the new distinct pids first: all or nothing. */
    int32_t *fresh = malloc(n * sizeof(int32_t));
    if (!fresh)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!oacl_pidset_has(s, pids[i]))
            fresh[k++] = pids[i];
    qsort(fresh, k, sizeof(int32_t), cmp_pid);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (u == 0 || fresh[u - 1] != fresh[i])
            fresh[u++] = fresh[i];
    if (s->n + u > limit) {
        free(fresh);
        return ACL_ERROR_RT_OVER_LIMIT;
    }
    if (s->n + u > s->cap) {
        size_t cap = s->cap ? s->cap : 8;
        while (cap < s->n + u)
            cap *= 2;
        int32_t *np = realloc(s->pids, cap * sizeof(int32_t));
        if (!np) {
            free(fresh);
            return ACL_ERROR_RT_MEMORY_ALLOCATION;
        }
        s->pids = np;
        s->cap = cap;
    }
    memcpy(s->pids + s->n, fresh, u * sizeof(int32_t));
    s->n += u;
    qsort(s->pids, s->n, sizeof(int32_t), cmp_pid);
    free(fresh);
    return ACL_SUCCESS;
}

void oacl_pidset_free(struct oacl_pidset *s)
{
    free(s->pids);
    s->pids = NULL;
    s->n = s->cap = 0;
}

size_t oacl_ipc_whitelist_limit(void)
{
    enum oacl_ipc_family f = oacl_ipc_family();
    return f == OACL_FAM_950PR || f == OACL_FAM_950DT ? 65535u : 32768u;
}

/* ---- the service ------------------------------------------------------------------ */

aclError oacl_ipc_start(const char *fn)
{
    oacl_ipc_set_handler(OACL_IPC_KIND_MEM, oacl_ipc_mem_serve);
    oacl_ipc_set_handler(OACL_IPC_KIND_NOTIFY, oacl_ipc_notify_serve);
    oacl_ipc_set_handler(OACL_IPC_KIND_EVENT, oacl_ipc_event_serve);
    oacl_ipc_set_handler(OACL_IPC_KIND_VMM, oacl_vmm_serve);
    char err[OACL_IPC_ERRLEN];
    if (oacl_ipc_service_start(err, sizeof(err)) != 0)
        return oacl_fail(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, fn, "%s", err);
    return ACL_SUCCESS;
}

aclError oacl_ipc_call(pid_t pid, enum oacl_ipc_kind kind, uint64_t id, const uint8_t *secret, size_t secret_len,
                       struct oacl_ipc_reply *rep, int *fd, const char *fn)
{
    struct oacl_ipc_request req;
    memset(&req, 0, sizeof(req));
    req.magic = OACL_IPC_MAGIC;
    req.version = OACL_IPC_VERSION;
    req.kind = (uint32_t)kind;
    req.id = id;
    if (secret_len > sizeof(req.secret))
        secret_len = sizeof(req.secret);
    if (secret_len)
        memcpy(req.secret, secret, secret_len);
    memset(rep, 0, sizeof(*rep));
    char err[OACL_IPC_ERRLEN];
    int rc = oacl_ipc_request(pid, &req, rep, fd, err, sizeof(err));
    if (rc)
        return oacl_fail(rc, fn, "%s", err);
    return ACL_SUCCESS;
}

void oacl_ipc_peer_enable(int32_t from, int32_t to)
{
    struct oacl_device *d = oacl_device_at(from);
    if (from == to || !d || !oacl_device_at(to) || to >= 64)
        return;
    __atomic_or_fetch(&d->peer_mask, 1ull << to, __ATOMIC_ACQ_REL);
}
