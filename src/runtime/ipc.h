/*
 * What the files of the inter-process chapter (ipc_memory.c, ipc_notify.c,
 * ipc_event.c, vmm.c, vmm_share.c) share: SoC availability (spec 1.2),
 * key strings (3.2), whitelists, and the glue to the IPC service
 * (common/ipc_service.h).
 */
#ifndef OACL_RUNTIME_IPC_H
#define OACL_RUNTIME_IPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/ipc_service.h"
#include "runtime/runtime.h"

/* ---- SoC availability (spec 1.2) ---- */

enum oacl_ipc_feature {
    OACL_FEAT_IPC_MEM,       /* IPC memory keys */
    OACL_FEAT_INTER_SERVER,  /* aclrtIpcMemSetAttr and the cross-server whitelists */
    OACL_FEAT_IPC_NOTIFY,    /* notify keys */
    OACL_FEAT_BATCH_RESET,   /* aclrtNotifyBatchReset */
    OACL_FEAT_IPC_EVENT,     /* ACL_EVENT_IPC and the event handles */
    OACL_FEAT_NO_UC,         /* aclrtReserveMemAddressNoUCMemory, aclrtMemMapSelectedLink */
    OACL_FEAT_P2P_MAP,       /* aclrtMemP2PMap */
    OACL_FEAT_FABRIC,        /* ACL_MEM_SHARE_HANDLE_TYPE_FABRIC */
};

/* Families of the IPC/VMM availability table's columns (spec 1.2 splits
 * the 950 family, which src/runtime/soc_family.c does not). */
enum oacl_ipc_family { OACL_FAM_950PR, OACL_FAM_950DT, OACL_FAM_A3, OACL_FAM_A2, OACL_FAM_310B, OACL_FAM_310P, OACL_FAM_910 };

enum oacl_ipc_family oacl_ipc_family(void);
/* 0, or ACL_ERROR_RT_FEATURE_NOT_SUPPORT "<fn> is not supported on <SoC>". */
aclError oacl_ipc_feature_check(enum oacl_ipc_feature f, const char *fn);
const char *oacl_soc_name(void);

/* ---- keys: "oacl-<k>-<pid>-<16 hex id>-<24 hex secret>" ---- */

#define OACL_KEY_BUF_MIN 65u  /* a key buffer must be at least this long (D33) */
#define OACL_KEY_SECRET 12u

struct oacl_ipc_key {
    char kind;                      /* 'm' memory, 'n' notify */
    pid_t pid;
    uint64_t id;
    uint8_t secret[OACL_KEY_SECRET];
};

/* Writes the key text (at most 56 characters and a NUL) into out[64]. */
void oacl_ipc_key_format(const struct oacl_ipc_key *k, char out[64]);
/* Parses at most 65 bytes of s; false unless it is a well-formed key of kind. */
bool oacl_ipc_key_parse(const char *s, char kind, struct oacl_ipc_key *out);
/* A new key of this process: fresh id and secret. */
void oacl_ipc_key_new(char kind, struct oacl_ipc_key *out);
/* Object ids of this process, never reused. */
uint64_t oacl_ipc_next_id(void);
/* The key argument shown in messages (at most 64 characters, printable). */
const char *oacl_ipc_key_show(const char *key, char buf[72]);

/* ---- whitelists: sets of pids that only grow ---- */

struct oacl_pidset {
    int32_t *pids;   /* sorted */
    size_t n, cap;
};

/* Adds n pids (duplicates ignored); beyond limit distinct pids nothing is
 * added and ACL_ERROR_RT_OVER_LIMIT is returned; ACL_ERROR_RT_MEMORY_ALLOCATION
 * when memory runs out. */
aclError oacl_pidset_add(struct oacl_pidset *s, const int32_t *pids, size_t n, size_t limit);
bool oacl_pidset_has(const struct oacl_pidset *s, int32_t pid);
void oacl_pidset_free(struct oacl_pidset *s);
/* Whitelist limit of keys and notifies: 32768, 65535 on 950-family profiles (D17). */
size_t oacl_ipc_whitelist_limit(void);

/* ---- the service ---- */

/* Registers the handlers and starts this process's service (207005 on failure). */
aclError oacl_ipc_start(const char *fn);
/* One request to pid's service; failures are reported with oacl_fail (fn). */
aclError oacl_ipc_call(pid_t pid, enum oacl_ipc_kind kind, uint64_t id, const uint8_t *secret, size_t secret_len,
                       struct oacl_ipc_reply *rep, int *fd, const char *fn);
/* Implicit peer access: device `from` of this process may reach `to`
 * (skipped when equal or not a device id here). */
void oacl_ipc_peer_enable(int32_t from, int32_t to);

/* The handlers, one per kind (run on the service thread). */
void oacl_ipc_mem_serve(const struct oacl_ipc_request *req, pid_t peer, struct oacl_ipc_reply *rep, int *fd);
void oacl_ipc_notify_serve(const struct oacl_ipc_request *req, pid_t peer, struct oacl_ipc_reply *rep, int *fd);
void oacl_ipc_event_serve(const struct oacl_ipc_request *req, pid_t peer, struct oacl_ipc_reply *rep, int *fd);
void oacl_vmm_serve(const struct oacl_ipc_request *req, pid_t peer, struct oacl_ipc_reply *rep, int *fd);

/* The local devices whose SuperPOD device id is sdid exist (A3 cross-server
 * whitelists apply to this host only for them). */
bool oacl_ipc_sdid_is_local(uint32_t sdid);

#endif /* OACL_RUNTIME_IPC_H */
