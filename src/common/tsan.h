/*
 * ThreadSanitizer support. The simulated device synchronises with the
 * program through plain memory (a stream's value wait polls a word the
 * host stores to), which ThreadSanitizer cannot see; where the runtime
 * knows such an edge exists it says so with these annotations. They cost
 * nothing in other builds.
 */
#ifndef OACL_COMMON_TSAN_H
#define OACL_COMMON_TSAN_H

#if defined(__SANITIZE_THREAD__)
#define OACL_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OACL_UNDER_TSAN 1
#endif
#endif

#ifdef OACL_UNDER_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define oacl_tsan_acquire(a) __tsan_acquire((void *)(a))
#define oacl_tsan_release(a) __tsan_release((void *)(a))
#else
#define oacl_tsan_acquire(a) ((void)(a))
#define oacl_tsan_release(a) ((void)(a))
#endif

#endif
