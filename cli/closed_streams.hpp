#pragma once
// A standard stream the caller closed (`gpufilter blur a.png - --format png >&-`) leaves
// its descriptor number free, and the next file the process opens takes it: the image
// meant for standard output would go into that file, and the run would succeed.
namespace gpufilter::cli {

// Puts a placeholder on each of descriptors 0, 1 and 2 that is closed: /dev/null opened
// the wrong way round (write-only for standard input, read-only for the outputs), so that
// reading or writing it fails with EBADF, as on the closed stream, and the tool reports
// it. Call first thing in main(), before anything opens a file.
void hold_closed_standard_streams();

}  // namespace gpufilter::cli
