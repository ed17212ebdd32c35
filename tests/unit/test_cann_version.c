/*
 * aclsysGetCANNVersion (acl-rt-misc.md 3.8, deprecated): oacl's own version
 * for CANN/RUNTIME/COMPILER/TOOLKIT, installed version.info files for
 * HCCL/OPP/OPP_KERNEL, 100003 for DRIVER; CANN's normalisation
 * ("9.0.0-beta.1" -> "9.0.0.beta1") and split into four parts.
 *
 * Other versions and installed packages are seen by a child process that
 * loads a copy of the library from a temporary prefix (as test_init does).
 */
#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child_process.h"
#include "test_support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* the function under test is deprecated */

static char g_tmpdir[256];

static int all_zero(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

static void test_own_packages(void **state)
{
    (void)state;
    char want[ACL_PKG_VERSION_MAX_SIZE];
    ACL_OK(aclsysGetVersionStr("cann", want));
    static const aclCANNPackageName names[] = {ACL_PKG_NAME_CANN, ACL_PKG_NAME_RUNTIME, ACL_PKG_NAME_COMPILER,
                                               ACL_PKG_NAME_TOOLKIT};
    for (size_t i = 0; i < ARRAY_LEN(names); i++) {
        aclCANNPackageVersion v;
        memset(&v, 'x', sizeof(v));
        ACL_OK(aclsysGetCANNVersion(names[i], &v));
        assert_string_equal(v.version, want); /* "0.1.0": nothing to normalise */
        /* The parts join back to the version; absent ones are "0". */
        char joined[300];
        snprintf(joined, sizeof(joined), "%s.%s.%s", v.majorVersion, v.minorVersion, v.releaseVersion);
        assert_string_equal(joined, want);
        assert_string_equal(v.patchVersion, "0");
        /* Everything after each string is zero, reserved included. */
        assert_true(all_zero(v.version + strlen(v.version), sizeof(v.version) - strlen(v.version)));
        assert_true(all_zero(v.majorVersion + strlen(v.majorVersion), sizeof(v.majorVersion) - strlen(v.majorVersion)));
        assert_true(all_zero(v.reserved, sizeof(v.reserved)));
    }
}

static void test_missing_packages(void **state)
{
    (void)state;
    aclCANNPackageVersion v;
    memset(&v, 0x5a, sizeof(v));
    ACL_ERR(aclsysGetCANNVersion(ACL_PKG_NAME_HCCL, &v), ACL_ERROR_INVALID_FILE,
            "aclsysGetCANNVersion: the hccl package is not installed");
    ACL_ERR(aclsysGetCANNVersion(ACL_PKG_NAME_OPP, &v), ACL_ERROR_INVALID_FILE, "operator package is not installed");
    ACL_ERR(aclsysGetCANNVersion(ACL_PKG_NAME_OPP_KERNEL, &v), ACL_ERROR_INVALID_FILE, "ops-legacy");
    ACL_ERR(aclsysGetCANNVersion(ACL_PKG_NAME_DRIVER, &v), ACL_ERROR_INVALID_FILE, "no driver package");
    /* Consistent with aclsysGetVersionStr. */
    char s[ACL_PKG_VERSION_MAX_SIZE];
    ACL_ERR(aclsysGetVersionStr("driver", s), ACL_ERROR_INVALID_FILE, "unknown package");
    /* Bad arguments (API layer). */
    ACL_ERR(aclsysGetCANNVersion((aclCANNPackageName)8, &v), ACL_ERROR_INVALID_PARAM,
            "aclsysGetCANNVersion: name 8 is not an aclCANNPackageName");
    ACL_ERR(aclsysGetCANNVersion((aclCANNPackageName)-1, &v), ACL_ERROR_INVALID_PARAM, "name -1");
    ACL_ERR(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, NULL), ACL_ERROR_INVALID_PARAM,
            "aclsysGetCANNVersion: version is NULL");
    /* The struct was not touched; no last error. */
    for (size_t i = 0; i < sizeof(v); i++)
        assert_int_equal(((unsigned char *)&v)[i], 0x5a);
    assert_int_equal(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

/* ---- other versions, installed packages: a copy of the library ---- */

/* Prints "rc|version|major|minor|release|patch|zero" for names 0..7. */
static void child_versions(void)
{
    const char *lib = getenv("OACL_TEST_LIB");
    CHILD_CHECK(lib != NULL);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        exit(1);
    }
    aclError (*get)(aclCANNPackageName, aclCANNPackageVersion *) =
        (aclError(*)(aclCANNPackageName, aclCANNPackageVersion *))dlsym(h, "aclsysGetCANNVersion");
    CHILD_CHECK(get != NULL);
    for (int n = 0; n <= 7; n++) {
        aclCANNPackageVersion v;
        memset(&v, 0x5a, sizeof(v));
        aclError rc = get((aclCANNPackageName)n, &v);
        if (rc == ACL_SUCCESS) {
            int zero = all_zero(v.reserved, sizeof(v.reserved));
            printf("%d|%s|%s|%s|%s|%s|%d\n", rc, v.version, v.majorVersion, v.minorVersion, v.releaseVersion,
                   v.patchVersion, zero);
        } else {
            /* untouched (0x5a) or zeroed (the parse stage was reached) */
            printf("%d|%s\n", rc,
                   all_zero((const char *)&v, sizeof(v))          ? "zeroed"
                   : ((unsigned char *)&v)[sizeof(v) - 1] == 0x5a ? "untouched"
                                                                  : "partly");
        }
    }
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return -1;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    char buf[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            rc = -1;
    fclose(in);
    if (fclose(out) != 0)
        rc = -1;
    return rc;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* A fresh prefix with the library and the given version.info files (name
 * of the share/info directory, content; NULL content: none), then the
 * child's output. */
static void run_prefix(const char *const *files, size_t nfiles, char *out, size_t outlen)
{
    char dir[400];
    snprintf(dir, sizeof(dir), "%s/prefix", g_tmpdir);
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    static const char *const sub[] = {"", "/lib64", "/share", "/share/info"};
    for (size_t i = 0; i < ARRAY_LEN(sub); i++) {
        char d[600];
        snprintf(d, sizeof(d), "%s%s", dir, sub[i]);
        assert_int_equal(mkdir(d, 0700), 0);
    }
    Dl_info info;
    assert_true(dladdr((void *)aclsysGetCANNVersion, &info) && info.dli_fname);
    static char lib[600], env_lib[700];
    snprintf(lib, sizeof(lib), "%s/lib64/libacl_rt.so", dir);
    assert_int_equal(copy_file(info.dli_fname, lib), 0);
    snprintf(env_lib, sizeof(env_lib), "OACL_TEST_LIB=%s", lib);
    for (size_t i = 0; i + 1 < nfiles; i += 2) {
        char d[600], f[700];
        snprintf(d, sizeof(d), "%s/share/info/%s", dir, files[i]);
        assert_int_equal(mkdir(d, 0700), 0);
        snprintf(f, sizeof(f), "%s/version.info", d);
        write_text(f, files[i + 1]);
    }
    const char *env[] = {env_lib, "ASAN_OPTIONS=detect_odr_violation=0:detect_leaks=0", NULL};
    assert_int_equal(oacl_run_child("versions", env, out, outlen), 0);
}

static void test_installed_versions(void **state)
{
    (void)state;
    static const char *const files[] = {
        "runtime", "Version=9.0.0-beta.1\n",
        "hccl", "Package=hccl\nVersion=8.0.RC1\n",
        "ops_legacy", "Version=8.5.0-rc.2.x\n", /* the underscore spelling */
    };
    char out[2048];
    run_prefix(files, ARRAY_LEN(files), out, sizeof(out));
    const char *want = "0|9.0.0.beta1|9|0|0|beta1|1\n"  /* CANN */
                       "0|9.0.0.beta1|9|0|0|beta1|1\n"  /* RUNTIME */
                       "0|9.0.0.beta1|9|0|0|beta1|1\n"  /* COMPILER */
                       "0|8.0.RC1|8|0|RC1|0|1\n"        /* HCCL */
                       "0|9.0.0.beta1|9|0|0|beta1|1\n"  /* TOOLKIT */
                       "0|8.5.0.rc2x|8|5|0|rc2x|1\n"    /* OPP */
                       "0|8.5.0.rc2x|8|5|0|rc2x|1\n"    /* OPP_KERNEL */
                       "100003|untouched\n";            /* DRIVER */
    assert_string_equal(out, want);
}

static void test_installed_edge_cases(void **state)
{
    (void)state;
    static const char *const files[] = {
        "runtime", "Version=1.2.3.4.5\n",     /* extra parts only in the full string */
        "hccl", "Version=8\n",                /* one part: failure, struct zeroed */
        "ops-legacy", "Name=opp\n",           /* no Version= line */
    };
    char out[2048];
    run_prefix(files, ARRAY_LEN(files), out, sizeof(out));
    const char *want = "0|1.2.3.4.5|1|2|3|4|1\n"
                       "0|1.2.3.4.5|1|2|3|4|1\n"
                       "0|1.2.3.4.5|1|2|3|4|1\n"
                       "100003|zeroed\n"
                       "0|1.2.3.4.5|1|2|3|4|1\n"
                       "100003|untouched\n"
                       "100003|untouched\n"
                       "100003|untouched\n";
    assert_string_equal(out, want);
}

static int setup_group(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(g_tmpdir, sizeof(g_tmpdir), "%s/oacl-test-cannver-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(g_tmpdir) ? 0 : -1;
}

static int teardown_group(void **state)
{
    (void)state;
    nftw(g_tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}

static const struct oacl_child_mode g_modes[] = {
    {"versions", child_versions},
};

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], OACL_CHILD_FLAG) == 0)
        return oacl_child_dispatch(g_modes, ARRAY_LEN(g_modes), argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_packages),
        cmocka_unit_test(test_missing_packages),
        cmocka_unit_test(test_installed_versions),
        cmocka_unit_test(test_installed_edge_cases),
    };
    return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
