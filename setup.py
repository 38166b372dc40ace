"""`pip install .` from the source tree: pip installs the built package instead, whose
C library CMake builds (see python/setup.py, which says how)."""
import pathlib
import runpy

runpy.run_path(str(pathlib.Path(__file__).resolve().parent / "python" / "setup.py"))
