/*
 * Logging helpers of the sample: INFO_LOG writes "[INFO]  <message>" to
 * stdout, ERROR_LOG "[ERROR]  <message>" to stderr, and CHECK_ERROR logs a
 * failing ACL call with its error code and returns -1 from the caller.
 */
#ifndef SAMPLE_UTILS_H
#define SAMPLE_UTILS_H

#include <cstdio>

#define INFO_LOG(fmt, ...)                                                                                            \
    do {                                                                                                              \
        std::fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__);                                                     \
        std::fflush(stdout);                                                                                          \
    } while (0)

#define ERROR_LOG(fmt, ...)                                                                                           \
    do {                                                                                                              \
        std::fprintf(stderr, "[ERROR]  " fmt "\n", ##__VA_ARGS__);                                                    \
        std::fflush(stderr);                                                                                          \
    } while (0)

#define CHECK_ERROR(call)                                                                                             \
    do {                                                                                                              \
        const aclError checkRet = (call);                                                                             \
        if (checkRet != ACL_SUCCESS) {                                                                                \
            ERROR_LOG("%s failed, error code: %d", #call, static_cast<int>(checkRet));                                \
            return -1;                                                                                                \
        }                                                                                                             \
    } while (0)

#endif // SAMPLE_UTILS_H
