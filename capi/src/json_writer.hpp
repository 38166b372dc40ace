#pragma once
// A small JSON writer for the descriptions the C interface hands out (the registry, a
// data op's layout, a batch's per-file status): values appended in order, commas placed
// by the writer. Numbers are written in their shortest exact form; non-finite ones as null.
#include <string>
#include <string_view>
#include <vector>

namespace gpufilter::capi {

// The shortest text that reads back as the same double: 0.1 -> "0.1", 10.0 -> "10".
std::string number_text(double value);

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);  // inside an object, before its value
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(int number) { return value(static_cast<double>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  JsonWriter& strings(const std::vector<std::string>& items);
  JsonWriter& numbers(const std::vector<double>& items);
  const std::string& text() const { return text_; }

 private:
  void separate();  // a comma before any value but the first of its container
  std::string text_;
  bool first_ = true;      // no value yet in the current container
  bool after_key_ = false;  // the next value belongs to the key just written
};

}  // namespace gpufilter::capi
