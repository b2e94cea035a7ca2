"""The strength benchmark (issue 18): how well the bots play, scenario by scenario. Results go to docs/selfplay.md.

For every built-in scenario it plays (pbem/bots/match.py):
- GAMES games bot against bot (the default level on both sides): who wins, and for the 1941 games, in how many the
  attacker held Minsk, Smolensk and Kiev (where the map has them) by the end of November 1941;
- RANDOM_GAMES games of each side's bot against the random-legal bot (the yardstick, target: at least 95% wins;
  more games than bot against bot, since 20 cannot tell 91% from 95%: the Wilson interval of 20 of 20 reaches
  down to 84%);
and, for every agreed variant of a scenario (`pbem scenarios --json`), VARIANT_GAMES games bot against bot.
Codeword: Barbarossa also gets how many games reached each Crisis Level.

`make bench` runs it through bench/run.py, which also keeps the median time of a whole game in
docs/performance.md. Alone: `nice .venv/bin/python bench/strength.py [GAMES [RANDOM_GAMES]]`;
PBEM_STRENGTH_GAMES, PBEM_STRENGTH_RANDOM_GAMES and PBEM_STRENGTH_VARIANT_GAMES set the counts,
PBEM_STRENGTH_FEWER_RANDOM=0 plays the long scenarios (FEWER) bot against bot only, PBEM_STRENGTH_ONLY=TEXT[,TEXT]
plays only the scenarios whose id holds one of them (and prints the tables without writing docs/selfplay.md: a
partial run). `bench/strength.py --what-if NAME [GAMES]` plays bot against bot on a
scenario with one reconstructed table changed (WHAT_IFS), or started with a rule option (OPTION_WHAT_IFS), beside the
same games on the scenario as it is;
`--what-if NAME GAMES LEVEL...` plays them at those levels instead (as `pbem selfplay --level`, e.g. soviet=random).
"""
from __future__ import annotations

import math
import os
import statistics
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.bots.match import KEY_CITIES, Match, offensive_side, play  # noqa: E402

GAMES = int(os.environ.get("PBEM_STRENGTH_GAMES", "20"))
RANDOM_GAMES = int(os.environ.get("PBEM_STRENGTH_RANDOM_GAMES", "100"))
VARIANT_GAMES = int(os.environ.get("PBEM_STRENGTH_VARIANT_GAMES", "2"))
AUTUMN_1941 = "1941-11-30"  # "by the autumn of 1941": the end of November (dates compare as text: 1941-11 < 1941-11-30)
SKIP_VARIANTS = ("ask-decisions",)  # asks the defender at a decision step; the bots answer it like the default
ONLY = tuple(t for t in os.environ.get("PBEM_STRENGTH_ONLY", "").split(",") if t)
FEWER = {"spi-barbarossa/campaign-1941": 2}  # 45 game-turns, some ten times a standard game: fewer games of it
FEWER_RANDOM = {"spi-barbarossa/campaign-1941": 4}
TARGET = 0.95  # issue 18: each side's bot wins at least 95% of its games against random legal orders


def scenarios() -> list[tuple[str, str, tuple[str, ...], list[str]]]:
    """(scenario id, ruleset, sides, agreed variants) of every built-in scenario."""
    from pbem.core.scenario import builtin_scenarios, find_scenario
    from pbem.rulesets import get

    out = []
    for path in builtin_scenarios():
        scen = find_scenario(str(path))
        variants = sorted(k for k, v in get(scen.ruleset).options(scen).items() if v.get("implemented", True)
                          and not k.startswith("solitaire-") and k not in SKIP_VARIANTS)
        name = f"{path.parent.name}/{path.name[:-len('.scenario.yaml')]}"
        if ONLY and not any(t in name for t in ONLY):
            continue
        out.append((name, scen.ruleset, get(scen.ruleset).sides, variants))
    return out


def _roles(scen: str, sides: tuple[str, ...]) -> tuple[str, str]:
    """(the side on the offensive, the other): the attacker of the tables' columns."""
    atk = offensive_side(scen, sides)
    return atk, next(s for s in sides if s != atk)


def jobs(games: int, variant_games: int, random_games: int = RANDOM_GAMES) -> list[tuple[str, Match]]:
    out = []
    for scen, _, sides, variants in scenarios():
        atk, dfn = _roles(scen, sides)
        for i in range(min(games, FEWER.get(scen, games))):
            out.append(("bots", Match(scen, f"strength-{i}")))
        short = scen in FEWER and os.environ.get("PBEM_STRENGTH_FEWER_RANDOM") == "0"  # bot against bot only
        for i in range(0 if short else min(random_games, FEWER_RANDOM.get(scen, random_games))):
            out.append((f"{atk} bot vs random", Match(scen, f"strength-r{i}", (f"{dfn}=random",))))
            out.append((f"{dfn} bot vs random", Match(scen, f"strength-r{i}", (f"{atk}=random",))))
        for v in variants:
            for i in range(variant_games if scen not in FEWER else 0):
                out.append((f"variant {v}", Match(scen, f"strength-v{i}", (), (v,))))
    return out


def _run_one(job: tuple[str, Match]) -> dict[str, Any]:
    kind, m = job
    return {"kind": kind, **play(m)}


def run(games: int = GAMES, variant_games: int = VARIANT_GAMES, workers: int | None = None,
        random_games: int = RANDOM_GAMES) -> list[dict[str, Any]]:
    from pbem import batch

    todo = jobs(games, variant_games, random_games)
    done = [0]

    def progress(r: dict[str, Any]) -> None:
        done[0] += 1
        if sys.stderr.isatty():
            sys.stderr.write(f"\r{done[0]}/{len(todo)} {r['scenario']} {r['kind']}   ")
    return batch.run_parallel(_run_one, todo, workers or os.cpu_count() or 1, progress)


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _pct(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson(k, n)
    return f"{k}/{n} ({100 * k / n:.0f}%, 95% CI {100 * lo:.0f}-{100 * hi:.0f})"


def report(results: list[dict[str, Any]]) -> tuple[str, dict[str, dict[str, float]]]:
    """The markdown tables for docs/selfplay.md, and each scenario's median game times for docs/performance.md."""
    lines: list[str] = []
    times: dict[str, dict[str, float]] = {}
    by: dict[tuple[str, str], list[dict]] = {}
    for r in results:
        by.setdefault((r["scenario"], r["kind"]), []).append(r)
    short: list[str] = []
    lines += ["| scenario | bot vs bot: wins | key cities taken by the end of Nov 1941 (bot vs bot) | "
              "attacker's bot vs random | defender's bot vs random | failed games |", "|---|---|---|---|---|---|"]
    for scen, _, sides, _ in scenarios():
        atk, dfn = _roles(scen, sides)
        bots = [r for r in by.get((scen, "bots"), []) if r["ok"]]
        wins = Counter(str(r.get("winner") or "draw") for r in bots)
        cities = []
        for c in KEY_CITIES:
            on_map = [r for r in bots if r.get("maps", {}).get(c)]
            if on_map:
                took = sum(1 for r in on_map if r["fell"].get(c, "9999") <= AUTUMN_1941)
                cities.append(f"{c} {took}/{len(on_map)}")
        vs = {}
        for side in (atk, dfn):
            rs = [r for r in by.get((scen, f"{side} bot vs random"), []) if r["ok"]]
            won = sum(1 for r in rs if r.get("winner") == side)
            vs[side] = _pct(won, len(rs))
            if rs and won < TARGET * len(rs):
                short.append(f"{scen}, the {side} bot: {won} of {len(rs)}")
        failed = sum(1 for (s, _), rs in by.items() if s == scen for r in rs if not r["ok"])
        lines.append(f"| {scen} | {atk} {wins.get(atk, 0)}, {dfn} {wins.get(dfn, 0)}, draw {wins.get('draw', 0)} "
                     f"(of {len(bots)}) | {', '.join(cities) or 'none on this map'} | {vs[atk]} | {vs[dfn]} | {failed} |")
        games = bots or [r for (s, _), rs in by.items() if s == scen for r in rs if r["ok"]]
        if games:
            total = [r["bot_seconds"] + r["adjudication_seconds"] for r in games]
            times[scen] = {"game_s": statistics.median(total),
                           "bot_s": statistics.median(r["bot_seconds"] for r in games),
                           "adjudication_s": statistics.median(r["adjudication_seconds"] for r in games),
                           "games": len(games)}
    lines += ["", f"Short of the {TARGET:.0%} target against random orders: " + ("; ".join(short) or "none") + "."]
    crisis = [r for r in results if r["ok"] and r.get("crisis") and r["kind"] == "bots"]
    if crisis:
        from pbem.core.scenario import find_scenario
        import yaml

        scen = crisis[0]["scenario"]
        doc = yaml.safe_load((find_scenario(scen).path.parent / "crisis.yaml").read_text())
        names = {lv["level"]: lv["name"] for lv in doc["levels"]}
        reached = Counter(r["crisis"] for r in crisis)
        lines += ["", f"Codeword: Barbarossa, bot against bot ({len(crisis)} games): the highest Crisis Level of each game",
                  "", "| Crisis Level | games that reached it | games that ended the climb there |", "|---|---|---|"]
        for lv in sorted(names):
            at_least = sum(n for top, n in reached.items() if top >= lv)
            lines.append(f"| {lv} {names[lv]} | {at_least} | {reached.get(lv, 0)} |")
    variants = sorted({(r["scenario"], r["kind"][len("variant "):]) for r in results if r["kind"].startswith("variant ")})
    if variants:
        lines += ["", "Every agreed variant, bot against bot:", "", "| scenario | variant | games | winners | failed |",
                  "|---|---|---|---|---|"]
        for scen, v in variants:
            rs = by[(scen, f"variant {v}")]
            won = Counter(str(r.get("winner") or "draw") for r in rs if r["ok"])
            lines.append(f"| {scen} | {v} | {len(rs)} | {', '.join(f'{k} {n}' for k, n in sorted(won.items()))} | "
                         f"{sum(1 for r in rs if not r['ok'])} |")
    lines += ["", "The attacker's combats by game-turn, bot against bot (median over the games; what his attack supply and "
              "the weather let him fight):", ""]
    for scen, _, sides, _ in scenarios():
        atk = _roles(scen, sides)[0]
        bots = [r for r in by.get((scen, "bots"), []) if r["ok"] and r.get("attacks") is not None]
        months = sorted({m for r in bots for m in r["attacks"]})[:12]
        if not bots or not months:
            continue
        med = [statistics.median(r["attacks"].get(m, 0) for r in bots) for m in months]
        lines.append(f"- {scen} ({atk}): " + ", ".join(f"{m} {v:g}" for m, v in zip(months, med)))
    lines += ["", "Median processor time of one whole game, bot against bot (seconds; no stress checks):", "",
              "| scenario | game | of which the bots | of which adjudication |", "|---|---|---|---|"]
    for scen, t in times.items():
        lines.append(f"| {scen} | {t['game_s']:.1f} | {t['bot_s']:.1f} | {t['adjudication_s']:.1f} |")
    errors = [r for r in results if not r["ok"]]
    for r in errors[:5]:
        lines.append(f"\nfailed: {r['scenario']} {r['kind']} seed {r['seed']}: {r['error']}")
    return "\n".join(lines), times


MARKER = "<!-- strength results -->"


def write_doc(text: str, games: int, random_games: int, seconds: float) -> None:
    import platform

    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    block = (f"{MARKER}\nLast run: {when}, per scenario {games} games bot against bot and {random_games} of each "
             f"side's bot against random orders (fewer of the long ones), {seconds / 60:.0f} min on "
             f"{os.cpu_count()} cores (a shared machine), Python {platform.python_version()}.\n\n{text}\n{MARKER}")
    from docblock import put_block

    put_block(ROOT / "docs/selfplay.md", MARKER, block, "## Strength (`make bench`)")


# What-ifs on the reconstructed tables, to test whether one of them tips a scenario (docs/selfplay.md, "Reading the
# results"): each copies the scenario's folder, changes one table, and plays bot against bot (or at
# the levels given).
def _spi_supply(folder: Path) -> None:
    """oob-1941.yaml: used-up German supply units come back every month, two at a time (instead of one every
    other month), and the three new ones arrive in July rather than September (they cannot start on the map: the
    historical set-up has no hexes for them)."""
    import yaml

    p = folder / "oob-1941.yaml"
    doc = yaml.safe_load(p.read_text())
    doc["returns"] = [r for r in doc["returns"] if r["type"] != "de-supply"] + [
        {"date": f"{y}-{m:02d}", "type": "de-supply", "count": 2}
        for y, m in [(1941, mm) for mm in range(7, 13)] + [(1942, mm) for mm in range(1, 6)]]
    for u in doc["units"]:
        if u["type"] == "de-supply" and u.get("arrives"):
            u["arrives"] = "1941-07"
    p.write_text(yaml.safe_dump(doc, sort_keys=False))


def _spi_soviet_supply_1944(folder: Path) -> None:
    """oob-1944.yaml: used-up Soviet supply units come back two every month (instead of one in September and one in
    December 1944): the attack supply of the summer offensive of 1944."""
    import yaml

    p = folder / "oob-1944.yaml"
    doc = yaml.safe_load(p.read_text())
    doc["returns"] = [r for r in doc["returns"] if r["type"] != "su-supply"] + [
        {"date": d, "type": "su-supply", "count": 2}
        for d in ("1944-07", "1944-08", "1944-09", "1944-10", "1944-11", "1944-12", "1945-01", "1945-02")]
    p.write_text(yaml.safe_dump(doc, sort_keys=False))


def _merge(doc: dict[str, Any], gone: str, into: str) -> None:
    """Merge position `gone` into its neighbour `into`: its links become `into`'s, and the path through it is a link
    shorter (`into` keeps its own kind, fortress and points)."""
    del doc["positions"][gone]
    links, seen = [], set()
    for link in doc["links"]:
        ends = tuple(into if p == gone else p for p in link["between"])
        key = frozenset(ends)
        if ends[0] != ends[1] and key not in seen:
            seen.add(key)
            links.append({**link, "between": list(ends)})
    doc["links"] = links


def _merge_map(folder: Path, *pairs: tuple[str, str]) -> None:
    """The copied map.yaml with each (gone, into) pair of positions merged (`_merge`)."""
    import yaml

    p = folder / "map.yaml"
    doc = yaml.safe_load(p.read_text())
    for gone, into in pairs:
        _merge(doc, gone, into)
    p.write_text(yaml.safe_dump(doc, sort_keys=False))


def _fast_map_nearer(folder: Path) -> None:
    """map.yaml (a reconstruction: the printed map is missing): each deep axis a link shorter, by merging one interior
    junction on it into the next position: Vyazma into Mozhaisk (AGC base-Moscow 6 -> 5), Pskov into Luga
    (AGN base-Leningrad 5 -> 4), Zhitomir into Rovno (AGS base-Kiev 4 -> 3, Kharkov 6 -> 5) and Stalino into
    Dnepropetrovsk (AGS base-Rostov 7 -> 6 on the map before the Sea of Azov coast road; with the road Rostov is 6
    links either way). The 7 frontline and 10 behind positions (the solitaire Russian's set-up), the victory cities
    and the fortresses stay."""
    _merge_map(folder, ("Vyazma", "Mozhaisk"), ("Pskov", "Luga"), ("Zhitomir", "Rovno"), ("Stalino", "Dnepropetrovsk"))


def _fast_moscow_nearer(folder: Path) -> None:
    """map.yaml: only the road to Moscow a link shorter (Vyazma merged into Mozhaisk: AGC base-Moscow 6 -> 5), the
    depth the Turn 4 clause of REINFORCEMENTS asks for under move-then-attack (docs/map-barbarossa-fast.md, Open
    points); every other distance as reconstructed."""
    _merge_map(folder, ("Vyazma", "Mozhaisk"))


def _fast_more_panzers(folder: Path) -> None:
    """forces.yaml (a reconstruction: the counter sheet is missing; the rules fix only the units' factors and the
    reinforcements): one more panzerkorps in each army group from Turn 1, 13 panzerkorps against 10 at the
    start (the other suspect table, beside the map)."""
    import yaml

    p = folder / "forces.yaml"
    doc = yaml.safe_load(p.read_text())
    for n, group in enumerate(("AGN", "AGC", "AGS"), 1):
        doc["german"][f"ge-x{n}pz"] = {"name": f"what-if PzKps {n}", "kind": "panzerkorps", "group": group}
    p.write_text(yaml.safe_dump(doc, sort_keys=False))



def _fast_both(folder: Path) -> None:
    """Both Barbarossa Fast what-ifs at once: the nearer map and the extra panzerkorps (do they add up?)."""
    _fast_map_nearer(folder)
    _fast_more_panzers(folder)


WHAT_IFS = {"spi-supply": ("spi-barbarossa/barbarossa-1941", _spi_supply),
            "spi-soviet-supply-1944": ("spi-barbarossa/berlin-1944", _spi_soviet_supply_1944),
            "fast-map-nearer": ("barbarossa-fast/june-1941", _fast_map_nearer),
            "fast-moscow-nearer": ("barbarossa-fast/june-1941", _fast_moscow_nearer),
            "fast-more-panzers": ("barbarossa-fast/june-1941", _fast_more_panzers),
            "fast-both": ("barbarossa-fast/june-1941", _fast_both)}
# fast-kiev-pincer (a Gomel-Poltava link) was measured here and is part of the map since 2026-11-27, fast-azov-coast
# (a Dnepropetrovsk-Rostov link) since 2026-11-28; fast-rostov-nearer (Stalino merged into Dnepropetrovsk) shortened
# the road to Rostov as the coast road now does, and on the map with it shortens nothing
# the other reading of a rule, played as the ruleset's option (docs/rules/barbarossa-fast.md, Interpretations 13)
OPTION_WHAT_IFS = {"fast-one-link-a-turn": ("barbarossa-fast/june-1941", ("one-link-a-turn",))}


def what_if(name: str, games: int, levels: tuple[str, ...] = ()) -> str:
    """The scenario with one table changed, against the same games on the scenario as it is: bot against bot, or
    with LEVELs as `pbem selfplay --level` (e.g. soviet=random)."""
    import shutil
    import tempfile

    from pbem import batch
    from pbem.core.scenario import find_scenario

    scen, change = {**WHAT_IFS, **OPTION_WHAT_IFS}[name]
    original = find_scenario(scen)
    tmp = Path(tempfile.mkdtemp())
    folder = tmp / original.path.parent.name
    shutil.copytree(original.path.parent, folder)
    options: tuple[str, ...] = ()
    changed = str(folder / original.path.name)
    if isinstance(change, tuple):  # a rule option instead of a changed table: the same scenario, started with it
        options, changed = change, scen
    else:
        change(folder)
    out = []
    for label, ref, opts in (("as reconstructed", scen, ()), (name, changed, options)):
        matches = [Match(ref, f"whatif-{i}", levels, opts) for i in range(games)]
        results = batch.run_parallel(play, matches, os.cpu_count() or 1, lambda r: None)
        ok = [r for r in results if r["ok"]]
        wins = Counter(str(r.get("winner") or "draw") for r in ok)
        took = {c: sum(1 for r in ok if r["fell"].get(c, "9999") <= AUTUMN_1941) for c in KEY_CITIES}
        fights = statistics.median(sum(r["attacks"].values()) for r in ok) if ok else 0
        pts = sorted(r["points"] for r in ok if r.get("points") is not None) or [0]
        points = f"{statistics.median(pts):g} ({pts[0]}-{pts[-1]})"
        out.append(f"| {label} | {', '.join(f'{k} {v}' for k, v in sorted(wins.items()))} | "
                   f"{', '.join(f'{c} {n}/{len(ok)}' for c, n in took.items())} | {fights:g} | {points} | "
                   f"{len(results) - len(ok)} |")
    shutil.rmtree(tmp)
    return "\n".join(["| scenario | winners | key cities by Nov 1941 | Axis combats a game (median) | "
                      "Axis city points at the end (median, range) | failed |", "|---|---|---|---|---|---|"] + out)


def main() -> dict[str, dict[str, float]]:
    alone = __name__ == "__main__"
    games = int(sys.argv[1]) if len(sys.argv) > 1 and alone else GAMES
    random_games = int(sys.argv[2]) if len(sys.argv) > 2 and alone else RANDOM_GAMES
    t0 = time.perf_counter()
    results = run(games, random_games=random_games)
    text, times = report(results)
    if not ONLY:
        write_doc(text, games, random_games, time.perf_counter() - t0)
    print(text)
    return times


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--what-if":
        print(what_if(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else GAMES, tuple(sys.argv[4:])))
    else:
        main()
