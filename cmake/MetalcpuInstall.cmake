# Installs metalcpu as a CMake package: find_package(metalcpu) gives metalcpu::metal, the
# metalcpu::metal-tool and metalcpu::metallib-tool executables (with metal-ar and xcrun beside
# them in bin/) and metal_add_library(); and,
# when metalcpu was built with GoogleTest and the program finds it too, metalcpu::gtest_main
# (its own export set, so that GoogleTest stays optional for everything else; an INTERFACE
# target whose installed source the program compiles against its own GoogleTest).
include(CMakePackageConfigHelpers)

install(TARGETS metalcpu_metal metalcpu_metal_tool metalcpu_metallib_tool metalcpu_metal_ar_tool metalcpu_xcrun_tool
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
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/metalcpuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/metalcpuConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/metalcpuConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/metalcpuConfig.cmake ${PROJECT_BINARY_DIR}/metalcpuConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/MetalAddLibrary.cmake DESTINATION ${config_dir})
