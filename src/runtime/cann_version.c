/*
 * aclsysGetCANNVersion (deprecated): the version of an installed package,
 * whole and split into parts.
 *
 * oacl is the runtime, the kernel compiler and the toolkit at once: CANN,
 * RUNTIME, COMPILER and TOOLKIT report oacl's own version (the one
 * aclsysGetVersionStr reports). HCCL, OPP and OPP_KERNEL report the
 * version.info of <prefix>/share/info/<dir>/ when such a package was
 * installed next to oacl (either spelling of the directory), else 100003.
 * DRIVER is 100003, consistent with aclsysGetVersionStr("driver"): a
 * simulator has no driver package.
 *
 * The version is normalised as CANN does: the part after the first '-'
 * loses its dots and is joined with a dot ("9.0.0-beta.1" ->
 * "9.0.0.beta1"); the result is split at dots (at least 2 parts; missing
 * third and fourth parts are "0").
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.h"

/* Copies at most dst_size - 1 bytes of [s, s + n). */
static void copy_part(char *dst, size_t dst_size, const char *s, size_t n)
{
    if (n > dst_size - 1)
        n = dst_size - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* <prefix> of the library (<prefix>/lib64/libacl_rt.so). */
static bool lib_prefix(char *out, size_t len)
{
    Dl_info info;
    if (!dladdr((void *)lib_prefix, &info) || !info.dli_fname)
        return false;
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s", info.dli_fname);
    char *slash = strrchr(path, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return (size_t)snprintf(out, len, "%s/..", path) < len;
}

/* The Version= value of <prefix>/share/info/<dir>/version.info. */
static bool package_version(const char *dir, char *out, size_t len)
{
    char prefix[PATH_MAX], path[PATH_MAX + 64];
    if (!lib_prefix(prefix, sizeof(prefix)))
        return false;
    if ((size_t)snprintf(path, sizeof(path), "%s/share/info/%s/version.info", prefix, dir) >= sizeof(path))
        return false;
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    char line[512];
    bool found = false;
    while (!found && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "Version=", 8) == 0) {
            char *v = line + 8;
            size_t n = strcspn(v, "\r\n");
            copy_part(out, len, v, n);
            found = true;
        }
    }
    fclose(f);
    return found;
}

/* Normalises and splits raw into *v (zeroed first); false: fewer than 2 parts. */
static bool fill_version(const char *raw, aclCANNPackageVersion *v)
{
    char norm[512];
    const char *dash = strchr(raw, '-');
    if (dash) {
        size_t n = (size_t)snprintf(norm, sizeof(norm), "%.*s.", (int)(dash - raw), raw);
        for (const char *p = dash + 1; *p && n + 1 < sizeof(norm); p++)
            if (*p != '.')
                norm[n++] = *p;
        norm[n < sizeof(norm) ? n : sizeof(norm) - 1] = '\0';
    } else {
        snprintf(norm, sizeof(norm), "%s", raw);
    }
    memset(v, 0, sizeof(*v));
    char *parts[4] = {v->majorVersion, v->minorVersion, v->releaseVersion, v->patchVersion};
    unsigned count = 0;
    const char *s = norm;
    for (;;) {
        size_t n = strcspn(s, ".");
        if (count < 4)
            copy_part(parts[count], ACL_PKG_VERSION_PARTS_MAX_SIZE, s, n);
        count++;
        if (s[n] != '.')
            break;
        s += n + 1;
    }
    if (count < 2) {
        memset(v, 0, sizeof(*v));
        return false;
    }
    copy_part(v->version, sizeof(v->version), norm, strlen(norm));
    for (unsigned i = count; i < 4; i++)
        strcpy(parts[i], "0");
    return true;
}

OACL_API aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version)
{
    if (!version)
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "version is NULL");
    char raw[256];
    switch ((int)name) {
    case ACL_PKG_NAME_CANN:
    case ACL_PKG_NAME_RUNTIME:
    case ACL_PKG_NAME_COMPILER:
    case ACL_PKG_NAME_TOOLKIT:
        snprintf(raw, sizeof(raw), "%s", oacl_version_string());
        break;
    case ACL_PKG_NAME_HCCL:
        if (!package_version("hccl", raw, sizeof(raw)))
            return oacl_fail(ACL_ERROR_INVALID_FILE, __func__,
                             "the hccl package is not installed (no share/info/hccl/version.info with a Version= "
                             "line next to oacl)");
        break;
    case ACL_PKG_NAME_OPP:
    case ACL_PKG_NAME_OPP_KERNEL:
        if (!package_version("ops-legacy", raw, sizeof(raw)) && !package_version("ops_legacy", raw, sizeof(raw)))
            return oacl_fail(ACL_ERROR_INVALID_FILE, __func__,
                             "the operator package is not installed (no share/info/ops-legacy/version.info with a "
                             "Version= line next to oacl)");
        break;
    case ACL_PKG_NAME_DRIVER:
        return oacl_fail(ACL_ERROR_INVALID_FILE, __func__,
                         "no driver package: the device is simulated (aclsysGetVersionStr(\"driver\") fails too)");
    default:
        return oacl_fail(ACL_ERROR_INVALID_PARAM, __func__, "name %d is not an aclCANNPackageName (0..7)", (int)name);
    }
    if (!fill_version(raw, version))
        return oacl_fail(ACL_ERROR_INVALID_FILE, __func__, "version '%s' has fewer than 2 dot-separated parts", raw);
    return ACL_SUCCESS;
}
