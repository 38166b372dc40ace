// gpufilter_request_output_shape / run / data_layout / run_data: an op on views, on the
// CPU reference (the CLI's --device cpu), on the GPU on the caller's stream, or from host
// memory through the GPU.
#include <cuda_runtime_api.h>

#include <array>
#include <string>

#include "c_status.hpp"
#include "device_scope.hpp"
#include "gpufilter/error.hpp"
#include "json_writer.hpp"
#include "request.hpp"
#include "workspace.hpp"

namespace gpufilter::capi {
namespace {

std::string describe(const ImageShape& shape) {
  return std::to_string(shape.width) + "x" + std::to_string(shape.height) + " " + shape.format.name();
}

ImageShape shape_of(const ImageView& view) { return ImageShape{view.width, view.height, view.format}; }

const gpufilter_request& checked(const gpufilter_request* request) {
  if (request == nullptr) invalid("request is NULL");
  return *request;
}

const gpufilter_image& checked(const gpufilter_image* image, const char* role) {
  if (image == nullptr) invalid(std::string(role) + " is NULL");
  return *image;
}

// The input's shape, checked against the op, and the output it gives.
ImageShape output_for(const gpufilter_request& request, const ImageView& src) {
  check_format(request, src.format);
  if (!request.op->produces_image()) invalid(request.op->name + " gives data, not an image");
  return request.op->output_shape_for(shape_of(src), request.params);
}

StreamHandle stream_of(void* stream) { return static_cast<StreamHandle>(stream); }

void run_image(const gpufilter_request& request, const ImageView& src, const ImageView& dst, int where, int device,
               void* stream) {
  validate_view(src, "src");
  validate_view(dst, "dst");
  const ImageShape expected = output_for(request, src);
  if (shape_of(dst) != expected) {
    invalid(request.op->name + " gives a " + describe(expected) + " image for this input; out is " +
            describe(shape_of(dst)));
  }
  const Border border = border_for(request, src.format);
  switch (where) {
    case GPUFILTER_CPU:
      request.op->run_on_cpu(src, dst, request.params, border);
      return;
    case GPUFILTER_GPU: {
      const DeviceScope scope(device);
      request.op->run_gpu(src, dst, request.params, border, request.variant, ExecContext{stream_of(stream)});
      return;
    }
    case GPUFILTER_HOST_VIA_GPU: {
      const DeviceScope scope(device);
      Workspace& space = thread_workspace();
      const StreamHandle on = stream != nullptr ? stream_of(stream) : space.stream.get();
      space.fit(space.src, shape_of(src));
      space.fit(space.dst, expected);
      copy_image_async(src, space.src.view(), on);
      request.op->run_gpu(space.src.view(), space.dst.view(), request.params, border, request.variant,
                          ExecContext{on});
      copy_image_async(space.dst.view(), dst, on);
      GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(on));
      return;
    }
    default: invalid("unknown 'where' " + std::to_string(where) + " (0: cpu, 1: gpu, 2: host via gpu)");
  }
}

void run_data(const gpufilter_request& request, const ImageView& src, double* result, std::size_t count, int where,
              int device, void* stream) {
  validate_view(src, "src");
  check_format(request, src.format);
  if (request.op->produces_image()) invalid(request.op->name + " gives an image, not data");
  const std::size_t needed = request.op->data_layout(shape_of(src), request.params).size();
  if (result == nullptr || count != needed) {
    invalid(request.op->name + " gives " + std::to_string(needed) + " numbers for this input; result holds " +
            std::to_string(count));
  }
  if (where == GPUFILTER_CPU) {
    request.op->run_data_on_cpu(src, result, request.params);
    return;
  }
  if (where != GPUFILTER_GPU && where != GPUFILTER_HOST_VIA_GPU) {
    invalid("unknown 'where' " + std::to_string(where) + " (0: cpu, 1: gpu, 2: host via gpu)");
  }
  const DeviceScope scope(device);
  Workspace& space = thread_workspace();
  const StreamHandle on = stream != nullptr ? stream_of(stream) : space.stream.get();
  ImageView input = src;
  if (where == GPUFILTER_HOST_VIA_GPU) {
    space.fit(space.src, shape_of(src));
    copy_image_async(src, space.src.view(), on);
    input = space.src.view();
  }
  // Kept from call to call: freeing device memory would wait for the whole device.
  space.fit_data(count);
  request.op->run_gpu_data(input, space.data.get(), request.params, request.variant, ExecContext{on});
  GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(result, space.data.get(), count * sizeof(double), cudaMemcpyDeviceToHost, on));
  GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(on));
}

std::string layout_json(const DataLayout& layout) {
  JsonWriter json;
  json.begin_object();
  json.key("row_title").value(layout.row_title);
  json.key("rows").strings(layout.row_labels);
  json.key("columns").strings(layout.columns);
  json.key("chartable").value(layout.chartable);
  json.end_object();
  return json.text();
}

}  // namespace
}  // namespace gpufilter::capi

using namespace gpufilter;

extern "C" gpufilter_status gpufilter_request_output_shape(const gpufilter_request* request,
                                                           const gpufilter_image* input, gpufilter_image* output) {
  return capi::guarded([&] {
    if (output == nullptr) capi::invalid("output is NULL");
    const ImageView src = capi::to_view(capi::checked(input, "input"));
    if (src.width <= 0 || src.height <= 0) capi::invalid("input is empty");
    *output = capi::to_c_image(capi::output_for(capi::checked(request), src));
  });
}

extern "C" gpufilter_status gpufilter_request_reach(const gpufilter_request* request, int* x, int* y) {
  return capi::guarded([&] {
    if (x == nullptr || y == nullptr) capi::invalid("x or y is NULL");
    const gpufilter_request& checked = capi::checked(request);
    if (!checked.op->reach)
      capi::invalid(checked.op->name + " has no bounded reach: an output pixel may depend on any input pixel");
    const std::array<int, 2> reach = checked.op->reach(checked.params);
    *x = reach[0];
    *y = reach[1];
  });
}

extern "C" gpufilter_status gpufilter_request_run(const gpufilter_request* request, const gpufilter_image* src,
                                                  const gpufilter_image* dst, int where, int device, void* stream) {
  return capi::guarded([&] {
    capi::run_image(capi::checked(request), capi::to_view(capi::checked(src, "src")),
                    capi::to_view(capi::checked(dst, "dst")), where, device, stream);
  });
}

extern "C" gpufilter_status gpufilter_request_data_layout(const gpufilter_request* request,
                                                          const gpufilter_image* input, const char** json,
                                                          std::size_t* count) {
  return capi::guarded([&] {
    const gpufilter_request& checked = capi::checked(request);
    if (checked.op->produces_image()) capi::invalid(checked.op->name + " gives an image, not data");
    const ImageView src = capi::to_view(capi::checked(input, "input"));
    capi::check_format(checked, src.format);
    const DataLayout layout = checked.op->data_layout(ImageShape{src.width, src.height, src.format}, checked.params);
    thread_local std::string text;
    text = capi::layout_json(layout);
    if (json != nullptr) *json = text.c_str();
    if (count != nullptr) *count = layout.size();
  });
}

extern "C" gpufilter_status gpufilter_request_run_data(const gpufilter_request* request, const gpufilter_image* src,
                                                       double* result, std::size_t count, int where, int device,
                                                       void* stream) {
  return capi::guarded([&] {
    capi::run_data(capi::checked(request), capi::to_view(capi::checked(src, "src")), result, count, where, device,
                   stream);
  });
}
