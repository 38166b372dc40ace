# Tests of gpufilter_io (io/) on the CPU; include()d from tests/CMakeLists.txt.
if(TARGET gpufilter_io)
  find_package(GTest REQUIRED)
  find_package(ZLIB REQUIRED)  # the PNG codec test's hand-made files
  find_package(Threads REQUIRED)
  include(GoogleTest)

  # The JPEG header reader, metadata and orientation steps, the CPU JPEG codec, the batched JPEG decoder's
  # gathering (with a stand-in engine), the CPU decoders' queue, the GPU pool's choice of
  # workspace, the codecs' messages, the temporary output files, XMP through Exiv2, the
  # PNG files read through libpng with their chunk lengths checked first, the table
  # of suffixes, and the codecs' table (their signatures and headers).
  add_executable(io_unit_test
    ${CMAKE_CURRENT_LIST_DIR}/jpeg_markers_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/jpeg_cpu_codec_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/jpeg_batch_decoder_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/cpu_decoders_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gpu_pool_slot_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/codec_messages_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/temp_file_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/xmp_metadata_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/png_libpng_reader_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/image_formats_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/codec_table_test.cpp)
  target_include_directories(io_unit_test PRIVATE ${PROJECT_SOURCE_DIR}/io/src)  # gpu_pool.hpp, jpeg_cpu_codec.hpp
  # Exiv2: the XMP test looks at its namespace registry; zlib: that test's compressed
  # chunks; libpng writes the test files of every kind the tool's own PNG reader declines.
  find_package(exiv2 REQUIRED CONFIG)
  find_package(PNG REQUIRED)
  target_link_libraries(io_unit_test PRIVATE gpufilter_io GTest::gtest_main opencv_core opencv_imgcodecs exiv2lib PNG::PNG
                        ZLIB::ZLIB)
  gpufilter_test_code(io_unit_test)
  gtest_discover_tests(io_unit_test DISCOVERY_TIMEOUT 60 PROPERTIES LABELS io)

  # The PNG codec against OpenCV's, built twice: as gpufilter_io uses it (with libdeflate
  # where found) and with zlib alone, as on machines without libdeflate. The test reads
  # the codec's own row filters and byte order helpers (io/src).
  add_library(gpufilter_png_zlib STATIC ${GPUFILTER_PNG_CODEC_SOURCES})
  target_include_directories(gpufilter_png_zlib PUBLIC ${PROJECT_SOURCE_DIR}/io/include
                             PRIVATE ${PROJECT_SOURCE_DIR}/io/src)
  target_link_libraries(gpufilter_png_zlib PUBLIC opencv_core PRIVATE ZLIB::ZLIB Threads::Threads)
  gpufilter_warnings(gpufilter_png_zlib)
  foreach(codec gpufilter_png gpufilter_png_zlib)
    add_executable(${codec}_test ${CMAKE_CURRENT_LIST_DIR}/png_codec_test.cpp)
    target_include_directories(${codec}_test PRIVATE ${PROJECT_SOURCE_DIR}/io/src)
    target_link_libraries(${codec}_test PRIVATE ${codec} opencv_core opencv_imgcodecs opencv_imgproc ZLIB::ZLIB
                          GTest::gtest_main)
    gpufilter_test_code(${codec}_test)
    gtest_discover_tests(${codec}_test TEST_PREFIX ${codec}. DISCOVERY_TIMEOUT 60 PROPERTIES LABELS cpu)
  endforeach()
endif()

# io's folders by job keep their order (tests/io_layers.cmake).
add_test(NAME io_layers COMMAND ${CMAKE_COMMAND} -DIO_SRC=${PROJECT_SOURCE_DIR}/io/src -P
         ${CMAKE_CURRENT_LIST_DIR}/io_layers.cmake)
