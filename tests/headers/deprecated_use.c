/*
 * Compiled (never linked) by the header tests to confirm that deprecated
 * API items carry a deprecation attribute: each variant must make the
 * compiler print a "deprecated" diagnostic naming the item.
 */
#include <acl/acl.h>

#if defined(USE_GET_VERSION)
aclError use(void);
aclError use(void)
{
    int32_t major, minor, patch;
    return aclrtGetVersion(&major, &minor, &patch);
}
#elif defined(USE_LOCAL_MEMORY_ID)
int use(void);
int use(void)
{
    return (int)ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE;
}
#elif defined(USE_LOCAL_MEMORY_MEMBER)
uint32_t use(aclrtLaunchKernelAttrValue *v);
uint32_t use(aclrtLaunchKernelAttrValue *v)
{
    return v->localMemorySize;
}
#elif defined(USE_MEMCPY_WITH_CONDITION)
aclError use(void *dst, const void *src);
aclError use(void *dst, const void *src)
{
    return aclrtMemcpyAsyncWithCondition(dst, 8, src, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL);
}
#elif defined(USE_DATA_BUFFER_SIZE)
uint32_t use(const aclDataBuffer *b);
uint32_t use(const aclDataBuffer *b)
{
    return aclGetDataBufferSize(b);
}
#elif defined(USE_CANN_VERSION)
aclError use(aclCANNPackageVersion *v);
aclError use(aclCANNPackageVersion *v)
{
    return aclsysGetCANNVersion(ACL_PKG_NAME_CANN, v);
}
#elif defined(USE_STRONG_CONSISTENCY)
int use(void);
int use(void)
{
    return (int)ACL_OPT_STRONG_CONSISTENCY;
}
#elif defined(USE_QUERY_EVENT)
aclError use(aclrtEvent e);
aclError use(aclrtEvent e)
{
    aclrtEventStatus st;
    return aclrtQueryEvent(e, &st);
}
#else
#error "select a variant"
#endif
