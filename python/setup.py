"""Not the package pip installs: that is the built one, which carries its C library.

    cmake --build build --target gpufilter_python
    python3 -m pip install --no-build-isolation --no-index build/python

(docs/python.md, "Install"). This file only says so where `pip install python/` is tried
(and `pip install .` from the top, whose setup.py runs this one)."""
import sys

sys.exit("gpufilter: pip installs the built package (with its C library), not the source tree: run "
         "`cmake --build build --target gpufilter_python`, then "
         "`python3 -m pip install --no-build-isolation --no-index build/python` (docs/python.md)")
