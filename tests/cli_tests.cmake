# End-to-end tests of the gpufilter tool; include()d from tests/CMakeLists.txt.
# They run the built binary with --device cpu, so they pass on machines without a GPU.
if(TARGET gpufilter_cli)
  find_package(GTest REQUIRED)
  find_package(ZLIB REQUIRED)  # hand-made PNG files (gray+alpha, header-only)
  find_package(Threads REQUIRED)
  include(GoogleTest)
  add_executable(cli_test
    ${CMAKE_CURRENT_LIST_DIR}/cli_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cli_server_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cli_server_control_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cli_metadata_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cli_input_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cli_habits_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cli_test_util.cpp)
  target_compile_definitions(cli_test PRIVATE GPUFILTER_CLI_PATH="$<TARGET_FILE:gpufilter_cli>")
  # Exiv2 reads back the metadata OUT carries (cli_metadata_test.cpp).
  find_package(exiv2 REQUIRED CONFIG)
  target_link_libraries(cli_test PRIVATE gpufilter::gpufilter GTest::gtest_main opencv_core opencv_imgcodecs opencv_imgproc
                        ZLIB::ZLIB exiv2lib)
  # The tests run the built program: their link waits for it (so building cli_test builds
  # it), their compile does not (add_dependencies would hold it back behind every kernel).
  set_property(TARGET cli_test APPEND PROPERTY LINK_DEPENDS $<TARGET_FILE:gpufilter_cli>)
  gpufilter_test_code(cli_test)
  gtest_discover_tests(cli_test DISCOVERY_TIMEOUT 60 PROPERTIES LABELS cli)

  # The tool's own rules, without running it.
  add_executable(cli_rule_test ${CMAKE_CURRENT_LIST_DIR}/server_rule_test.cpp ${PROJECT_SOURCE_DIR}/cli/server_rule.cpp
                 ${PROJECT_SOURCE_DIR}/cli/server_peer.cpp)
  target_include_directories(cli_rule_test PRIVATE ${PROJECT_SOURCE_DIR}/cli)
  target_link_libraries(cli_rule_test PRIVATE GTest::gtest_main)
  gpufilter_test_code(cli_rule_test)
  gtest_discover_tests(cli_rule_test DISCOVERY_TIMEOUT 60 PROPERTIES LABELS cli)
endif()
