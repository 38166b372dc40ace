#pragma once
// Owning images: pitched device memory and (where a GPU exists) pinned host memory.
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

// Device memory from cudaMallocPitch; move-only. Throws Error(OutOfMemory) with the
// size asked for and the memory free when the allocation fails.
class DeviceImage {
 public:
  DeviceImage() = default;
  DeviceImage(int width, int height, PixelFormat format);
  ~DeviceImage();
  DeviceImage(DeviceImage&& other) noexcept;
  DeviceImage& operator=(DeviceImage&& other) noexcept;
  DeviceImage(const DeviceImage&) = delete;
  DeviceImage& operator=(const DeviceImage&) = delete;

  const ImageView& view() const noexcept { return view_; }
  int width() const noexcept { return view_.width; }
  int height() const noexcept { return view_.height; }
  PixelFormat format() const noexcept { return view_.format; }

 private:
  void release() noexcept;
  ImageView view_{};
};

// Host memory with tightly packed rows. Pinned (cudaMallocHost) when a GPU is
// usable, so uploads and downloads run asynchronously at full speed; ordinary
// memory otherwise, so the CPU path works on machines with no GPU.
class HostImage {
 public:
  HostImage() = default;
  HostImage(int width, int height, PixelFormat format);
  ~HostImage();
  HostImage(HostImage&& other) noexcept;
  HostImage& operator=(HostImage&& other) noexcept;
  HostImage(const HostImage&) = delete;
  HostImage& operator=(const HostImage&) = delete;

  const ImageView& view() const noexcept { return view_; }
  bool pinned() const noexcept { return pinned_; }

 private:
  void release() noexcept;
  ImageView view_{};
  bool pinned_ = false;
};

// 2-D copies between any two views of equal size and format (host or device),
// enqueued on `stream`.
void copy_image_async(const ImageView& src, const ImageView& dst, StreamHandle stream);

}  // namespace gpufilter
