# Installs metalcpu as a CMake package: find_package(metalcpu) gives metalcpu::metal, the
# metalcpu::metal-tool and metalcpu::metallib-tool executables and metal_add_library(); and,
# when metalcpu was built with GoogleTest and the program finds it too, metalcpu::gtest_main
# (its own export set, so that GoogleTest stays optional for everything else; an INTERFACE
# target whose installed source the program compiles against its own GoogleTest); and, when
# metalcpu was built with OpenBLAS and the program finds it too, metalcpu::accelerate (its own
# export set as well, with its headers apart from metalcpu's).
include(CMakePackageConfigHelpers)

# Installed, metalcpu::metal gives its headers as -I, as add_subdirectory(metalcpu) does, not
# as -isystem, which GCC searches after every -I: a program's own include directories then
# order against them as in a source build, and the one line of docs/porting.md ("metal-cpp
# vendored next to the program's headers") can put them first.
set_target_properties(metalcpu_metal PROPERTIES EXPORT_NO_SYSTEM ON)
install(TARGETS metalcpu_metal metalcpu_metal_tool metalcpu_metallib_tool
  EXPORT metalcpuTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/metalcpu)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/metalcpu)
install(EXPORT metalcpuTargets NAMESPACE metalcpu:: DESTINATION ${config_dir})
if(TARGET metalcpu_gtest_main)
  # An INTERFACE target: its source is installed and compiled by each program that links it.
  install(TARGETS metalcpu_gtest_main EXPORT metalcpuGTestTargets)
  install(FILES ${PROJECT_SOURCE_DIR}/validation/gtest_main/gtest_main.cpp DESTINATION ${METALCPU_GTEST_MAIN_INSTALL_DIR})
  install(EXPORT metalcpuGTestTargets NAMESPACE metalcpu:: DESTINATION ${config_dir})
endif()
if(TARGET metalcpu_accelerate)
  install(TARGETS metalcpu_accelerate EXPORT metalcpuAccelerateTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/accelerate/include/ DESTINATION ${METALCPU_ACCELERATE_INCLUDE_DIR})
  install(EXPORT metalcpuAccelerateTargets NAMESPACE metalcpu:: DESTINATION ${config_dir})
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/metalcpuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/metalcpuConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/metalcpuConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/metalcpuConfig.cmake ${PROJECT_BINARY_DIR}/metalcpuConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/MetalAddLibrary.cmake ${PROJECT_SOURCE_DIR}/cmake/MetalcpuOpenBLAS.cmake
  DESTINATION ${config_dir})
