# Kernel build functions for projects that build against an oacl install
# (a CANN-shaped prefix P). Installed as P/tikcpp/ascendc_kernel_cmake/.
#
#   include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
#   ascendc_fatbin_library(<name> <kernel sources>...)
#
# Including this file only defines functions and a few variables; nothing
# is built unless a function is called.
include_guard(GLOBAL)
include(GNUInstallDirs)

get_filename_component(OACL_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT EXISTS "${OACL_PREFIX}/bin/oacl-cc")
  # Also found under <arch>-linux/tikcpp/... in CANN's layout.
  get_filename_component(OACL_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
endif()
set(OACL_KERNEL_CC "${OACL_PREFIX}/bin/oacl-cc" CACHE FILEPATH "oacl kernel compiler driver")

# An empty or unknown SOC_VERSION falls back to the driver's default SoC.
function(_oacl_soc_args out)
  if(SOC_VERSION)
    set(${out} "--soc=${SOC_VERSION}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# ascendc_fatbin_library(<name> <src>...)
# Compiles the kernel sources into one loadable kernel binary, written at
# build time to ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/<name>.o (the path a
# host program passes to aclrtBinaryLoadFromFile). Kernels are compiled
# with -O2 whatever the build type.
function(ascendc_fatbin_library name)
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_fatbin_library(${name}): no kernel sources given")
  endif()
  set(srcs "")
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND srcs "${abs}")
  endforeach()
  set(out "${CMAKE_INSTALL_PREFIX}/fatbin/${name}/${name}.o")
  _oacl_soc_args(soc)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${OACL_KERNEL_CC}" ${soc} -O2 -o "${out}" ${srcs}
    DEPENDS ${srcs} "${OACL_KERNEL_CC}"
    COMMENT "Compiling kernel binary ${name}"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS "${out}")
  set_target_properties(${name} PROPERTIES OACL_KERNEL_BINARY "${out}")
endfunction()
