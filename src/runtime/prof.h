/*
 * Profiling inside the runtime (profiling-and-tools.md §3-4): the session
 * state machine (prof_session.c), the writer of the result directory
 * (prof_export.c), msproftx and mstx (prof_tx.c, mstx.c).
 */
#ifndef OACL_RUNTIME_PROF_H
#define OACL_RUNTIME_PROF_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_prof.h"
#include "common/trace.h"

#define OACL_PROF_HOST_DEVICE 64u
#define OACL_PROF_INTERNAL_BIT 0x4000000000000000ULL
#define OACL_PROF_SUPPORTED_BITS 0x4000000C0100FBFFULL

/* What one session records and where it writes. */
struct oacl_prof_session {
    char dir[4096];          /* <output>/PROF_... */
    uint64_t bits;           /* expanded dataTypeConfig */
    uint32_t metrics;        /* aclprofAicoreMetrics */
    uint64_t dev_mask;       /* devices 0..63 */
    uint32_t cats;           /* enum oacl_trace_cat bits */
    uint64_t start_ns;       /* CLOCK_MONOTONIC */
    char optype[260];        /* ACL_PROF_OPTYPE filter ("" = all) */
};

/* Writes the files of an ended session (records still in the collector). */
void oacl_prof_export(const struct oacl_prof_session *s);

/* Expands a dataTypeConfig the way aclprofCreateConfig stores it. */
uint64_t oacl_prof_expand_bits(uint64_t bits);
/* The collector categories of expanded bits. */
uint32_t oacl_prof_cats(uint64_t bits);

/* The "profiler" object of the aclInit file: validated (100000 on any
 * unknown key or bad value) and, with "switch":"on", profiling starts in
 * command-line mode when aclInit succeeds. */
struct cJSON;
int oacl_prof_init_section(const struct cJSON *section, const char *path);
/* aclInit succeeded / aclFinalize: start / end the section's session. */
void oacl_prof_acl_init_done(bool ok);
void oacl_prof_acl_finalize(void);

/* msproftx / mstx collection is active. */
bool oacl_prof_tx_active(void);
/* Session bits (0: none) for tools like mstxGetToolId. */
uint64_t oacl_prof_session_bits(void);

/* The reverse table of aclprofStr2Id. */
const char *oacl_prof_str_of_id(uint64_t id);

/* Queues a marker on stream (NULL: default) that records a TX_DEV record
 * (or a STEP record) named msg with flow id when the stream reaches it.
 * Returns an aclError. */
int oacl_prof_queue_marker(void *stream, uint8_t rec_kind, uint8_t level, const char *msg, uint64_t flow_id,
                           const char *fn);

#endif /* OACL_RUNTIME_PROF_H */
