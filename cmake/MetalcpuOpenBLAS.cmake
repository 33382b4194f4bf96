# OpenBLAS as the imported target OpenBLAS::OpenBLAS, when its CMake package is installed
# (Debian: libopenblas-dev). metalcpu::accelerate links it; the build and the installed
# package (metalcpuConfig.cmake) both include this file. Newer OpenBLAS packages define the
# target themselves; older ones, like Debian 12's, give only OpenBLAS_INCLUDE_DIRS and
# OpenBLAS_LIBRARIES.
if(NOT TARGET OpenBLAS::OpenBLAS)
  find_package(OpenBLAS CONFIG QUIET)
  if(OpenBLAS_FOUND AND NOT TARGET OpenBLAS::OpenBLAS)
    add_library(OpenBLAS::OpenBLAS INTERFACE IMPORTED)
    set_target_properties(OpenBLAS::OpenBLAS PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${OpenBLAS_INCLUDE_DIRS}"
      INTERFACE_LINK_LIBRARIES "${OpenBLAS_LIBRARIES}")
  endif()
endif()
