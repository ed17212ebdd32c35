/*
 * The dynamic part of a kernel binary, checked before the dynamic loader
 * sees it. The loader writes wherever a relocation says: a damaged
 * relocation (or dynamic section) can make it write into any memory of the
 * process, which no test load in a child process notices (the write
 * succeeds there too). So every relocation must land inside the object's
 * own writable segments, be of a kind a shared object uses, and the dynamic section
 * and relocation tables must lie inside the image.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "device/cpu/cpu_device.h"

#define MAX_LOADS 64u
#define MAX_TLS (64u << 10) /* bytes of thread-local storage a kernel binary may have */

#if defined(__x86_64__)
#define RELATIVE_TYPE R_X86_64_RELATIVE
static bool reloc_ok(uint32_t t)
{
    switch (t) {
    case R_X86_64_NONE: case R_X86_64_64: case R_X86_64_GLOB_DAT: case R_X86_64_JUMP_SLOT:
    case R_X86_64_RELATIVE: case R_X86_64_DTPMOD64: case R_X86_64_DTPOFF64: case R_X86_64_TPOFF64:
    case R_X86_64_IRELATIVE:
        return true;
    default:
        return false;
    }
}
#elif defined(__aarch64__)
#define RELATIVE_TYPE R_AARCH64_RELATIVE
static bool reloc_ok(uint32_t t)
{
    switch (t) {
    case R_AARCH64_NONE: case R_AARCH64_ABS64: case R_AARCH64_GLOB_DAT: case R_AARCH64_JUMP_SLOT:
    case R_AARCH64_RELATIVE: case R_AARCH64_TLS_DTPMOD: case R_AARCH64_TLS_DTPREL: case R_AARCH64_TLS_TPREL:
    case R_AARCH64_TLSDESC: case R_AARCH64_IRELATIVE:
        return true;
    default:
        return false;
    }
}
#else
#error "unsupported host architecture"
#endif

struct loads {
    Elf64_Phdr ph[MAX_LOADS];
    unsigned n;
};

static int fail(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* [v, v+size) inside the memory of one writable segment (size > 0, no
   wrap): kernel binaries have no text relocations. */
static bool in_memory(const struct loads *l, uint64_t v, uint64_t size)
{
    for (unsigned i = 0; i < l->n; i++) {
        const Elf64_Phdr *p = &l->ph[i];
        if ((p->p_flags & PF_W) && v >= p->p_vaddr && size <= p->p_memsz && v - p->p_vaddr <= p->p_memsz - size)
            return true;
    }
    return false;
}

/* File offset of [v, v+size) when it lies in one segment's file bytes. */
static bool file_offset(const struct loads *l, size_t len, uint64_t v, uint64_t size, uint64_t *off)
{
    for (unsigned i = 0; i < l->n; i++) {
        const Elf64_Phdr *p = &l->ph[i];
        if (v >= p->p_vaddr && size <= p->p_filesz && v - p->p_vaddr <= p->p_filesz - size) {
            *off = p->p_offset + (v - p->p_vaddr);
            return *off <= len && size <= len - *off;
        }
    }
    return false;
}

/* relative: how many leading entries DT_RELACOUNT says are relative ones
   (the loader applies those without looking at their type). */
static int check_rela(const unsigned char *img, size_t len, const struct loads *l, uint64_t v, uint64_t size,
                      uint64_t relative, const char *what, char *why, size_t cap)
{
    uint64_t off;
    if (size % sizeof(Elf64_Rela) || !file_offset(l, len, v, size, &off))
        return fail(why, cap, "its %s table (%llu bytes at 0x%llx) lies outside the image", what,
                    (unsigned long long)size, (unsigned long long)v);
    if (relative > size / sizeof(Elf64_Rela))
        return fail(why, cap, "it counts more relative relocations than its %s table holds", what);
    for (uint64_t i = 0; i < size / sizeof(Elf64_Rela); i++) {
        Elf64_Rela r;
        memcpy(&r, img + off + i * sizeof(r), sizeof(r));
        const uint32_t type = (uint32_t)ELF64_R_TYPE(r.r_info);
        if (!reloc_ok(type))
            return fail(why, cap, "relocation %llu of its %s table has type %u, which a shared object does not use",
                        (unsigned long long)i, what, type);
        if (i < relative && type != RELATIVE_TYPE)
            return fail(why, cap, "relocation %llu of its %s table is not relative, as its count of relative "
                        "relocations says", (unsigned long long)i, what);
        if (type != 0 && !in_memory(l, r.r_offset, 8))
            return fail(why, cap, "relocation %llu of its %s table writes at 0x%llx, outside its segments",
                        (unsigned long long)i, what, (unsigned long long)r.r_offset);
    }
    return 0;
}

/* Packed relative relocations: addresses, then bitmaps of the 63 words after. */
static int check_relr(const unsigned char *img, size_t len, const struct loads *l, uint64_t v, uint64_t size,
                      char *why, size_t cap)
{
    uint64_t off;
    if (size % 8 || !file_offset(l, len, v, size, &off))
        return fail(why, cap, "its packed relocation table lies outside the image");
    uint64_t base = 0;
    for (uint64_t i = 0; i < size / 8; i++) {
        uint64_t e;
        memcpy(&e, img + off + i * 8, 8);
        if (!(e & 1)) {
            if (!in_memory(l, e, 8))
                return fail(why, cap, "a packed relocation writes at 0x%llx, outside its segments",
                            (unsigned long long)e);
            base = e + 8;
            continue;
        }
        for (unsigned b = 1; b < 64; b++)
            if ((e >> b) & 1 && !in_memory(l, base + (uint64_t)(b - 1) * 8, 8))
                return fail(why, cap, "a packed relocation writes outside its segments");
        base += 63 * 8;
    }
    return 0;
}

int oacl_cpu_elf_check_dynamic(const unsigned char *img, size_t len, char *why, size_t cap)
{
    Elf64_Ehdr eh;
    if (len < sizeof(eh))
        return fail(why, cap, "it is truncated");
    memcpy(&eh, img, sizeof(eh));
    struct loads l = {.n = 0};
    Elf64_Phdr dyn = {0}, tls = {0}, relro[4];
    unsigned ndyn = 0, ntls = 0, nrelro = 0;
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        const uint64_t at = eh.e_phoff + (uint64_t)i * sizeof(ph);
        if (at > len || sizeof(ph) > len - at)
            return fail(why, cap, "program header %u lies outside the image", i);
        memcpy(&ph, img + at, sizeof(ph));
        if (ph.p_type == PT_LOAD) {
            if (l.n == MAX_LOADS)
                return fail(why, cap, "it has more than %u loadable segments", MAX_LOADS);
            if (ph.p_filesz > ph.p_memsz || ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
                return fail(why, cap, "segment %u is malformed", i);
            /* In ascending order without overlap (the ELF rule): the loader
               maps each segment over the address range of the ones before. */
            if (l.n && ph.p_vaddr < l.ph[l.n - 1].p_vaddr + l.ph[l.n - 1].p_memsz)
                return fail(why, cap, "its loadable segments overlap or are out of order (segment %u)", i);
            l.ph[l.n++] = ph;
        } else if (ph.p_type == PT_DYNAMIC) {
            dyn = ph;
            ndyn++;
        } else if (ph.p_type == PT_TLS) {
            tls = ph;
            ntls++;
        } else if (ph.p_type == PT_GNU_RELRO) {
            if (nrelro == sizeof(relro) / sizeof(relro[0]))
                return fail(why, cap, "it has more than %u read-only-after-relocation segments", nrelro);
            relro[nrelro++] = ph;
        }
    }
    /* The loader makes the pages of a PT_GNU_RELRO range read-only after
       relocating, wherever the range says: one reaching past the object
       would protect another mapping of the process (a thread's stack or
       signal stack, an allocator's memory), which the test load does not
       notice and the process dies of later. It must lie inside the span
       the object's segments reserve. */
    const uint64_t lo = l.n ? l.ph[0].p_vaddr : 0, hi = l.n ? l.ph[l.n - 1].p_vaddr + l.ph[l.n - 1].p_memsz : 0;
    for (unsigned i = 0; i < nrelro; i++) {
        const Elf64_Phdr *r = &relro[i];
        if (r->p_memsz && (r->p_vaddr < lo || r->p_vaddr > hi || r->p_memsz > hi - r->p_vaddr))
            return fail(why, cap, "its read-only-after-relocation range (%llu bytes at 0x%llx) reaches outside its "
                        "segments", (unsigned long long)r->p_memsz, (unsigned long long)r->p_vaddr);
    }
    if (ndyn != 1)
        return fail(why, cap, "it has %u dynamic sections, not 1", ndyn);
    /* Thread-local storage: the loader copies the image into the block of
       every running thread (zero-filling up to p_memsz). */
    uint64_t toff;
    if (ntls > 1 || (ntls && (tls.p_filesz > tls.p_memsz || tls.p_memsz > MAX_TLS ||
                              (tls.p_align & (tls.p_align - 1)) || tls.p_align > 4096 ||
                              (tls.p_filesz && !file_offset(&l, len, tls.p_vaddr, tls.p_filesz, &toff)))))
        return fail(why, cap, "its thread-local storage segment is malformed");
    uint64_t doff;
    if (dyn.p_filesz < sizeof(Elf64_Dyn) || !file_offset(&l, len, dyn.p_vaddr, dyn.p_filesz, &doff) ||
        dyn.p_offset != doff)
        return fail(why, cap, "its dynamic section lies outside its segments");
    uint64_t rela = 0, relasz = 0, relaent = sizeof(Elf64_Rela), jmprel = 0, pltrelsz = 0, pltrel = DT_RELA;
    uint64_t relr = 0, relrsz = 0, relacount = 0;
    bool has_rela = false, has_jmprel = false, has_relr = false, ended = false;
    for (uint64_t k = 0; k + sizeof(Elf64_Dyn) <= dyn.p_filesz && !ended; k += sizeof(Elf64_Dyn)) {
        Elf64_Dyn d;
        memcpy(&d, img + doff + k, sizeof(d));
        switch (d.d_tag) {
        case DT_NULL: ended = true; break;
        case DT_RELA: rela = d.d_un.d_ptr; has_rela = true; break;
        case DT_RELASZ: relasz = d.d_un.d_val; break;
        case DT_RELAENT: relaent = d.d_un.d_val; break;
        case DT_RELACOUNT: relacount = d.d_un.d_val; break;
        case DT_FLAGS_1:
            /* Never unloaded: every load would stay mapped for good. */
            if (d.d_un.d_val & DF_1_NODELETE)
                return fail(why, cap, "it is marked never to be unloaded (DF_1_NODELETE)");
            break;
        case DT_JMPREL: jmprel = d.d_un.d_ptr; has_jmprel = true; break;
        case DT_PLTRELSZ: pltrelsz = d.d_un.d_val; break;
        case DT_PLTREL: pltrel = d.d_un.d_val; break;
#ifdef DT_RELR
        case DT_RELR: relr = d.d_un.d_ptr; has_relr = true; break;
        case DT_RELRSZ: relrsz = d.d_un.d_val; break;
#endif
        case DT_REL: case DT_RELSZ:
            return fail(why, cap, "it has REL relocations, which this host's shared objects do not use");
        default: break;
        }
    }
    if (!ended)
        return fail(why, cap, "its dynamic section has no end marker");
    if (relaent != sizeof(Elf64_Rela) || pltrel != DT_RELA)
        return fail(why, cap, "its relocation entries have an unexpected form");
    if ((has_rela || relasz) && check_rela(img, len, &l, rela, relasz, relacount, "dynamic relocation", why, cap))
        return -1;
    if ((has_jmprel || pltrelsz) && check_rela(img, len, &l, jmprel, pltrelsz, 0, "PLT relocation", why, cap))
        return -1;
    if ((has_relr || relrsz) && check_relr(img, len, &l, relr, relrsz, why, cap))
        return -1;
    return 0;
}
