"""Scenarios: a ruleset id plus the data files (map, tables, orders of battle) it is played with.

A scenario's digest covers the scenario file and every file it references, so a
state made with one set of tables cannot silently be continued with another.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .errors import InputError, ReferenceError_
from .loading import load_data, load_document, validate

REPO_SCENARIOS = Path(__file__).resolve().parent.parent.parent / "scenarios"


def scenario_roots() -> list[Path]:
    """Where scenario files are looked for: $PBEM_SCENARIOS (colon-separated), then the built-ins."""
    roots = [Path(p) for p in os.environ.get("PBEM_SCENARIOS", "").split(os.pathsep) if p]
    return roots + [REPO_SCENARIOS]


@dataclass(frozen=True, eq=False)  # hashed by identity: one object per loaded digest
class Scenario:
    id: str
    ruleset: str
    path: Path
    doc: Mapping[str, Any]
    digest: str
    builtin: bool
    given: str = ""  # the reference as the user gave it, recorded in states (never an absolute path we made)

    def file(self, key: str) -> Path:
        """Path of a referenced file, relative to the scenario file."""
        ref = self.doc.get("files", {}).get(key)
        if ref is None:
            raise ReferenceError_(f"scenario names no {key!r} file", where=str(self.path))
        return (self.path.parent / ref).resolve()

    def load(self, key: str, kind: str | None = None) -> Any:
        """Load a referenced file; with `kind`, schema-check it too (cached per scenario digest)."""
        return _load_cached(str(self.file(key)), kind or "", self.digest)

    @property
    def ref(self) -> str:
        return self.id if self.builtin else (self.given or str(self.path))


@lru_cache(maxsize=64)
def _load_cached(path: str, kind: str, digest: str) -> Any:
    """`digest` is only a cache key: a changed file changes the scenario digest, so it is read again."""
    return load_static(Path(path), kind)


def cache_dir() -> Path | None:
    """Where parsed, validated scenario files are kept ($PBEM_CACHE_DIR, else the user cache; '' disables)."""
    env = os.environ.get("PBEM_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pbem"


def load_static(path: Path, kind: str) -> Any:
    """Load a scenario data file through a content-addressed cache.

    Maps and tables are large and never change during a game; parsing the YAML and checking it
    against its schema dominated a CLI run. The cache key is the SHA-256 of the file's bytes, so
    an edited file is parsed and validated afresh; only data that survives a JSON round trip is
    cached, and any cache problem just means loading the file the slow way.
    """
    try:
        raw = path.read_bytes()
    except OSError:
        raise InputError("file not found", where=str(path)) from None
    folder = cache_dir()
    entry = folder / f"{kind or 'data'}-{hashlib.sha256(raw).hexdigest()}.json" if folder else None
    if entry is not None:
        try:
            return json.loads(entry.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    doc = load_document(path, kind, number_keys=True) if kind else load_data(path, number_keys=True)
    if entry is not None:
        text = json.dumps(doc, ensure_ascii=False)
        if json.loads(text) == doc:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                tmp = entry.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(text, encoding="utf-8")
                os.replace(tmp, entry)
            except OSError:
                pass
    return doc


_FILE_HASHES: dict[tuple[str, int, int], str] = {}


def file_hash(path: Path | str) -> str:
    """SHA-256 of a file's bytes, remembered per (path, modification time, size) as git's index does."""
    try:
        st = os.stat(path)
    except OSError:
        raise InputError("file not found", where=str(path)) from None
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _FILE_HASHES:
        _FILE_HASHES[key] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return _FILE_HASHES[key]


def _digest(path: str, content_hash: str) -> str:
    h = hashlib.sha256()
    for key, p in _referenced(path, content_hash):
        try:
            data_hash = file_hash(p)
        except InputError:
            raise InputError(f"scenario file {key!r} not found", where=str(Path(p).resolve())) from None
        h.update(f"{key}\0{data_hash}\n".encode())
    return h.hexdigest()


@lru_cache(maxsize=32)
def _referenced(path: str, content_hash: str) -> tuple[tuple[str, str], ...]:
    """The scenario file and the files it names, in digest order. Not resolved: the system follows any
    link when it opens them, and resolving every path on every call cost more than hashing."""
    doc = _parse_scenario(path, content_hash)
    folder = Path(path).parent
    return (("scenario", path),) + tuple((k, str(folder / v)) for k, v in sorted(doc.get("files", {}).items()))


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


_Entry = tuple[Path, str, str, str]  # a scenario file, its real path, its qualified id and its short id
_LISTINGS: dict[str, tuple[int, tuple[tuple[str, int], ...], tuple[_Entry, ...]]] = {}


def _listing(root: Path) -> tuple[_Entry, ...]:
    """`root/*/*.scenario.yaml`, sorted, each with its real path and ids. Listed again only when the root folder or
    one of its folders changed (their modification times, trusted as `file_hash` trusts a file's), so a
    long-running process still sees scenarios added, removed or relinked; the glob and the path resolution
    were most of the time a warm `find_scenario` took."""
    key = str(root)
    stamp = _mtime(key)
    cached = _LISTINGS.get(key)
    if cached is not None and cached[0] == stamp and all(_mtime(d) == m for d, m in cached[1]):
        return cached[2]
    folders: list[tuple[str, int]] = []
    found: tuple[_Entry, ...] = ()
    if root.is_dir():
        try:
            with os.scandir(key) as entries:
                folders = sorted((e.path, _mtime(e.path)) for e in entries if e.is_dir())
        except OSError:
            folders = []
        found = tuple((p, str(p.resolve()), f"{p.parent.name}/{p.name[: -len('.scenario.yaml')]}",
                       p.name[: -len(".scenario.yaml")]) for p in sorted(root.glob("*/*.scenario.yaml")))
    _LISTINGS[key] = (stamp, tuple(folders), found)
    return found


def _builtin_entries() -> list[_Entry]:
    return [entry for root in scenario_roots() for entry in _listing(root)]


def builtin_scenarios() -> list[Path]:
    return [entry[0] for entry in _builtin_entries()]


def _load_scenario(path: str, builtin: bool) -> Scenario:
    """The scenario at `path`; its digest is recomputed from the files' bytes on every call, so a
    long-running process notices a table changed on disk."""
    return _scenario(path, builtin, _digest(path, file_hash(path)))


@lru_cache(maxsize=32)
def _parse_scenario(path: str, content_hash: str) -> Mapping[str, Any]:
    return load_document(Path(path), "scenario", number_keys=True)


@lru_cache(maxsize=32)
def _scenario(path: str, builtin: bool, digest: str) -> Scenario:
    doc = _parse_scenario(path, file_hash(Path(path)))
    return Scenario(id=f"{doc['ruleset']}/{doc['id']}", ruleset=doc["ruleset"], path=Path(path), doc=doc,
                    digest=digest, builtin=builtin)


def find_scenario(ref: str) -> Scenario:
    """A scenario by qualified id ('spi-barbarossa/barbarossa-1941'), short id, or file path."""
    candidate = Path(ref)
    if candidate.suffix in (".yaml", ".yml", ".json") and candidate.is_file():
        from dataclasses import replace

        return replace(_load_scenario(str(candidate.resolve()), False), given=ref)
    matches, real = [], ""
    for p, resolved, qualified, name in _builtin_entries():
        if ref == qualified or ref == name:
            matches.append(p)
            real = resolved
    if len(matches) == 1:
        return _load_scenario(real, True)
    if len(matches) > 1:
        raise ReferenceError_(f"scenario {ref!r} is ambiguous; use one of " + ", ".join(
            f"{m.parent.name}/{m.name[:-14]}" for m in matches))
    raise ReferenceError_(f"no scenario {ref!r}; `pbem scenarios` lists them")


REVISIONS = "revisions"  # beside a built-in scenario: the files it had before its tables were corrected
REVISION_LEN = 16  # hex digits of the digest that name a kept revision's folder


def revision_folder(scen: Scenario, digest: str) -> Path:
    """Where the revision of a built-in scenario whose digest was `digest` is kept (docs/scenario-revisions.md)."""
    return scen.path.parent / REVISIONS / digest[:REVISION_LEN]


def scenario_for(ref: str, digest: str) -> Scenario:
    """The scenario a game was started with: `ref` as it is now if its digest is still `digest`, else the revision
    of it kept under `revisions/` with that digest. A built-in table corrected after a game began (a reconstruction
    made to fit the rules text better) so leaves that game on the tables it began with, and its steps verify byte
    for byte. The current scenario when neither matches: the caller refuses the mismatch."""
    scen = find_scenario(ref)
    if scen.digest == digest or not scen.builtin or not re.fullmatch(r"[0-9a-f]{64}", digest):
        return scen
    kept = revision_folder(scen, digest) / scen.path.name
    if not kept.is_file():
        return scen
    old = _load_scenario(str(kept), True)
    return old if old.digest == digest and old.id == scen.id else scen


def keep_revision(scen: Scenario) -> Path:
    """Copy a built-in scenario's file and every file it references, byte for byte, to the revision folder of its
    digest: run before a table of it is changed, so that games begun on it keep it (`scenario_for`)."""
    import shutil

    if not scen.builtin:
        raise ReferenceError_("only a built-in scenario keeps revisions", where=str(scen.path))
    folder = revision_folder(scen, scen.digest)
    for key, path in _referenced(str(scen.path), file_hash(scen.path)):
        rel = Path(path).relative_to(scen.path.parent) if key != "scenario" else Path(scen.path.name)
        if ".." in rel.parts or rel.is_absolute():
            raise ReferenceError_(f"file {key!r} lies outside the scenario's folder", where=str(scen.path))
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, folder / rel)
    if _load_scenario(str(folder / scen.path.name), True).digest != scen.digest:
        raise InputError("the kept revision does not hash as the scenario did", where=str(folder))
    return folder


def month_of_turn(first: str, turn: int) -> str:
    """'YYYY-MM' of game-turn `turn` in a game of one turn a month starting in `first` (turn 1)."""
    y, m = int(first[:4]), int(first[5:7]) + turn - 1
    return f"{y + (m - 1) // 12}-{(m - 1) % 12 + 1:02d}"


def monthly_turns(doc: Mapping[str, Any]) -> int:
    """How many monthly game-turns a scenario's `turns: {first, last}` covers."""
    first, last = doc["turns"]["first"], doc["turns"]["last"]
    return (int(last[:4]) - int(first[:4])) * 12 + int(last[5:7]) - int(first[5:7]) + 1


def check_table(doc: Any, where: str) -> None:
    validate(doc, "table", where)
