/*
 * Kernel dumps (acl-rt-misc.md §3.3.5, profiling-and-tools.md §3.6): the
 * process-wide dump configuration (src/runtime/dump_config.c), the
 * selection of launches at enqueue, and the writer of oacl's dump files
 * (src/common/dump_writer.c), which executors call while a launch runs.
 */
#ifndef OACL_COMMON_DUMP_H
#define OACL_COMMON_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OACL_DUMP_PHASE_INPUT 0u
#define OACL_DUMP_PHASE_OUTPUT 1u
#define OACL_DUMP_PHASE_FAILURE 2u

#define OACL_DUMP_KIND_DATA 0u
#define OACL_DUMP_KIND_EXCEPTION 1u
#define OACL_DUMP_KIND_OVERFLOW 2u
#define OACL_DUMP_KIND_CUSTOM 3u

struct oacl_dump_snap; /* captured buffers of one phase */

/* A launch selected for a data dump: decided and filled at enqueue, used
 * by the executor, freed with the task. */
struct oacl_dump_plan {
    bool input, output;          /* dump_mode */
    uint32_t device;
    size_t args_size;
    char dir[4096];              /* directory of the file, created when written */
    char kernel_name[256];
    struct oacl_dump_snap *before;
};

void oacl_dump_plan_free(struct oacl_dump_plan *p);
/* Phase 0: the buffers as they are before the first block. */
void oacl_dump_before(struct oacl_dump_plan *p, const void *args);
/* After the last block: phase 1 and the file. */
void oacl_dump_after(struct oacl_dump_plan *p, const void *args, int32_t stream_id, uint32_t task_id,
                     uint32_t num_blocks, uint32_t block_offset, int status);

/* True when an exception dump is configured (JSON or environment). */
bool oacl_dump_exception_on(void);
/* A launch failed: writes exception_info.<stream>.<task>.<time> with the
 * blob and the buffers it references as they are now (phase 2). */
void oacl_dump_exception(uint32_t device, int32_t stream_id, uint32_t task_id, const char *kernel_name,
                         const void *args, size_t args_size, uint32_t num_blocks, uint32_t block_offset, int status);

#endif /* OACL_COMMON_DUMP_H */

/* ---- the file format and its delivery (dump_writer.c) ---- */

#include <sys/types.h>

/* One buffer record of a dump file. */
struct oacl_dump_buf {
    uint32_t phase;
    uint32_t arg_offset;
    uint64_t address;
    uint64_t size;
    uint64_t flags;        /* bit 0: truncated; bits 8-9: tensor type (kind 3) */
    const void *data;
};

/* The bytes of one dump file (malloc'd into *out). */
bool oacl_dump_build(uint32_t kind, uint32_t device, int32_t stream_id, uint32_t task_id, uint32_t num_blocks,
                     uint32_t block_offset, int32_t status, const char *kernel_name, const void *args,
                     uint64_t args_size, const struct oacl_dump_buf *bufs, uint32_t num_bufs, const void *trailer,
                     size_t trailer_len, uint8_t **out, size_t *len);
/* Writes bytes to path (directories made, mode applied), or hands them to
 * the registered callback on the dump thread; takes ownership of bytes.
 * Returns false when the file could not be written. */
bool oacl_dump_deliver(const char *path, uint8_t *bytes, size_t len, mode_t mode);
/* mkdir -p, mode 0750. */
bool oacl_dump_mkdirs(const char *dir);
/* The callback of acldumpRegCallback (NULL: files); set waits for a
 * running callback when it removes one. */
void oacl_dump_set_callback(int32_t (*cb)(const void *chunk, int32_t size));
/* Waits until every delivery queued so far is done. */
void oacl_dump_drain(void);
/* Exception dumps: on/off and the configured dump_path (may be "") used
 * for the root when ASCEND_DUMP_PATH and ASCEND_WORK_PATH are not set. */
void oacl_dump_set_exception(bool on, const char *dump_path);
/* <root>/extra-info/data-dump/ (trailing slash), created. */
bool oacl_dump_exception_dir(char *out, size_t len);
/* Local time "YYYYMMDDhhmmss" (+ "mmm" with ms). */
void oacl_dump_time(char *out, size_t len, bool ms);
