# ctest: installs this build into a fresh prefix and builds samples/consumer against it
# with find_package(gpufilter), as a user of the installed package would.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P package_consumer.cmake
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
foreach(file include/gpufilter/gpufilter.hpp include/gpufilter/version.hpp lib/cmake/gpufilter/gpufilterConfig.cmake
             lib/pkgconfig/gpufilter.pc bin/gpufilter)
  if(NOT EXISTS ${WORK_DIR}/prefix/${file})
    message(FATAL_ERROR "the install lacks ${file}")
  endif()
endforeach()
# The installed tool runs from the prefix: it finds the installed libgpufilter.
run(${WORK_DIR}/prefix/bin/gpufilter --version)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/samples/consumer -B ${WORK_DIR}/consumer -G Ninja
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
if(NOT EXISTS ${WORK_DIR}/consumer/hello_blur)
  message(FATAL_ERROR "the consumer's hello_blur was not built")
endif()
# pkg-config users: the same sample, compiled and linked with the flags gpufilter.pc gives.
find_program(PKG_CONFIG pkg-config)
find_program(CXX_COMPILER NAMES c++ g++ clang++)
if(PKG_CONFIG AND CXX_COMPILER)
  set(ENV{PKG_CONFIG_PATH} ${WORK_DIR}/prefix/lib/pkgconfig)
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs gpufilter OUTPUT_VARIABLE flags RESULT_VARIABLE status
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "pkg-config does not know gpufilter")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${CXX_COMPILER} -std=c++17 ${SOURCE_DIR}/samples/hello_blur.cpp ${flags} -o ${WORK_DIR}/hello_blur_pc)
endif()
# The installed Python package (where the build has one): it loads lib/'s libgpufilter_c
# through its link, and that finds the codec module in lib/gpufilter (a JPEG written and
# read back goes through it).
if(PYTHON AND EXISTS ${WORK_DIR}/prefix/${PYTHON_PACKAGE_DIR}/gpufilter/__init__.py)
  run(${CMAKE_COMMAND} -E env PYTHONPATH=${WORK_DIR}/prefix/${PYTHON_PACKAGE_DIR} PYTHONDONTWRITEBYTECODE=1
      ${PYTHON} -c "import sys, numpy, gpufilter
image = numpy.full((9, 7, 3), 200, numpy.uint8)
gpufilter.write(sys.argv[1], gpufilter.blur(image, sigma=1))
assert gpufilter.read(sys.argv[1]).shape == (9, 7, 3)" ${WORK_DIR}/python_round_trip.jpg)
endif()
message(STATUS "installed package found and linked: ${WORK_DIR}/consumer/hello_blur")
