#include "registry_cases.hpp"

#include <optional>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/stream.hpp"
#include "gpufilter/testing.hpp"
#include "lab/lab.hpp"
#include "peers.hpp"
#include "reduction_peers.hpp"

namespace bench {
namespace {

std::string row_name(const std::string& op, const std::string& variant, const std::string& format,
                     const std::string& size, const std::string& border, const std::string& data) {
  std::string name = op + "/" + variant + "/" + format + "/" + size;
  if (!border.empty()) name += "/" + border;
  if (data != "random") name += "/" + data;
  return name;
}

// The variant vs_naive divides by: "naive" where the op has one, else its first
// (simplest) variant, e.g. copy's "scalar".
std::string baseline_variant(const gpufilter::Operation& op) {
  if (op.has_variant("naive") || op.variants.empty()) return "naive";
  return op.variants.front();
}

// The parts of a case every row has, whether a variant of ours or a peer.
CaseSpec base_case(const gpufilter::Operation& op, const std::string& label, gpufilter::PixelFormat format,
                   const ImageSize& size, const std::string& border_name, const std::string& data) {
  CaseSpec spec;
  spec.row.name = row_name(op.name, label, format.name(), size.label, border_name, data);
  spec.row.data = data;
  spec.row.op = op.name;
  spec.row.variant = label;
  spec.row.format = format.name();
  spec.row.size = size.label;
  spec.row.border = border_name;
  spec.op = &op;
  spec.format = format;
  spec.size = size;
  return spec;
}

std::vector<PeerRow> peers_of(const gpufilter::Operation& op, gpufilter::PixelFormat format,
                              const gpufilter::ParamValues& params) {
  std::vector<PeerRow> rows = copy_peers(op, format, params);
  for (auto& row : reduction_peers(op, format, params)) rows.push_back(std::move(row));
#ifdef GPUFILTER_HAVE_NPP
  for (auto& row : npp_peers(op, format, params)) rows.push_back(std::move(row));
#endif
  return rows;
}

CaseSpec make_peer_case(const gpufilter::Operation& op, const PeerRow& peer, gpufilter::PixelFormat format,
                        const ImageSize& size, const gpufilter::ParamValues& params, const std::string& data) {
  CaseSpec spec = base_case(op, peer.name, format, size, op.uses_border ? peer.border_label : "", data);
  spec.row.peer = peer.name;
  spec.params = params;
  spec.row.params = params_text(params);
  spec.reference_params = peer.reference_params;
  spec.reference_border = peer.reference_border;
  spec.tolerance = peer.tolerance;
  spec.launch = peer.launch;
  spec.data_launch = peer.data_launch;
  spec.check_data = peer.check_data;
  return spec;
}

}  // namespace

namespace {

gpufilter::ExecContext timed_context(cudaStream_t stream) {
  gpufilter::ExecContext ctx;
  ctx.stream = stream;
  // Never synchronize inside a timed launch, whatever GPUFILTER_SYNC_LAUNCHES says:
  // the host round trip would be timed along with the kernel.
  ctx.sync_after_launch = false;
  return ctx;
}

// The op's bench parameters with the --param replacements it has a parameter for.
gpufilter::ParamValues bench_params(const gpufilter::Operation& op, const BenchOptions& options) {
  gpufilter::ParamValues params = op.bench_params;
  for (const auto& [name, text] : options.params)
    if (const gpufilter::ParamSpec* spec = op.find_param(name)) params[name] = spec->parse(text);
  return op.resolve(params);
}

// The parameters `gpufilter OP IN OUT` runs with: every default (a number the op derives,
// such as blur's sigma 2, as its help shows it), and the bench's value only for a
// parameter the user must give (convolve's mask, crop's rectangle).
gpufilter::ParamValues default_params(const gpufilter::Operation& op) {
  gpufilter::ParamValues given;
  for (const gpufilter::ParamSpec& spec : op.params) {
    if (spec.default_value || spec.kind != gpufilter::ParamKind::Number) continue;
    try {
      gpufilter::ParamValues with = given;
      with[spec.name] = spec.parse(spec.default_text);
      op.resolve(with);
      given = with;
    } catch (const gpufilter::Error&) {
      // a default that is a rule ("ceil(3*sigma)"), or one that needs another parameter
    }
  }
  for (const auto& [name, value] : op.bench_params) {
    try {
      return op.resolve(given);
    } catch (const gpufilter::Error&) {
      const gpufilter::ParamSpec* spec = op.find_param(name);
      if (spec != nullptr && !spec->default_value && !given.has(name)) given[name] = value;
    }
  }
  return op.resolve(given);  // throws the op's own message where the bench gives too little
}

}  // namespace

CaseSpec make_variant_case(const gpufilter::Operation& op, const std::string& variant, gpufilter::PixelFormat format,
                           const ImageSize& size, gpufilter::BorderMode border_mode,
                           const gpufilter::ParamValues& params, const std::string& data) {
  gpufilter::Border border;
  border.mode = border_mode;
  CaseSpec spec =
      base_case(op, variant, format, size, op.uses_border ? gpufilter::to_string(border_mode) : "", data);
  spec.params = params;
  spec.row.params = params_text(params);
  spec.reference_params = spec.params;
  spec.reference_border = border;
  if (op.produces_image()) spec.tolerance = op.tolerance_for(format, variant, params);  // data ops judge by column
  const gpufilter::Operation* op_ptr = &op;
  if (!op.produces_image()) {
    spec.data_launch = [op_ptr, variant, params = spec.params](const gpufilter::ImageView& src, double* result,
                                                                cudaStream_t stream) {
      op_ptr->run_gpu_data(src, result, params, variant, timed_context(stream));
    };
    spec.check_data = [op_ptr, format](const gpufilter::DataLayout& layout, const double* actual,
                                       const double* expected) {
      return gpufilter::testing::compare_data(*op_ptr, format, layout, actual, expected).first_failure;
    };
    return spec;
  }
  spec.launch = [op_ptr, variant, params = spec.params, border](const gpufilter::ImageView& src,
                                                               const gpufilter::ImageView& dst, cudaStream_t stream) {
    op_ptr->run_gpu(src, dst, params, border, variant, timed_context(stream));
  };
  return spec;
}

namespace {

// An op with an "accuracy" choice timed exact (its default) is timed fast too: the
// parameters with "fast", for a row "auto_fast" beside auto.
std::optional<gpufilter::ParamValues> fast_auto_params(const gpufilter::Operation& op,
                                                       const gpufilter::ParamValues& params) {
  if (!op.find_param("accuracy") || !op.has_variant("auto") || params.text("accuracy") != "exact") return std::nullopt;
  gpufilter::ParamValues fast = params;
  fast["accuracy"] = std::string("fast");
  return fast;
}

CaseSpec make_fast_auto_case(const gpufilter::Operation& op, gpufilter::PixelFormat format, const ImageSize& size,
                             gpufilter::BorderMode border, const gpufilter::ParamValues& fast_params,
                             const std::string& data) {
  CaseSpec spec = make_variant_case(op, "auto", format, size, border, fast_params, data);
  const std::string label = "auto_fast";
  spec.row.name = row_name(op.name, label, format.name(), size.label,
                           op.uses_border ? gpufilter::to_string(border) : "", data);
  spec.row.variant = label;
  return spec;
}

// The op's default call: its default variant and border with `defaults`, labelled
// "default" (the summary's headline rows).
CaseSpec make_default_case(const gpufilter::Operation& op, gpufilter::PixelFormat format, const ImageSize& size,
                           const gpufilter::ParamValues& defaults, const std::string& data) {
  const gpufilter::BorderMode border = gpufilter::Border{}.mode;
  CaseSpec spec = make_variant_case(op, op.default_variant, format, size, border, defaults, data);
  spec.row.variant = "default";
  spec.row.name = row_name(op.name, spec.row.variant, format.name(), size.label,
                           op.uses_border ? gpufilter::to_string(border) : "", data);
  return spec;
}

}  // namespace

namespace {

// A lab variant's row (lab/lab.hpp): named, checked and compared as the op's own
// variants are (vs_naive divides by the same baseline), launched by the lab.
CaseSpec make_lab_case(const gpufilter::Operation& op, const gpufilter::lab::LabVariant& lab,
                       gpufilter::PixelFormat format, const ImageSize& size, gpufilter::BorderMode border,
                       const gpufilter::ParamValues& params, const std::string& data) {
  CaseSpec spec = make_variant_case(op, lab.variant, format, size, border, params, data);
  if (!op.produces_image()) {
    spec.data_launch = [run = lab.run_data, params = spec.params](const gpufilter::ImageView& src, double* result,
                                                                 cudaStream_t stream) {
      run(src, result, params, timed_context(stream));
    };
    return spec;
  }
  spec.tolerance = gpufilter::lab::tolerance_for(lab, op, format, spec.params);
  spec.launch = [run = lab.run, params = spec.params, border = spec.reference_border](
                    const gpufilter::ImageView& src, const gpufilter::ImageView& dst, cudaStream_t stream) {
    run(src, dst, params, border, timed_context(stream));
  };
  return spec;
}

}  // namespace

int register_registry_cases(const BenchOptions& options) {
  int count = 0;
  for (const gpufilter::Operation& op : gpufilter::operations()) {
    if (!options.wants_op(op.name)) continue;
    Results::global().set_baseline(op.name, baseline_variant(op));
    const gpufilter::ParamValues params = bench_params(op, options);
    const gpufilter::ParamValues defaults = default_params(op);
    std::vector<gpufilter::BorderMode> borders = options.borders;
    if (!op.uses_border) borders = {gpufilter::BorderMode::Reflect101};  // unused; one pass
    // Grouped by format and size, so consecutive cases share the cached source
    // images and, per border, the CPU reference.
    for (const gpufilter::PixelFormat format : op.formats) {
      for (const ImageSize& size : options.sizes) {
        for (const std::string& data : options.data) {
          for (const gpufilter::BorderMode border : borders) {
            for (const std::string& variant : op.variants) {
              register_case(make_variant_case(op, variant, format, size, border, params, data));
              ++count;
            }
            for (const gpufilter::lab::LabVariant* lab : gpufilter::lab::lab_variants_of(op.name)) {
              register_case(make_lab_case(op, *lab, format, size, border, params, data));
              ++count;
            }
            if (const auto fast = fast_auto_params(op, params)) {
              register_case(make_fast_auto_case(op, format, size, border, *fast, data));
              ++count;
            }
          }
          for (const PeerRow& peer : peers_of(op, format, params)) {
            register_case(make_peer_case(op, peer, format, size, params, data));
            ++count;
          }
          // The headline: the op as the tool runs it by default, and the peers at that
          // shape (NPP's 13x13 Gaussian for blur's sigma 2) where it differs from the bench's.
          register_case(make_default_case(op, format, size, defaults, data));
          ++count;
          if (params_text(defaults) != params_text(params))
            for (const PeerRow& peer : peers_of(op, format, defaults)) {
              CaseSpec spec = make_peer_case(op, peer, format, size, defaults, data);
              spec.row.variant = peer.name + "@defaults";
              spec.row.name = row_name(op.name, spec.row.variant, format.name(), size.label, spec.row.border, data);
              register_case(spec);
              ++count;
            }
        }
      }
    }
  }
  return count;
}

}  // namespace bench
