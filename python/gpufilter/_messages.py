"""The library's messages and help in Python's words: the command-line tool and the
library share their texts, which name options as the tool spells them (`--sigma-y`,
`--size WxH`, `-y`). Python callers pass keyword arguments, so those names are rewritten
into the keywords (`sigma_y`, `size=WxH`, `replace=True`)."""
import re

from . import _registry

# The tool's batch options that gpufilter.batch() takes under a keyword of its own.
_BATCH_OPTIONS = {"out-dir": "out_dir", "suffix": "suffix", "format": "format", "jobs": "jobs",
                  "shard": "shard", "quality": "quality", "devices": "devices", "device": "device"}
_COMMON_OPTIONS = {"border": "border", "border-value": "border_value", "variant": "variant"}

# `--name`, then perhaps one word that may be its value.
_OPTION = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?: ([A-Za-z0-9](?:[\w+,.\[\]]*[\w\]])?))?")
_REPLACE = re.compile(r"(?<![\w-])-y\b")


def _known_options():
    names = dict(_COMMON_OPTIONS)
    names.update(_BATCH_OPTIONS)
    choices = {}
    for op in _registry.OPS:
        for param in op.params:
            names[param.name] = param.py_name
            choices.setdefault(param.name, set()).update(param.choices)
    return names, choices


_NAMES, _CHOICES = _known_options()


def _keyword(match):
    name, word = match.group(1), match.group(2)
    keyword = _NAMES.get(name)
    if keyword is None:
        return match.group(0)  # an option of the tool alone (--from-file): left as it is
    if word is None:
        return keyword
    if word in _CHOICES.get(name, ()):
        return "%s=%r" % (keyword, word)
    if word[0].isupper():  # a metavar: WxH, S, T
        return "%s=%s" % (keyword, word)
    return keyword + " " + word


def pythonic(text):
    """`text` with the tool's option names as Python's keyword arguments:
    "give either --size WxH or --scale S" -> "give either size=WxH or scale=S",
    "pass -y to replace it" -> "pass replace=True to replace it"."""
    if "-" not in text:
        return text
    return _REPLACE.sub("replace=True", _OPTION.sub(_keyword, text))
