"""Build setup-1941.yaml, the historical deployment, from the map and the order of battle.

Run from the repo root: `python scenarios/spi-barbarossa/tools/build_setup.py`. Deterministic.
The printed game's set-up hexes are not in our copy, so units are placed by rule and history:
each side first covers its whole front (Initial Deployment) with the fewest units, north to
south, then panzer groups go opposite their historical objectives and second-line units sit on
or beside the western cities. The result is checked with pbem's own setup rules before writing.
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from pbem.core.scenario import find_scenario  # noqa: E402
from pbem.core.state import DiceState  # noqa: E402
from pbem.rulesets.spi_barbarossa import data as spidata  # noqa: E402
from pbem.rulesets.spi_barbarossa.common import stack_limit, stack_points  # noqa: E402
from pbem.rulesets.spi_barbarossa.position import Position  # noqa: E402
from pbem.rulesets.spi_barbarossa.ruleset import SpiBarbarossa  # noqa: E402
from pbem.rulesets.spi_barbarossa.setup import covered, deploy_countries, front_hexes  # noqa: E402

# Where each panzer group and army stood on 22 June 1941, as the map city nearest its sector.
AXIS_ANCHORS = {
    "pzgr4": "Kaunas", "pzgr3": "Vilnius", "pzgr2": "Brest", "pzgr1": "Lvov", "pzgr-extra": "Brest",
    "a18": "Riga", "a16": "Kaunas", "a9": "Vilnius", "a4": "Brest", "a6": "Lvov", "a17": "Lvov", "a11": "Iasi",
    "a-west": "Brest",
    "sup-north": "Kaunas", "sup-centre": "Brest", "sup-south": "Lvov", "lf1": "Kaunas", "lf2": "Brest", "lf4": "Lvov",
    "lf5": "Vilnius",
}
# Mechanized corps close behind the border on 22 June 1941 (14th at Kobryn by Brest, 4th and 8th around
# Lvov, 3rd by Vilnius): two hexes from the nearest Axis hex, alone in their hex.
SOVIET_FORWARD_ARMOR = {"st02": "Lvov", "st03": "Lvov", "sm05": "Vilnius"}
# The 14th Mechanized Corps stood at Kobryn, right behind Brest: on the border (where no river covers it),
# in its own hex.
SOVIET_BORDER_ARMOR = {"st01": "Brest"}
SOVIET_SECOND_LINE = ["Riga", "Kaunas", "Vilnius", "Minsk", "Brest", "Lvov", "Kiev", "Odessa", "Zhitomir", "Vinnitsa",
                      "Tallinn", "Pskov", "Smolensk", "Vitebsk", "Mogilev", "Gomel", "Leningrad", "Kherson"]


def main() -> None:
    scen = find_scenario(str(ROOT / "scenarios/spi-barbarossa/barbarossa-1941.scenario.yaml"))
    d = spidata.load(scen)
    state = SpiBarbarossa().new_game(scen, game_id="setup-builder", dice=DiceState("seed", seed="x"),
                                     options=("smaller-france-garrison", "extra-luftwaffe", "more-panzers"), setup=None)
    pos = Position(d, state)
    board = pos.board
    placements: dict[str, dict[str, str]] = {"soviet": {}, "axis": {}}

    def room(h: int, side: str, u) -> bool:
        here = [x for x in pos.at(h) if x.side == side]
        return sum(map(stack_points, here + [u])) <= stack_limit(d, side)

    def put(u, h: int) -> None:
        pos.place(u, h)
        placements[u.side][u.id] = board.ids[h]

    def land(h: int) -> bool:
        return d.terrain_of[h] not in ("sea", "lake")

    def cover(side: str, units: list, front: list[int], allowed) -> None:
        """Greedy set cover of the front, north to south, keeping each unit in its allowed countries."""
        for f in sorted(front, key=lambda h: (board.ids[h][2:], board.ids[h])):
            if covered(pos, f, side) or not units:
                continue
            u = units[0]
            cands = [f] + [n for n in board.neighbours(f) if land(n) and allowed(u, n)]
            cands = [c for c in cands if allowed(u, c) and room(c, side, u)]
            if not cands:
                continue
            def gain(c: int) -> tuple:
                zone = {c} | set(board.neighbours(c))
                return (-sum(1 for g in front if g in zone and not covered(pos, g, side)), c in front, board.ids[c])
            put(units.pop(0), min(cands, key=gain))

    def near(city: str, side: str, u, allowed, avoid_front: bool = False) -> int:
        target = d.city_hex[city]
        hexes = [h for h in range(len(board)) if land(h) and allowed(u, h) and room(h, side, u)
                 and not pos.enemy_occupied(h, side)]
        return min(hexes, key=lambda h: (board.distance(h, target), board.ids[h]))

    # Soviets: infantry covers the front, then everything else on or beside the western cities.
    sov_allowed = lambda u, h: d.country[h] == "ussr"  # noqa: E731
    sov = sorted((u for u in pos.units.values() if u.side == "soviet" and u.flags.get("setup")), key=lambda u: u.id)
    infantry = [u for u in sov if u.ct.infantry]
    cover("soviet", infantry, front_hexes(pos, "soviet", state.options), sov_allowed)
    for i, u in enumerate(infantry):
        put(u, near(SOVIET_SECOND_LINE[i % len(SOVIET_SECOND_LINE)], "soviet", u, sov_allowed))
    # Mechanized and tank corps stood in depth behind the border districts, apart from the rifle armies.
    empty = lambda u, h: sov_allowed(u, h) and not pos.at(h) and all(  # noqa: E731
        not pos.at(n) for n in board.neighbours(h))
    axis_hexes = [h for h in range(len(board)) if d.country[h] not in ("ussr", None) and land(h)]
    def forward(u, h: int) -> bool:
        return empty(u, h) and min(board.distance(h, a) for a in axis_hexes) == 2
    sov_front = set(front_hexes(pos, "soviet", state.options))
    for uid, city in SOVIET_BORDER_ARMOR.items():
        if uid in pos.units:
            def dry_border(u, h: int) -> bool:  # a border hex reachable from the Axis side without a river
                return h in sov_front and not pos.at(h) and any(
                    d.country[n] in ("germany", "poland") and (min(h, n), max(h, n)) not in d.river_pairs
                    for n in board.neighbours(h))
            put(pos.units[uid], near(city, "soviet", pos.units[uid], dry_border))
    for uid, city in SOVIET_FORWARD_ARMOR.items():
        if uid in pos.units:
            put(pos.units[uid], near(city, "soviet", pos.units[uid], forward))
    for i, u in enumerate(u for u in sov if not u.ct.infantry and u.ct.cls != "supply" and u.id not in placements["soviet"]):
        put(u, near(SOVIET_SECOND_LINE[i % len(SOVIET_SECOND_LINE)], "soviet", u, empty))
    for i, u in enumerate(u for u in sov if u.ct.cls == "supply"):
        put(u, near(["Minsk", "Kiev", "Leningrad", "Moscow"][i % 4], "soviet", u, sov_allowed))

    # Axis: Finns cover Finland's front; panzer groups and armies at their sectors; the rest fills gaps.
    countries = deploy_countries(pos, "axis", state.options) | {"finland"}
    def ax_allowed(u, h: int) -> bool:
        c = d.country[h]
        return c in countries and ((c == "finland") == (u.ct.nation == "finnish"))
    axis = sorted((u for u in pos.units.values() if u.side == "axis" and u.flags.get("setup")), key=lambda u: u.id)
    finns = [u for u in axis if u.ct.nation == "finnish"]
    fin_front = [h for h in front_hexes(pos, "axis", state.options) if d.country[h] == "finland"]
    cover("axis", finns, fin_front, ax_allowed)
    for u in finns:
        put(u, near("Helsinki", "axis", u, ax_allowed))
    front = [h for h in front_hexes(pos, "axis", state.options) if d.country[h] != "finland"]
    for uid, city in AXIS_ANCHORS.items():
        u = pos.units.get(uid)
        if u is None or uid in placements["axis"]:
            continue
        on_front = lambda uu, h: ax_allowed(uu, h) and (h in front or u.ct.support)  # noqa: E731
        put(u, near(city, "axis", u, on_front))
    # German units cover the front first, Rumanians last, so that What-if 2 (no Rumanian armies) still
    # leaves a covered front with the same deployment.
    others = sorted((u for u in axis if u.id not in placements["axis"]), key=lambda u: (u.ct.nation == "rumanian", u.id))
    cover("axis", others, front, ax_allowed)
    for u in others:  # what the front did not need: Rumanians behind the Prut, Germans at Warsaw
        put(u, near("Iasi" if u.ct.nation == "rumanian" else "Warsaw", "axis", u, ax_allowed))

    variants = {"hungary-at-war": {"axis": hungary_variant(scen, d, placements["axis"])}}
    doc = {"format": "pbem/table@1", "table": "setup", "ruleset": "spi-barbarossa",
           "source": {"reconstructed": (
               "Historical deployment of 22 June 1941 rebuilt by scenarios/spi-barbarossa/tools/build_setup.py: "
               "each side's front covered as Initial Deployment requires (Soviet with infantry), panzer groups and "
               "armies in their historical sectors (named by the nearest map city), Finns in Finland; not the "
               "printed set-up. Units of options appear only when the option is chosen.")},
           "sides": {s: dict(sorted(placements[s].items())) for s in ("soviet", "axis")},
           "variants": variants}
    out = ROOT / "scenarios/spi-barbarossa/setup-1941.yaml"
    out.write_text(yaml.safe_dump(doc, sort_keys=False, width=110))
    for opts in [(), ("smaller-france-garrison", "extra-luftwaffe", "more-panzers"), ("finland-neutral",),
                 ("rumania-neutral",), ("hungary-at-war",), ("hungary-at-war", "more-panzers", "rumania-neutral")]:
        SpiBarbarossa().new_game(find_scenario(str(ROOT / "scenarios/spi-barbarossa/barbarossa-1941.scenario.yaml")),
                                 game_id="check", dice=DiceState("seed", seed="x"), options=opts, setup="historical")
    print(f"wrote {out}: {len(placements['soviet'])} Soviet and {len(placements['axis'])} Axis units; setup checks pass")


def hungary_variant(scen, d, base: dict[str, str]) -> dict[str, str]:
    """What-if 3: the Hungarian army and, where it cannot cover the whole Hungarian front alone, German
    units the rest of the front can spare, move into Hungary. Worked out without the Rumanians, so that
    the variant also holds with What-if 2."""
    state = SpiBarbarossa().new_game(scen, game_id="setup-builder", dice=DiceState("seed", seed="x"),
                                     options=("hungary-at-war", "rumania-neutral"), setup=None)
    pos = Position(d, state)
    board = pos.board
    for uid, h in base.items():
        if uid in pos.units:
            pos.place(pos.units[uid], board.index(h))
    front = front_hexes(pos, "axis", ("hungary-at-war",))
    hungarian = sorted((h for h in front if d.country[h] == "hungary"), key=lambda h: board.ids[h])
    moved: dict[str, str] = {}

    def best_hex(u) -> int | None:
        cands = [h for h in range(len(board)) if d.country[h] == "hungary" and d.terrain_of[h] not in ("sea", "lake")
                 and sum(stack_points(x) for x in pos.at(h)) + stack_points(u) <= stack_limit(d, "axis")]
        if not cands:
            return None
        gain = lambda h: sum(1 for f in hungarian if not covered(pos, f, "axis")  # noqa: E731
                             and (f == h or f in board.neighbours(h)))
        return max(cands, key=lambda h: (gain(h), -min(board.distance(h, f) for f in hungarian), board.ids[h]))

    movable = ["hu1"] + sorted((u.id for u in pos.active_units("axis") if u.ct.nation == "german" and not u.ct.support),
                               key=lambda uid: (not uid.startswith("k-"), uid))
    for uid in movable:
        if all(covered(pos, f, "axis") for f in hungarian):
            break
        u = pos.units[uid]
        home = u.loc
        if home is not None:  # a German unit may go only if the rest of the front stays covered without it
            pos.remove(u, status="pending")
            if not all(covered(pos, f, "axis") for f in front if d.country[f] != "hungary"):
                pos.place(u, home)
                continue
        h = best_hex(u)
        if h is None:
            if home is not None:
                pos.place(u, home)
            continue
        pos.place(u, h)
        moved[uid] = board.ids[h]
    return dict(sorted(moved.items()))


if __name__ == "__main__":
    main()
