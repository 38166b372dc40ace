/* STUB, for syntax checks only: NOT nvJPEG, never installed, never linked.
 *
 * The declarations cli/nvjpeg_codec.cpp uses, written from NVIDIA's nvJPEG
 * documentation (docs.nvidia.com/cuda/nvjpeg) and checked against the header of
 * CUDA 11.6, so that the file can be compiled on machines whose CUDA toolkit has
 * no nvJPEG:
 *
 *   g++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -Itools/nvjpeg-stub \
 *       -Ilib/include -I/usr/local/cuda/include cli/nvjpeg_codec.cpp
 *
 * The real build uses the toolkit's nvjpeg.h (CUDA::nvjpeg); enum values here
 * match it, but nothing here may be relied on beyond compiling. */
#ifndef GPUFILTER_NVJPEG_STUB_H
#define GPUFILTER_NVJPEG_STUB_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NVJPEG_MAX_COMPONENT 4
#define NVJPEG_FLAGS_DEFAULT 0

typedef enum {
  NVJPEG_STATUS_SUCCESS = 0,
  NVJPEG_STATUS_NOT_INITIALIZED = 1,
  NVJPEG_STATUS_INVALID_PARAMETER = 2,
  NVJPEG_STATUS_BAD_JPEG = 3,
  NVJPEG_STATUS_JPEG_NOT_SUPPORTED = 4,
  NVJPEG_STATUS_ALLOCATOR_FAILURE = 5,
  NVJPEG_STATUS_EXECUTION_FAILED = 6,
  NVJPEG_STATUS_ARCH_MISMATCH = 7,
  NVJPEG_STATUS_INTERNAL_ERROR = 8,
  NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED = 9,
  NVJPEG_STATUS_INCOMPLETE_BITSTREAM = 10
} nvjpegStatus_t;

typedef enum {
  NVJPEG_CSS_444 = 0,
  NVJPEG_CSS_422 = 1,
  NVJPEG_CSS_420 = 2,
  NVJPEG_CSS_440 = 3,
  NVJPEG_CSS_411 = 4,
  NVJPEG_CSS_410 = 5,
  NVJPEG_CSS_GRAY = 6,
  NVJPEG_CSS_410V = 7,
  NVJPEG_CSS_UNKNOWN = -1
} nvjpegChromaSubsampling_t;

typedef enum {
  NVJPEG_OUTPUT_UNCHANGED = 0,
  NVJPEG_OUTPUT_YUV = 1,
  NVJPEG_OUTPUT_Y = 2,
  NVJPEG_OUTPUT_RGB = 3,
  NVJPEG_OUTPUT_BGR = 4,
  NVJPEG_OUTPUT_RGBI = 5,
  NVJPEG_OUTPUT_BGRI = 6
} nvjpegOutputFormat_t;

typedef enum {
  NVJPEG_INPUT_RGB = 3,
  NVJPEG_INPUT_BGR = 4,
  NVJPEG_INPUT_RGBI = 5,
  NVJPEG_INPUT_BGRI = 6
} nvjpegInputFormat_t;

typedef enum {
  NVJPEG_BACKEND_DEFAULT = 0,
  NVJPEG_BACKEND_HYBRID = 1,
  NVJPEG_BACKEND_GPU_HYBRID = 2,
  NVJPEG_BACKEND_HARDWARE = 3
} nvjpegBackend_t;

typedef enum {
  NVJPEG_ENCODING_UNKNOWN = 0x0,
  NVJPEG_ENCODING_BASELINE_DCT = 0xc0,
  NVJPEG_ENCODING_EXTENDED_SEQUENTIAL_DCT_HUFFMAN = 0xc1,
  NVJPEG_ENCODING_PROGRESSIVE_DCT_HUFFMAN = 0xc2
} nvjpegJpegEncoding_t;

typedef struct {
  unsigned char* channel[NVJPEG_MAX_COMPONENT];
  size_t pitch[NVJPEG_MAX_COMPONENT];
} nvjpegImage_t;

typedef struct nvjpegDevAllocator nvjpegDevAllocator_t;
typedef struct nvjpegPinnedAllocator nvjpegPinnedAllocator_t;

typedef struct nvjpegHandle* nvjpegHandle_t;
typedef struct nvjpegJpegState* nvjpegJpegState_t;
typedef struct nvjpegJpegStream* nvjpegJpegStream_t;
typedef struct nvjpegJpegDecoder* nvjpegJpegDecoder_t;
typedef struct nvjpegDecodeParams* nvjpegDecodeParams_t;
typedef struct nvjpegBufferPinned* nvjpegBufferPinned_t;
typedef struct nvjpegBufferDevice* nvjpegBufferDevice_t;
typedef struct nvjpegEncoderState* nvjpegEncoderState_t;
typedef struct nvjpegEncoderParams* nvjpegEncoderParams_t;

/* Library handle */
nvjpegStatus_t nvjpegCreateEx(nvjpegBackend_t backend, nvjpegDevAllocator_t* dev_allocator,
                              nvjpegPinnedAllocator_t* pinned_allocator, unsigned int flags, nvjpegHandle_t* handle);
nvjpegStatus_t nvjpegDestroy(nvjpegHandle_t handle);
nvjpegStatus_t nvjpegGetImageInfo(nvjpegHandle_t handle, const unsigned char* data, size_t length, int* nComponents,
                                  nvjpegChromaSubsampling_t* subsampling, int* widths, int* heights);

/* Batched decoding */
nvjpegStatus_t nvjpegJpegStateCreate(nvjpegHandle_t handle, nvjpegJpegState_t* jpeg_handle);
nvjpegStatus_t nvjpegJpegStateDestroy(nvjpegJpegState_t jpeg_handle);
nvjpegStatus_t nvjpegDecodeBatchedInitialize(nvjpegHandle_t handle, nvjpegJpegState_t jpeg_handle, int batch_size,
                                             int max_cpu_threads, nvjpegOutputFormat_t output_format);
nvjpegStatus_t nvjpegDecodeBatched(nvjpegHandle_t handle, nvjpegJpegState_t jpeg_handle,
                                   const unsigned char* const* data, const size_t* lengths,
                                   nvjpegImage_t* destinations, cudaStream_t stream);
nvjpegStatus_t nvjpegDecodeBatchedSupported(nvjpegHandle_t handle, nvjpegJpegStream_t jpeg_stream, int* is_supported);

/* Parsed streams */
nvjpegStatus_t nvjpegJpegStreamCreate(nvjpegHandle_t handle, nvjpegJpegStream_t* jpeg_stream);
nvjpegStatus_t nvjpegJpegStreamDestroy(nvjpegJpegStream_t jpeg_stream);
nvjpegStatus_t nvjpegJpegStreamParse(nvjpegHandle_t handle, const unsigned char* data, size_t length,
                                     int save_metadata, int save_stream, nvjpegJpegStream_t jpeg_stream);
nvjpegStatus_t nvjpegJpegStreamParseHeader(nvjpegHandle_t handle, const unsigned char* data, size_t length,
                                           nvjpegJpegStream_t jpeg_stream);

/* Decoupled decoding */
nvjpegStatus_t nvjpegDecoderCreate(nvjpegHandle_t nvjpeg_handle, nvjpegBackend_t implementation,
                                   nvjpegJpegDecoder_t* decoder_handle);
nvjpegStatus_t nvjpegDecoderDestroy(nvjpegJpegDecoder_t decoder_handle);
nvjpegStatus_t nvjpegDecoderStateCreate(nvjpegHandle_t nvjpeg_handle, nvjpegJpegDecoder_t decoder_handle,
                                        nvjpegJpegState_t* decoder_state);
nvjpegStatus_t nvjpegBufferPinnedCreate(nvjpegHandle_t handle, nvjpegPinnedAllocator_t* pinned_allocator,
                                        nvjpegBufferPinned_t* buffer);
nvjpegStatus_t nvjpegBufferPinnedDestroy(nvjpegBufferPinned_t buffer);
nvjpegStatus_t nvjpegBufferDeviceCreate(nvjpegHandle_t handle, nvjpegDevAllocator_t* device_allocator,
                                        nvjpegBufferDevice_t* buffer);
nvjpegStatus_t nvjpegBufferDeviceDestroy(nvjpegBufferDevice_t buffer);
nvjpegStatus_t nvjpegStateAttachPinnedBuffer(nvjpegJpegState_t decoder_state, nvjpegBufferPinned_t pinned_buffer);
nvjpegStatus_t nvjpegStateAttachDeviceBuffer(nvjpegJpegState_t decoder_state, nvjpegBufferDevice_t device_buffer);
nvjpegStatus_t nvjpegDecodeParamsCreate(nvjpegHandle_t handle, nvjpegDecodeParams_t* decode_params);
nvjpegStatus_t nvjpegDecodeParamsDestroy(nvjpegDecodeParams_t decode_params);
nvjpegStatus_t nvjpegDecodeParamsSetOutputFormat(nvjpegDecodeParams_t decode_params,
                                                 nvjpegOutputFormat_t output_format);
nvjpegStatus_t nvjpegDecodeJpegHost(nvjpegHandle_t handle, nvjpegJpegDecoder_t decoder,
                                    nvjpegJpegState_t decoder_state, nvjpegDecodeParams_t decode_params,
                                    nvjpegJpegStream_t jpeg_stream);
nvjpegStatus_t nvjpegDecodeJpegTransferToDevice(nvjpegHandle_t handle, nvjpegJpegDecoder_t decoder,
                                                nvjpegJpegState_t decoder_state, nvjpegJpegStream_t jpeg_stream,
                                                cudaStream_t stream);
nvjpegStatus_t nvjpegDecodeJpegDevice(nvjpegHandle_t handle, nvjpegJpegDecoder_t decoder,
                                      nvjpegJpegState_t decoder_state, nvjpegImage_t* destination,
                                      cudaStream_t stream);

/* Encoding */
nvjpegStatus_t nvjpegEncoderStateCreate(nvjpegHandle_t handle, nvjpegEncoderState_t* encoder_state,
                                        cudaStream_t stream);
nvjpegStatus_t nvjpegEncoderStateDestroy(nvjpegEncoderState_t encoder_state);
nvjpegStatus_t nvjpegEncoderParamsCreate(nvjpegHandle_t handle, nvjpegEncoderParams_t* encoder_params,
                                         cudaStream_t stream);
nvjpegStatus_t nvjpegEncoderParamsDestroy(nvjpegEncoderParams_t encoder_params);
nvjpegStatus_t nvjpegEncoderParamsSetQuality(nvjpegEncoderParams_t encoder_params, const int quality,
                                             cudaStream_t stream);
nvjpegStatus_t nvjpegEncoderParamsSetEncoding(nvjpegEncoderParams_t encoder_params, nvjpegJpegEncoding_t etype,
                                              cudaStream_t stream);
nvjpegStatus_t nvjpegEncoderParamsSetOptimizedHuffman(nvjpegEncoderParams_t encoder_params, const int optimized,
                                                      cudaStream_t stream);
nvjpegStatus_t nvjpegEncoderParamsSetSamplingFactors(nvjpegEncoderParams_t encoder_params,
                                                     const nvjpegChromaSubsampling_t chroma_subsampling,
                                                     cudaStream_t stream);
nvjpegStatus_t nvjpegEncodeYUV(nvjpegHandle_t handle, nvjpegEncoderState_t encoder_state,
                               const nvjpegEncoderParams_t encoder_params, const nvjpegImage_t* source,
                               nvjpegChromaSubsampling_t chroma_subsampling, int image_width, int image_height,
                               cudaStream_t stream);
nvjpegStatus_t nvjpegEncodeImage(nvjpegHandle_t handle, nvjpegEncoderState_t encoder_state,
                                 const nvjpegEncoderParams_t encoder_params, const nvjpegImage_t* source,
                                 nvjpegInputFormat_t input_format, int image_width, int image_height,
                                 cudaStream_t stream);
nvjpegStatus_t nvjpegEncodeRetrieveBitstream(nvjpegHandle_t handle, nvjpegEncoderState_t encoder_state,
                                             unsigned char* data, size_t* length, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
