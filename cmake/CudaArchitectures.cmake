# The GPU's own architecture where one is present (fast builds, exact code, no PTX);
# otherwise a fixed list: real code for Turing, Ampere, Ada and Hopper plus PTX for newer
# chips, of the newest architecture alone.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE _gpufilter_caps RESULT_VARIABLE _gpufilter_smi
                  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_gpufilter_smi EQUAL 0 AND _gpufilter_caps MATCHES "^[0-9]+\\.[0-9]+")
    string(REGEX MATCH "^[0-9]+\\.[0-9]+" _gpufilter_cap "${_gpufilter_caps}")
    string(REPLACE "." "" _gpufilter_cap "${_gpufilter_cap}")
    set(CMAKE_CUDA_ARCHITECTURES "${_gpufilter_cap}-real" CACHE STRING "CUDA architectures")
    message(STATUS "gpufilter: building for the local GPU, sm_${_gpufilter_cap}")
  else()
    set(CMAKE_CUDA_ARCHITECTURES "75-real;80-real;89-real;90" CACHE STRING "CUDA architectures")
    message(STATUS "gpufilter: no GPU found; building for ${CMAKE_CUDA_ARCHITECTURES}")
  endif()
endif()
