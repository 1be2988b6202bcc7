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
