# dist.cmake — included from the top-level CMakeLists.txt: decides whether the MPI transports
# (dist/) are built. HOYLE_WITH_MPI = AUTO (default: when find_package(MPI) finds the C
# bindings, Debian: libopenmpi-dev), ON (require it) or OFF. Without MPI everything builds and
# runs as before; with it, the same binary still runs without mpirun (MPI is initialised only
# when the process was started by a launcher, dist/dist.h).
set(HOYLE_WITH_MPI AUTO CACHE STRING "Build the MPI transports in dist/ (AUTO, ON, OFF)")
set_property(CACHE HOYLE_WITH_MPI PROPERTY STRINGS AUTO ON OFF)
set(HOYLE_MPI_ENABLED OFF)
if(HOYLE_WITH_MPI STREQUAL "AUTO" OR HOYLE_WITH_MPI)
  find_package(MPI QUIET COMPONENTS C)
  if(MPI_C_FOUND)
    set(HOYLE_MPI_ENABLED ON)
  elseif(NOT HOYLE_WITH_MPI STREQUAL "AUTO")
    message(FATAL_ERROR "hoyle: HOYLE_WITH_MPI=${HOYLE_WITH_MPI} but MPI was not found "
                        "(Debian: apt-get install libopenmpi-dev openmpi-bin)")
  endif()
endif()
message(STATUS "hoyle: HOYLE_WITH_MPI=${HOYLE_WITH_MPI} -> MPI transports ${HOYLE_MPI_ENABLED}")
add_subdirectory(${CMAKE_CURRENT_LIST_DIR} ${CMAKE_BINARY_DIR}/dist)
