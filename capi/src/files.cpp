// Image files and batches through gpufilter_io, as the command-line tool reads, writes
// and runs them: read into RGB(A) order (the library's), written atomically with the
// tool's encoders, batches on its pipeline (decoding threads, nvJPEG, several GPUs).
#include <opencv2/core/mat.hpp>
#include <opencv2/imgproc.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "c_status.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/io/batch.hpp"
#include "gpufilter/io/batch_inputs.hpp"
#include "gpufilter/io/codecs.hpp"
#include "gpufilter/io/flatten_alpha.hpp"
#include "gpufilter/io/image_files.hpp"
#include "gpufilter/io/io_error.hpp"
#include "gpufilter/io/write_output.hpp"
#include "json_writer.hpp"
#include "request.hpp"

struct gpufilter_file_image {
  cv::Mat pixels;  // RGB(A) order
};

namespace gpufilter::capi {
namespace {

// Before a file call: OpenCV's log lines off stderr, once. Its codec libraries are not
// loaded ahead on a thread of their own (codecs::start_loading), only when a file needs
// them (the codecs' module() waits for them then): a script that wrote a JPEG could
// otherwise end while they load, and a library's constructors running during the
// interpreter's exit aborted it (GDCM's, once in a clean CI run).
void quiet_codecs() {
  static std::once_flag once;
  std::call_once(once, [] { io::silence_codec_logging(); });
}

// OpenCV's B, G, R(, A) and the library's R, G, B(, A): the same swap both ways.
void swap_red_blue(cv::Mat& image) {
  if (image.channels() == 3) cv::cvtColor(image, image, cv::COLOR_BGR2RGB);
  if (image.channels() == 4) cv::cvtColor(image, image, cv::COLOR_BGRA2RGBA);
}

int cv_depth(ChannelType type) {
  return type == ChannelType::U8 ? CV_8U : type == ChannelType::U16 ? CV_16U : CV_32F;
}

std::string suffix_of(const char* format) {
  if (format == nullptr || *format == '\0') return {};
  std::string text = format;
  return text.front() == '.' ? text : "." + text;
}

// Each file's outcome by its place in the batch (the batch says which file each is, so
// no message is matched against a path), and the batch's message lines as they came.
class CollectingListener final : public io::BatchListener {
 public:
  struct Outcome {
    bool ran = false;
    bool ok = false;
    std::string error;
  };

  explicit CollectingListener(std::size_t files) : outcomes_(files) {}

  void message(const std::string& line) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    lines_.push_back(line);
  }
  void file_done(std::uint64_t /*input_bytes*/, bool /*ok*/) override {}
  void file_result(std::size_t item, bool ok, const std::string& error) override {
    // Each item is run by one thread, once: its slot is its own.
    Outcome& outcome = outcomes_.at(item);
    outcome.ran = true;
    outcome.ok = ok;
    outcome.error = ok ? std::string() : error.empty() ? std::string("failed") : error;
  }

  const std::vector<Outcome>& outcomes() const { return outcomes_; }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
  std::vector<Outcome> outcomes_;
};

struct BatchArguments {
  std::vector<std::filesystem::path> inputs;
  std::string out_dir, suffix, format;
  int device = 0;  // 0 auto, 1 gpu, 2 cpu
  std::vector<int> devices;
  bool all_devices = false;
  int jobs = 0, shard_index = 0, shard_count = 1, quality = 95;
  bool replace = false;
};

std::string run_batch_json(const gpufilter_request& request, const BatchArguments& given) {
  quiet_codecs();
  io::RunRequest run;
  run.op = request.op;
  if (!run.op->produces_image()) invalid(run.op->name + " gives data, not an image: a batch writes images");
  run.params = request.params;
  run.border = request.border;
  run.border_values = request.border_values;
  run.variant = request.variant;
  run.device = given.device == 1 ? io::DeviceChoice::Gpu : given.device == 2 ? io::DeviceChoice::Cpu
                                                                               : io::DeviceChoice::Auto;
  run.devices = given.devices;
  run.all_devices = given.all_devices;
  run.encode.jpeg_quality = given.quality;
  run.encode.replace_existing = given.replace;
  io::BatchOptions options;
  options.inputs = given.inputs;
  options.out_dir = given.out_dir;
  options.suffix = given.suffix;
  options.format = given.format;
  options.jobs = given.jobs;
  options.shard_index = given.shard_index;
  options.shard_count = given.shard_count;
  run.batch = options;

  const std::vector<io::BatchItem> items = io::plan_batch(run);
  CollectingListener listener(items.size());
  const io::BatchResult result = io::run_batch(run, items, listener);

  JsonWriter json;
  json.begin_object();
  json.key("files").begin_array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const CollectingListener::Outcome& outcome = listener.outcomes()[i];
    json.begin_object();
    json.key("input").value(items[i].input.string());
    json.key("output").value(items[i].output.string());
    json.key("ok").value(outcome.ran && outcome.ok);
    json.key("error").value(outcome.ran ? outcome.error : std::string("not run: the batch was stopped first"));
    json.end_object();
  }
  json.end_array();
  json.key("devices").begin_array();
  for (const int device : result.devices) json.value(device);
  json.end_array();
  json.key("runs_per_device").begin_array();
  for (const long runs : result.runs_per_device) json.value(static_cast<double>(runs));
  json.end_array();
  json.key("messages").strings(listener.lines());
  json.key("stopped").value(result.stopped);
  json.end_object();
  return json.text();
}

}  // namespace
}  // namespace gpufilter::capi

using namespace gpufilter;

extern "C" gpufilter_status gpufilter_file_read(const char* path, int autorotate, gpufilter_file_image** image,
                                                gpufilter_image* view) {
  return capi::guarded([&] {
    if (path == nullptr || image == nullptr || view == nullptr) capi::invalid("path, image or view is NULL");
    *image = nullptr;
    capi::quiet_codecs();
    auto read = std::make_unique<gpufilter_file_image>();
    read->pixels = io::read_image(path, autorotate != 0);
    const PixelFormat format = io::pixel_format_of(read->pixels, path);
    capi::swap_red_blue(read->pixels);
    *view = capi::to_c_image(ImageShape{read->pixels.cols, read->pixels.rows, format});
    view->data = read->pixels.data;
    view->pitch = read->pixels.step[0];
    *image = read.release();
  });
}

extern "C" void gpufilter_file_image_free(gpufilter_file_image* image) { delete image; }

extern "C" gpufilter_status gpufilter_file_write(const char* path, const gpufilter_image* image, int quality,
                                                 int png_compression, int replace) {
  return capi::guarded([&] {
    if (path == nullptr || image == nullptr) capi::invalid("path or image is NULL");
    if (quality < 1 || quality > 100) capi::invalid("quality must be a whole number in [1, 100], got " +
                                                    std::to_string(quality));
    if (png_compression > 9) capi::invalid("png_compression must be a whole number in [0, 9], got " +
                                           std::to_string(png_compression));
    const ImageView view = capi::to_view(*image);
    validate_view(view, "image");
    capi::quiet_codecs();
    const std::filesystem::path output = path;
    io::check_output_target(output);
    io::refuse_existing_output(output, replace != 0, "'" + output.string() + "'");
    const io::OutputFit fit = io::check_output_holds(output, view.format);
    // The caller's pixels in OpenCV's order, in a copy: the caller's array is not touched.
    const cv::Mat theirs(view.height, view.width, CV_MAKETYPE(capi::cv_depth(view.format.type), view.format.channels),
                         view.data, view.pitch);
    cv::Mat pixels = theirs.clone();
    capi::swap_red_blue(pixels);
    PixelFormat format = view.format;
    if (fit == io::OutputFit::FlattenAlpha) {
      pixels = io::flatten_onto(pixels, io::Background{});
      format.channels = 3;
    }
    io::EncodeOptions options;
    options.jpeg_quality = quality;
    if (png_compression >= 0) options.png_compression = png_compression;
    options.replace_existing = replace != 0;
    io::write_image_atomically(output, pixels, format, io::ChannelLayout::AsDecoded, options);
  });
}

extern "C" gpufilter_status gpufilter_batch(const gpufilter_request* request, int count, const char* const* inputs,
                                            const char* out_dir, const char* suffix, const char* format, int device,
                                            int device_count, const int* devices, int jobs, int shard_index,
                                            int shard_count, int quality, int replace, const char** json) {
  return capi::guarded([&] {
    if (request == nullptr || out_dir == nullptr || json == nullptr) capi::invalid("request, out_dir or json is NULL");
    if (count < 0) capi::invalid("count must be 0 or more, got " + std::to_string(count));
    if (count > 0 && inputs == nullptr) capi::invalid("inputs is NULL but count is " + std::to_string(count));
    if (device_count > 0 && devices == nullptr) {
      capi::invalid("devices is NULL but device_count is " + std::to_string(device_count));
    }
    capi::BatchArguments given;
    for (int i = 0; i < count; ++i) {
      if (inputs[i] == nullptr) capi::invalid("an input path is NULL");
      given.inputs.emplace_back(inputs[i]);
    }
    if (given.inputs.empty()) capi::invalid("no input files");
    given.out_dir = out_dir;
    given.suffix = suffix != nullptr ? suffix : "";
    if (given.suffix.find('/') != std::string::npos) capi::invalid("suffix cannot hold '/'");
    given.format = capi::suffix_of(format);
    if (device < 0 || device > 2) capi::invalid("device must be 0 (auto), 1 (gpu) or 2 (cpu)");
    given.device = device;
    given.all_devices = device_count < 0;
    for (int i = 0; i < device_count; ++i) given.devices.push_back(devices[i]);
    if (jobs < 0 || jobs > 1024) capi::invalid("jobs must be a whole number in [0, 1024], got " + std::to_string(jobs));
    given.jobs = jobs;
    if (shard_count < 1 || shard_index < 0 || shard_index >= shard_count) {
      capi::invalid("shard needs 0 <= index < count, got " + std::to_string(shard_index) + "/" +
                    std::to_string(shard_count));
    }
    given.shard_index = shard_index;
    given.shard_count = shard_count;
    if (quality < 1 || quality > 100) capi::invalid("quality must be a whole number in [1, 100], got " +
                                                    std::to_string(quality));
    given.quality = quality;
    given.replace = replace != 0;
    thread_local std::string text;
    text = capi::run_batch_json(*request, given);
    *json = text.c_str();
  });
}
