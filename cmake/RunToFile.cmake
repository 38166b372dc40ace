# cmake -DPROGRAM=P -DARGS=a:b -DOUTPUT=F -P RunToFile.cmake: runs P with arguments a and b
# (':' between them, which a build step passes through unsplit) and writes
# its standard output to F, failing the build where P fails (a build step's shell
# redirection would not be portable across generators).
string(REPLACE ":" ";" arguments "${ARGS}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env GPUFILTER_SERVER=off ${PROGRAM} ${arguments}
                OUTPUT_FILE ${OUTPUT}.part RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE ${OUTPUT}.part)
  message(FATAL_ERROR "${PROGRAM} ${arguments} failed: ${status}")
endif()
file(RENAME ${OUTPUT}.part ${OUTPUT})
