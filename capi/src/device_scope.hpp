#pragma once
// Makes GPU `device` current for a call and puts the caller's back afterwards, so a
// binding's call on an array of GPU 1 leaves the thread as it found it.
namespace gpufilter::capi {

class DeviceScope {
 public:
  explicit DeviceScope(int device);  // -1: the thread's current device, untouched
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;  // >= 0: restore this one
};

}  // namespace gpufilter::capi
