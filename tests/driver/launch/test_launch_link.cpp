/*
 * Kernels linked into the program and launched with <<<>>> (sources in
 * this directory, compiled by `oacl-cc -c`): values of launch expressions,
 * arguments captured by value, parameter layout, templates, namespaces,
 * static kernels, streams given as nullptr / aclrtStream / void*, traps,
 * bad block counts, and a kernel launched from two translation units.
 */
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <setjmp.h>

extern "C" { // this cmocka.h has no C++ guards
#include <cmocka.h>
}

#include "acl/acl.h"
#include "launch_kernels.h"

namespace {

struct Mapped {
    void *host = nullptr;
    void *dev = nullptr;
};

aclrtStream g_stream;
Mapped g_buf;

template <typename T>
T *dev(size_t byte_offset = 0)
{
    return reinterpret_cast<T *>(static_cast<uint8_t *>(g_buf.dev) + byte_offset);
}

template <typename T>
T *host(size_t byte_offset = 0)
{
    return reinterpret_cast<T *>(static_cast<uint8_t *>(g_buf.host) + byte_offset);
}

int Setup(void **)
{
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != ACL_SUCCESS ||
        aclrtMallocHost(&g_buf.host, 1 << 16) != ACL_SUCCESS ||
        aclrtHostRegisterV2(g_buf.host, 1 << 16, ACL_HOST_REG_MAPPED) != ACL_SUCCESS ||
        aclrtHostGetDevicePointer(g_buf.host, &g_buf.dev, 0) != ACL_SUCCESS)
        return -1;
    return 0;
}

int Teardown(void **)
{
    aclrtHostUnregister(g_buf.host);
    aclrtFreeHost(g_buf.host);
    aclrtDestroyStream(g_stream);
    return aclrtResetDeviceForce(0);
}

int Clear(void **)
{
    std::memset(g_buf.host, 0, 1 << 16);
    return 0;
}

void TestValueAndArguments(void **)
{
    assert_int_equal(RunFill(4, g_stream, dev<float>(), 1.5f, 10), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    for (int b = 0; b < 4; b++)
        assert_true(host<float>()[b] == 11.5f + static_cast<float>(b));
}

void TestCapturedByValue(void **)
{
    assert_int_equal(RunFillTwiceCaptured(g_stream, dev<float>()), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    const float want[] = {11.0f, 12.0f, 1100.0f, 1101.0f};
    for (int k = 0; k < 4; k++)
        assert_true(host<float>()[k] == want[k]);
}

void TestTemplates(void **)
{
    assert_int_equal(RunTemplates(g_stream, dev<float>(), dev<int32_t>(64)), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    for (int b = 0; b < 3; b++) {
        assert_true(host<float>()[b] == 0.5f + static_cast<float>(b));
        assert_int_equal(host<int32_t>(64)[b], 40 + b);
    }
}

void TestStaticKernelAndSum(void **)
{
    assert_int_equal(RunSum(g_stream, dev<int32_t>()), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    assert_int_equal(host<int32_t>()[0], 12);
}

void TestParameterLayout(void **)
{
    Tiling t{123456, 321, 0.25f};
    assert_int_equal(RunMixed(g_stream, dev<uint8_t>(), t), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    assert_string_equal(host<char>(),
                        "a=200 b=65000 count=123456 step=321 bias=0.250 d=2.5000 e=-1234567890123 f=-7");
}

void TestNoParamsDefaultStream(void **)
{
    assert_int_equal(RunNoParams(g_stream), 5);
    assert_int_equal(RunNoParams(nullptr), 5);
}

void TestNamespacesAndStreams(void **)
{
    assert_int_equal(RunNamespaced(g_stream, dev<uint32_t>()), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const uint32_t want[] = {7, 7, 9, 11};
    for (int k = 0; k < 4; k++)
        assert_int_equal(host<uint32_t>()[k], want[k]);
}

void TestTrapThenLaunch(void **)
{
    assert_int_equal(RunTrap(g_stream, dev<uint32_t>()), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    const char *msg = aclGetRecentErrMsg();
    assert_non_null(msg);
    assert_non_null(std::strstr(msg, "trapper"));
    assert_non_null(std::strstr(msg, "trap"));
    assert_int_equal(host<uint32_t>()[0], 1);
    // The stream keeps working.
    assert_int_equal(RunFill(1, g_stream, dev<float>(64), 2.0f, 0), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    assert_true(host<float>(64)[0] == 2.0f);
}

void TestBadBlockCounts(void **)
{
    assert_int_equal(RunBadBlocks(g_stream, dev<float>(), 0), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(RunBadBlocks(g_stream, dev<float>(), -3), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(RunBadBlocks(g_stream, dev<float>(), 1L << 40), ACL_ERROR_RT_PARAM_INVALID);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
}

void TestConstPointer(void **)
{
    for (uint32_t k = 0; k < 4; k++)
        host<uint32_t>()[k] = k + 1;
    assert_int_equal(RunConstPointer(g_stream, dev<const uint32_t>(), dev<uint32_t>(256)), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    for (uint32_t k = 0; k < 4; k++)
        assert_int_equal(host<uint32_t>(256)[k], 2 * (k + 1));
}

void TestKernelFromTwoUnits(void **)
{
    assert_int_equal(RunOtherTu(g_stream, dev<uint32_t>()), 0);
    assert_int_equal(RunFromOtherTu(g_stream, dev<uint32_t>()), 0);
    assert_int_equal(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    assert_int_equal(host<uint32_t>()[0], 101);
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(TestValueAndArguments, Clear),
        cmocka_unit_test_setup(TestCapturedByValue, Clear),
        cmocka_unit_test_setup(TestTemplates, Clear),
        cmocka_unit_test_setup(TestStaticKernelAndSum, Clear),
        cmocka_unit_test_setup(TestParameterLayout, Clear),
        cmocka_unit_test_setup(TestNoParamsDefaultStream, Clear),
        cmocka_unit_test_setup(TestNamespacesAndStreams, Clear),
        cmocka_unit_test_setup(TestTrapThenLaunch, Clear),
        cmocka_unit_test_setup(TestBadBlockCounts, Clear),
        cmocka_unit_test_setup(TestConstPointer, Clear),
        cmocka_unit_test_setup(TestKernelFromTwoUnits, Clear),
    };
    return cmocka_run_group_tests(tests, Setup, Teardown);
}
