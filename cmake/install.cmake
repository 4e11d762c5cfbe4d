# Install rules and the CMake package: headers under include/streamk, libstreamk, and
# streamkConfig.cmake / streamkConfigVersion.cmake / streamkTargets.cmake under
# lib/cmake/streamk, so that another project can
#   find_package(streamk CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE streamk::streamk)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STREAMK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/streamk)

install(TARGETS streamk streamk_c EXPORT streamkTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/streamk ${PROJECT_BINARY_DIR}/include/streamk
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(EXPORT streamkTargets NAMESPACE streamk:: DESTINATION ${STREAMK_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/streamkConfig.cmake.in
  ${PROJECT_BINARY_DIR}/streamkConfig.cmake
  INSTALL_DESTINATION ${STREAMK_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/streamkConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/streamkConfig.cmake
              ${PROJECT_BINARY_DIR}/streamkConfigVersion.cmake
  DESTINATION ${STREAMK_INSTALL_CMAKEDIR})
if(STREAMK_BUILD_TOOLS)
  install(TARGETS streamk-plan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
