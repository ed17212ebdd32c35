# Shared by the install, toolchain and out-of-tree tests (sourced).
#
#   oacl_test_init <build dir> <sanitizers>
#
# installs the build into a fresh prefix $P under a temporary directory
# $WORK (removed on exit), and leaves the environment as a CANN user's
# shell starts: none of the install's variables, no LD_LIBRARY_PATH. In
# sanitizer builds the runtime is instrumented, so programs linking it must
# be too: $SAN_FLAGS holds the flags (empty otherwise), and with
# `oacl_export_san_flags` CMake projects get them through CFLAGS/CXXFLAGS/
# LDFLAGS, the way a user adds flags without editing a project.

oacl_test_init() {
  BUILD_DIR=$1
  SANITIZE=${2:-}
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  P=$WORK/P
  cmake --install "$BUILD_DIR" --prefix "$P" >"$WORK/install.log" 2>&1 || {
    cat "$WORK/install.log"; echo "FAIL: cmake --install"; exit 1; }
  unset LD_LIBRARY_PATH SOC_VERSION ASCENDC_CMAKE_DIR ASCEND_HOME_PATH ASCEND_INSTALL_PATH \
    ASCEND_TOOLKIT_HOME ASCEND_CANN_PACKAGE_PATH OACL_SOC OACL_LOG_LEVEL ASCEND_GLOBAL_LOG_LEVEL \
    PKG_CONFIG_PATH CMAKE_PREFIX_PATH CFLAGS CXXFLAGS LDFLAGS OACL_KERNEL_CFLAGS
  SAN_FLAGS=""
  if [ -n "$SANITIZE" ]; then
    SAN_FLAGS="-fsanitize=$SANITIZE -fno-omit-frame-pointer"
  fi
}

oacl_export_san_flags() {
  if [ -n "$SAN_FLAGS" ]; then
    export CFLAGS="$SAN_FLAGS" CXXFLAGS="$SAN_FLAGS" LDFLAGS="-fsanitize=$SANITIZE"
  fi
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# expect_eq <what> <got> <want>
expect_eq() {
  if [ "$2" != "$3" ]; then
    fail "$1: got '$2', want '$3'"
  fi
}

# Runs a command, showing its output only when it fails.
quiet() {
  local log
  log=$(mktemp "$WORK/quiet.XXXXXX")
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "command failed: $*"
  fi
}

# The first line of a file that is a bare token, as CANN's sample tooling
# picks SOC_VERSION out of a detection program's merged output; empty if
# there is none.
first_bare_line() {
  local line
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^[A-Za-z0-9_-]+$ ]]; then
      printf '%s\n' "$line"
      return 0
    fi
  done <"$1"
  return 0
}
