/** @file
 * gpufilter's C interface: the library's ops, registry, files and batches for any
 * language that can call C (Python's ctypes, Julia, Rust, Go, ...).
 *
 * Conventions
 * - Every function that can fail returns a gpufilter_status; GPUFILTER_OK is 0. The
 *   message of the last failure on the calling thread is gpufilter_last_error().
 * - Strings returned as `const char*` are owned by the library: the registry's JSON lives
 *   as long as the process, other strings until the next call on the same thread.
 * - Images are gpufilter_image views: a pointer, a size, a row pitch in bytes and a pixel
 *   format (interleaved channels). The library never frees them. A pitch shorter than a
 *   row, or so long that the rows would reach past the end of the address space, is
 *   GPUFILTER_ERROR_INVALID_ARGUMENT.
 * - An array passed with a count (names, values, border_value, inputs, devices) may be
 *   NULL only where its count is 0; a NULL array with a non-zero count, or a negative
 *   count, is GPUFILTER_ERROR_INVALID_ARGUMENT, never read.
 * - Nothing here synchronizes a device except where said (runs from host memory, data
 *   ops, files). A run on device memory is enqueued on the given stream and returns.
 * - Only the functions declared here are exported; the C++ library inside is hidden. */
#ifndef GPUFILTER_C_H
#define GPUFILTER_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define GPUFILTER_C_API __declspec(dllexport)
#else
#define GPUFILTER_C_API __attribute__((visibility("default")))
#endif

/** Raised when a function's meaning or a struct's layout changes. */
#define GPUFILTER_C_ABI_VERSION 1

typedef enum gpufilter_status {
  GPUFILTER_OK = 0,
  GPUFILTER_ERROR_INVALID_ARGUMENT = 1,   /**< a parameter, view or option out of range */
  GPUFILTER_ERROR_UNSUPPORTED_FORMAT = 2, /**< the op takes no such pixel format */
  GPUFILTER_ERROR_NO_DEVICE = 3,          /**< a GPU was required and none is usable */
  GPUFILTER_ERROR_OUT_OF_MEMORY = 4,      /**< host or device memory ran out */
  GPUFILTER_ERROR_CUDA = 5,               /**< any other CUDA failure */
  GPUFILTER_ERROR_IO_REQUEST = 6,         /**< files: what was asked cannot be done as asked */
  GPUFILTER_ERROR_IO_INPUT = 7,           /**< files: an input missing, unreadable or not an image */
  GPUFILTER_ERROR_IO_OUTPUT = 8,          /**< files: an output that cannot be written */
  GPUFILTER_ERROR_IO_RUNTIME = 9,         /**< files: the machine failed (memory, system) */
  GPUFILTER_ERROR_INTERNAL = 10           /* anything else (a bug: please report it) */
} gpufilter_status;

typedef enum gpufilter_channel_type { GPUFILTER_U8 = 0, GPUFILTER_U16 = 1, GPUFILTER_F32 = 2 } gpufilter_channel_type;

/** Where a run happens and where its images are. */
typedef enum gpufilter_where {
  GPUFILTER_CPU = 0,          /**< host memory, the CPU reference (the CLI's --device cpu); synchronous */
  GPUFILTER_GPU = 1,          /**< device memory, enqueued on `stream`; returns without waiting */
  GPUFILTER_HOST_VIA_GPU = 2  /* host memory, uploaded, run on the GPU, downloaded; synchronous */
} gpufilter_where;

typedef struct gpufilter_image {
  void* data;
  int32_t width;   /**< pixels */
  int32_t height;  /**< rows */
  size_t pitch;    /**< bytes from one row to the next */
  int32_t type;    /**< gpufilter_channel_type */
  int32_t channels; /**< 1, 3 or 4, interleaved */
} gpufilter_image;

/** ---- the library ---------------------------------------------------------------- */

GPUFILTER_C_API int gpufilter_abi_version(void);   /**< GPUFILTER_C_ABI_VERSION of the library loaded */
GPUFILTER_C_API const char* gpufilter_version(void); /* "0.2.0" */
/** The last failure's message on this thread ("" if none yet). */
GPUFILTER_C_API const char* gpufilter_last_error(void);
/** Usable CUDA devices (0 without a GPU or driver), and why none is usable ("" if one is). */
GPUFILTER_C_API int gpufilter_device_count(void);
GPUFILTER_C_API const char* gpufilter_no_device_reason(void);
GPUFILTER_C_API const char* gpufilter_device_description(void);

/** Every op as JSON: name, summary, parameters (kind, range, choices, default, help as the
 * CLI's --help shows it), variants, pixel formats, whether it gives an image or data.
 * See docs/python.md for the schema. Never NULL. */
GPUFILTER_C_API const char* gpufilter_registry_json(void);

/** ---- requests: an op with its parameters, checked once, run many times ----------- */

typedef struct gpufilter_request gpufilter_request;

/** Checks `op`'s parameters as the CLI does: `names[i]` (the registry's names, "sigma")
 * takes `values[i]` written as on the command line ("1.5", "sobel", "5x3"; a flag "1"
 * or "0"); absent ones take their defaults. `border` NULL: the default; `border_value`
 * (count 0: none) needs border "constant"; `variant` NULL: the op's default. On success
 * *request is a new request to pass to gpufilter_request_destroy. */
GPUFILTER_C_API gpufilter_status gpufilter_request_create(const char* op, int count, const char* const* names,
                                                          const char* const* values, const char* border,
                                                          const double* border_value, int border_value_count,
                                                          const char* variant, gpufilter_request** request);
GPUFILTER_C_API void gpufilter_request_destroy(gpufilter_request* request);

/** The output image's size and format for an input of `input`'s (its data is not read). */
GPUFILTER_C_API gpufilter_status gpufilter_request_output_shape(const gpufilter_request* request,
                                                                const gpufilter_image* input,
                                                                gpufilter_image* output);

/** How far from an output pixel, in x and in y, lie the input pixels it depends on (blur:
 * its radius): a tile of the output needs the input's tile with this margin around it,
 * read with the request's border beyond the image's edges. GPUFILTER_ERROR_INVALID_ARGUMENT
 * for an op without such a bound (equalize, whose every pixel depends on the whole image;
 * geometry). */
GPUFILTER_C_API gpufilter_status gpufilter_request_reach(const gpufilter_request* request, int* x, int* y);

/** Runs an image op from src into dst (of gpufilter_request_output_shape's shape). With
 * GPUFILTER_GPU both are device memory on GPU `device` (-1: the calling thread's current
 * one), and the work is enqueued on `stream` (a cudaStream_t, CUstream, CuPy's
 * stream.ptr, PyTorch's stream.cuda_stream; NULL: the legacy default stream). */
GPUFILTER_C_API gpufilter_status gpufilter_request_run(const gpufilter_request* request, const gpufilter_image* src,
                                                       const gpufilter_image* dst, int where, int device,
                                                       void* stream);

/** A data op's table for an input of `input`'s shape, as JSON: {"row_title", "rows",
 * "columns", "chartable"}; values come row-major, rows x columns doubles. */
GPUFILTER_C_API gpufilter_status gpufilter_request_data_layout(const gpufilter_request* request,
                                                               const gpufilter_image* input, const char** json,
                                                               size_t* count);
/** Runs a data op on src into `result` (host memory for `count` doubles). Synchronous on
 * every path: with GPUFILTER_GPU the stream is waited for once the result is copied. */
GPUFILTER_C_API gpufilter_status gpufilter_request_run_data(const gpufilter_request* request,
                                                            const gpufilter_image* src, double* result,
                                                            size_t count, int where, int device, void* stream);

/** ---- device memory, for callers with no array library of their own --------------- */

/** cudaMalloc on `device` (-1: the current one); *data NULL for bytes 0. */
GPUFILTER_C_API gpufilter_status gpufilter_device_alloc(size_t bytes, int device, void** data);
GPUFILTER_C_API void gpufilter_device_free(void* data);
/** Copies a view to another of the same size and format, any memory to any (the CUDA
 * runtime's cudaMemcpyDefault), on `stream`; synchronous when `wait` is non-zero. */
GPUFILTER_C_API gpufilter_status gpufilter_copy(const gpufilter_image* src, const gpufilter_image* dst, int device,
                                                void* stream, int wait);
GPUFILTER_C_API gpufilter_status gpufilter_stream_synchronize(void* stream);
/** What memory `pointer` is in: *memory 0 host (unknown to CUDA), 1 device, 2 managed,
 * 3 pinned host; *device the GPU it belongs to (-1 for host memory). Without a GPU:
 * host memory. */
GPUFILTER_C_API gpufilter_status gpufilter_pointer_info(const void* pointer, int* device, int* memory);

/** ---- image files and batches, as the command-line tool reads, writes and runs them -- */

typedef struct gpufilter_file_image gpufilter_file_image;

/** Reads an image file (PNG, JPEG, TIFF, BMP, PNM, WebP; depth and alpha kept; a JPEG
 * turned upright by its EXIF orientation when `autorotate`) into pixels in R, G, B(, A)
 * order that *view describes until gpufilter_file_image_free(*image). */
GPUFILTER_C_API gpufilter_status gpufilter_file_read(const char* path, int autorotate, gpufilter_file_image** image,
                                                     gpufilter_image* view);
GPUFILTER_C_API void gpufilter_file_image_free(gpufilter_file_image* image);

/** Writes host pixels (R, G, B(, A) order) to `path`, whose suffix names the format,
 * atomically (a temporary file renamed onto it; onto an existing file only when
 * `replace`). `quality` 1..100 for JPEG; `png_compression` 0..9, or -1 for the tool's
 * default. Alpha written to a format without it is composited onto white. */
GPUFILTER_C_API gpufilter_status gpufilter_file_write(const char* path, const gpufilter_image* image, int quality,
                                                      int png_compression, int replace);

/** Runs the request's image op over files as `gpufilter OP IN... --out-dir DIR` does:
 * decoding and encoding threads (`jobs`, 0: one per core), the op on GPUs (`device` 0
 * auto, 1 gpu, 2 cpu; `devices`: `device_count` GPU ordinals, 0 of them: GPU 0, -1:
 * all), inputs `shard_index`, `shard_index` + `shard_count`, ... only. Each output is
 * DIR/<name><suffix>.<format or the input's extension>. A file that fails is skipped;
 * the call fails only for what stops the whole batch. *json: {"files": [{"input",
 * "output", "ok", "error"}...], "devices", "runs_per_device", "messages", "stopped"}:
 * "files" in the order of the inputs kept, each with its own outcome ("error" is why it
 * failed, "" when written; a file a stop left unrun is not ok either), "messages" every
 * line the tool would have printed. */
GPUFILTER_C_API gpufilter_status gpufilter_batch(const gpufilter_request* request, int count,
                                                 const char* const* inputs, const char* out_dir, const char* suffix,
                                                 const char* format, int device, int device_count, const int* devices,
                                                 int jobs, int shard_index, int shard_count, int quality, int replace,
                                                 const char** json);

#ifdef __cplusplus
}
#endif

#endif /* GPUFILTER_C_H */
