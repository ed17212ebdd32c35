# Kernel build functions for CMake projects that use an oacl install as
# their CANN install (prefix P). Installed as
# P/tikcpp/ascendc_kernel_cmake/ascendc.cmake and
# P/<arch>-linux/tikcpp/ascendc_kernel_cmake/ascendc.cmake.
#
#   set(SOC_VERSION $ENV{SOC_VERSION})               # empty or unknown: the default SoC
#                                                    # (undefined: $ENV{SOC_VERSION})
#   set(RUN_MODE "npu" CACHE STRING "cpu/sim/npu")  # npu, sim and cpu all build for oacl's device
#   include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
#
#   ascendc_fatbin_library(<name> <kernel sources>...)
#       A loadable kernel binary, written at build time (target <name>, in
#       ALL) to ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/<name>.o, for
#       aclrtBinaryLoadFromFile; kernels are found by their extern "C" names.
#       The directory's include directories and definitions apply.
#   ascendc_library(<name> STATIC|SHARED|OBJECT <sources>...)
#       A library of kernels and host wrappers that launch them with
#       kernel<<<blockDim, l2ctrl, stream>>>(args...). oacl-cc rewrites each
#       source (launches, asm("trap")) and the project's compiler builds the
#       result with the project's flags. The target carries libacl_rt.so,
#       pthread and dl as link dependencies and P/include as an include
#       directory (PUBLIC), so linking only it is enough.
#   ascendc_include_directories(<target> [PRIVATE|PUBLIC|INTERFACE] <dir>...)
#   ascendc_compile_definitions(<target> [PRIVATE|PUBLIC|INTERFACE] <def>...)
#   ascendc_compile_options(<target> [PRIVATE|PUBLIC|INTERFACE] <option>...)
#       Extra include directories, definitions and options for the kernels
#       of a target made by either function.
#
# Kernels are compiled with -O2 whatever CMAKE_BUILD_TYPE says, with
# __NPU_ARCH__ set from SOC_VERSION, and with each source's directory on the
# quote-include path. Including this file defines the functions and the
# variables OACL_PREFIX, OACL_KERNEL_CC and OACL_KERNEL_INCLUDE_DIRS,
# includes GNUInstallDirs and adds P/lib64 to CMAKE_BUILD_RPATH and
# CMAKE_INSTALL_RPATH (installed programs keep finding libacl_rt.so); it
# builds, writes and checks nothing else.
include_guard(DIRECTORY)
cmake_policy(PUSH)
cmake_policy(VERSION 3.16...3.28)

include(GNUInstallDirs)

# P is two levels up (P/tikcpp/ascendc_kernel_cmake) or three
# (P/<arch>-linux/tikcpp/ascendc_kernel_cmake).
get_filename_component(OACL_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT EXISTS "${OACL_PREFIX}/bin/oacl-cc")
  get_filename_component(OACL_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
endif()
if(NOT DEFINED OACL_KERNEL_CC)
  set(OACL_KERNEL_CC "${OACL_PREFIX}/bin/oacl-cc")
endif()
set(OACL_KERNEL_INCLUDE_DIRS "${OACL_PREFIX}/include")
# The functions may be called from other directories than the one that
# included this file: they read the install from global properties.
set_property(GLOBAL PROPERTY OACL_PREFIX "${OACL_PREFIX}")
set_property(GLOBAL PROPERTY OACL_KERNEL_CC "${OACL_KERNEL_CC}")
set_property(GLOBAL PROPERTY OACL_KERNEL_INCLUDE_DIRS "${OACL_KERNEL_INCLUDE_DIRS}")

foreach(_oacl_var CMAKE_BUILD_RPATH CMAKE_INSTALL_RPATH)
  list(FIND ${_oacl_var} "${OACL_PREFIX}/lib64" _oacl_at)
  if(_oacl_at EQUAL -1)
    list(APPEND ${_oacl_var} "${OACL_PREFIX}/lib64")
  endif()
endforeach()
unset(_oacl_var)
unset(_oacl_at)

# --soc for oacl-cc: the SOC_VERSION variable (projects set it from the
# environment or the command line); if the project never defines it, the
# SOC_VERSION environment variable seen when configuring. An empty value
# is passed as such, so oacl-cc uses its default SoC (never the build
# environment's), and an unknown name falls back to the default with a note.
function(_oacl_soc_args out)
  if(DEFINED SOC_VERSION)
    set(${out} "--soc=${SOC_VERSION}" PARENT_SCOPE)
  else()
    set(${out} "--soc=$ENV{SOC_VERSION}" PARENT_SCOPE)
  endif()
endfunction()

function(_oacl_install out_prefix out_cc)
  get_property(prefix GLOBAL PROPERTY OACL_PREFIX)
  get_property(cc GLOBAL PROPERTY OACL_KERNEL_CC)
  set(${out_prefix} "${prefix}" PARENT_SCOPE)
  set(${out_cc} "${cc}" PARENT_SCOPE)
endfunction()

# ascendc_fatbin_library(<name> <src>...)
function(ascendc_fatbin_library name)
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_fatbin_library(${name}): no kernel sources given")
  endif()
  _oacl_install(prefix cc)
  set(srcs "")
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND srcs "${abs}")
  endforeach()
  set(out "${CMAKE_INSTALL_PREFIX}/fatbin/${name}/${name}.o")
  _oacl_soc_args(soc)
  # Include directories and definitions: the directory's (the target
  # inherits them) plus ascendc_include_directories/compile_definitions.
  set(incs "$<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>")
  set(opts "$<TARGET_PROPERTY:${name},OACL_KERNEL_OPTIONS>")
  # oacl-cc lists the headers the kernels include: editing one rebuilds the
  # binary (DEPFILE needs CMake 3.20 with Makefile generators).
  set(depfile_cmd "")
  set(depfile_opt "")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.20 OR CMAKE_GENERATOR MATCHES "Ninja")
    set(depfile "${CMAKE_CURRENT_BINARY_DIR}/ascendc_gen/${name}.d")
    set(depfile_cmd "--depfile=${depfile}")
    set(depfile_opt DEPFILE "${depfile}")
  endif()
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${cc}" "${soc}" -O2 ${depfile_cmd}
      "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
      "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
      "${opts}"
      -o "${out}" ${srcs}
    DEPENDS ${srcs} "${cc}"
    ${depfile_opt}
    COMMENT "Building AscendC kernel binary ${name}"
    COMMAND_EXPAND_LISTS
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS "${out}")
  set_target_properties(${name} PROPERTIES OACL_ASCENDC_KIND fatbin OACL_KERNEL_BINARY "${out}")
  # `cmake --install` to the configured prefix finds the file in place; to
  # another prefix (--prefix) it copies the binary there.
  install(FILES "${out}" DESTINATION fatbin/${name})
endfunction()

# ascendc_library(<name> STATIC|SHARED|OBJECT <src>...)
function(ascendc_library name type)
  if(NOT type MATCHES "^(STATIC|SHARED|OBJECT)$")
    message(FATAL_ERROR "ascendc_library(${name} ${type} ...): the library type must be STATIC, SHARED or OBJECT")
  endif()
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_library(${name}): no sources given")
  endif()
  _oacl_install(prefix cc)
  get_property(kincs GLOBAL PROPERTY OACL_KERNEL_INCLUDE_DIRS)
  _oacl_soc_args(soc)
  set(gen_dir "${CMAKE_CURRENT_BINARY_DIR}/ascendc_gen/${name}")
  set(sources "")
  set(has_cxx FALSE)
  set(idx 0)
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(base "${abs}" NAME)
    get_filename_component(dir "${abs}" DIRECTORY)
    if(base MATCHES "\\.(h|hh|hpp|hxx|inc|inl)$")
      list(APPEND sources "${abs}") # headers: listed, not compiled
      continue()
    endif()
    set(xlang "")
    if(base MATCHES "\\.c$")
      set(out "${gen_dir}/${idx}_${base}")
    elseif(base MATCHES "\\.(cpp|cc|cxx|C|c\\+\\+)$")
      set(out "${gen_dir}/${idx}_${base}")
      set(has_cxx TRUE)
    else()
      # Other extensions (.asc, ...) are AscendC C++ sources.
      set(out "${gen_dir}/${idx}_${base}.cpp")
      set(xlang -x c++)
      set(has_cxx TRUE)
    endif()
    add_custom_command(
      OUTPUT "${out}"
      COMMAND "${cc}" --emit=source "${soc}" -o "${out}" ${xlang} "${abs}"
      DEPENDS "${abs}" "${cc}"
      COMMENT "Rewriting AscendC source ${base} for ${name}"
      VERBATIM)
    # -O2 after the target's own flags, so Debug builds still optimise
    # kernels; the rewritten copy keeps the original's quote-include path.
    set_source_files_properties("${out}" PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-O2;-iquote${dir}")
    list(APPEND sources "${out}")
    math(EXPR idx "${idx} + 1")
  endforeach()
  add_library(${name} ${type} ${sources})
  target_include_directories(${name} PUBLIC ${kincs})
  target_link_libraries(${name} PUBLIC "${prefix}/lib64/libacl_rt.so" pthread ${CMAKE_DL_LIBS})
  if(has_cxx)
    target_compile_features(${name} PRIVATE cxx_std_17)
  endif()
  set_target_properties(${name} PROPERTIES OACL_ASCENDC_KIND library)
endfunction()

# ascendc_include_directories / compile_definitions / compile_options:
# on an ascendc_library target they are the target_* commands; on an
# ascendc_fatbin_library target they feed the kernel compile.
function(_oacl_kernel_property fn target kind)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${fn}: '${target}' is not a target")
  endif()
  get_target_property(what ${target} OACL_ASCENDC_KIND)
  set(args ${ARGN})
  if(what STREQUAL "fatbin")
    list(REMOVE_ITEM args PRIVATE PUBLIC INTERFACE BEFORE SYSTEM)
    if(kind STREQUAL "incs")
      set(abs "")
      foreach(d IN LISTS args)
        get_filename_component(a "${d}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
        list(APPEND abs "${a}")
      endforeach()
      set_property(TARGET ${target} APPEND PROPERTY INCLUDE_DIRECTORIES ${abs})
    elseif(kind STREQUAL "defs")
      list(TRANSFORM args REPLACE "^-D" "")
      set_property(TARGET ${target} APPEND PROPERTY COMPILE_DEFINITIONS ${args})
    else()
      set_property(TARGET ${target} APPEND PROPERTY OACL_KERNEL_OPTIONS ${args})
    endif()
    return()
  endif()
  list(GET args 0 first)
  if(NOT first MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    list(INSERT args 0 PRIVATE)
  endif()
  if(kind STREQUAL "incs")
    target_include_directories(${target} ${args})
  elseif(kind STREQUAL "defs")
    target_compile_definitions(${target} ${args})
  else()
    target_compile_options(${target} ${args})
  endif()
endfunction()

function(ascendc_include_directories target)
  _oacl_kernel_property(ascendc_include_directories ${target} incs ${ARGN})
endfunction()

function(ascendc_compile_definitions target)
  _oacl_kernel_property(ascendc_compile_definitions ${target} defs ${ARGN})
endfunction()

function(ascendc_compile_options target)
  _oacl_kernel_property(ascendc_compile_options ${target} opts ${ARGN})
endfunction()

cmake_policy(POP)
