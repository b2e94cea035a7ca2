"""Reading and writing pbem files: YAML or JSON in, schema-checked; stable YAML out.

Every file is validated against its JSON Schema (schemas/*.schema.json) before any
rule looks at it, so later code can trust shapes and report only rule problems.
"""
from __future__ import annotations

import json
import math
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError, SchemaError, UsageError
from .fastschema import accepts
from .files import write_atomic, write_files  # noqa: F401  (the writing side, imported from here by many)

try:  # the C loader is several times faster on large maps
    _Loader: type = yaml.CSafeLoader
    _BaseDumper: type = yaml.CSafeDumper
except AttributeError:  # pragma: no cover - depends on the platform build
    _Loader = yaml.SafeLoader
    _BaseDumper = yaml.SafeDumper


class _Dumper(_BaseDumper):  # type: ignore[misc, valid-type]
    """Quotes every all-digit string (hex ids like 0928): YAML 1.2 readers would take them for numbers."""


def _represent_str(dumper: Any, value: str) -> Any:
    style = "'" if value.isdigit() else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)

SCHEMA_DIR = Path(__file__).resolve().parent.parent.parent / "schemas"
PACKAGE_SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


def schema_dir() -> Path:
    """Schemas live at the repo top level; an installed wheel carries a copy."""
    return SCHEMA_DIR if SCHEMA_DIR.is_dir() else PACKAGE_SCHEMA_DIR


# Limits on every file pbem reads (docs/security.md): a file over one is refused whole (exit 2) with a message
# naming the file and the place in it, before any rule or hash sees it. Each is several times what the largest
# file pbem writes or ships needs (tests/core/test_loading_limits.py checks both sides of every limit).
MAX_FILE_BYTES = 4 * 1024 * 1024  # a file, or standard input
MAX_DEPTH = 32  # lists and mappings nested in one another
MAX_ITEMS = 20_000  # entries of one list or mapping
MAX_VALUES = 100_000  # values (scalars, lists, mappings, keys) in one file, each use of an alias counted in full
MAX_INT_DIGITS = 64  # digits of an integer (Python itself stops at 4,300, with a ValueError)


def read_text(path: str | Path) -> str:
    """Read a file (or standard input for '-') as UTF-8 text, at most MAX_FILE_BYTES of it."""
    where = "<stdin>" if str(path) == "-" else str(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError("file not found", where=where) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=where) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"larger than {MAX_FILE_BYTES} bytes (MAX_FILE_BYTES): not a pbem file", where=where)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text: byte {exc.start + 1} (line {line}) is not UTF-8", where=where) from None


class _Refused(Exception):
    """A value over a limit or of a type pbem files do not hold; `parse_text` words it as an InputError."""

    def __init__(self, problem: str, path: tuple, mark: Any = None) -> None:
        super().__init__(problem)
        self.problem, self.path, self.mark = problem, path, mark

    def place(self) -> str:
        at = f"line {self.mark.line + 1} column {self.mark.column + 1}, " if self.mark is not None else ""
        return at + _json_path(_unwind(self.path))


def _unwind(path: tuple) -> list:
    """A path kept as nested (parent, key) pairs, as the list of keys from the top."""
    keys: list = []
    while path:
        path, key = path
        keys.append(key)
    return keys[::-1]


_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _check_text(value: str, path: tuple, mark: Any = None) -> None:
    if _SURROGATE.search(value):
        raise _Refused("a lone surrogate (\\ud800-\\udfff) is not text", path, mark)


_T = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_T + "str", _T + "int", _T + "float", _T + "bool", _T + "null"}


def _yaml_data(text: str, text_keys: bool) -> Any:
    """YAML to plain data (str, int, float, bool, None, list, dict) by one walk without recursion over the node graph
    the C parser composes. An alias (*name) is written out again in full each time it is used, and counts so
    against MAX_VALUES: a small file of aliases of aliases cannot expand into gigabytes (a recursive one stops at
    MAX_DEPTH). With `text_keys` every mapping key becomes text as JSON writes it (`1:` the key "1", `yes:` "true":
    what a hash of the file always read), so one mapping cannot mix kinds of keys nor hold one key twice. The walk
    refuses what a pbem file never holds: a type JSON lacks (timestamps, !!binary, sets, merge keys, custom tags),
    a key that is a list or a mapping, a repeated key, and anything over the limits above."""
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    if root is None:
        return None
    escapes = "\\u" in text or "\\U" in text  # only double-quoted escapes can make a lone surrogate
    out: list = [None]
    stack: list = [(root, 1, None, out, 0)]  # node, depth, path, container, slot

    def scalar(node: Any, path: tuple) -> Any:
        tag = node.tag
        if tag not in _SCALAR_TAGS:
            raise _Refused(f"the YAML type {tag.replace(_T, '!!')} is not allowed: pbem files hold only what JSON "
                           "holds (text, numbers, true/false, null, lists, mappings)", path, node.start_mark)
        if tag == _T + "str":
            if escapes and node.style == '"':
                _check_text(node.value, path, node.start_mark)
            return node.value
        if tag == _T + "int" and len(node.value.lstrip("+-").replace("_", "")) > MAX_INT_DIGITS:
            raise _Refused(f"an integer of more than {MAX_INT_DIGITS} digits (MAX_INT_DIGITS)", path, node.start_mark)
        if tag == _T + "null":
            return None
        value = (loader.construct_yaml_int if tag == _T + "int" else loader.construct_yaml_float
                 if tag == _T + "float" else loader.construct_yaml_bool)(node)
        if tag == _T + "float" and not math.isfinite(value):
            raise _Refused("an infinite or NaN number is not allowed (JSON has none)", path, node.start_mark)
        return value

    count = 1  # values met so far, each alias's counted again in full, so the stack never holds more
    size = 0  # characters of the scalars met so far, likewise: the file's size with every alias written out

    def grow(n: int, chars: int, path: tuple, node: Any) -> None:
        nonlocal count, size
        count += n
        size += chars
        if count > MAX_VALUES:
            raise _Refused(f"more than {MAX_VALUES} values in one file (MAX_VALUES), each use of an alias (*) "
                           "counted in full", path, node.start_mark)
        if size > MAX_FILE_BYTES:
            raise _Refused(f"larger than {MAX_FILE_BYTES} bytes (MAX_FILE_BYTES) with its aliases (*) written out",
                           path, node.start_mark)

    while stack:
        node, depth, path, container, slot = stack.pop()
        kind = node.id
        if kind == "scalar":
            grow(0, len(node.value), path, node)
            container[slot] = scalar(node, path)
            continue
        if depth > MAX_DEPTH:
            raise _Refused(f"nested more than {MAX_DEPTH} deep (MAX_DEPTH)", path, node.start_mark)
        items = node.value
        if len(items) > MAX_ITEMS:
            raise _Refused(f"more than {MAX_ITEMS} entries in one list or mapping (MAX_ITEMS)", path, node.start_mark)
        if kind == "sequence":
            if node.tag != _T + "seq":
                raise _Refused(f"the YAML type {node.tag.replace(_T, '!!')} is not allowed: pbem files hold only "
                               "what JSON holds", path, node.start_mark)
            grow(len(items), 0, path, node)
            seq: list = [None] * len(items)
            container[slot] = seq
            for i in range(len(items) - 1, -1, -1):
                stack.append((items[i], depth + 1, (path, i), seq, i))
            continue
        if node.tag != _T + "map":
            raise _Refused(f"the YAML type {node.tag.replace(_T, '!!')} is not allowed: pbem files hold only "
                           "what JSON holds", path, node.start_mark)
        grow(2 * len(items), sum(len(k.value) for k, _ in items if k.id == "scalar"), path, node)
        mapping: dict = {}
        container[slot] = mapping
        pending = []
        for key_node, value_node in items:
            if key_node.id != "scalar":
                raise _Refused("a mapping key must be text or a number, not a list or mapping", path,
                               key_node.start_mark)
            key = scalar(key_node, path)
            if type(key) is not str and text_keys:
                key = json.dumps(key)  # `1:` is the key "1", as JSON and every hash of the file already had it
            elif isinstance(key, float) or key is None:
                raise _Refused(f"a mapping key must be text or a whole number, not {key!r}", path, key_node.start_mark)
            if key in mapping:
                raise _Refused(f"the key {key!r} appears twice in one mapping", path, key_node.start_mark)
            mapping[key] = None
            pending.append((value_node, depth + 1, (path, key), mapping, key))
        stack.extend(reversed(pending))
    return out[0]


def _json_scan(text: str) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH before json.loads recurses into it."""
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, m.start()) + 1
                raise _Refused(f"nested more than {MAX_DEPTH} deep (MAX_DEPTH) at line {line}", ())
        elif c in "]}":
            depth -= 1


class _BadNumber:
    """What the JSON parser's number hooks leave where a number is over a limit: the walk reports it by path."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


def _json_int(s: str) -> Any:
    if len(s.lstrip("-")) > MAX_INT_DIGITS:
        return _BadNumber(f"an integer of more than {MAX_INT_DIGITS} digits (MAX_INT_DIGITS)")
    return int(s)


def _json_float(s: str) -> Any:
    value = float(s)
    return value if math.isfinite(value) else _BadNumber("a number too large for a float (JSON has no infinity)")


def _json_constant(s: str) -> Any:
    return _BadNumber(f"{s} is not JSON")


def _json_data(text: str) -> Any:
    """JSON to plain data, with the same limits as YAML: depth first (json.loads recurses), then one walk."""
    _json_scan(text)
    data = json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    escapes = "\\u" in text
    count = 0
    stack: list = [(data, None)]
    while stack:
        value, path = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise _Refused(f"more than {MAX_VALUES} values in one file (MAX_VALUES)", path)
        t = type(value)
        if t is str:
            if escapes:
                _check_text(value, path)
        elif t is list or t is dict:
            if len(value) > MAX_ITEMS:
                raise _Refused(f"more than {MAX_ITEMS} entries in one list or mapping (MAX_ITEMS)", path)
            if t is list:
                stack.extend((v, (path, i)) for i, v in enumerate(value))
            else:
                for k, v in value.items():
                    if escapes:
                        _check_text(k, path)
                    stack.append((v, (path, k)))
                count += len(value)
        elif t is _BadNumber:
            raise _Refused(value.problem, path)
    return data


def parse_text(text: str, where: str, *, number_keys: bool = False) -> Any:
    """Parse YAML or JSON into plain data, within the limits above (JSON is a subset YAML accepts, but json
    is faster when the text looks like JSON). Every refusal is an InputError naming `where` and the place.

    Mapping keys become text, as in JSON (a hash could not tell `1:` from `'1':`); `number_keys` lets the
    scenario's own tables key rows by a die roll or a yes/no."""
    stripped = text.lstrip()
    try:
        if stripped.startswith("{") or stripped.startswith("["):
            try:
                return _json_data(text)
            except json.JSONDecodeError as exc:
                raise InputError(f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
                                 where=where) from None
        try:
            return _yaml_data(text, not number_keys)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = f" at line {mark.line + 1} column {mark.column + 1}" if mark else ""
            problem = getattr(exc, "problem", None) or str(exc)
            raise InputError(f"malformed YAML{at}: {problem}", where=where) from None
    except _Refused as exc:
        raise InputError(f"{exc.problem} ({exc.place()})", where=where) from None


def load_data(path: str | Path, *, number_keys: bool = False) -> Any:
    """Read and parse one file without schema checks (tables, maps are checked by kind)."""
    return parse_text(read_text(path), str(path), number_keys=number_keys)


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    path = schema_dir() / f"{name}.schema.json"
    if not path.is_file():
        raise UsageError(f"no schema named {name!r}", where=str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def schema_names() -> list[str]:
    return sorted(p.name[: -len(".schema.json")] for p in schema_dir().glob("*.schema.json"))


@lru_cache(maxsize=None)
def _validator(name: str) -> Any:
    import jsonschema

    base, _, part = name.partition("#")  # "schema#verb" validates one $defs branch only
    schema = load_schema(base)
    if part:
        schema = branch(schema, part)
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=None)


def branch(schema: dict, part: str) -> dict:
    """One `$defs` branch of a schema as a schema of its own, with the sibling definitions its `$ref`s reach (and an
    `$id` of its own, so that they resolve inside it)."""
    defs = schema["$defs"]
    reached: dict = {}
    todo = [defs[part]]
    while todo:
        for name in re.findall(r"#/\$defs/([\w-]+)", json.dumps(todo.pop())):
            if name not in reached:
                reached[name] = defs[name]
                todo.append(defs[name])
    out = {"$schema": schema["$schema"], "$id": schema["$id"].replace(".schema.json", f".{part}.schema.json")}
    if reached:
        out["$defs"] = {k: reached[k] for k in sorted(reached)}
    return {**out, **defs[part]}


def _json_path(parts: Any) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def validate(doc: Any, kind: str, where: str) -> None:
    """Raise SchemaError listing every problem: the path inside the file and what was expected. The generated
    validators answer first (pbem/core/fastschema.py): only a document they refuse needs jsonschema."""
    if accepts(doc, kind):
        return
    errors = sorted(_validator(kind).iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        problems = [f"{_json_path(e.absolute_path)}: {e.message}" for e in errors[:20]]
        if len(errors) > 20:
            problems.append(f"... and {len(errors) - 20} more")
        raise SchemaError(f"not a valid {kind} file", where=where, problems=problems)


def load_document(path: str | Path, kind: str, *, number_keys: bool = False) -> dict:
    """Read, parse and schema-check a pbem file of the given kind."""
    where = "<stdin>" if str(path) == "-" else str(path)
    data = parse_text(read_text(path), where, number_keys=number_keys)
    if not isinstance(data, dict):
        raise SchemaError(f"not a valid {kind} file", where=where, problems=["$: expected a mapping at the top level"])
    validate(data, kind, where)
    return data


def dump_yaml(data: Any) -> str:
    """Stable, human-readable YAML: the same data gives the same bytes."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)


def dump(data: Any, fmt: str = "yaml") -> str:
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return dump_yaml(data)
