"""Runs the Python package's tests (arguments: test files, -k WORD, -q, -v): with pytest where the interpreter has it (CI installs
Debian's python3-pytest), else with the small runner below, which knows what these tests
use (fixtures by name, parametrize, raises, skip, importorskip, tmp_path, monkeypatch), so they also
run where nothing can be installed."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    try:
        import pytest
    except ImportError:
        import minimal_pytest
        return minimal_pytest.main(HERE, argv)
    files = [os.path.join(HERE, os.path.basename(a)) for a in argv if a.endswith(".py")]
    options = [a for a in argv if not a.endswith(".py")]
    return pytest.main(["-p", "no:cacheprovider"] + (files or [HERE]) + options)


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    sys.exit(main(sys.argv[1:]))
