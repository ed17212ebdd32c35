#!/usr/bin/env python3
"""API coverage of oacl: docs/api-coverage.md, generated from the installed headers.

    api_coverage.py --prefix P --root SRC [--out FILE] [--check]

Lists every function declared with an export macro (ACL_FUNC_VISIBILITY,
MSVP_PROF_API, ACL_DUMP_API, LOG_FUNC_VISIBILITY) in P/include/acl/ and
P/include/base/, whether P/lib64/libacl_rt.so exports it, its
status, and the test files that call it.

Status: a function is "refused" when its definition in SRC/src/ is preceded
by a line comment of the form

    /* oacl-api: refused: <why> */

(functions that always answer ACL_ERROR_RT_FEATURE_NOT_SUPPORT, with the
reason); every other defined function "works" (possibly refusing some
arguments or SoC profiles, as the spec says).

--check: exit 1 when a declared function is not exported, an exported
function is not declared, or FILE differs from what would be generated.
"""
import argparse
import os
import re
import subprocess
import sys

RUNTIME_HEADERS = ("acl_base_rt.h", "acl_rt.h", "acl_rt_allocator.h", "acl_rt_memory_soma.h")

# Exported although no public header declares them, as CANN's libraries do
# (profiling-and-tools.md: the stamp helpers frameworks declare themselves,
# and the va_list form of aclAppLog that language bindings use).
UNDECLARED_EXPORTS = {
    "aclprofSetStampPayload": "profiling stamp helper (frameworks declare it)",
    "aclprofSetStampCategory": "profiling stamp helper (frameworks declare it)",
    "aclprofSetCategoryName": "profiling stamp helper (frameworks declare it)",
    "aclAppLogWithArgs": "aclAppLog with a va_list (language bindings declare it)",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def declarations(include_dir):
    """name -> header (relative to include/) for every exported declaration."""
    found = {}
    for dirpath, _, files in [w for top in ("acl", "base") for w in os.walk(os.path.join(include_dir, top))]:
        for f in sorted(files):
            if not f.endswith(".h"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, include_dir)
            text = strip_comments(open(path, encoding="utf-8").read())
            text = re.sub(r"\bACL_DEPRECATED_MESSAGE\s*\((?:[^()\"]|\"[^\"]*\")*\)", " ", text)
            text = re.sub(r"\bACL_DEPRECATED\b", " ", text)
            for m in re.finditer(r"\b(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API|ACL_DUMP_API|LOG_FUNC_VISIBILITY)\b([^;{#]*?)\b(\w+)\s*\(", text):
                name = m.group(2)
                if name.startswith("acl"):
                    found.setdefault(name, rel)
    return found


def exports(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TW" and parts[2].startswith("acl"):
            syms.add(parts[2].split("@")[0])
    return syms


def statuses(src_dir):
    """name -> (status, reason, file) for each definition under src/."""
    result = {}
    tag = re.compile(r"/\*\s*oacl-api:\s*refused:\s*(.*?)\s*\*/", re.S)
    for dirpath, _, files in os.walk(os.path.join(src_dir, "src")):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(dirpath, f)
            text = open(path, encoding="utf-8").read()
            for m in re.finditer(r"^OACL_API\b[^;{]*?\b(acl\w+)\s*\([^;]*?\)\s*\{", text, re.M | re.S):
                name = m.group(1)
                before = text[max(0, m.start() - 600):m.start()]
                t = list(tag.finditer(before))
                # The tag must be the last thing before the definition.
                if t and not before[t[-1].end():].strip():
                    result[name] = ("refused", " ".join(t[-1].group(1).split()), os.path.relpath(path, src_dir))
                else:
                    result[name] = ("works", "", os.path.relpath(path, src_dir))
    return result


def test_files(src_dir, names):
    """name -> sorted test files (relative) that mention name( ."""
    uses = {n: set() for n in names}
    pat = re.compile(r"\b(acl\w+)\s*\(")
    tests = os.path.join(src_dir, "tests")
    for dirpath, _, files in os.walk(tests):
        for f in sorted(files):
            if not f.endswith((".c", ".cpp", ".h", ".sh")) or f.startswith("test_headers"):
                continue
            path = os.path.join(dirpath, f)
            text = open(path, encoding="utf-8", errors="replace").read()
            rel = os.path.relpath(path, src_dir)
            for m in pat.finditer(text):
                if m.group(1) in uses:
                    uses[m.group(1)].add(rel)
    return {n: sorted(v) for n, v in uses.items()}


def render(decl, exported, status, tests):
    lines = []
    runtime = sorted(n for n, h in decl.items() if os.path.basename(h) in RUNTIME_HEADERS)
    other = sorted(n for n, h in decl.items() if os.path.basename(h) not in RUNTIME_HEADERS)
    works = sum(1 for n in decl if status.get(n, ("missing",))[0] == "works")
    refused = sum(1 for n in decl if status.get(n, ("missing",))[0] == "refused")
    lines.append("# API coverage")
    lines.append("")
    lines.append("Generated by `scripts/api_coverage.py` from the installed headers; do not edit.")
    lines.append("`tests/sample/test_api_coverage.sh` fails when this file is stale, when a declared")
    lines.append("function is not exported by `libacl_rt.so`, or when an exported one is not declared.")
    lines.append("")
    lines.append(f"- functions declared in the runtime headers ({', '.join(RUNTIME_HEADERS)}): {len(runtime)}")
    lines.append(f"- functions declared in the other headers: {len(other)}")
    lines.append(f"- working: {works}; refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT: {refused}; "
                 f"without a definition: {len(decl) - works - refused}")
    lines.append("")
    lines.append("\"works\" means the function does what the specification says on the simulated device")
    lines.append("(it may still refuse some arguments or SoC profiles as CANN does); \"refused\" means it")
    lines.append("always answers 207000 with the reason given.")
    for title, names in (("Runtime headers", runtime), ("Other headers", other)):
        if not names:
            continue
        lines.append("")
        lines.append(f"## {title}")
        lines.append("")
        lines.append("| function | header | status | tests |")
        lines.append("| --- | --- | --- | --- |")
        for n in names:
            st, why, _ = status.get(n, ("missing", "", ""))
            if n not in exported:
                st = "**not exported**"
            elif st == "refused":
                st = f"refused: {why}"
            t = ", ".join(f"`{os.path.basename(x)}`" for x in tests.get(n, [])) or "—"
            lines.append(f"| `{n}` | `{decl[n]}` | {st} | {t} |")
    extra = sorted(n for n in UNDECLARED_EXPORTS if n in exported)
    if extra:
        lines.append("")
        lines.append("## Exported without a header")
        lines.append("")
        lines.append("| function | why |")
        lines.append("| --- | --- |")
        for n in extra:
            lines.append(f"| `{n}` | {UNDECLARED_EXPORTS[n]} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--out")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    decl = declarations(os.path.join(a.prefix, "include"))
    exported = exports(os.path.join(a.prefix, "lib64", "libacl_rt.so"))
    status = statuses(a.root)
    tests = test_files(a.root, decl.keys())
    text = render(decl, exported, status, tests)
    bad = 0
    for n in sorted(set(decl) - exported):
        print(f"declared but not exported: {n} ({decl[n]})", file=sys.stderr)
        bad = 1
    for n in sorted(exported - set(decl) - set(UNDECLARED_EXPORTS)):
        print(f"exported but not declared: {n}", file=sys.stderr)
        bad = 1
    if a.check:
        old = open(a.out, encoding="utf-8").read() if a.out and os.path.exists(a.out) else ""
        if old != text:
            print(f"{a.out} is stale: run scripts/api_coverage.py --prefix P --root . --out {a.out}", file=sys.stderr)
            bad = 1
        return bad
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
