#pragma once
/// @file
/// Owning images: pitched device memory and (where a GPU exists) pinned host memory.
/// Constructors throw Error(InvalidArgument) for a width or height below 1. Destructors
/// and moves never throw; a destructor ignores CUDA errors. Allocation and release are
/// not stream-ordered: cudaFree and cudaFreeHost implicitly synchronize the device, and
/// cudaMalloc, cudaMallocPitch and cudaMallocHost may, so allocate before a timed or
/// overlapped section and keep images alive across it.
#include <cstddef>

#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

/// Device memory from cudaMallocPitch; move-only. Throws Error(OutOfMemory) with the
/// size asked for and the memory free when the allocation fails, Error(Cuda) or
/// Error(NoDevice) on other CUDA failures. The destructor and move assignment release
/// the memory with cudaFree, which waits for all work on the device.
class DeviceImage {
 public:
  /// No memory: an empty view.
  DeviceImage() = default;
  /// width x height pixels of `format`, uninitialised, rows pitched by cudaMallocPitch.
  DeviceImage(int width, int height, PixelFormat format);
  ~DeviceImage();
  DeviceImage(DeviceImage&& other) noexcept;
  DeviceImage& operator=(DeviceImage&& other) noexcept;
  DeviceImage(const DeviceImage&) = delete;
  DeviceImage& operator=(const DeviceImage&) = delete;

  /// The whole image as a view (device memory), valid while this image lives.
  const ImageView& view() const noexcept { return view_; }
  int width() const noexcept { return view_.width; }    ///< pixels
  int height() const noexcept { return view_.height; }  ///< rows
  PixelFormat format() const noexcept { return view_.format; }  ///< the pixel format

 private:
  void release() noexcept;
  ImageView view_{};
};

/// Host memory with tightly packed rows. Pinned (cudaMallocHost) when a GPU is
/// usable, so uploads and downloads run asynchronously at full speed; ordinary
/// memory otherwise, so the CPU path works on machines with no GPU. A failed
/// cudaMallocHost falls back to ordinary memory (pinned() tells); Error(OutOfMemory)
/// means that failed too. Release of pinned memory is cudaFreeHost.
class HostImage {
 public:
  /// No memory: an empty view.
  HostImage() = default;
  /// width x height pixels of `format`, uninitialised, rows tightly packed.
  HostImage(int width, int height, PixelFormat format);
  ~HostImage();
  HostImage(HostImage&& other) noexcept;
  HostImage& operator=(HostImage&& other) noexcept;
  HostImage(const HostImage&) = delete;
  HostImage& operator=(const HostImage&) = delete;

  /// The whole image as a view (host memory), valid while this image lives.
  const ImageView& view() const noexcept { return view_; }
  /// Whether the memory is pinned (cudaMallocHost) rather than ordinary.
  bool pinned() const noexcept { return pinned_; }

 private:
  void release() noexcept;
  ImageView view_{};
  bool pinned_ = false;
};

/// A data op's result in device memory: `count` doubles (see DataLayout in registry.hpp);
/// move-only. The constructor (cudaMalloc; nothing for count 0) throws Error(OutOfMemory)
/// when the allocation fails, Error(Cuda) or Error(NoDevice) on other CUDA failures.
/// The destructor and move assignment release it with cudaFree, which waits for all
/// work on the device.
class DeviceData {
 public:
  /// No memory: size() 0.
  DeviceData() = default;
  /// `count` doubles of device memory, uninitialised.
  explicit DeviceData(std::size_t count);
  ~DeviceData();
  DeviceData(DeviceData&& other) noexcept;
  DeviceData& operator=(DeviceData&& other) noexcept;
  DeviceData(const DeviceData&) = delete;
  DeviceData& operator=(const DeviceData&) = delete;

  /// The device memory (nullptr when size() is 0).
  double* get() const noexcept { return data_; }
  /// Doubles held.
  std::size_t size() const noexcept { return count_; }
  /// Copies between this buffer and size() host doubles, enqueued on `stream` and
  /// returning without waiting (nothing when size() is 0); the host memory must stay
  /// valid until the stream reaches the copy. With pageable (not pinned) host memory the
  /// CUDA runtime may complete the copy before returning. Throws Error(Cuda) when the
  /// copy cannot be enqueued.
  void upload_async(const double* host, StreamHandle stream) const;
  /// The copy the other way, from this buffer to `host`, as upload_async() describes.
  void download_async(double* host, StreamHandle stream) const;

 private:
  void release() noexcept;
  double* data_ = nullptr;
  std::size_t count_ = 0;
};

/// 2-D copies between any two views of equal size and format (host or device, in any
/// combination; cudaMemcpyDefault), enqueued on `stream` and returning without waiting.
/// Host memory must stay valid until the stream reaches the copy; with pageable host
/// memory the CUDA runtime may complete the copy before returning. Throws as
/// validate_pair() does (Error(InvalidArgument), or Error(UnsupportedFormat) for a channel
/// count other than 1, 3 or 4), and Error(Cuda) when the copy cannot be enqueued.
void copy_image_async(const ImageView& src, const ImageView& dst, StreamHandle stream);

}  // namespace gpufilter
