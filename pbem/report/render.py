"""Render the events of one step. Text stays within 78 columns so it reads well in any mail client."""
from __future__ import annotations

import json
import textwrap
from itertools import groupby
from typing import Any, Mapping, Sequence

WIDTH = 78
COMBAT_HEADERS = ["#", "Hex", "Attackers", "Defenders", "A:D", "Terrain", "Odds", "CRT", "Die", "Result"]
COMBAT_WIDTHS = [2, 8, 11, 10, 5, 7, 5, 3, 3, 6]  # with two-space gaps: at most 78 columns


TABLE_FIELDS = ("number", "hex_label", "attackers", "defenders", "attack", "defense", "terrain", "odds", "crt", "result")


def _tabular(e: Mapping[str, Any]) -> bool:
    """A combat event with the CRT-table fields (SPI Barbarossa's); other rulesets' combats print as text."""
    return e["kind"] == "combat" and all(k in e.get("data", {}) for k in TABLE_FIELDS)


def _combat_rows(events: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    rows = []
    for e in events:
        d = e.get("data", {})
        attackers = ", ".join(d["attackers"]) + (f", air {', '.join(d['air'])}" if d.get("air") else "")
        terrain = d["terrain"] + ("; " + "; ".join(d["modifiers"]) if d.get("modifiers") else "")
        rows.append([d["number"], d["hex_label"], attackers, ", ".join(d["defenders"]), f"{d['attack']}:{d['defense']}",
                     terrain, d["odds"], d["crt"], d["roll"] if d.get("roll") else "-", d["result"]])
    return rows


def _table(rows: list[list[Any]], fmt: str, widths: list[int] | None) -> str:
    import tabulate as tb

    padding, tb.MIN_PADDING = tb.MIN_PADDING, 0  # headers get no extra padding: keeps the email width
    try:
        return tb.tabulate(rows, headers=COMBAT_HEADERS, tablefmt=fmt, maxcolwidths=widths, disable_numparse=True)
    finally:
        tb.MIN_PADDING = padding


def _wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, WIDTH, initial_indent=indent + "- ", subsequent_indent=indent + "  ")


def _header(state: Mapping[str, Any], title: str) -> list[tuple[str, str]]:
    aw = state["awaiting"]
    who = aw["side"] or "both sides"  # no single side: a simultaneous step
    nxt = "nothing: the game is over" if aw["kind"] == "none" else f"{who} {aw['kind']} ({aw.get('phase', '')})"
    extras = state.get("extras", {})
    weather = f", weather {extras['weather']}" if "weather" in extras else ""
    return [
        ("Game", f"{state['game']} ({state['ruleset']}, {state['scenario']['id']})"),
        ("Step", f"{state['step'] - 1} -> {state['step']}" if state["step"] else "0 (new game)"),
        ("Date", f"{state['date']}, game-turn {state['turn']}{weather}"),
        ("Next", nxt),
        ("Dice", state["dice"]["mode"]),
        ("Previous", state.get("previous") or "-"),
        ("Orders", ", ".join(state.get("made_by", [])) or "-"),
    ]


def render_text(state: Mapping[str, Any], state_hash: str) -> str:
    log = state.get("log", {})
    events = log.get("events", [])
    out = [f"pbem turn report: {state['game']}".center(WIDTH).rstrip(), "=" * WIDTH]
    for k, v in _header(state, "") + [("State", state_hash)]:
        out.append(textwrap.fill(v, WIDTH, initial_indent=f"{k + ':':<10}", subsequent_indent=" " * 10,
                                 break_on_hyphens=False))
    for phase, group in groupby(events, key=lambda e: e["phase"]):
        group = list(group)
        out += ["", phase, "-" * min(WIDTH, len(phase))]
        combats = [e for e in group if _tabular(e)]
        if combats:
            table = _table(_combat_rows(combats), "simple", COMBAT_WIDTHS)
            out += [table, ""]
            for e in combats:
                d = e["data"]
                line = (f"attack {d['number']} (order {d['order']}): CRT {d['crt']} ({d['crt_reason']})"
                        + (f", roll {d['label']}" if d.get("label") else ", no roll (below the table)")
                        + f", supply {d['supply'] or '-'}: " + ("; ".join(d["consequences"]) or "no effect"))
                out.append(_wrap(line))
        out += [_wrap(e["text"]) for e in group if not _tabular(e)]
    voided = log.get("voided", [])
    if voided:
        out += ["", "Orders voided by the referee (--void-illegal)", "-" * 45]
        out += [_wrap(f"order {v.get('order', -1) + 1}: {v['code']} [{v['rule']}] {v['message']}") for v in voided]
    rolls = log.get("rolls", [])
    if rolls:
        out += ["", "Dice (anyone can re-derive them with `pbem verify`)", "-" * 51]
        out += [_wrap(f"{r['label']}: d{r['sides']} = {r['face']} ({r.get('purpose', '')})") for r in rolls]
    if state.get("result"):
        res = state["result"]
        text = res.get("text") or f"{res.get('level')}: the Axis holds {res.get('axis_points')} victory points"
        out += ["", "Result", "------", _wrap(text)]
    return "\n".join(line.rstrip() for line in out) + "\n"


def render_markdown(state: Mapping[str, Any], state_hash: str, picture: str | None = None) -> str:
    """`picture`: the map's file, linked below the header (relative to the report, docs/maps.md)."""
    log = state.get("log", {})
    out = [f"# pbem turn report: {state['game']}", ""]
    out += [f"- **{k}:** {v}" for k, v in _header(state, "") + [("State", f"`{state_hash}`")]]
    if picture:
        out += ["", f"![Map of step {state['step']}](<{picture}>)"]
    for phase, group in groupby(log.get("events", []), key=lambda e: e["phase"]):
        group = list(group)
        out += ["", f"## {phase}", ""]
        out += [f"- {e['text']}" for e in group if not _tabular(e)]
        combats = [e for e in group if _tabular(e)]
        if combats:
            out += ["", _table(_combat_rows(combats), "github", None), ""]
            out += [f"- attack {e['data']['number']}: " + ("; ".join(e["data"]["consequences"]) or "no effect") for e in combats]
    if log.get("voided"):
        out += ["", "## Orders voided", ""] + [f"- `{v['code']}` [{v['rule']}] {v['message']}" for v in log["voided"]]
    if log.get("rolls"):
        out += ["", "## Dice", ""] + [f"- `{r['label']}`: d{r['sides']} = **{r['face']}** ({r.get('purpose', '')})"
                                     for r in log["rolls"]]
    if state.get("result"):
        res = state["result"]
        out += ["", "## Result", "", f"**{res.get('level')}** ({res.get('text') or str(res.get('axis_points')) + ' points'})"]
    return "\n".join(out) + "\n"


def render_json(state: Mapping[str, Any], state_hash: str) -> str:
    log = state.get("log", {})
    body = {"game": state["game"], "step": state["step"], "date": state["date"], "state_hash": state_hash,
            "previous": state.get("previous"), "awaiting": state["awaiting"], "events": log.get("events", []),
            "rolls": log.get("rolls", []), "voided": log.get("voided", []), "result": state.get("result")}
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def render(state: Mapping[str, Any], state_hash: str, fmt: str = "text", picture: str | None = None) -> str:
    """The report in `fmt` (text, md, json, html: a fragment; pbem.view.page makes the page with the map)."""
    if fmt == "md":
        return render_markdown(state, state_hash, picture)
    if fmt == "html":
        from .html import render_html

        return render_html(state, state_hash)
    return {"text": render_text, "json": render_json}[fmt](state, state_hash)
