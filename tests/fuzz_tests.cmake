# Fuzz smoke runs: every target of fuzz/ (scripts/fuzz --list) for GPUFILTER_FUZZ_SECONDS
# from the seeds in fuzz/corpus, built once by the fuzz_build fixture (clang, ASan + UBSan)
# into this build tree. A crash fails its test and the log names the reproducer. No clang
# fails fuzz_build, and with it every fuzz test: scripts/common.sh installs it.
set(GPUFILTER_FUZZ_SECONDS 30 CACHE STRING "seconds each fuzz target runs under ctest")
set(fuzz_script ${PROJECT_SOURCE_DIR}/scripts/fuzz)
set(fuzz_environment "FUZZ_BUILD=${CMAKE_BINARY_DIR}/fuzz")
execute_process(COMMAND ${fuzz_script} --list OUTPUT_VARIABLE fuzz_targets OUTPUT_STRIP_TRAILING_WHITESPACE
                COMMAND_ERROR_IS_FATAL ANY)
separate_arguments(fuzz_targets)
add_test(NAME fuzz_build COMMAND ${fuzz_script} --build-only)
set_tests_properties(fuzz_build PROPERTIES FIXTURES_SETUP fuzz_targets LABELS fuzz TIMEOUT 1200
                     ENVIRONMENT "${fuzz_environment}")
foreach(target ${fuzz_targets})
  add_test(NAME fuzz_${target} COMMAND ${fuzz_script} --no-build --time ${GPUFILTER_FUZZ_SECONDS} ${target})
  set_tests_properties(fuzz_${target} PROPERTIES FIXTURES_REQUIRED fuzz_targets LABELS fuzz TIMEOUT 300
                       ENVIRONMENT "${fuzz_environment}")
endforeach()
