# SPDX-License-Identifier: MIT
# Warnings live on an interface target that each of our targets links PRIVATE, so users never inherit them.
add_library(ccdkit_warnings INTERFACE)
target_compile_options(ccdkit_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wdouble-promotion)
