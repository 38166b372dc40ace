# `cmake --install BUILD --prefix P` installs the library, its public headers, the CLI
# and the bench, and a relocatable CMake package (find_package(gpufilter 0.2)) plus a
# pkg-config file. Included last by the top-level CMakeLists.txt.
include(CMakePackageConfigHelpers)

set(GPUFILTER_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpufilter)

# A static build's gpufilter::gpufilter is an interface that links the archive whole.
set(gpufilter_installed gpufilter)
if(TARGET gpufilter_archive)
  list(APPEND gpufilter_installed gpufilter_archive)
endif()
install(TARGETS ${gpufilter_installed} EXPORT gpufilterTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY core/include/gpufilter lib/include/gpufilter DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/lib/include/gpufilter/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpufilter)
foreach(tool gpufilter_cli gpufilter-bench)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# The tool's library, which the program loads (cli/tool_library.hpp), and the codec module.
foreach(module gpufilter_tool gpufilter_codecs)
  if(TARGET ${module})
    install(TARGETS ${module} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/gpufilter)
  endif()
endforeach()
# The Python package's component carries the tool too, in the prefix's bin/ beside the
# package's lib/, where gpufilter.cluster.cli_path() and the Slurm example look for it
# (python/CMakeLists.txt installs the libraries and the codec module it needs). OPTIONAL:
# a build of gpufilter_python alone still installs the package, without the tool.
if(TARGET gpufilter_cli AND TARGET gpufilter_c)
  install(TARGETS gpufilter_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT python OPTIONAL)
  install(TARGETS gpufilter_tool LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/gpufilter COMPONENT python OPTIONAL)
endif()

install(EXPORT gpufilterTargets NAMESPACE gpufilter:: DESTINATION ${GPUFILTER_CMAKE_DIR})
configure_package_config_file(cmake/gpufilterConfig.cmake.in ${PROJECT_BINARY_DIR}/gpufilterConfig.cmake
                              INSTALL_DESTINATION ${GPUFILTER_CMAKE_DIR})
# Before 1.0 a new minor version may change the API: a consumer asking for 0.2 takes 0.2.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpufilterConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpufilterConfig.cmake ${PROJECT_BINARY_DIR}/gpufilterConfigVersion.cmake
        DESTINATION ${GPUFILTER_CMAKE_DIR})

# pkg-config: the CUDA runtime's directory is where this build found it.
configure_file(cmake/gpufilter.pc.in ${PROJECT_BINARY_DIR}/gpufilter.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gpufilter.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
