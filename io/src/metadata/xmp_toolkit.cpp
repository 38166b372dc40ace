#include "metadata/xmp_toolkit.hpp"

namespace gpufilter::io {
namespace {

std::recursive_mutex& xmp_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

extern "C" void lock_or_unlock(void* data, bool lock) {
  auto* mutex = static_cast<std::recursive_mutex*>(data);
  if (lock) {
    mutex->lock();
  } else {
    mutex->unlock();
  }
}

// Under the lock: the toolkit started with the lock function (Exiv2 starts it without
// one where a decode or encode finds it stopped).
void start_toolkit() { Exiv2::XmpParser::initialize(lock_or_unlock, &xmp_mutex()); }

}  // namespace

XmpToolkitUse::XmpToolkitUse() : lock_(xmp_mutex()) { start_toolkit(); }

XmpToolkitUse::~XmpToolkitUse() {
  if (Exiv2::XmpProperties::nsRegistry_.empty()) return;
  // Unregisters Exiv2's custom namespaces and stops the toolkit, whose own registry of
  // namespaces goes with it; the next use starts both afresh.
  Exiv2::XmpParser::terminate();
  start_toolkit();
}

XmpNamespaces XmpToolkitUse::registered() const {
  XmpNamespaces namespaces;
  for (const auto& [uri, info] : Exiv2::XmpProperties::nsRegistry_) {
    if (info.prefix_ != nullptr) namespaces.emplace(uri, info.prefix_);
  }
  return namespaces;
}

void XmpToolkitUse::register_again(const XmpNamespaces& namespaces) {
  for (const auto& [uri, prefix] : namespaces) Exiv2::XmpProperties::registerNs(uri, prefix);
}

std::size_t xmp_namespaces_registered() {
  const std::lock_guard<std::recursive_mutex> lock(xmp_mutex());
  return Exiv2::XmpProperties::nsRegistry_.size();
}

}  // namespace gpufilter::io
