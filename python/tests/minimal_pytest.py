"""A stand-in for the part of pytest these tests use, for interpreters without pytest:
installed as the `pytest` module, it collects test_*.py, resolves fixtures by name
(conftest's and tmp_path), expands parametrize and reports passed / skipped / failed."""
import glob
import importlib
import inspect
import itertools
import os
import re
import shutil
import sys
import tempfile
import traceback
import types


class Skipped(Exception):
    pass


def skip(reason=""):
    raise Skipped(reason)


def importorskip(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        raise Skipped("no module " + name) from None


class _Raises:
    def __init__(self, kind, match):
        self.kind, self.match, self.value = kind, match, None

    def __enter__(self):
        return self

    def __exit__(self, kind, value, _):
        if kind is None:
            raise AssertionError("did not raise %s" % self.kind)
        if not issubclass(kind, self.kind):
            return False
        if self.match and not re.search(self.match, str(value)):
            raise AssertionError("%r does not match %r" % (str(value), self.match))
        self.value = value
        return True


def raises(kind, match=None):
    return _Raises(kind, match)


class _MonkeyPatch:
    """monkeypatch.setattr, undone after the test."""

    def __init__(self):
        self.saved = []

    def setattr(self, target, name, value):
        self.saved.append((target, name, getattr(target, name)))
        setattr(target, name, value)

    def undo(self):
        for target, name, value in reversed(self.saved):
            setattr(target, name, value)
        self.saved = []


_FIXTURES = {}


def fixture(function=None, scope=None):
    if function is None:
        return fixture
    _FIXTURES[function.__name__] = function
    return function


class _Mark:
    @staticmethod
    def parametrize(names, values, ids=None):
        def decorate(function):
            function.__dict__.setdefault("parametrize", []).append(([n.strip() for n in names.split(",")],
                                                                     list(values), ids))
            return function
        return decorate


mark = _Mark()


def _fixture_value(name, made, cleanups):
    if name in made:
        return made[name]
    if name == "tmp_path_factory":
        class Factory:
            @staticmethod
            def mktemp(prefix):
                import pathlib
                path = tempfile.mkdtemp(prefix="gpufilter-%s-" % prefix)
                cleanups.append(lambda: shutil.rmtree(path, ignore_errors=True))
                return pathlib.Path(path)
        return Factory()
    if name == "monkeypatch":
        made[name] = _MonkeyPatch()
        cleanups.append(made[name].undo)
        return made[name]
    if name == "tmp_path":
        import pathlib
        path = tempfile.mkdtemp(prefix="gpufilter-test-")
        cleanups.append(lambda: shutil.rmtree(path, ignore_errors=True))
        made[name] = pathlib.Path(path)
        return made[name]
    function = _FIXTURES[name]
    args = [_fixture_value(arg, made, cleanups) for arg in inspect.signature(function).parameters]
    made[name] = function(*args)
    return made[name]


def _cases(function):
    sets = function.__dict__.get("parametrize", [])
    if not sets:
        yield "", {}
        return
    expanded = []
    for names, values, ids in sets:
        options = []
        for value in values:
            value = value if len(names) > 1 else (value,)
            label = "-".join((ids(v) if ids else None) or str(v) for v in value)
            options.append((label, dict(zip(names, value))))
        expanded.append(options)
    for combination in itertools.product(*expanded):
        label = "-".join(label for label, _ in combination)
        values = {}
        for _, part in combination:
            values.update(part)
        yield "[" + label + "]", values


def main(directory, argv):
    """argv: test files to run (default: all), -k WORD (names containing WORD), -v."""
    sys.modules["pytest"] = sys.modules[__name__]
    sys.path.insert(0, directory)
    importlib.import_module("conftest")
    counts = {"passed": 0, "skipped": 0, "failed": 0}
    word = argv[argv.index("-k") + 1] if "-k" in argv[:-1] else ""
    chosen = {os.path.basename(a) for a in argv if a.endswith(".py")}
    for path in sorted(glob.glob(os.path.join(directory, "test_*.py"))):
        if chosen and os.path.basename(path) not in chosen:
            continue
        module = importlib.import_module(os.path.splitext(os.path.basename(path))[0])
        for name, function in list(vars(module).items()):
            if not name.startswith("test_") or not isinstance(function, types.FunctionType):
                continue
            for label, values in _cases(function):
                if word not in name + label:
                    continue
                made, cleanups = dict(values), []
                try:
                    args = [_fixture_value(arg, made, cleanups) for arg in inspect.signature(function).parameters]
                    function(*args)
                    counts["passed"] += 1
                except Skipped as reason:
                    counts["skipped"] += 1
                    if "-v" in argv:
                        print("SKIPPED %s::%s%s: %s" % (module.__name__, name, label, reason))
                except Exception:
                    counts["failed"] += 1
                    print("FAILED %s::%s%s" % (module.__name__, name, label))
                    traceback.print_exc()
                finally:
                    for cleanup in cleanups:
                        cleanup()
    print("%(passed)d passed, %(skipped)d skipped, %(failed)d failed" % counts)
    return 1 if counts["failed"] else 0
