#pragma once
// A thread that does `act` once when a descriptor reports one of `events`, a hang-up or an
// error, until the watch is destroyed (which wakes and joins the thread). The server uses
// it while a command runs: for the caller hanging up, and in a helper process for the
// server ending (server_helpers.hpp).
#include <functional>
#include <thread>

namespace gpufilter::cli {

class FdWatch {
 public:
  FdWatch(int fd, short events, std::function<void()> act);
  ~FdWatch();
  FdWatch(const FdWatch&) = delete;
  FdWatch& operator=(const FdWatch&) = delete;

 private:
  int wake_[2] = {-1, -1};
  std::thread thread_;
};

}  // namespace gpufilter::cli
