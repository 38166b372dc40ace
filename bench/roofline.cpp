#include "roofline.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "bench_case.hpp"
#include "gpufilter/registry.hpp"
#include "registry_cases.hpp"
#include "results.hpp"

namespace bench {

bool measure_copy_roofline(std::string& why) {
  const gpufilter::Operation* copy = gpufilter::find_operation("copy");
  if (copy == nullptr) {
    why = "no 'copy' op is registered";
    return false;
  }
  const std::string variant = copy->has_variant("vectorized") ? "vectorized" : copy->default_variant;
  const gpufilter::PixelFormat format{gpufilter::ChannelType::U8, 4};
  const ImageSize size{"8K", 7680, 4320};
  try {
    const CaseSpec spec = make_variant_case(*copy, variant, format, size, gpufilter::BorderMode::Reflect101,
                                            copy->resolve(copy->bench_params));
    BenchContext& ctx = bench_context();
    const PreparedCase prepared = prepare_and_check(spec);
    const cudaStream_t stream = ctx.stream.get();
    auto launch = [&] { spec.run(prepared.src, prepared.dst, prepared.result, stream); };
    // At least 20 samples whatever --iterations says: every ratio leans on this one.
    const auto samples = time_launches(stream, launch, std::max(ctx.options.warmup, 3),
                                       std::max(ctx.options.iterations, 20), ctx.flusher, ctx.timer);
    const double seconds = median(samples) * 1e-3;
    const double bytes = static_cast<double>(copy->bytes_moved(size.width, size.height, format, spec.params));
    if (seconds <= 0.0) {
      why = "the copy took no measurable time";
      return false;
    }
    Results::global().set_roofline(bytes / seconds / 1e9, "copy/" + variant + "/u8x4/8K");
    return true;
  } catch (const std::exception& e) {
    why = std::string("copy/") + variant + "/u8x4/8K failed: " + e.what();
    return false;
  }
}

}  // namespace bench
