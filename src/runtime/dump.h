/* Dump configuration inside the runtime (dump_config.c). */
#ifndef OACL_RUNTIME_DUMP_H
#define OACL_RUNTIME_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cJSON;
struct oacl_dump_plan;

/* The "dump" member of the aclInit file: validated (100009), applied when
 * aclInit succeeds (init_done) or dropped (init_failed). */
int oacl_dump_init_section(const struct cJSON *dump, const char *path);
void oacl_dump_acl_init_done(void);
void oacl_dump_acl_init_failed(void);
/* aclFinalize: every data/exception dump stops (Decision 14). */
void oacl_dump_acl_finalize(void);
/* At enqueue: a plan if this launch is dumped, else NULL (cheap when no
 * data dump is configured). */
struct oacl_dump_plan *oacl_dump_select(const char *kernel, bool attr, uint32_t device, size_t args_size);

#endif /* OACL_RUNTIME_DUMP_H */
