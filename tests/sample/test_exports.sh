#!/usr/bin/env bash
# libacl_rt.so exports the ACL API and the documented oacl_ kernel-support
# ABI (docs/kernel-abi.md), nothing else.
set -euo pipefail
lib=$1
doc=$2
syms=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRV]$/ {print $3}' | sed 's/@.*//' | sort -u)
[ -n "$syms" ] || { echo "no exported symbols in $lib"; exit 1; }
bad=$(echo "$syms" | grep -Ev '^(acl[A-Za-z0-9_]*|oacl_[a-z0-9_]+)$' || true)
if [ -n "$bad" ]; then echo "unexpected exports:"; echo "$bad"; exit 1; fi
# Every exported oacl_ symbol is documented, and every documented one exists.
documented=$(grep -o 'oacl_[a-z0-9_/]*' "$doc" | tr '/' '\n' | sed 's/^\([a-z0-9]\)/oacl_vadd_\1/; s/^oacl_vadd_oacl_/oacl_/' | sort -u)
for s in $(echo "$syms" | grep '^oacl_'); do
  grep -qx "$s" <<<"$documented" || { echo "exported but undocumented: $s"; exit 1; } # no pipe: grep -q closing it early is SIGPIPE under pipefail
done
for s in oacl_block oacl_kernel_fail oacl_kernel_trap oacl_launch oacl_printf oacl_vadd_f16 oacl_vadd_f32 oacl_vadd_i32 oacl_vadd_i16 \
         oacl_cvt_f16_to_f32 oacl_cvt_f32_to_f16; do
  grep -qx "$s" <<<"$syms" || { echo "documented but not exported: $s"; exit 1; }
done
echo "$(echo "$syms" | grep -c '^acl') ACL functions and $(echo "$syms" | grep -c '^oacl_') kernel-support symbols exported"
