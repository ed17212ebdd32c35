#!/usr/bin/env python3
"""Writes the checked-in seed corpora of the fuzz targets (fuzz/corpus/).

Run it again after changing the seeds below; run.sh adds the seed kernel
binary it builds (a complete, valid one) to the binary targets' corpora.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

CONFIGS = {
    "empty.json": "",
    "blank.json": " \n\t\n",
    "object.json": "{}",
    "array.json": "[1, 2, {\"a\": null}]",
    "err_msg_mode.json": '{"err_msg_mode": "1"}',
    "default_device.json": '{"defaultDevice": {"default_device": "0"}}',
    "dump.json": '{"dump": {"dump_list": [{"model_name": "m", "layer": ["a", "b"]}], '
                 '"dump_path": "/nonexistent/oacl-fuzz", "dump_mode": "output", "dump_op_switch": "off", '
                 '"dump_debug": "off", "dump_data": "tensor"}}',
    "dump_exception.json": '{"dump": {"dump_scene": "lite_exception", "dump_path": "/nonexistent/oacl-fuzz"}}',
    "profiler.json": '{"profiler": {"switch": "on", "output": "/nonexistent/oacl-fuzz", "aic_metrics": '
                     '"PipeUtilization", "aicpu": "on", "task_time": "l1", "storage_limit": "200MB"}}',
    "all.json": '{"err_msg_mode": "0", "defaultDevice": {"default_device": "1"}, '
                '"profiler": {"switch": "off"}, "dump": {"dump_path": "", "dump_debug": "on"}}',
    "nested.json": '{"a": {"b": {"c": {"d": [[[[1]]]]}}}, "s": "\\u0000\\u00e9\\"\\\\"}',
    "numbers.json": '{"n": [0, -1, 1.5e300, 1e-400, 123456789012345678901234567890]}',
    "bad.json": '{"err_msg_mode": 1,}',
}


def elf_header(cls=2, machine=62, etype=3, phoff=64, phnum=0, shoff=0, shnum=0, phentsize=56):
    ident = b"\x7fELF" + bytes([cls, 1, 1, 0]) + bytes(8)
    return ident + struct.pack("<HHIQQQIHHHHHH", etype, machine, 1, 0, phoff, shoff, 0, 64, phentsize, phnum,
                               64, shnum, 0)


def phdr(ptype, offset, vaddr, filesz, memsz, flags=5):
    return struct.pack("<IIQQQQQQ", ptype, flags, offset, vaddr, vaddr, filesz, memsz, 0x1000)


BINARIES = {
    "not_elf.bin": b"hello, kernel\n",
    "elf32.bin": elf_header(cls=1),
    "arm64.bin": elf_header(machine=183),
    "relocatable.bin": elf_header(etype=1),
    "header_only.bin": elf_header(),
    "truncated_phdrs.bin": elf_header(phnum=4),
    "segment_past_end.bin": elf_header(phnum=1) + phdr(1, 0, 0, 0x10000, 0x10000),
    "no_sections.bin": elf_header(phnum=1) + phdr(1, 0, 0, 120, 120),
}


def write(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    mode = "w" if isinstance(data, str) else "wb"
    with open(os.path.join(directory, name), mode) as f:
        f.write(data)


def main():
    for name, text in CONFIGS.items():
        write(os.path.join(HERE, "corpus", "fuzz_init_config"), name, text)
    for target in ("fuzz_binary_check", "fuzz_binary_data", "fuzz_binary_file"):
        for name, data in BINARIES.items():
            write(os.path.join(HERE, "corpus", target), name, data)


if __name__ == "__main__":
    main()
