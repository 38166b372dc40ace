#pragma once
// PNG's row filters (filter method 0): each row is stored as a filter type byte followed
// by the row's bytes minus a prediction from the pixel to the left (a), the one above (b)
// and the one above-left (c), byte by byte with `bpp` bytes per pixel (at least 1).
#include <cstddef>
#include <cstdint>

namespace gpufilter::io::png {

enum class Filter : std::uint8_t { None = 0, Sub = 1, Up = 2, Average = 3, Paeth = 4 };
inline constexpr int kFilterCount = 5;

// Writes `filter` applied to `row` into out[0 .. length) (without the type byte). `prior`
// is the row above, unfiltered; all zeros for the first row.
void filter_row(Filter filter, const std::uint8_t* row, const std::uint8_t* prior, std::size_t length, int bpp,
                std::uint8_t* out);

// The filter whose output has the smallest sum of absolute values (bytes read as signed),
// libpng's heuristic for photos, among `allowed` (a bit per Filter value). Writes the type
// byte to out[0] and the filtered row to out[1 .. length]; `scratch` holds length bytes.
Filter filter_row_adaptive(const std::uint8_t* row, const std::uint8_t* prior, std::size_t length, int bpp,
                           unsigned allowed, std::uint8_t* out, std::uint8_t* scratch);

inline constexpr unsigned filter_bit(Filter filter) { return 1u << static_cast<unsigned>(filter); }
inline constexpr unsigned kAllFilters = 0x1f;

// Undoes the filter of type `type` on `row` in place (`prior`: the row above, already
// unfiltered; all zeros for the first row). False for a type byte that names no filter.
bool unfilter_row(std::uint8_t type, std::uint8_t* row, const std::uint8_t* prior, std::size_t length, int bpp);

}  // namespace gpufilter::io::png
