#pragma once
// Running a handful of independent tasks (row strips of one image) on a few threads: the
// caller's thread and up to threads-1 short-lived std::threads. Starting a thread costs
// tens of microseconds, nothing beside the tens of milliseconds a strip of a large image
// takes, and there is no pool to keep alive or shut down.
#include <cstddef>
#include <functional>

namespace gpufilter::io {

// The threads a codec may use: `budget` when set (> 0), else one per core.
unsigned codec_threads(unsigned budget);

// Calls task(0) .. task(count - 1), each once, on at most `threads` threads (the caller's
// included), and returns when all have finished. The first exception a task throws is
// rethrown here once every thread has stopped; tasks not yet started are then skipped.
void run_tasks(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& task);

}  // namespace gpufilter::io
