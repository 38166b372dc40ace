# Sourced by the scripts: installs what the build needs (Debian/Ubuntu packages) and
# configures + builds into $BUILD_DIR. The CUDA toolkit itself must already be there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}

packages=(cmake ninja-build g++ libopencv-dev libcxxopts-dev libgtest-dev libbenchmark-dev libpng-dev zlib1g-dev libdeflate-dev libjpeg-dev libspng-dev clang libclang-rt-dev libexiv2-dev libtiff-dev
          python3-numpy python3-pytest python3-dask python3-distributed
          python3-setuptools python3-wheel python3-pip python3-venv)

install_dependencies() {
  local missing=()
  for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "gpufilter: installing ${missing[*]}" >&2
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if ! command -v nvcc >/dev/null 2>&1; then
    for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
      if [ -x "$d/nvcc" ]; then export PATH="$d:$PATH"; break; fi
    done
  fi
  command -v nvcc >/dev/null 2>&1 || { echo "gpufilter: nvcc not found; install the CUDA toolkit first" >&2; exit 1; }
}

configure() {  # configure [extra cmake args...]
  # Without a GPU no kernel runs here (the tool takes the CPU path), so the device code is
  # only checked: compiled to PTX for the oldest architecture (75-virtual) through the
  # CUDA front end and code generator, without the optimizer (cicc took 70% of the
  # largest kernel file's compile) and without assembling machine code (ptxas). Its
  # fatbins, which no GPU loads here, are compressed for speed of building, not size.
  # Such a build says so in `gpufilter --version`, and its benches refuse to time. A GPU
  # machine builds optimized machine code for its own GPU, and a build for other
  # machines the four of cmake/CudaArchitectures.cmake (plain cmake does either).
  # The host code there builds in unity batches (CMake's UNITY_BUILD: eight sources per
  # compile, so the shared headers are parsed once a batch, not once a file): 40% less
  # compile on the 2-core CI machine. A GPU machine and plain cmake compile file by
  # file, so both shapes stay built and tested (docs/lab.md, "The build on a machine
  # without a GPU").
  local no_gpu=()
  if ! nvidia-smi >/dev/null 2>&1; then
    export CUDAARCHS=${CUDAARCHS:-75-virtual}
    no_gpu=(-DGPUFILTER_DEVICE_COMPRESSION=balance -DGPUFILTER_DEVICE_OPTIMIZATION=OFF -DCMAKE_UNITY_BUILD=ON)
  fi
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUFILTER_BUILD_TESTS=ON \
    -DGPUFILTER_BUILD_BENCH=ON -DGPUFILTER_BUILD_CLI=ON "${no_gpu[@]}" "$@" >/dev/null
}

build() {  # build [targets...]
  local targets=(); for t in "$@"; do targets+=(--target "$t"); done
  cmake --build "$BUILD_DIR" -j "$(nproc)" "${targets[@]}"
}
