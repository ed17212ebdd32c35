// The public ACL headers seen from C++17: they must compile warning-free with
// -Wpedantic, give C linkage to the API, keep the C layouts, and offer the
// C++-only parts (dim3 constructor with defaults).  No ACL function is called.
#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

namespace {

int failures = 0;

void check(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "FAILED: %s\n", what);
        ++failures;
    }
}

#define CHECK(expr) check((expr), #expr)

// ---- layouts --------------------------------------------------------------
#if defined(__LP64__) || defined(_LP64)
static_assert(sizeof(aclrtMallocAttrValue) == 8, "aclrtMallocAttrValue");
static_assert(sizeof(aclrtMallocAttribute) == 12, "aclrtMallocAttribute");
static_assert(sizeof(aclrtMallocConfig) == 16, "aclrtMallocConfig");
static_assert(sizeof(aclrtMemLocation) == 8, "aclrtMemLocation");
static_assert(sizeof(aclrtPtrAttributes) == 28, "aclrtPtrAttributes");
static_assert(sizeof(aclrtStreamConfigHandle) == 32, "aclrtStreamConfigHandle");
static_assert(offsetof(aclrtStreamConfigHandle, priority) == 24, "aclrtStreamConfigHandle.priority");
static_assert(sizeof(aclrtStreamAttrValue) == 16, "aclrtStreamAttrValue");
static_assert(sizeof(aclrtBinaryLoadOption) == 20, "aclrtBinaryLoadOption");
static_assert(sizeof(aclrtBinaryLoadOptions) == 16, "aclrtBinaryLoadOptions");
static_assert(sizeof(aclrtLaunchKernelAttrValue) == 16, "aclrtLaunchKernelAttrValue");
static_assert(sizeof(aclrtLaunchKernelAttr) == 20, "aclrtLaunchKernelAttr");
static_assert(sizeof(aclrtLaunchKernelCfg) == 16, "aclrtLaunchKernelCfg");
static_assert(sizeof(aclrtMemUceInfoArray) == 2568, "aclrtMemUceInfoArray");
static_assert(sizeof(aclrtErrorInfo) == 2576, "aclrtErrorInfo");
static_assert(offsetof(aclrtErrorInfo, detail) == 8, "aclrtErrorInfo.detail");
static_assert(sizeof(aclCANNPackageVersion) == 512, "aclCANNPackageVersion");
#endif
// The constructor must not change the C layout.
static_assert(sizeof(dim3) == 3 * sizeof(uint32_t), "dim3");
static_assert(std::is_standard_layout<dim3>::value, "dim3 layout");

// ---- constant forms ---------------------------------------------------------
static_assert(std::is_same<decltype(ACL_SUCCESS), const int>::value, "generic codes are const int");
static_assert(std::is_same<decltype(ACL_ERROR_GE_PARAM_INVALID), const uint32_t>::value,
              "GE codes are const uint32_t");
static_assert(ACL_ERROR_GE_PARAM_INVALID == 145000U, "GE value");
static_assert(ACL_ERROR_INVALID_PARAM == 100000, "generic value");
static_assert(ACL_RT_SUCCESS == 0 && ACL_SUCCESS == 0, "success values");
static_assert(ACL_ERROR_RT_PARAM_INVALID == 107000, "RT value");
static_assert(std::is_same<decltype(ACL_HOST_REG_PINNED), unsigned long>::value, "UL flag");
static_assert(std::is_same<decltype(ACL_EVENT_SYNC), unsigned int>::value, "U flag");

// ---- prototypes: C linkage does not change the types ---------------------------
static_assert(std::is_same<decltype(&aclInit), aclError (*)(const char *)>::value, "aclInit");
static_assert(std::is_same<decltype(&aclFinalize), aclError (*)()>::value, "aclFinalize");
static_assert(std::is_same<decltype(&aclrtGetSocName), const char *(*)()>::value, "aclrtGetSocName");
static_assert(std::is_same<decltype(&aclrtLaunchKernelWithConfig),
                           aclError (*)(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg *,
                                        aclrtArgsHandle, void *)>::value,
              "aclrtLaunchKernelWithConfig");
static_assert(std::is_same<decltype(&aclrtGetLastError), aclError (*)(aclrtLastErrLevel)>::value,
              "aclrtGetLastError");

const char *describe(aclError code)
{
    // Runtime codes are macros and generic codes constant expressions, so
    // both work as case labels.
    switch (code) {
    case ACL_SUCCESS: return "success";
    case ACL_ERROR_INVALID_PARAM: return "api-param";
    case ACL_ERROR_RT_PARAM_INVALID: return "rt-param";
    case ACL_ERROR_RT_CONTEXT_NULL: return "no-context";
    case ACL_ERROR_HOST_MEMORY_NOT_REGISTERED: return "not-registered";
    default: return "other";
    }
}

bool same(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) {
        ++a;
        ++b;
    }
    return *a == *b;
}

} // namespace

int main()
{
    // dim3: every component defaults to 1 and can be given explicitly.
    dim3 all_default;
    CHECK(all_default.x == 1 && all_default.y == 1 && all_default.z == 1);
    dim3 two(8, 4);
    CHECK(two.x == 8 && two.y == 4 && two.z == 1);
    constexpr dim3 fixed(2, 3, 5);
    static_assert(fixed.x * fixed.y * fixed.z == 30, "constexpr dim3");
    dim3 from_int = 16;
    CHECK(from_int.x == 16 && from_int.y == 1 && from_int.z == 1);

    CHECK(same(describe(107000), "rt-param"));
    CHECK(same(describe(107002), "no-context"));
    CHECK(same(describe(507911), "not-registered"));
    CHECK(same(describe(100000), "api-param"));
    CHECK(same(describe(0), "success"));
    CHECK(same(describe(1), "other"));

    // Enumerations keep their values in C++.
    CHECK(ACL_MEMCPY_DEVICE_TO_HOST == 2);
    CHECK(ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000);
    CHECK(ACL_DEV_ATTR_NPU_ARCH == 601);
    CHECK(ACL_RT_ERROR_OTHERS == 0xFFFF);
    CHECK(ACL_FORMAT_UNDEFINED == -1 && ACL_DT_UNDEFINED == -1);

    // Aggregate initialization of the C structures still works.
    aclrtLaunchKernelAttr attr = {ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, {1}};
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    CHECK(cfg.numAttrs == 1 && cfg.attrs[0].value.schemMode == 1);

    if (failures != 0) {
        std::fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    std::printf("all C++ header checks passed\n");
    return 0;
}
