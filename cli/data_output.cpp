#include "data_output.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "gpufilter/io/channel_layout.hpp"
#include "exit_codes.hpp"
#include "gpufilter/io/write_output.hpp"

namespace gpufilter::cli {
namespace {

// Whole numbers (counts, sums, positions) print without a fraction; others with the
// precision a double holds.
std::string number_text(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char text[40];
  if (value == std::floor(value) && std::fabs(value) < 9.007199254740992e15) {
    std::snprintf(text, sizeof text, "%.0f", value);
  } else {
    std::snprintf(text, sizeof text, "%.10g", value);
  }
  return text;
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// JSON has no NaN or infinity.
std::string json_number(double value) { return std::isfinite(value) ? number_text(value) : "null"; }

// A CSV field, quoted where it holds a separator or a quote.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

double cell(const DataLayout& layout, const std::vector<double>& values, std::size_t row, std::size_t column) {
  return values[row * layout.columns.size() + column];
}

std::string table(const DataLayout& layout, const std::vector<double>& values) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back({layout.row_title});
  for (const std::string& column : layout.columns) cells.back().push_back(column);
  for (std::size_t row = 0; row < layout.row_labels.size(); ++row) {
    cells.push_back({layout.row_labels[row]});
    for (std::size_t column = 0; column < layout.columns.size(); ++column)
      cells.back().push_back(number_text(cell(layout, values, row, column)));
  }
  std::vector<std::size_t> widths(layout.columns.size() + 1, 0);
  for (const auto& line : cells)
    for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], line[i].size());
  std::string out;
  for (const auto& line : cells) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      // The label column reads left-aligned, numbers right-aligned.
      const std::string pad(widths[i] - line[i].size(), ' ');
      out += i == 0 ? line[i] + pad : "  " + pad + line[i];
    }
    out += '\n';
  }
  return out;
}

std::string csv(const DataLayout& layout, const std::vector<double>& values) {
  std::string out = csv_field(layout.row_title);
  for (const std::string& column : layout.columns) out += "," + csv_field(column);
  out += '\n';
  for (std::size_t row = 0; row < layout.row_labels.size(); ++row) {
    out += csv_field(layout.row_labels[row]);
    for (std::size_t column = 0; column < layout.columns.size(); ++column)
      out += "," + number_text(cell(layout, values, row, column));
    out += '\n';
  }
  return out;
}

std::string json(const io::DataSource& source, const DataLayout& layout, const std::vector<double>& values) {
  std::ostringstream out;
  out << "{\"op\": " << json_string(source.op) << ", \"input\": " << json_string(source.input.string())
      << ", \"width\": " << source.shape.width << ", \"height\": " << source.shape.height
      << ", \"format\": " << json_string(source.shape.format.name()) << ",\n \"rows\": [";
  for (std::size_t row = 0; row < layout.row_labels.size(); ++row) {
    out << (row ? ",\n  " : "\n  ") << "{" << json_string(layout.row_title) << ": "
        << json_string(layout.row_labels[row]);
    for (std::size_t column = 0; column < layout.columns.size(); ++column)
      out << ", " << json_string(layout.columns[column]) << ": " << json_number(cell(layout, values, row, column));
    out << "}";
  }
  out << "\n ]}\n";
  return out.str();
}

// Line colours (BGR) for the columns: red, green, blue and gray for RGBA channels, the
// same order again for more.
cv::Scalar series_colour(std::size_t column, std::size_t columns) {
  if (columns == 1) return {40, 40, 40};
  static const cv::Scalar colours[] = {{40, 40, 220}, {40, 170, 40}, {220, 90, 40}, {128, 128, 128}};
  return colours[column % 4];
}

}  // namespace

std::string format_data(const io::DataSource& source, const DataLayout& layout, const std::vector<double>& values,
                        DataFormat format) {
  switch (format) {
    case DataFormat::Csv: return csv(layout, values);
    case DataFormat::Json: return json(source, layout, values);
    case DataFormat::Table: break;
  }
  return table(layout, values);
}

void write_chart(const std::filesystem::path& path, const io::DataSource& source, const DataLayout& layout,
                 const std::vector<double>& values, const io::EncodeOptions& options) {
  if (!layout.chartable || layout.row_labels.size() < 2)
    throw CliError(ExitCode::Usage, source.op + "'s result has no axis to chart; --plot draws tables such as "
                                                "a histogram's bins");
  constexpr int kWidth = 1024, kHeight = 512, kLeft = 60, kRight = 20, kTop = 40, kBottom = 40;
  cv::Mat chart(kHeight, kWidth, CV_8UC3, cv::Scalar(255, 255, 255));
  double top = 0.0;
  for (const double v : values)
    if (std::isfinite(v)) top = std::max(top, v);
  if (top <= 0.0) top = 1.0;
  const std::size_t rows = layout.row_labels.size();
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  const cv::Point origin(kLeft, kHeight - kBottom);
  cv::line(chart, origin, {kWidth - kRight, origin.y}, {0, 0, 0}, 1);
  cv::line(chart, origin, {kLeft, kTop}, {0, 0, 0}, 1);
  for (std::size_t column = 0; column < layout.columns.size(); ++column) {
    std::vector<cv::Point> points;
    for (std::size_t row = 0; row < rows; ++row) {
      const double v = cell(layout, values, row, column);
      const double x = kLeft + plot_w * static_cast<double>(row) / static_cast<double>(rows - 1);
      const double y = origin.y - plot_h * (std::isfinite(v) ? v : 0.0) / top;
      points.emplace_back(static_cast<int>(std::lround(x)), static_cast<int>(std::lround(y)));
    }
    const cv::Scalar colour = series_colour(column, layout.columns.size());
    cv::polylines(chart, points, false, colour, 1, cv::LINE_AA);
    cv::putText(chart, layout.columns[column], {kWidth - kRight - 60, kTop + 16 * static_cast<int>(column)},
                cv::FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv::LINE_AA);
  }
  const cv::Scalar ink(0, 0, 0);
  cv::putText(chart, source.op + ": " + source.input.filename().string(), {kLeft, kTop - 14},
              cv::FONT_HERSHEY_SIMPLEX, 0.5, ink, 1, cv::LINE_AA);
  cv::putText(chart, layout.row_labels.front(), {kLeft, kHeight - kBottom + 18}, cv::FONT_HERSHEY_SIMPLEX, 0.4, ink,
              1, cv::LINE_AA);
  cv::putText(chart, layout.row_labels.back(), {kWidth - kRight - 50, kHeight - kBottom + 18},
              cv::FONT_HERSHEY_SIMPLEX, 0.4, ink, 1, cv::LINE_AA);
  cv::putText(chart, layout.row_title, {kLeft + static_cast<int>(plot_w / 2), kHeight - 10},
              cv::FONT_HERSHEY_SIMPLEX, 0.45, ink, 1, cv::LINE_AA);
  cv::putText(chart, number_text(top), {4, kTop + 4}, cv::FONT_HERSHEY_SIMPLEX, 0.4, ink, 1, cv::LINE_AA);
  io::write_image_atomically(path, chart, PixelFormat{ChannelType::U8, 3}, io::ChannelLayout::AsDecoded, options);
}

}  // namespace gpufilter::cli
