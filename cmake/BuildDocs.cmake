# The `docs` target of a build configured without Doxygen (Docs.cmake): with Doxygen
# installed since, the build is configured again and the reference built; else a message.
find_program(doxygen_program doxygen)
if(NOT doxygen_program)
  message(FATAL_ERROR "The API reference needs Doxygen: install it (Debian: apt install doxygen), "
                      "then run `cmake --build ${BINARY_DIR} --target docs` again.")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -DDOXYGEN_EXECUTABLE=${doxygen_program}
                RESULT_VARIABLE configured)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configuring ${BINARY_DIR} again failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target api_reference RESULT_VARIABLE built)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "building the API reference failed")
endif()
