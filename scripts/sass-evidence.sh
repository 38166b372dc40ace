#!/usr/bin/env bash
# The global loads and stores of each memory-access kernel (copy, point, conversion),
# from the SASS of the built objects: the evidence docs/techniques/memory-access.md
# cites (LDG.E.128 for the 16-byte variants). Needs cuobjdump (the full CUDA toolkit).
# usage: scripts/sass-evidence.sh [build-dir]
set -euo pipefail
build=${1:-build}
objects=$(find "$build/kernels" "$build/lab" -name 'copy_*.cu.o' -o -name 'point_kernels.cu.o' -o -name 'conversion_*.cu.o')
for object in $objects; do
  echo "== $(basename "$object")"
  cuobjdump -sass "$object" | awk '
    /Function :/ { name = $3; next }
    /(LDG|STG|LDS|LDC)[.A-Z0-9]*/ {
      match($0, /(LDG|STG|LDS)[.A-Z0-9]*/)
      op = substr($0, RSTART, RLENGTH)
      if (!(name SUBSEP op in seen)) { seen[name SUBSEP op] = 1; ops[name] = ops[name] " " op }
    }
    END { for (n in ops) print n ":" ops[n] }' | c++filt | sort
done
