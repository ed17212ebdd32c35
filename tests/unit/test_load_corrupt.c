/*
 * Corrupt kernel binaries are refused, never crash the process (found by
 * fuzz/fuzz_binary_*): relocations that point outside the object, a
 * constructor or destructor that faults, a constructor that never returns,
 * a descriptor whose kernel table
 * points nowhere, a read-only-after-relocation range reaching past the
 * object, and the inputs the fuzzer found. From a file and from
 * memory; the device keeps working afterwards.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    assert_true(n > 0);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)n);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return data;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Loads `data` from memory and from a file: both refused with 107000 and a
 * message containing `why`; then a good kernel binary still loads. */
static void expect_refused(const unsigned char *data, size_t len, const char *why)
{
    aclrtBinHandle h = NULL;
    ACL_ERR(aclrtBinaryLoadFromData(data, len, NULL, &h), ACL_ERROR_RT_PARAM_INVALID, why);
    aclrtBinary b = aclrtCreateBinary(data, len);
    assert_non_null(b);
    ACL_ERR(aclrtBinaryLoad(b, &h), ACL_ERROR_RT_PARAM_INVALID, why);
    ACL_OK(aclrtDestroyBinary(b));
    char path[] = "/tmp/oacl-corrupt-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, data, len);
    ACL_ERR(aclrtBinaryLoadFromFile(path, NULL, &h), ACL_ERROR_RT_PARAM_INVALID, why);
    unlink(path);
    /* Nothing is left broken. */
    aclrtBinHandle good;
    aclrtFuncHandle f;
    test_load("add_c", "add_custom", &good, &f);
    ACL_OK(aclrtBinaryUnLoad(good));
}

/* The built file first: its own test load (the copies in memory and in a
 * temporary file are then refused as the same bytes, without one). */
static void expect_file_refused(const char *name, const char *why)
{
    aclrtBinHandle h = NULL;
    ACL_ERR(aclrtBinaryLoadFromFile(oacl_test_kernel_path(name), NULL, &h), ACL_ERROR_RT_PARAM_INVALID, why);
    size_t len;
    unsigned char *data = read_file(oacl_test_kernel_path(name), &len);
    expect_refused(data, len, why);
    free(data);
}

static void test_constructor_faults(void **state)
{
    (void)state;
    expect_file_refused("corrupt_ctor", "crashes the loader");
}

/* Refused after OACL_LOAD_PROBE_CPU_MS (set to 500 below) of CPU time in the
 * test load, where loading it here would hang the process. */
static void test_constructor_never_returns(void **state)
{
    (void)state;
    expect_file_refused("corrupt_spin", "does not finish");
}

static void test_destructor_faults(void **state)
{
    (void)state;
    expect_file_refused("corrupt_dtor", "crashes the loader");
}

static void test_descriptor_points_nowhere(void **state)
{
    (void)state;
    expect_file_refused("corrupt_desc", "crashes the loader");
}

/* The kernel binary `name` with the first section of type `type` that
 * `edit` changes (it returns whether it did), then checked to be refused
 * with `why`. */
static void expect_section_refused_in(const char *name, Elf64_Word type,
                                      bool (*edit)(unsigned char *data, const Elf64_Shdr *sh), const char *why)
{
    size_t len;
    unsigned char *data = read_file(oacl_test_kernel_path(name), &len);
    Elf64_Ehdr eh;
    memcpy(&eh, data, sizeof(eh));
    bool patched = false;
    for (unsigned i = 0; i < eh.e_shnum && !patched; i++) {
        Elf64_Shdr sh;
        memcpy(&sh, data + eh.e_shoff + (size_t)i * sizeof(sh), sizeof(sh));
        if (sh.sh_type == type)
            patched = edit(data, &sh);
    }
    assert_true(patched);
    expect_refused(data, len, why);
    free(data);
}

static void expect_section_refused(Elf64_Word type, bool (*edit)(unsigned char *data, const Elf64_Shdr *sh),
                                   const char *why)
{
    expect_section_refused_in("add_c", type, edit, why);
}

/* A dynamic relocation whose target lies outside the object: the loader
 * would write there (into another object's memory, when it is mapped). */
static bool relocate_outside(unsigned char *data, const Elf64_Shdr *sh)
{
    for (size_t off = sh->sh_offset; off + sizeof(Elf64_Rela) <= sh->sh_offset + sh->sh_size;
         off += sizeof(Elf64_Rela)) {
        Elf64_Rela r;
        memcpy(&r, data + off, sizeof(r));
        if (ELF64_R_TYPE(r.r_info) != R_X86_64_RELATIVE)
            continue;
        r.r_offset = 0x7f0000000000ull;
        memcpy(data + off, &r, sizeof(r));
        return true;
    }
    return false;
}

static void test_relocation_outside(void **state)
{
    (void)state;
    expect_section_refused(SHT_RELA, relocate_outside, "writes at 0x7f0000000000, outside its segments");
}

/* The first relocation of the table, which DT_RELACOUNT says is relative,
 * made another type: the loader would apply it as a relative one. */
static bool first_relative_retyped(unsigned char *data, const Elf64_Shdr *sh)
{
    Elf64_Rela r;
    if (sh->sh_size < sizeof(r))
        return false;
    memcpy(&r, data + sh->sh_offset, sizeof(r));
    if (ELF64_R_TYPE(r.r_info) != R_X86_64_RELATIVE)
        return false;
    r.r_info = ELF64_R_INFO(0, R_X86_64_64);
    memcpy(data + sh->sh_offset, &r, sizeof(r));
    return true;
}

static void test_relative_count_lies(void **state)
{
    (void)state;
    expect_section_refused(SHT_RELA, first_relative_retyped, "is not relative");
}

/* The add_c binary with its first program header of type `type` changed
 * by `edit`, then checked to be refused with `why`. */
static void expect_phdr_refused(Elf64_Word type, void (*edit)(Elf64_Phdr *ph), const char *why)
{
    size_t len;
    unsigned char *data = read_file(oacl_test_kernel_path("add_c"), &len);
    Elf64_Ehdr eh;
    memcpy(&eh, data, sizeof(eh));
    bool patched = false;
    for (unsigned i = 0; i < eh.e_phnum && !patched; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, data + eh.e_phoff + (size_t)i * sizeof(ph), sizeof(ph));
        if (ph.p_type != type)
            continue;
        edit(&ph);
        memcpy(data + eh.e_phoff + (size_t)i * sizeof(ph), &ph, sizeof(ph));
        patched = true;
    }
    assert_true(patched);
    expect_refused(data, len, why);
    free(data);
}

/* A text segment whose memory grows over the data segment. */
static void grow_segment(Elf64_Phdr *ph) { ph->p_memsz += 0x100000; }

static void test_segments_overlap(void **state)
{
    (void)state;
    expect_phdr_refused(PT_LOAD, grow_segment, "overlap");
}

/* A thread-local storage image larger than its segment: the loader would
 * zero-fill "up to" a smaller size in every thread's block. */
static void tls_larger_than_segment(Elf64_Phdr *ph)
{
    ph->p_type = PT_TLS;
    ph->p_filesz = 0x100;
    ph->p_memsz = 0x10;
    ph->p_align = 8;
}

static void test_tls_malformed(void **state)
{
    (void)state;
    expect_phdr_refused(PT_GNU_STACK, tls_larger_than_segment, "thread-local storage");
}

/* A read-only-after-relocation range reaching past the object: the loader
 * would make other memory of the process read-only (in the test load too,
 * where nothing touches it), and the process would die of it later. */
static void relro_past_object(Elf64_Phdr *ph) { ph->p_memsz += 0x400000; }

static void test_relro_outside(void **state)
{
    (void)state;
    expect_phdr_refused(PT_GNU_RELRO, relro_past_object, "read-only-after-relocation range");
}

/* The entry of the dynamic section with this tag set to value. */
static bool patch_dynamic(unsigned char *data, Elf64_Sxword tag, uint64_t value)
{
    Elf64_Ehdr eh;
    memcpy(&eh, data, sizeof(eh));
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        memcpy(&sh, data + eh.e_shoff + (size_t)i * sizeof(sh), sizeof(sh));
        if (sh.sh_type != SHT_DYNAMIC)
            continue;
        for (size_t off = sh.sh_offset; off + sizeof(Elf64_Dyn) <= sh.sh_offset + sh.sh_size; off += sizeof(Elf64_Dyn)) {
            Elf64_Dyn d;
            memcpy(&d, data + off, sizeof(d));
            if (d.d_tag != tag)
                continue;
            d.d_un.d_val = value;
            memcpy(data + off, &d, sizeof(d));
            return true;
        }
    }
    return false;
}

/* Tables the loader reads before any code runs, pointing outside the
 * image: refused before a test load. */
static void test_dynamic_tables_outside(void **state)
{
    (void)state;
    size_t len;
    unsigned char *data = read_file(oacl_test_kernel_path("add_c"), &len);
    assert_true(patch_dynamic(data, DT_STRTAB, 0x7f0000000000ull));
    expect_refused(data, len, "string or symbol table");
    free(data);
    data = read_file(oacl_test_kernel_path("add_c"), &len);
    assert_true(patch_dynamic(data, DT_STRSZ, 0x100000));
    expect_refused(data, len, "string or symbol table");
    free(data);
}

/* A GNU hash table whose bloom filter is not a power of two words: the
 * loader's own assertion ends the process. */
static bool bloom_three_words(unsigned char *data, const Elf64_Shdr *sh)
{
    uint32_t bloom_words = 3;
    memcpy(data + sh->sh_offset + 8, &bloom_words, sizeof(bloom_words));
    return true;
}

static void test_hash_table_malformed(void **state)
{
    (void)state;
    expect_section_refused(SHT_GNU_HASH, bloom_three_words, "hash table is malformed");
}

/* A version-needed entry naming a library the object does not need (the
 * name of the version itself): the loader's own assertion ends the
 * process. rt_add needs libc's versions. */
static bool verneed_names_no_library(unsigned char *data, const Elf64_Shdr *sh)
{
    Elf64_Verneed vn;
    Elf64_Vernaux va;
    memcpy(&vn, data + sh->sh_offset, sizeof(vn));
    memcpy(&va, data + sh->sh_offset + vn.vn_aux, sizeof(va));
    vn.vn_file = va.vna_name;
    memcpy(data + sh->sh_offset, &vn, sizeof(vn));
    return true;
}

/* A version-needed chain that leaves the image. */
static bool verneed_chain_outside(unsigned char *data, const Elf64_Shdr *sh)
{
    Elf64_Verneed vn;
    memcpy(&vn, data + sh->sh_offset, sizeof(vn));
    vn.vn_next = 0x10000000;
    memcpy(data + sh->sh_offset, &vn, sizeof(vn));
    return true;
}

static void test_version_tables_malformed(void **state)
{
    (void)state;
    expect_section_refused_in("rt_add", SHT_GNU_verneed, verneed_names_no_library, "names a library it does not need");
    expect_section_refused_in("rt_add", SHT_GNU_verneed, verneed_chain_outside, "version-needed table lies outside");
}

/* The inputs the fuzzer found (fuzz/corpus/: regress-*.bin). */
static void test_fuzzer_findings(void **state)
{
    (void)state;
    static const char *const found[] = {
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_data/regress-bad-relocation.bin",
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_file/regress-null-destructor.bin",
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_data/regress-misaligned-descriptor.bin",
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_file/regress-descriptor-names-outside.bin",
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_data/regress-relro-outside.bin",
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_file/regress-symbol-name-outside.bin",
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_data/regress-hash-chain-loop.bin",
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_file/regress-hash-chain-outside.bin",
        OACL_SOURCE_DIR "/fuzz/corpus/fuzz_binary_file/regress-constructor-loop.bin",
    };
    for (size_t i = 0; i < sizeof(found) / sizeof(found[0]); i++) {
        size_t len;
        print_message("%s\n", found[i]);
        unsigned char *data = read_file(found[i], &len);
        expect_refused(data, len, "corrupt");
        free(data);
    }
}

int main(void)
{
    setenv("OACL_LOAD_PROBE_CPU_MS", "500", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constructor_faults),
        cmocka_unit_test(test_constructor_never_returns),
        cmocka_unit_test(test_destructor_faults),
        cmocka_unit_test(test_descriptor_points_nowhere),
        cmocka_unit_test(test_relocation_outside),
        cmocka_unit_test(test_relative_count_lies),
        cmocka_unit_test(test_segments_overlap),
        cmocka_unit_test(test_tls_malformed),
        cmocka_unit_test(test_relro_outside),
        cmocka_unit_test(test_dynamic_tables_outside),
        cmocka_unit_test(test_hash_table_malformed),
        cmocka_unit_test(test_version_tables_malformed),
        cmocka_unit_test(test_fuzzer_findings),
    };
    if (aclrtSetDevice(0) != ACL_SUCCESS)
        return 1;
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    aclrtResetDeviceForce(0);
    return rc;
}
