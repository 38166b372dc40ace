# shellcheck shell=bash
# Sourced by scripts/gpu-ab and scripts/gpu-sweep, from the repository root: a patch
# checked, applied for the rest of the script and taken back out when it exits, and the
# build directory configured where it is not yet. NAME, the calling script's name,
# begins the messages.

patch_applies() {  # patch_applies NAME PATCH: exits 2 unless PATCH applies to the tree
  patch -p1 --forward --dry-run --silent <"$2" >/dev/null || { echo "$1: $2 does not apply to this tree" >&2; exit 2; }
}

configure_once() {  # configure_once NAME BUILD LOGS: configures BUILD as scripts/gpu-check does
  [ -f "$2/build.ninja" ] && return 0
  GPUCHECK_STEPS=configure BUILD_DIR=$2 scripts/gpu-check "$3/configure" >/dev/null ||
    { echo "$1: configuring $2 failed (see $3/configure)" >&2; exit 1; }
}

apply_until_exit() {  # apply_until_exit NAME PATCH: applies PATCH; it comes back out whatever happens next
  patch -p1 --forward --silent <"$2" || { echo "$1: applying $2 failed" >&2; exit 1; }
  applied_by=$1 applied_patch=$2
  trap 'patch -p1 -R --forward --silent <"$applied_patch" || echo "$applied_by: taking $applied_patch back out failed" >&2' EXIT
}
