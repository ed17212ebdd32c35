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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
    uint64_t symtab, strsz, versym; /* the dynamic symbol table, its string table's size, versions (or 0) */
};

/* Symbol idx of the dynamic symbol table as the loader reads it for a
   relocation: the entry, its name and its version inside the image. */
static bool symbol_ok(const unsigned char *img, size_t len, const struct loads *l, uint64_t idx);

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

/* [v, v+size) inside the memory of one segment; with exec, an executable one. */
static bool in_segment(const struct loads *l, uint64_t v, uint64_t size, bool exec)
{
    for (unsigned i = 0; i < l->n; i++) {
        const Elf64_Phdr *p = &l->ph[i];
        if ((!exec || (p->p_flags & PF_X)) && v >= p->p_vaddr && size <= p->p_memsz &&
            v - p->p_vaddr <= p->p_memsz - size)
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

static bool symbol_ok(const unsigned char *img, size_t len, const struct loads *l, uint64_t idx)
{
    uint64_t off;
    Elf64_Sym sym;
    if (idx > UINT32_MAX || !file_offset(l, len, l->symtab + idx * sizeof(sym), sizeof(sym), &off))
        return false;
    memcpy(&sym, img + off, sizeof(sym));
    return sym.st_name < l->strsz && (!l->versym || file_offset(l, len, l->versym + idx * 2, 2, &off));
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
        if (ELF64_R_SYM(r.r_info) && !symbol_ok(img, len, l, ELF64_R_SYM(r.r_info)))
            return fail(why, cap, "relocation %llu of its %s table names symbol %llu, outside its symbol table",
                        (unsigned long long)i, what, (unsigned long long)ELF64_R_SYM(r.r_info));
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

/* What the loader reads through the dynamic section before any code of the
 * object runs: the string and symbol tables, the hash table that says how
 * many symbols there are, the version tables, the names of needed objects.
 * One pointing outside the object crashes the loader (a test load and a
 * fork for nothing) or reads another object's memory. */
struct dyn_tables {
    uint64_t strtab, strsz, symtab, syment, hash, gnu_hash, versym, init, fini, verneed, verdef;
    uint64_t arr[2], arrsz[2]; /* DT_INIT_ARRAY, DT_FINI_ARRAY */
    bool has_strtab, has_symtab, has_hash, has_gnu_hash, has_versym, has_init, has_fini, has_arr[2];
    bool has_verneed, has_verdef;
};

/* A SysV hash table's buckets and chains: every link names a symbol of the
 * table and no symbol is reached twice (a loop would make every lookup by
 * name run forever). */
static bool sysv_chains_ok(const unsigned char *tab, uint32_t nbucket, uint32_t nchain)
{
    uint8_t *seen = calloc((size_t)nchain / 8 + 1, 1);
    if (!seen)
        return false;
    bool ok = true;
    for (uint32_t b = 0; ok && b < nbucket; b++) {
        uint32_t k;
        memcpy(&k, tab + (uint64_t)b * 4, 4);
        while (ok && k != 0) { /* STN_UNDEF ends a chain */
            if (k >= nchain || (seen[k / 8] & (1u << (k % 8)))) {
                ok = false;
                break;
            }
            seen[k / 8] |= (uint8_t)(1u << (k % 8));
            memcpy(&k, tab + ((uint64_t)nbucket + k) * 4, 4);
        }
    }
    free(seen);
    return ok;
}

static int check_hash(const unsigned char *img, size_t len, struct loads *l, const struct dyn_tables *t, char *why,
                      size_t cap)
{
    uint64_t off, nsyms = 0;
    uint32_t h[4];
    if (t->has_gnu_hash) {
        if (!file_offset(l, len, t->gnu_hash, 16, &off))
            return fail(why, cap, "its symbol hash table lies outside its segments");
        memcpy(h, img + off, 16); /* nbuckets, symoffset, bloom words, bloom shift */
        if (h[0] == 0 || h[2] == 0 || (h[2] & (h[2] - 1)))
            return fail(why, cap, "its symbol hash table is malformed");
        const uint64_t buckets = t->gnu_hash + 16 + (uint64_t)h[2] * 8, chains = buckets + (uint64_t)h[0] * 4;
        uint64_t boff;
        if (!file_offset(l, len, t->gnu_hash, 16 + (uint64_t)h[2] * 8 + (uint64_t)h[0] * 4, &off) ||
            !file_offset(l, len, buckets, (uint64_t)h[0] * 4, &boff))
            return fail(why, cap, "its symbol hash table lies outside its segments");
        /* The symbols: past the last chain that a bucket starts. */
        uint32_t last = 0;
        for (uint32_t b = 0; b < h[0]; b++) {
            uint32_t v;
            memcpy(&v, img + boff + (uint64_t)b * 4, 4);
            /* a chain starting below the hashed symbols would be read
               from the buckets and bloom words before the chains */
            if (v != 0 && v < h[1])
                return fail(why, cap, "its symbol hash table is malformed (a bucket names an unhashed symbol)");
            last = v > last ? v : last;
        }
        uint64_t n = h[1]; /* the hashed symbols (unhashed ones may follow them) */
        if (last >= h[1]) {
            for (uint64_t k = last;; k++) {
                uint32_t c;
                uint64_t coff;
                if (!file_offset(l, len, chains + (k - h[1]) * 4, 4, &coff))
                    return fail(why, cap, "its symbol hash table lies outside its segments");
                memcpy(&c, img + coff, 4);
                if (c & 1) {
                    n = k + 1;
                    break;
                }
            }
        }
        nsyms = n;
    } else if (t->has_hash) {
        if (!file_offset(l, len, t->hash, 8, &off))
            return fail(why, cap, "its symbol hash table lies outside its segments");
        memcpy(h, img + off, 8); /* nbucket, nchain */
        if (h[0] == 0 || !file_offset(l, len, t->hash, 8 + ((uint64_t)h[0] + h[1]) * 4, &off))
            return fail(why, cap, "its symbol hash table is malformed");
        nsyms = h[1];
        if (!sysv_chains_ok(img + off + 8, h[0], h[1]))
            return fail(why, cap, "its symbol hash table is malformed (a chain leaves the table or loops)");
    }
    if (!file_offset(l, len, t->symtab, (nsyms ? nsyms : 1) * sizeof(Elf64_Sym), &off))
        return fail(why, cap, "its symbol table lies outside its segments");
    if (t->has_versym && !file_offset(l, len, t->versym, (nsyms ? nsyms : 1) * 2, &off))
        return fail(why, cap, "its symbol version table lies outside its segments");
    /* A lookup by name (dlsym) compares the names along a hash chain: every
       symbol's name must start inside the string table, which ends in a NUL
       (so each name ends inside it). */
    uint64_t soff, symoff = 0;
    if (!file_offset(l, len, t->strtab, t->strsz, &soff) || img[soff + t->strsz - 1] != 0)
        return fail(why, cap, "its string table does not end in a NUL");
    file_offset(l, len, t->symtab, (nsyms ? nsyms : 1) * sizeof(Elf64_Sym), &symoff);
    for (uint64_t k = 0; k < nsyms; k++) {
        Elf64_Sym sym;
        memcpy(&sym, img + symoff + k * sizeof(sym), sizeof(sym));
        if (sym.st_name >= t->strsz)
            return fail(why, cap, "the name of symbol %llu lies outside its string table", (unsigned long long)k);
    }
    l->symtab = t->symtab;
    l->strsz = t->strsz;
    l->versym = t->has_versym ? t->versym : 0;
    return 0;
}

/* Whether `name` (inside the string table) is one of the object's
 * DT_NEEDED names. */
static bool is_needed(const unsigned char *img, uint64_t doff, uint64_t dsize, uint64_t soff, uint64_t strsz,
                      uint32_t name)
{
    const char *want = (const char *)img + soff + name;
    for (uint64_t k = 0; k + sizeof(Elf64_Dyn) <= dsize; k += sizeof(Elf64_Dyn)) {
        Elf64_Dyn d;
        memcpy(&d, img + doff + k, sizeof(d));
        if (d.d_tag == DT_NULL)
            break;
        if (d.d_tag == DT_NEEDED && d.d_un.d_val < strsz && strcmp((const char *)img + soff + d.d_un.d_val, want) == 0)
            return true;
    }
    return false;
}

#define MAX_VERSION_ENTRIES 4096u

/* The version tables, walked the way the loader walks them: each chain
 * follows its `next` offsets until one is 0, whatever the counts say, so a
 * chain must end within MAX_VERSION_ENTRIES entries inside the segments (a
 * loop would hang the loader). Every version needed names one of the
 * object's DT_NEEDED libraries (the loader asserts, and ends the process,
 * on one it has not loaded) and every name lies in the string table. */
static int check_versions(const unsigned char *img, size_t len, const struct loads *l, const struct dyn_tables *t,
                          uint64_t doff, uint64_t dsize, uint64_t soff, char *why, size_t cap)
{
    uint64_t off;
    if (t->has_verneed) {
        uint64_t at = t->verneed;
        for (unsigned i = 0;; i++) {
            Elf64_Verneed vn;
            if (i == MAX_VERSION_ENTRIES || !file_offset(l, len, at, sizeof(vn), &off))
                return fail(why, cap, "its version-needed table lies outside its segments or does not end");
            memcpy(&vn, img + off, sizeof(vn));
            if (vn.vn_version != VER_NEED_CURRENT || vn.vn_file >= t->strsz)
                return fail(why, cap, "its version-needed table is malformed");
            if (!is_needed(img, doff, dsize, soff, t->strsz, vn.vn_file))
                return fail(why, cap, "its version-needed table names a library it does not need");
            uint64_t aux = at + vn.vn_aux;
            for (unsigned k = 0;; k++) {
                Elf64_Vernaux va;
                if (k == MAX_VERSION_ENTRIES || !file_offset(l, len, aux, sizeof(va), &off))
                    return fail(why, cap, "its version-needed table lies outside its segments or does not end");
                memcpy(&va, img + off, sizeof(va));
                if (va.vna_name >= t->strsz)
                    return fail(why, cap, "its version-needed table is malformed");
                if (va.vna_next == 0)
                    break;
                aux += va.vna_next;
            }
            if (vn.vn_next == 0)
                break;
            at += vn.vn_next;
        }
    }
    if (t->has_verdef) {
        uint64_t at = t->verdef;
        for (unsigned i = 0;; i++) {
            Elf64_Verdef vd;
            Elf64_Verdaux va;
            if (i == MAX_VERSION_ENTRIES || !file_offset(l, len, at, sizeof(vd), &off))
                return fail(why, cap, "its version-definition table lies outside its segments or does not end");
            memcpy(&vd, img + off, sizeof(vd));
            if (vd.vd_version != VER_DEF_CURRENT || !file_offset(l, len, at + vd.vd_aux, sizeof(va), &off))
                return fail(why, cap, "its version-definition table is malformed");
            memcpy(&va, img + off, sizeof(va));
            if (va.vda_name >= t->strsz)
                return fail(why, cap, "its version-definition table is malformed");
            if (vd.vd_next == 0)
                break;
            at += vd.vd_next;
        }
    }
    return 0;
}

static int check_tables(const unsigned char *img, size_t len, struct loads *l, uint64_t doff, uint64_t dsize,
                        char *why, size_t cap)
{
    struct dyn_tables t = {.syment = sizeof(Elf64_Sym)};
    for (uint64_t k = 0; k + sizeof(Elf64_Dyn) <= dsize; k += sizeof(Elf64_Dyn)) {
        Elf64_Dyn d;
        memcpy(&d, img + doff + k, sizeof(d));
        if (d.d_tag == DT_NULL)
            break;
        switch (d.d_tag) {
        case DT_STRTAB: t.strtab = d.d_un.d_ptr; t.has_strtab = true; break;
        case DT_STRSZ: t.strsz = d.d_un.d_val; break;
        case DT_SYMTAB: t.symtab = d.d_un.d_ptr; t.has_symtab = true; break;
        case DT_SYMENT: t.syment = d.d_un.d_val; break;
        case DT_HASH: t.hash = d.d_un.d_ptr; t.has_hash = true; break;
        case DT_GNU_HASH: t.gnu_hash = d.d_un.d_ptr; t.has_gnu_hash = true; break;
        case DT_VERSYM: t.versym = d.d_un.d_ptr; t.has_versym = true; break;
        case DT_VERNEED: t.verneed = d.d_un.d_ptr; t.has_verneed = true; break;
        case DT_VERDEF: t.verdef = d.d_un.d_ptr; t.has_verdef = true; break;
        case DT_INIT: t.init = d.d_un.d_ptr; t.has_init = true; break;
        case DT_FINI: t.fini = d.d_un.d_ptr; t.has_fini = true; break;
        case DT_INIT_ARRAY: t.arr[0] = d.d_un.d_ptr; t.has_arr[0] = true; break;
        case DT_INIT_ARRAYSZ: t.arrsz[0] = d.d_un.d_val; break;
        case DT_FINI_ARRAY: t.arr[1] = d.d_un.d_ptr; t.has_arr[1] = true; break;
        case DT_FINI_ARRAYSZ: t.arrsz[1] = d.d_un.d_val; break;
        case DT_PREINIT_ARRAY: case DT_PREINIT_ARRAYSZ:
            return fail(why, cap, "it has a pre-initialisation array, which only programs have");
        default: break;
        }
    }
    uint64_t soff;
    if (!t.has_strtab || !t.has_symtab || t.strsz == 0 || t.syment != sizeof(Elf64_Sym) ||
        !file_offset(l, len, t.strtab, t.strsz, &soff))
        return fail(why, cap, "its string or symbol table is missing or lies outside its segments");
    /* Names the loader reads as strings: inside the string table. */
    for (uint64_t k = 0; k + sizeof(Elf64_Dyn) <= dsize; k += sizeof(Elf64_Dyn)) {
        Elf64_Dyn d;
        memcpy(&d, img + doff + k, sizeof(d));
        if (d.d_tag == DT_NULL)
            break;
        if ((d.d_tag == DT_NEEDED || d.d_tag == DT_SONAME || d.d_tag == DT_RPATH || d.d_tag == DT_RUNPATH ||
             d.d_tag == DT_AUXILIARY || d.d_tag == DT_FILTER) &&
            (d.d_un.d_val >= t.strsz || !memchr(img + soff + d.d_un.d_val, 0, t.strsz - d.d_un.d_val)))
            return fail(why, cap, "a name in its dynamic section lies outside its string table");
    }
    if ((t.has_init && !in_segment(l, t.init, 1, true)) || (t.has_fini && !in_segment(l, t.fini, 1, true)))
        return fail(why, cap, "its initialisation or finalisation code lies outside its code segments");
    for (int i = 0; i < 2; i++)
        if (t.has_arr[i] && (t.arrsz[i] % 8 || (t.arrsz[i] && !in_segment(l, t.arr[i], t.arrsz[i], false))))
            return fail(why, cap, "its %s array lies outside its segments", i ? "finalisation" : "initialisation");
    if (check_versions(img, len, l, &t, doff, dsize, soff, why, cap))
        return -1;
    return check_hash(img, len, l, &t, why, cap);
}

int oacl_cpu_elf_check_dynamic(const unsigned char *img, size_t len, char *why, size_t cap)
{
    Elf64_Ehdr eh;
    if (len < sizeof(eh))
        return fail(why, cap, "it is truncated");
    memcpy(&eh, img, sizeof(eh));
    struct loads l = {.n = 0, .symtab = 0};
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
    if (check_tables(img, len, &l, doff, dyn.p_filesz, why, cap))
        return -1;
    if ((has_rela || relasz) && check_rela(img, len, &l, rela, relasz, relacount, "dynamic relocation", why, cap))
        return -1;
    if ((has_jmprel || pltrelsz) && check_rela(img, len, &l, jmprel, pltrelsz, 0, "PLT relocation", why, cap))
        return -1;
    if ((has_relr || relrsz) && check_relr(img, len, &l, relr, relrsz, why, cap))
        return -1;
    return 0;
}
