# torch.cmake — included from the top-level CMakeLists.txt (so it runs at top-level scope):
# decides whether the libtorch wrapper (train/tch, the only C++ in hoyle) is built, and adds train/.
#
# HOYLE_WITH_TORCH = AUTO (default: build it when a C++ compiler and find_package(Torch)
# succeed), ON (require it) or OFF (C only). C++ is enabled here, at the top level, as CMake
# recommends for enable_language(). The C++ and libtorch live only in the module
# libhoyle_torch.so; programs (apps/, tests/) link the C loader hoyle_tch and open the module
# at run time (train/tch/CMakeLists.txt, docs/tch.md "Build"), so they link as C programs.
# Sets HOYLE_TORCH_ENABLED for the rest of the build (tests/CMakeLists.txt builds test_tch,
# the TorchScript check and the module-loading check only when ON).
set(HOYLE_WITH_TORCH AUTO CACHE STRING "Build the libtorch wrapper train/tch (AUTO, ON, OFF)")
set_property(CACHE HOYLE_WITH_TORCH PROPERTY STRINGS AUTO ON OFF)

set(HOYLE_TORCH_ENABLED OFF)
if(HOYLE_WITH_TORCH STREQUAL "AUTO" OR HOYLE_WITH_TORCH)
  include(CheckLanguage)
  check_language(CXX)
  if(CMAKE_CXX_COMPILER)
    enable_language(CXX)
    find_package(Torch QUIET)
  endif()
  if(TORCH_FOUND)
    set(HOYLE_TORCH_ENABLED ON)
  elseif(NOT HOYLE_WITH_TORCH STREQUAL "AUTO")
    message(FATAL_ERROR "hoyle: HOYLE_WITH_TORCH=${HOYLE_WITH_TORCH} but libtorch was not found "
                        "(Debian: apt-get install libtorch-dev)")
  endif()
endif()
message(STATUS "hoyle: HOYLE_WITH_TORCH=${HOYLE_WITH_TORCH} -> libtorch wrapper ${HOYLE_TORCH_ENABLED}")

# train/ itself is always built (its C library needs no libtorch); it adds train/tch only
# when HOYLE_TORCH_ENABLED.
add_subdirectory(${CMAKE_CURRENT_LIST_DIR} ${CMAKE_BINARY_DIR}/train)
