"""Installs the built package (BUILD/python, with the pyproject.toml CMake writes there)
with pip, offline and with the distribution's setuptools, three ways: into a fresh
virtual environment, into a --target folder and into a --user site, and checks each
as a user would: `pip show`, importlib.metadata, the package imported from there (not
the build tree), the Python tests run against it, `pip uninstall`; and that `pip install .`
and `pip install python/` on the source tree say what to install instead.

    python3 python/tests/pip_install_check.py build/python

Run by ctest as python_pip_install. Exits non-zero on the first failure."""
import glob
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PIP_OFFLINE = ["--no-build-isolation", "--no-index", "--disable-pip-version-check", "--no-cache-dir"]
# What the user's environment must not add: another copy of the package, another library.
_DROPPED = ("PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "GPUFILTER_C_LIBRARY", "PIP_TARGET", "PIP_USER",
            "PIP_PREFIX", "VIRTUAL_ENV")


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    env["PYTHONNOUSERSITE"] = "1"
    env.update(extra)
    return env


def run(command, env, cwd=None, expect=0):
    print("+ " + " ".join(command), flush=True)
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    if (expect == 0) != (result.returncode == 0):
        sys.stdout.write(result.stdout)
        sys.stdout.write(result.stderr)
        raise SystemExit("exit status %d, expected %s" % (result.returncode, "0" if expect == 0 else "non-zero"))
    return result.stdout


def check_source_tree_refused(python, env, scratch):
    """`pip install .` at the top and `pip install python/` say what to install instead."""
    top = os.path.dirname(os.path.dirname(HERE))
    for tree in (top, os.path.join(top, "python")):
        # pip writes its egg-info beside setup.py: a copy of the file alone, in a folder of its own.
        copy = os.path.join(scratch, "tree-" + os.path.basename(tree))
        os.makedirs(os.path.join(copy, "python"))
        shutil.copy(os.path.join(top, "python", "setup.py"), os.path.join(copy, "python", "setup.py"))
        if tree == top:
            shutil.copy(os.path.join(top, "setup.py"), os.path.join(copy, "setup.py"))
        target = copy if tree == top else os.path.join(copy, "python")
        print("+ pip install " + target, flush=True)
        result = subprocess.run([python, "-m", "pip", "install"] + PIP_OFFLINE + [target], env=env,
                                capture_output=True, text=True)
        if result.returncode == 0 or "pip installs the built package" not in result.stdout + result.stderr:
            sys.stdout.write(result.stdout + result.stderr)
            raise SystemExit("pip install %s did not say what to install instead" % tree)


def check_installed(python, env, where, version):
    """The package comes from `where`, with its metadata, and the tests pass there."""
    script = ("import importlib.metadata, gpufilter; print(gpufilter.__file__); "
              "print(importlib.metadata.version('gpufilter')); print(gpufilter.__version__)")
    lines = run([python, "-c", script], env, cwd=tempfile.gettempdir()).split()
    package, metadata_version, module_version = lines[-3:]
    if not os.path.realpath(package).startswith(os.path.realpath(where) + os.sep):
        raise SystemExit("gpufilter was imported from %s, not from %s" % (package, where))
    if not metadata_version == module_version == version:
        raise SystemExit("versions differ: metadata %s, module %s, pyproject %s"
                         % (metadata_version, module_version, version))
    shown = run([python, "-m", "pip", "show", "--disable-pip-version-check", "-f", "gpufilter"], env)
    if "Version: " + version not in shown or "libgpufilter_c.so" not in shown:
        raise SystemExit("pip show says:\n" + shown)
    print(run([python, os.path.join(HERE, "run_tests.py"), "-q"], env, cwd=tempfile.gettempdir())
          .strip().splitlines()[-1])


def externally_managed():
    """Whether the interpreter's distribution keeps pip out of its site (PEP 668)."""
    return os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))


def version_of(package_dir):
    with open(os.path.join(package_dir, "pyproject.toml")) as pyproject:
        for line in pyproject:
            if line.startswith("version = "):
                return line.split('"')[1]
    raise SystemExit("no version in %s/pyproject.toml" % package_dir)


# ctest's SKIP_RETURN_CODE: the interpreter lacks what pip installs need.
SKIPPED = 77


def missing_tools(python):
    """What of pip, setuptools, wheel and venv (its ensurepip) `python` lacks."""
    missing = []
    for module in ("pip", "setuptools", "wheel", "ensurepip"):
        if subprocess.run([python, "-c", "import " + module], capture_output=True).returncode != 0:
            missing.append(module)
    return missing


def in_virtual_environment():
    return sys.prefix != sys.base_prefix


def share_site_packages(venv):
    """A venv made by a venv's interpreter sees the base interpreter's packages, not the
    ones beside that interpreter (NumPy among them): a .pth file adds those."""
    inner = glob.glob(os.path.join(venv, "lib", "python*", "site-packages"))[0]
    with open(os.path.join(inner, "_outer_site.pth"), "w") as pth:
        pth.write("\n".join(site.getsitepackages()) + "\n")


def main(package_dir):
    python = sys.executable
    missing = missing_tools(python)
    if missing:
        print("skipped: %s has no %s (Debian: python3-pip, python3-setuptools, python3-wheel, python3-venv)"
              % (python, ", ".join(missing)))
        raise SystemExit(SKIPPED)
    version = version_of(package_dir)
    with tempfile.TemporaryDirectory(prefix="gpufilter-pip-") as scratch:
        # pip builds in the folder it is given: a copy, so the build tree stays as it is.
        source = os.path.join(scratch, "source")
        shutil.copytree(package_dir, source, symlinks=False,
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "*.so.*"))

        venv = os.path.join(scratch, "venv")
        run([python, "-m", "venv", "--system-site-packages", venv], environment())
        if in_virtual_environment():
            share_site_packages(venv)
        venv_python = os.path.join(venv, "bin", "python")
        env = environment()
        check_source_tree_refused(venv_python, env, scratch)
        run([venv_python, "-m", "pip", "install"] + PIP_OFFLINE + [source], env)
        check_installed(venv_python, env, os.path.join(venv, "lib"), version)
        run([venv_python, "-m", "pip", "uninstall", "-y", "gpufilter"], env)
        run([venv_python, "-c", "import gpufilter"], env, cwd=scratch, expect=1)
        left = glob.glob(os.path.join(venv, "lib", "python*", "site-packages", "gpufilter*"))
        if left:
            raise SystemExit("pip uninstall left %s" % left)

        # --target installs the dependencies too, into the folder: NumPy is the system's.
        target = os.path.join(scratch, "target")
        run([python, "-m", "pip", "install"] + PIP_OFFLINE + ["--no-deps", "--target", target, source],
            environment())
        with open(glob.glob(os.path.join(target, "gpufilter-*.dist-info", "WHEEL"))[0]) as wheel:
            if "Tag: py3-none-any" in wheel.read():
                raise SystemExit("the wheel holds machine code but is tagged as pure Python")
        check_installed(python, environment(PYTHONPATH=target), target, version)

        if in_virtual_environment() and not site.ENABLE_USER_SITE:
            print("pip installs: virtual environment, --target: passed; --user skipped: %s runs in a "
                  "virtual environment, which has no user site" % python)
            return
        # A user site of its own; Debian's interpreter asks --break-system-packages for any
        # install outside a virtual environment (PEP 668), the user site included.
        user = os.path.join(scratch, "user")
        env = environment(PYTHONUSERBASE=user)
        del env["PYTHONNOUSERSITE"]
        managed = ["--break-system-packages"] if externally_managed() else []
        run([python, "-m", "pip", "install", "--user"] + managed + PIP_OFFLINE + [source], env)
        check_installed(python, env, user, version)
        run([python, "-m", "pip", "uninstall", "-y"] + managed + ["gpufilter"], env)
        run([python, "-c", "import gpufilter"], env, cwd=scratch, expect=1)
    print("pip installs: virtual environment, --target, --user: all passed")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(os.path.abspath(sys.argv[1]))
