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
    ${CMAKE_CURRENT_LIST_DIR}/cli_metadata_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cli_test_util.cpp)
  target_compile_definitions(cli_test PRIVATE GPUFILTER_CLI_PATH="$<TARGET_FILE:gpufilter_cli>")
  # Exiv2 reads back the metadata OUT carries (cli_metadata_test.cpp).
  find_package(exiv2 REQUIRED CONFIG)
  target_link_libraries(cli_test PRIVATE gpufilter::gpufilter GTest::gtest_main opencv_core opencv_imgcodecs opencv_imgproc
                        ZLIB::ZLIB exiv2lib)
  add_dependencies(cli_test gpufilter_cli)
  gpufilter_warnings(cli_test)
  gtest_discover_tests(cli_test DISCOVERY_TIMEOUT 60 PROPERTIES LABELS cli)

  # The tool's JPEG header reader, metadata and orientation steps, the batched JPEG
  # decoder's gathering (with a stand-in engine) and the CPU decoders' queue, on the CPU.
  add_executable(cli_unit_test
    ${CMAKE_CURRENT_LIST_DIR}/jpeg_markers_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/jpeg_batch_decoder_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cpu_decoders_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/codec_messages_test.cpp
    ${PROJECT_SOURCE_DIR}/cli/codec_messages.cpp
    ${CMAKE_CURRENT_LIST_DIR}/temp_file_test.cpp
    ${PROJECT_SOURCE_DIR}/cli/temp_file.cpp
    ${PROJECT_SOURCE_DIR}/cli/signal_cleanup.cpp
    ${PROJECT_SOURCE_DIR}/cli/cpu_decoders.cpp
    ${PROJECT_SOURCE_DIR}/cli/jpeg_batch_decoder.cpp
    ${PROJECT_SOURCE_DIR}/cli/jpeg_markers.cpp
    ${PROJECT_SOURCE_DIR}/cli/jpeg_metadata.cpp
    ${PROJECT_SOURCE_DIR}/cli/jpeg_orientation.cpp)
  target_include_directories(cli_unit_test PRIVATE ${PROJECT_SOURCE_DIR}/cli)
  target_link_libraries(cli_unit_test PRIVATE gpufilter::gpufilter GTest::gtest_main opencv_core opencv_imgcodecs
                        Threads::Threads)
  gpufilter_warnings(cli_unit_test)
  gtest_discover_tests(cli_unit_test DISCOVERY_TIMEOUT 60 PROPERTIES LABELS cli)
endif()

# The tool's PNG codec against OpenCV's, built twice: as the tool uses it (with libdeflate
# where found) and with zlib alone, as on machines without libdeflate.
if(TARGET gpufilter_png)
  find_package(GTest REQUIRED)
  find_package(ZLIB REQUIRED)
  find_package(Threads REQUIRED)
  include(GoogleTest)
  add_library(gpufilter_png_zlib STATIC ${GPUFILTER_PNG_CODEC_SOURCES})
  target_include_directories(gpufilter_png_zlib PUBLIC ${PROJECT_SOURCE_DIR}/cli)
  target_link_libraries(gpufilter_png_zlib PUBLIC opencv_core PRIVATE ZLIB::ZLIB Threads::Threads)
  gpufilter_warnings(gpufilter_png_zlib)
  foreach(codec gpufilter_png gpufilter_png_zlib)
    add_executable(${codec}_test ${CMAKE_CURRENT_LIST_DIR}/png_codec_test.cpp)
    target_link_libraries(${codec}_test PRIVATE ${codec} opencv_core opencv_imgcodecs opencv_imgproc ZLIB::ZLIB
                          GTest::gtest_main)
    gpufilter_warnings(${codec}_test)
    gtest_discover_tests(${codec}_test TEST_PREFIX ${codec}. DISCOVERY_TIMEOUT 60 PROPERTIES LABELS cpu)
  endforeach()
endif()
