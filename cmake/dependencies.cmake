# SPDX-License-Identifier: MIT
# Every dependency comes from Debian's packages (scripts/install-deps.sh installs exactly these).
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(TBB REQUIRED)

# GMP ships no CMake config: find the C++ bindings (gmpxx) and the C library by hand.
find_path(GMP_INCLUDE_DIR gmpxx.h REQUIRED)
find_library(GMP_LIBRARY gmp REQUIRED)
find_library(GMPXX_LIBRARY gmpxx REQUIRED)
add_library(ccdkit_gmp INTERFACE)
target_include_directories(ccdkit_gmp INTERFACE ${GMP_INCLUDE_DIR})
target_link_libraries(ccdkit_gmp INTERFACE ${GMPXX_LIBRARY} ${GMP_LIBRARY})

if(CCDKIT_BUILD_APP)
  find_package(CLI11 2.1 REQUIRED)
  find_package(fmt 9 REQUIRED)
endif()
if(CCDKIT_BUILD_TESTS)
  find_package(GTest 1.12 REQUIRED)
endif()
if(CCDKIT_BUILD_BENCHMARKS)
  find_package(benchmark 1.7 REQUIRED)
endif()

# The rigid-body comparison benchmark against FCL and Bullet (optional; never in CI). Both come from Debian's
# packages through pkg-config; the targets below drop FCL's `-std=c++11` (we build as C++20) and keep Bullet's
# `-DBT_USE_DOUBLE_PRECISION` (the double build, pkg-config module bullet-float64).
if(CCDKIT_BUILD_PEER_BENCHMARKS)
  find_package(PkgConfig QUIET)
  if(NOT PKG_CONFIG_FOUND)
    message(FATAL_ERROR "CCDKIT_BUILD_PEER_BENCHMARKS needs pkg-config (Debian package pkg-config) to find FCL and Bullet")
  endif()
  pkg_check_modules(CCDKIT_FCL QUIET fcl>=0.7)
  if(NOT CCDKIT_FCL_FOUND)
    message(FATAL_ERROR "CCDKIT_BUILD_PEER_BENCHMARKS: FCL >= 0.7 not found (pkg-config module `fcl`). "
      "Install Debian's libfcl-dev (scripts/install-deps.sh --peers) or configure with -DCCDKIT_BUILD_PEER_BENCHMARKS=OFF.")
  endif()
  pkg_check_modules(CCDKIT_BULLET QUIET bullet-float64)
  if(NOT CCDKIT_BULLET_FOUND)
    message(FATAL_ERROR "CCDKIT_BUILD_PEER_BENCHMARKS: Bullet's double-precision build not found (pkg-config module "
      "`bullet-float64`). Install Debian's libbullet-dev (scripts/install-deps.sh --peers) or configure with "
      "-DCCDKIT_BUILD_PEER_BENCHMARKS=OFF.")
  endif()
  # An interface target per peer: its headers as system headers (our warnings stay ours), its libraries, and its
  # compile flags minus any language-standard flag.
  function(ccdkit_peer_target target prefix)
    add_library(${target} INTERFACE)
    target_include_directories(${target} SYSTEM INTERFACE ${${prefix}_INCLUDE_DIRS})
    target_link_libraries(${target} INTERFACE ${${prefix}_LINK_LIBRARIES})
    set(flags ${${prefix}_CFLAGS_OTHER})
    list(FILTER flags EXCLUDE REGEX "^-std=")
    target_compile_options(${target} INTERFACE ${flags})
  endfunction()
  ccdkit_peer_target(ccdkit_peer_fcl CCDKIT_FCL)
  ccdkit_peer_target(ccdkit_peer_bullet CCDKIT_BULLET)
  message(STATUS "ccdkit peers: FCL ${CCDKIT_FCL_VERSION}, Bullet (double) ${CCDKIT_BULLET_VERSION}")
endif()
