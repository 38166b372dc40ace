"""The functions come from the registry: one per op, its parameters, defaults and help."""
import inspect
import re
import subprocess

import pytest

import gpufilter
from gpufilter import _registry
from gpufilter._messages import pythonic

from conftest import cli_path


def test_one_function_per_op():
    names = [op["name"] for op in _registry.DATA["ops"]]
    assert list(gpufilter.OPS) == names
    for name in names:
        assert callable(getattr(gpufilter, name))
    for expected in ("blur", "box", "edge", "stats", "histogram", "resize", "crop"):
        assert expected in names


@pytest.mark.parametrize("op", _registry.OPS, ids=lambda op: op.name)
def test_signature_follows_the_registry(op):
    signature = inspect.signature(getattr(gpufilter, op.name))
    names = list(signature.parameters)
    assert names[0] == "image"
    for param in op.params:
        assert param.py_name in names
        assert signature.parameters[param.py_name].kind == inspect.Parameter.KEYWORD_ONLY
        assert signature.parameters[param.py_name].default == param.default
    assert signature.parameters["variant"].default == op.default_variant
    assert ("border" in names) == op.uses_border
    assert ("out" in names) == op.gives_image
    if op.uses_border:
        assert signature.parameters["border"].default == "reflect101"


def _words(text):
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("op", _registry.OPS, ids=lambda op: op.name)
def test_help_says_what_the_cli_says(op):
    doc = _words(getattr(gpufilter, op.name).__doc__)
    # the same texts, the tool's option names as keyword arguments
    assert _words(pythonic(op.summary)) in doc
    for param in op.params:
        assert _words(pythonic(param.description)) in doc
    for variant in op.variants:
        assert variant in doc
    cli = cli_path()
    if cli is None:
        pytest.skip("the gpufilter tool is not on PATH and GPUFILTER_CLI is not set")
    shown = _words(subprocess.run([cli, op.name, "--help"], capture_output=True, text=True, check=True).stdout)
    for param in op.params:
        assert _words(param.description) in shown, "the CLI's help of --%s differs" % param.name
    assert _words(op.summary) in shown


def test_registry_json_is_complete():
    data = _registry.DATA
    assert data["version"] == gpufilter.__version__
    assert set(data["formats"]) == {t + "x" + c for t in ("u8", "u16", "f32") for c in "134"}
    assert "reflect101" in data["borders"]
    blur = gpufilter.operation("blur")
    sigma = next(p for p in blur["params"] if p["name"] == "sigma")
    assert sigma["kind"] == "number" and sigma["min"] > 0 and sigma["max"] >= sigma["min"]
    assert blur["output"] == "image" and blur["keeps_shape"]
    assert gpufilter.operation("stats")["output"] == "data"
    with pytest.raises(ValueError, match="unknown op"):
        gpufilter.operation("no_such_op")


def test_defaults_that_depend_on_other_parameters_show_their_value():
    # blur's sigma has no fixed default (--geometry may give it instead); the value taken
    # without either is what its help shows, and what the Python bench reads.
    sigma = next(p for p in _registry.OPS if p.name == "blur").params[0]
    assert sigma.name == "sigma" and sigma.default is None
    assert float(sigma.default_text) == 2.0
