"""Build setup-1942.yaml, setup-1943.yaml and setup-1944.yaml: the later standard games' historical deployments.

Run from the repo root: `python scenarios/spi-barbarossa/tools/build_setup_later.py`. Deterministic.
The printed set-ups are not in our copy, so units are placed by rule and history, as build_setup.py does for
1941: each side first covers its whole front (Initial Deployment: the Soviets with infantry) with the fewest
units, north to south (the Soviets first garrison the front cities they held, `soviet_garrison`), the armies of
the historical schwerpunkte go opposite their objectives (named by the nearest map city), and the rest stand
behind the front at the cities of each sector. Units a what-if adds or
takes away never cover the front, so every option leaves it covered; they are placed under `variants`. The
result is checked with pbem's own set-up rules for every option before it is written.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import yaml

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from pbem.core.scenario import find_scenario  # noqa: E402
from pbem.core.state import DiceState  # noqa: E402
from pbem.rulesets.spi_barbarossa import data as spidata  # noqa: E402
from pbem.rulesets.spi_barbarossa.common import stack_limit, stack_points  # noqa: E402
from pbem.rulesets.spi_barbarossa.fronts import line_finland, line_sides  # noqa: E402
from pbem.rulesets.spi_barbarossa.position import Position  # noqa: E402
from pbem.rulesets.spi_barbarossa.ruleset import SpiBarbarossa  # noqa: E402
from pbem.rulesets.spi_barbarossa.setup import covered, front_hexes  # noqa: E402

HERE = ROOT / "scenarios/spi-barbarossa"

# Per game: the scenario, its options (each placed as a variant), where the armies of the main effort stood
# (on the front, opposite the named city), where the supply and air units and the reserves stood, and the cities
# behind each side's front where the units the front does not need wait, in turn.
GAMES: dict[str, dict[str, Any]] = {
    "1942": {
        "scenario": "stalingrad-1942", "options": ["mobile-defense-1941"],
        # Operation Blue: 4th Panzer and 2nd Army toward Voronezh, 6th Army and 1st Panzer toward the Don bend
        # and Rostov, 17th Army on the Mius, 11th Army at Sevastopol, 9th Army at Rzhev, 3rd Panzer by Bryansk.
        "axis_front": {"pzgr4": "Kursk", "a2": "Kursk", "a6": "Kharkov", "pzgr1": "Stalino", "a17": "Taganrog",
                       "a11": "Sevastopol", "a9": "Kalinin", "a16": "Novgorod", "a18": "Leningrad", "pzgr3": "Bryansk",
                       "pzgr2": "Orel", "a4": "Smolensk", "hu2": "Kursk", "ro-k1": "Kerch"},
        "axis_rear": ["Kharkov", "Stalino", "Smolensk", "Pskov", "Dnepropetrovsk", "Kiev", "Minsk"],
        "axis_support": {"sup-1": "Kharkov", "sup-2": "Stalino", "sup-3": "Kursk", "sup-4": "Sevastopol",
                         "lf4": "Kharkov", "lf1": "Novgorod"},
        "variants": {"mobile-defense-1941": {"a-winter": "Kharkov"}},
        # Soviet supply: one in besieged Leningrad (its only source of general supply), the others at the fronts.
        "soviet_support": {"ss01": "Leningrad", "ss02": "Voronezh", "ss03": "Moscow"},
        "soviet_armour": ["Voronezh", "Moscow", "Rostov", "Tula", "Kalinin", "Stalingrad"],
        "soviet_rear": ["Moscow", "Voronezh", "Rostov", "Tula", "Kalinin", "Stalingrad", "Yaroslavl", "Gorky",
                        "Krasnodar", "Voroshilovgrad"],
    },
    "1943": {
        "scenario": "zitadelle-1943", "options": ["first-panzer-trapped", "sixth-army-withdrew"],
        # Citadel: 9th Army north of Kursk, 4th Panzer and Kempf south of it; 2nd Panzer in the Orel salient.
        "axis_front": {"a9": "Orel", "pzgr4": "Kharkov", "a8": "Kharkov", "pzgr2": "Orel", "a2": "Kursk", "a4": "Smolensk",
                       "pzgr3": "Vitebsk", "a16": "Novgorod", "a18": "Leningrad", "a6": "Taganrog", "a17": "Kerch"},
        "axis_rear": ["Kharkov", "Orel", "Stalino", "Smolensk", "Dnepropetrovsk", "Kiev", "Pskov"],
        "axis_support": {"sup-1": "Orel", "sup-2": "Kharkov", "sup-3": "Stalino", "sup-4": "Smolensk", "lf4": "Kharkov"},
        "variants": {"first-panzer-trapped": {}, "sixth-army-withdrew": {"a6-out": "Stalino"}},
        "reserve": {"pzgr1": "Stalino"},  # the unit What-if 13 takes away stands in reserve, off the front
        # The Leningrad Front's armies held the city through the siege (eased January 1943, lifted January 1944).
        # The cover alone left it empty next to three Axis units, and the Axis walked in on the first move of every
        # game (docs/selfplay.md, 2026-11-27); the line (fronts.yaml) still rings it, so, as in 1942, a supply unit
        # there is its garrison's general supply (SUPPLY: a Soviet unit traces to the east edge or a supply unit)
        "soviet_support": {"ss01": "Kursk", "ss02": "Voronezh", "ss03": "Moscow", "ss04": "Leningrad"},
        "soviet_garrison": ["Leningrad"],
        "soviet_armour": ["Kursk", "Voronezh", "Kursk", "Tula", "Voroshilovgrad", "Moscow"],
        "soviet_rear": ["Kursk", "Voronezh", "Moscow", "Tula", "Kalinin", "Rostov", "Voroshilovgrad", "Leningrad",
                        "Kalinin", "Yaroslavl"],
    },
    "1944": {
        "scenario": "berlin-1944", "options": ["bulge-forces-east"],
        "axis_front": {"pzgr3": "Vitebsk", "a4": "Mogilev", "a9": "Mogilev", "a2": "Brest", "pzgr4": "Lvov", "pzgr1": "Lvov",
                       "a16": "Riga", "a18": "Pskov", "a8": "Iasi", "a6": "Odessa", "hu1": "Lvov", "ro3": "Odessa", "ro4": "Iasi"},
        "axis_rear": ["Minsk", "Lvov", "Riga", "Vilnius", "Brest", "Iasi", "Kaunas"],
        "axis_support": {"sup-1": "Minsk", "sup-2": "Lvov", "sup-3": "Riga", "sup-4": "Iasi"},
        "variants": {"bulge-forces-east": {"pz5": "Minsk", "pz6": "Lvov", "a-bulge": "Brest"}},
        "soviet_support": {"ss01": "Smolensk", "ss02": "Kiev", "ss03": "Gomel", "ss04": "Vinnitsa"},
        "soviet_armour": ["Smolensk", "Gomel", "Kiev", "Vinnitsa", "Zhitomir", "Odessa", "Pskov"],
        "soviet_rear": ["Smolensk", "Gomel", "Kiev", "Vinnitsa", "Zhitomir", "Pskov", "Novgorod", "Odessa", "Bryansk",
                        "Leningrad"],
    },
}


def build(year: str, cfg: dict[str, Any]) -> dict[str, Any]:
    scen = find_scenario(str(HERE / f"{cfg['scenario']}.scenario.yaml"))
    d = spidata.load(scen)
    line = d.settings["front"]
    sides, finland = line_sides(d, line), line_finland(d, line)
    state = SpiBarbarossa().new_game(scen, game_id="setup-builder", dice=DiceState("seed", seed="x"), options=(),
                                     setup=None)
    pos = Position(d, state)
    board = pos.board
    optional = {uid for v in cfg["variants"].values() for uid in v} | set(cfg.get("reserve", {}))
    placements: dict[str, dict[str, str]] = {"soviet": {}, "axis": {}}

    def room(h: int, side: str, u) -> bool:
        here = [x for x in pos.at(h) if x.side == side]
        return sum(map(stack_points, here + [u])) <= stack_limit(d, side, state.date)

    def put(u, h: int) -> None:
        pos.place(u, h)
        placements[u.side][u.id] = board.ids[h]

    def allowed_for(u) -> Callable[[int], bool]:
        if u.side == "soviet":
            return lambda h: sides[h] == "soviet"
        return lambda h: sides[h] == "axis" and ((h in finland) == (u.ct.nation == "finnish"))

    def near(city: str, u, ok: Callable[[int], bool]) -> int:
        target = d.city_hex[city]
        hexes = [h for h in range(len(board)) if ok(h) and allowed_for(u)(h) and room(h, u.side, u)]
        return min(hexes, key=lambda h: (board.distance(h, target), board.ids[h]))

    def cover(side: str, units: list, front: list[int]) -> None:
        """Greedy cover of the front, north to south: each unit where it covers the most uncovered front hexes."""
        for f in sorted(front, key=lambda h: (board.ids[h][2:], board.ids[h])):
            if covered(pos, f, side) or not units:
                continue
            u = units[0]
            ok = allowed_for(u)
            cands = [c for c in [f] + list(board.neighbours(f)) if ok(c) and room(c, side, u)
                     and d.terrain_of[c] not in ("sea", "lake")]
            if not cands:
                continue

            def gain(c: int) -> tuple:
                zone = {c} | {n for n in board.neighbours(c) if (min(c, n), max(c, n)) not in d.strait_pairs}
                return (-sum(1 for g in front if g in zone and not covered(pos, g, side)), c not in front, board.ids[c])
            put(units.pop(0), min(cands, key=gain))

    anywhere = lambda h: True  # noqa: E731
    # Soviets: supply units first (Leningrad's), then infantry covers the front, then the armour and the rest.
    sov = sorted((u for u in pos.units.values() if u.side == "soviet" and u.flags.get("setup")), key=lambda u: u.id)
    for uid, city in cfg["soviet_support"].items():
        put(pos.units[uid], near(city, pos.units[uid], anywhere))
    sov_front = front_hexes(pos, "soviet", state.options)
    infantry = [u for u in sov if u.ct.infantry]
    for city in cfg.get("soviet_garrison", ()):  # a front city history held, which the cover would leave empty
        put(infantry.pop(0), d.city_hex[city])
    cover("soviet", infantry, sov_front)
    for i, u in enumerate(infantry):
        put(u, near(cfg["soviet_rear"][i % len(cfg["soviet_rear"])], u, lambda h: h not in sov_front))
    armour = [u for u in sov if not u.ct.infantry and not u.ct.support]
    for i, u in enumerate(armour):
        put(u, near(cfg["soviet_armour"][i % len(cfg["soviet_armour"])], u, lambda h: h not in sov_front))
    for u in sov:
        if u.id not in placements["soviet"]:
            put(u, near(cfg["soviet_rear"][0], u, anywhere))

    # Axis: the Finns cover their front; the main-effort armies stand on the front opposite their objectives;
    # the rest (Germans first, allies last) cover what is left; what-if units and reserves go behind the front.
    axis = sorted((u for u in pos.units.values() if u.side == "axis" and u.flags.get("setup") and u.id not in optional),
                  key=lambda u: u.id)
    ax_front = front_hexes(pos, "axis", state.options)
    finns = [u for u in axis if u.ct.nation == "finnish"]
    cover("axis", finns, [h for h in ax_front if h in finland])
    for u in finns:
        put(u, near("Helsinki", u, anywhere))
    for uid, city in cfg["axis_front"].items():
        u = pos.units[uid]
        put(u, near(city, u, lambda h: h in ax_front))
    for uid, city in cfg["axis_support"].items():
        u = pos.units[uid]
        put(u, near(city, u, anywhere))
    others = sorted((u for u in axis if u.id not in placements["axis"]),
                    key=lambda u: (u.ct.support, u.ct.nation != "german", u.id))
    cover("axis", [u for u in others if not u.ct.support], [h for h in ax_front if h not in finland])
    rest = [u for u in others if u.id not in placements["axis"]]
    for i, u in enumerate(rest):
        put(u, near(cfg["axis_rear"][i % len(cfg["axis_rear"])], u, lambda h: h not in ax_front))
    for uid, city in cfg.get("reserve", {}).items():
        u = pos.units[uid]
        put(u, near(city, u, lambda h: h not in ax_front))
    variants: dict[str, dict[str, dict[str, str]]] = {}
    for option, units in cfg["variants"].items():
        placed = {}
        for uid, city in units.items():
            if uid not in pos.units:
                pos.units[uid] = _unit_of(scen, option, uid)
            u = pos.units[uid]
            h = near(city, u, lambda h: h not in ax_front)
            pos.place(u, h)
            placed[uid] = board.ids[h]
        if placed:
            variants[option] = {"axis": placed}
    return {"format": "pbem/table@1", "table": "setup", "ruleset": "spi-barbarossa",
            "source": {"reconstructed": (
                f"Historical deployment of the {cfg['scenario']} start rebuilt by "
                "scenarios/spi-barbarossa/tools/build_setup_later.py: each side's front (the game's line in fronts.yaml) "
                "covered as Initial Deployment requires (Soviet with infantry), the armies of the main effort opposite "
                "their historical objectives (named by the nearest map city), Finns on the Finnish-held front, the rest "
                "behind the front; not the printed set-up. Units of options appear only when the option is chosen.")},
            "sides": {s: dict(sorted(placements[s].items())) for s in ("soviet", "axis")}, "variants": variants}


def _unit_of(scen, option: str, uid: str):
    """A what-if unit, from a game started with its option."""
    state = SpiBarbarossa().new_game(scen, game_id="setup-builder", dice=DiceState("seed", seed="x"), options=(option,),
                                     setup=None)
    return Position(spidata.load(scen), state).units[uid]


def check(cfg: dict[str, Any]) -> None:
    scen = find_scenario(str(HERE / f"{cfg['scenario']}.scenario.yaml"))
    options = cfg["options"]
    for opts in [()] + [(o,) for o in options] + ([tuple(options)] if len(options) > 1 else []):
        SpiBarbarossa().new_game(scen, game_id="check", dice=DiceState("seed", seed="x"), options=opts, setup="historical")


def main() -> None:
    for year, cfg in GAMES.items():
        doc = build(year, cfg)
        out = HERE / f"setup-{year}.yaml"
        out.write_text(yaml.safe_dump(doc, sort_keys=False, width=110))
        check(cfg)
        print(f"wrote {out}: {len(doc['sides']['soviet'])} Soviet and {len(doc['sides']['axis'])} Axis units; setup checks pass")


if __name__ == "__main__":
    main()
