/*
 * Process initialisation (aclInit / aclFinalize), the simulator's
 * configuration and version queries.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "device/cpu/soc_profile.h"
#include "runtime/dump.h"
#include "runtime/prof.h"
#include "runtime/runtime.h"

#define MAX_DEVICES 64

/* ---- configuration ----------------------------------------------------------- */

static struct oacl_config g_config;
static pthread_once_t g_config_once = PTHREAD_ONCE_INIT;

static void config_load(void)
{
    g_config.device_count = 8;
    g_config.default_device = -1;
    const char *n = getenv("OACL_DEVICE_COUNT");
    if (n && *n) {
        char *end;
        unsigned long v = strtoul(n, &end, 10);
        if (*end == '\0' && v <= MAX_DEVICES)
            g_config.device_count = (uint32_t)v;
        else
            OACL_WARN("OACL_DEVICE_COUNT='%s' is not a number in 0..%d; using 8 devices", n, MAX_DEVICES);
    }
    /* ASCEND_RT_VISIBLE_DEVICES picks user ids among them (device_ids.c). */
    g_config.device_count = oacl_visible_devices_init(g_config.device_count);
    const char *soc = getenv("OACL_SOC");
    if (!soc || !*soc)
        soc = OACL_DEFAULT_SOC;
    snprintf(g_config.soc_request, sizeof(g_config.soc_request), "%s", soc);
    g_config.soc = oacl_soc_find(soc);
    if (!g_config.soc)
        OACL_ERROR("OACL_SOC='%s' names no known SoC profile; the simulated devices are unavailable", soc);
    g_config.device_memory = g_config.soc ? g_config.soc->memory_bytes : 0;
    const char *m = getenv("OACL_DEVICE_MEMORY");
    if (m && *m) {
        char *end;
        unsigned long long v = strtoull(m, &end, 10);
        unsigned shift = 0;
        if (*end == 'K' || *end == 'k')
            shift = 10, end++;
        else if (*end == 'M' || *end == 'm')
            shift = 20, end++;
        else if (*end == 'G' || *end == 'g')
            shift = 30, end++;
        /* At least one page, at most 1 TiB per device. */
        if (*end == '\0' && v > 0 && v <= (1ull << 40) >> shift && (v << shift) >= 4096)
            g_config.device_memory = v << shift;
        else
            OACL_WARN("OACL_DEVICE_MEMORY='%s' is not a size between 4K and 1024G; using the profile's", m);
    }
}

const struct oacl_config *oacl_config(void)
{
    pthread_once(&g_config_once, config_load);
    return &g_config;
}

void oacl_config_set_default_device(int32_t dev)
{
    oacl_config();
    __atomic_store_n(&g_config.default_device, dev, __ATOMIC_RELEASE);
}

/* ---- version ------------------------------------------------------------------ */

static char g_version[ACL_PKG_VERSION_MAX_SIZE];
static pthread_once_t g_version_once = PTHREAD_ONCE_INIT;

/* The installation's share/info/runtime/version.info, found from the
 * library's own location (<prefix>/lib64/libacl_rt.so). */
static void version_load(void)
{
    snprintf(g_version, sizeof(g_version), "%s", OACL_VERSION_STRING);
    Dl_info info;
    if (!dladdr((void *)version_load, &info) || !info.dli_fname)
        return;
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s", info.dli_fname);
    char *slash = strrchr(path, '/');
    if (!slash)
        return;
    *slash = '\0';
    size_t used = strlen(path);
    if (used + sizeof("/../share/info/runtime/version.info") > sizeof(path))
        return;
    strcat(path, "/../share/info/runtime/version.info");
    FILE *f = fopen(path, "re");
    if (!f)
        return;
    char line[256];
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "Version=", 8) == 0) {
            char *v = line + 8;
            v[strcspn(v, "\r\n")] = '\0';
            size_t n = strlen(v);
            if (n && n < sizeof(g_version))
                memcpy(g_version, v, n + 1);
            break;
        }
    }
    fclose(f);
}

const char *oacl_version_string(void)
{
    pthread_once(&g_version_once, version_load);
    return g_version;
}

static bool known_package(const char *name)
{
    /* oacl is both the runtime and the whole toolkit. */
    static const char *const names[] = {"runtime", "cann", "toolkit", "cann-toolkit", "cann_toolkit"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

OACL_API aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
    if (!pkgName || !versionStr)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", pkgName ? "versionStr" : "pkgName");
    if (!known_package(pkgName))
        return oacl_fail(ACL_ERROR_INVALID_FILE, __func__, "unknown package '%s' (known: runtime, cann)", pkgName);
    snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", oacl_version_string());
    return ACL_SUCCESS;
}

/* X.Y.Z[-alpha|beta|rc.N] -> X*10^7 + Y*10^5 + Z*10^3 (+ pre-release). */
static bool version_number(const char *v, int32_t *out)
{
    char *end;
    long part[3];
    const char *s = v;
    for (int i = 0; i < 3; i++) {
        if (*s < '0' || *s > '9')
            return false;
        errno = 0;
        part[i] = strtol(s, &end, 10);
        /* Minor and patch have two decimal digits in the encoding; the
           major part is bounded only by int32_t (X * 10^7). */
        if (errno || (i > 0 && part[i] > 99) || (i == 0 && part[i] > 214))
            return false;
        s = end;
        if (i < 2) {
            if (*s != '.')
                return false;
            s++;
        }
    }
    long num = part[0] * 10000000L + part[1] * 100000L + part[2] * 1000L;
    if (*s == '-') {
        s++;
        long base;
        if (strncmp(s, "alpha.", 6) == 0)
            base = -300, s += 6;
        else if (strncmp(s, "beta.", 5) == 0)
            base = -200, s += 5;
        else if (strncmp(s, "rc.", 3) == 0)
            base = -100, s += 3;
        else
            return false;
        if (*s < '0' || *s > '9')
            return false;
        long n = strtol(s, &end, 10);
        if (n > 99)
            return false;
        s = end;
        num += base + n;
    }
    if (*s != '\0')
        return false;
    *out = (int32_t)num;
    return true;
}

OACL_API aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
    if (!pkgName || !versionNum)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL", pkgName ? "versionNum" : "pkgName");
    if (!known_package(pkgName))
        return oacl_fail(ACL_ERROR_INVALID_FILE, __func__, "unknown package '%s' (known: runtime, cann)", pkgName);
    const char *v = oacl_version_string();
    if (!version_number(v, versionNum))
        return oacl_fail(ACL_ERROR_INTERNAL_ERROR, __func__, "version string '%s' does not parse as X.Y.Z", v);
    return ACL_SUCCESS;
}

OACL_API aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
    if (!majorVersion || !minorVersion || !patchVersion)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "%s is NULL",
                         !majorVersion ? "majorVersion" : !minorVersion ? "minorVersion" : "patchVersion");
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

/* ---- aclInit / aclFinalize -------------------------------------------------------
 *
 * Steps at CANN's positions (spec acl-rt-misc.md 3.2): aclInit reads the
 * file, refuses a configuration other than the first successful one's,
 * checks it, then notifies the ACL_MODEL init callbacks; with a file, the
 * dump section would be applied here (not yet), then OP_EXECUTOR callbacks
 * and the defaultDevice key; then DVPP and OTHER callbacks; only then the
 * process counts as initialized. aclFinalize notifies OP_COMPILER, MODEL,
 * DVPP callbacks, drops the default device, notifies OTHER callbacks and
 * only then counts as finalized. The first failing callback stops either
 * sequence with its code; steps already done stay done.
 */

enum init_state { NEVER_INITIALIZED, INITIALIZED, FINALIZED };

static pthread_mutex_t g_init_lock = PTHREAD_MUTEX_INITIALIZER;
static enum init_state g_state = NEVER_INITIALIZED; /* g_init_lock */
static uint64_t g_refcount;                         /* atomic; written under g_init_lock */
/* The configuration text of the first successful aclInit, set once before
 * g_refcount first becomes non-zero and never changed: every later real
 * initialization must bring the same text (CANN compares a hash). */
static char *g_first_text;
static size_t g_first_len;

bool oacl_init_config_text(const char **text, size_t *len)
{
    if (__atomic_load_n(&g_refcount, __ATOMIC_ACQUIRE) == 0)
        return false;
    *text = g_first_text;
    *len = g_first_len;
    return true;
}

static aclError nested_call(const char *fn)
{
    return oacl_fail(ACL_ERROR_INVALID_PARAM, fn, "called from an init/finalize callback (not allowed)");
}

/* The real initialization (init lock held, not initialized). */
static aclError init_locked(const char *configPath)
{
    bool have_file = configPath && configPath[0];
    char *text = NULL;
    size_t len = 0;
    bool too_large = false;
    aclError rc = ACL_SUCCESS;
    if (have_file)
        rc = oacl_config_file_read(configPath, &text, &len, &too_large);
    if (rc)
        return rc;
    if (!have_file || too_large) {
        free(text);
        text = strdup("");
        len = 0;
        if (!text)
            return oacl_fail(ACL_ERROR_BAD_ALLOC, "aclInit", "out of memory");
    }
    /* 1. Same content as the first successful configuration (a file over
          the size limit necessarily differs from it), then the checks. */
    if (g_first_text && (too_large || len != g_first_len || memcmp(text, g_first_text, len) != 0)) {
        rc = oacl_fail(ACL_ERROR_INVALID_PARAM, "aclInit",
                       "the configuration ('%s') differs from that of the first successful aclInit of this process; "
                       "a re-initialization must use the same configuration",
                       have_file ? configPath : "none");
    } else if (too_large) {
        rc = oacl_fail(ACL_ERROR_INVALID_FILE, "aclInit", "configuration file '%s' exceeds 10 MiB", configPath);
    }
    struct oacl_init_settings set = {.global_msgs = false, .default_device = -1};
    if (rc == ACL_SUCCESS && have_file)
        rc = oacl_config_parse(text, len, configPath, &set);
    if (rc == ACL_SUCCESS) {
        oacl_errmsg_set_global(set.global_msgs);
        /* 2. */
        rc = oacl_notify_init_callbacks(ACL_REG_TYPE_ACL_MODEL, text, len);
    }
    /* 3. (The "dump" section goes here, before the OP_EXECUTOR callbacks.) */
    if (rc == ACL_SUCCESS && have_file) {
        rc = oacl_notify_init_callbacks(ACL_REG_TYPE_ACL_OP_EXECUTOR, text, len);
        if (rc == ACL_SUCCESS)
            oacl_config_set_default_device(set.default_device);
    }
    /* 4. (profiling, SoC name: nothing to do) 5. 6. */
    if (rc == ACL_SUCCESS)
        rc = oacl_notify_init_callbacks(ACL_REG_TYPE_ACL_DVPP, text, len);
    if (rc == ACL_SUCCESS)
        rc = oacl_notify_init_callbacks(ACL_REG_TYPE_OTHER, text, len);
    if (rc) {
        free(text);
        return rc;
    }
    /* 7. */
    if (!g_first_text) {
        g_first_text = text;
        g_first_len = len;
    } else {
        free(text);
    }
    g_state = INITIALIZED;
    __atomic_store_n(&g_refcount, 1, __ATOMIC_RELEASE);
    return ACL_SUCCESS;
}

OACL_API aclError aclInit(const char *configPath)
{
    OACL_PROF_API(NULL);
    if (oacl_in_lifecycle_callback())
        return nested_call(__func__);
    pthread_mutex_lock(&g_init_lock);
    if (__atomic_load_n(&g_refcount, __ATOMIC_RELAXED) > 0) {
        __atomic_add_fetch(&g_refcount, 1, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&g_init_lock);
        return oacl_fail(ACL_ERROR_REPEAT_INITIALIZE, __func__,
                         "already initialized; the first configuration stays in effect");
    }
    aclError rc = init_locked(configPath);
    pthread_mutex_unlock(&g_init_lock);
    /* the file's profiler and dump sections take effect now */
    oacl_prof_acl_init_done(rc == ACL_SUCCESS);
    if (rc == ACL_SUCCESS)
        oacl_dump_acl_init_done();
    else
        oacl_dump_acl_init_failed();
    return rc;
}

bool oacl_acl_initialized(void)
{
    return __atomic_load_n(&g_refcount, __ATOMIC_ACQUIRE) > 0;
}

/* The real finalization (init lock held); on a callback failure the
 * process stays initialized. fn: the caller, for messages. */
static aclError finalize_locked(const char *fn)
{
    aclError rc = oacl_notify_finalize_callbacks(ACL_REG_TYPE_ACL_OP_COMPILER, fn);
    if (rc == ACL_SUCCESS)
        rc = oacl_notify_finalize_callbacks(ACL_REG_TYPE_ACL_MODEL, fn);
    /* (Dumping stops here.) */
    if (rc == ACL_SUCCESS)
        rc = oacl_notify_finalize_callbacks(ACL_REG_TYPE_ACL_DVPP, fn);
    if (rc == ACL_SUCCESS) {
        oacl_config_set_default_device(-1);
        rc = oacl_notify_finalize_callbacks(ACL_REG_TYPE_OTHER, fn);
    }
    if (rc)
        return rc;
    g_state = FINALIZED;
    __atomic_store_n(&g_refcount, 0, __ATOMIC_RELEASE);
    return ACL_SUCCESS;
}

OACL_API aclError aclFinalize(void)
{
    OACL_PROF_API(NULL);
    if (oacl_in_lifecycle_callback())
        return nested_call(__func__);
    pthread_mutex_lock(&g_init_lock);
    /* The very first aclFinalize of a process that never initialized is a
       successful finalize (CANN), callbacks included. */
    if (g_state == FINALIZED && __atomic_load_n(&g_refcount, __ATOMIC_RELAXED) == 0) {
        pthread_mutex_unlock(&g_init_lock);
        return oacl_fail(ACL_ERROR_REPEAT_FINALIZE, __func__, "already finalized; call aclInit first");
    }
    aclError rc = finalize_locked(__func__);
    pthread_mutex_unlock(&g_init_lock);
    if (rc == ACL_SUCCESS) {
        oacl_prof_acl_finalize();
        oacl_dump_acl_finalize();
        oacl_leak_report("aclFinalize");
    }
    return rc;
}

OACL_API aclError aclFinalizeReference(uint64_t *refCount)
{
    if (oacl_in_lifecycle_callback())
        return nested_call(__func__);
    pthread_mutex_lock(&g_init_lock);
    uint64_t count = __atomic_load_n(&g_refcount, __ATOMIC_RELAXED);
    if (count == 0) {
        pthread_mutex_unlock(&g_init_lock);
        if (refCount)
            *refCount = 0;
        return oacl_fail(ACL_ERROR_REPEAT_FINALIZE, __func__, "not initialized");
    }
    aclError rc = ACL_SUCCESS;
    if (count == 1)
        rc = finalize_locked(__func__); /* a failing callback keeps the count at 1 */
    else
        __atomic_store_n(&g_refcount, count - 1, __ATOMIC_RELEASE);
    uint64_t left = __atomic_load_n(&g_refcount, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g_init_lock);
    if (left == 0) {
        oacl_prof_acl_finalize();
        oacl_dump_acl_finalize();
        if (rc == ACL_SUCCESS)
            oacl_leak_report("aclFinalizeReference");
    }
    if (refCount)
        *refCount = left;
    return rc;
}
