"""Reading and writing pbem files: YAML or JSON in, schema-checked; stable YAML out.

Every file is validated against its JSON Schema (schemas/*.schema.json) before any
rule looks at it, so later code can trust shapes and report only rule problems.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError, SchemaError, UsageError
from .fastschema import accepts

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


def read_text(path: str | Path) -> str:
    """Read a file (or standard input for '-') as UTF-8 text."""
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", where=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", where=str(path)) from None


def parse_text(text: str, where: str) -> Any:
    """Parse YAML (JSON is a subset YAML accepts, but we use json for speed when it looks like JSON)."""
    stripped = text.lstrip()
    if stripped.startswith("{") or stripped.startswith("["):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", where=where) from None
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"malformed YAML{at}: {problem}", where=where) from None


def load_data(path: str | Path) -> Any:
    """Read and parse one file without schema checks (tables, maps are checked by kind)."""
    return parse_text(read_text(path), str(path))


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
        schema = {"$schema": schema["$schema"], **schema["$defs"][part]}
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=None)


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


def load_document(path: str | Path, kind: str) -> dict:
    """Read, parse and schema-check a pbem file of the given kind."""
    where = "<stdin>" if str(path) == "-" else str(path)
    data = parse_text(read_text(path), where)
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


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, text: str | bytes, *, force: bool = False, protect: tuple[str, ...] = ()) -> None:
    """Write via a temporary file and rename, so a reader never sees half a file.

    `protect` lists input paths that must never be overwritten, even with --force. Bytes (a PNG) are
    written as they are.
    """
    if str(path) == "-":
        if isinstance(text, bytes):
            sys.stdout.buffer.write(text)
        else:
            sys.stdout.write(text)
        sys.stdout.flush()
        return
    target = Path(path)
    resolved = target.resolve()
    for p in protect:
        if p != "-" and Path(p).resolve() == resolved:
            raise UsageError("refusing to overwrite an input file", where=str(path))
    if target.exists() and not force:
        raise UsageError("output exists; use --force to replace it", where=str(path))
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError("output folder does not exist", where=str(directory))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise UsageError(f"cannot write here: {exc.strerror or exc}", where=str(path)) from None
    try:
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as fb:
                fb.write(text)
        else:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes private files; outputs are ordinary files
        os.replace(tmp, target)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write: {exc.strerror or exc}; nothing was written", where=str(path)) from None
        raise
