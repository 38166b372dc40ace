#pragma once
// Exiv2's XMP toolkit, one thread at a time, left as it started after each use. The
// toolkit and Exiv2's namespace registry are the process's: decoding one packet while
// another thread writes one (which registers every namespace anew) loses namespaces
// ("Unregistered schema namespace URI"), and each packet's namespaces stayed registered,
// so that every file cost more than the one before it (Exiv2 looks prefixes up in a list).
#include <exiv2/exiv2.hpp>

#include <map>
#include <mutex>
#include <string>

namespace gpufilter::io {

// Namespaces a packet brought beyond Exiv2's own: URI -> prefix.
using XmpNamespaces = std::map<std::string, std::string>;

// Holds the process's XMP lock while alive: around Exiv2's readMetadata, writeMetadata
// of XMP, and any use of an XMP key. The lock is recursive, as Exiv2 takes it again
// through the lock function this passes to XmpParser::initialize. On its end, where the
// use left namespaces registered, they are unregistered and the toolkit starts afresh.
class XmpToolkitUse {
 public:
  XmpToolkitUse();
  ~XmpToolkitUse();
  XmpToolkitUse(const XmpToolkitUse&) = delete;
  XmpToolkitUse& operator=(const XmpToolkitUse&) = delete;

  // The namespaces registered during this use (a packet's own, after it was read).
  XmpNamespaces registered() const;
  // Registers `namespaces` again (a packet's, to write it).
  void register_again(const XmpNamespaces& namespaces);

 private:
  std::unique_lock<std::recursive_mutex> lock_;
};

// Namespaces beyond Exiv2's own that are registered now: none between uses.
std::size_t xmp_namespaces_registered();

}  // namespace gpufilter::io
