"""The self-play summary page (`pbem selfplay ... --summary FILE.html`): who won, with 95% Wilson intervals, the
distribution of victory margins, and for the games with victory cities the game-turn each fell against the day it
fell in 1941-42. One self-contained HTML file (pictures inline as data: URIs; no script, font or style from
anywhere else), and the same games give the same bytes: the page holds no time, no timing and no random id.

The plots are drawn by matplotlib (the `charts` extra): SVG with text as glyph outlines of its bundled DejaVu Sans
(the page looks the same whatever fonts the reader has), a fixed id salt and no date. docs/selfplay.md says why
matplotlib rather than Vega-Lite.
"""
from __future__ import annotations

import base64
import html
import io
import math
from collections import Counter
from datetime import date
from statistics import median
from typing import Any, Iterable, Sequence

from .core.errors import UsageError

Z95 = 1.959963984540054  # the standard normal quantile of 0.975
COLORS = ["#b2182b", "#2166ac", "#8c8c8c", "#e08214", "#1b7837"]  # first side, second side, draw, failed, spare
SVG_RC = {"svg.hashsalt": "pbem-selfplay", "svg.fonttype": "path", "font.family": "DejaVu Sans", "font.size": 9,
          "axes.spines.top": False, "axes.spines.right": False}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials (95% by default): unlike the normal approximation it
    stays inside [0, 1] and is not empty at k = 0 or k = n, which six-game samples hit all the time."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def require() -> None:
    """UsageError (exit 2) before any game is played if the plotting library is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--summary needs matplotlib: pip install 'pbem[charts]'") from None


def page(results: Sequence[dict[str, Any]], command: str = "") -> str:
    """The whole page for these self-play lines (any number of scenarios, each its own section)."""
    scenarios = sorted({r["scenario"] for r in results})
    title = "Self-play: " + ", ".join(scenarios)
    body = [f"<h1>{_e(title)}</h1>"]
    if command:
        body.append(f"<p>Made by <code>{_e(command)}</code>.</p>")
    for scen in scenarios:
        body += _section(scen, [r for r in results if r["scenario"] == scen])
    import matplotlib

    body.append(f'<p class="note">pbem self-play summary; plots by matplotlib {_e(matplotlib.__version__)}. '
                "Win rates are shares of the games that finished; the intervals are 95% Wilson score intervals.</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_e(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n" + "\n".join(body)
            + "\n</body>\n</html>\n")


STYLE = ("body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;color:#222}"
         "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}"
         "td.n{text-align:right}img{max-width:100%;height:auto;display:block;margin:.5em 0}.note{color:#555}")


def _section(scen: str, games: list[dict[str, Any]]) -> list[str]:
    facts = _scenario_facts(scen, games)
    sides: list[str] = facts["sides"]
    done = [g for g in games if g.get("ok")]
    failed = [g for g in games if not g.get("ok")]
    out = [f"<section>\n<h2>{_e(scen)}</h2>",
           f"<p>{len(games)} games (seeds {_e(_seed_range(games))}); {len(done)} finished, {len(failed)} failed.</p>"]
    outcomes = [*sides, "draw"]
    counts = Counter(g.get("winner") or "draw" for g in done)
    outcomes += sorted(k for k in counts if k not in outcomes)
    rows = []
    for o in outcomes:
        lo, hi = wilson(counts[o], len(done))
        rows.append((o, counts[o], counts[o] / len(done) if done else 0.0, lo, hi))
    out.append("<h3>Who won</h3>")
    out.append(_table(["outcome", "games", "share", "95% Wilson interval"],
                      [[o, k, _pct(p), f"{_pct(lo)} to {_pct(hi)}"] for o, k, p, lo, hi in rows], numeric={1, 2}))
    if done:
        out.append(_img(_win_plot(rows, len(done)), f"win rates of {scen} with 95% Wilson intervals"))
    margins = [g for g in done if g.get("margin") is not None]
    out.append("<h3>Victory margins</h3>")
    if margins:
        out.append(f"<p>The {_e(sides[0])} side's victory count beyond (+) or short of (&minus;) what it needed to "
                   "win, by the rules' own count (docs/selfplay.md says what each game counts); 0 is just enough.</p>")
        ms = sorted(int(g["margin"]) for g in margins)
        out.append(_table(["games", "lowest", "median", "highest"],
                          [[len(ms), ms[0], _num(median(ms)), ms[-1]]], numeric={0, 1, 2, 3}))
        out.append(_img(_margin_plot(margins, outcomes), f"distribution of victory margins in {scen}"))
    else:
        out.append("<p>The rules of this game count no margin.</p>")
    if facts["places"]:
        out += _cities(scen, done, facts)
    if failed:
        out.append("<h3>Failed games</h3>\n<ul>")
        out += [f"<li><code>{_e(g.get('reproduce') or g['seed'])}</code>: {_e(str(g.get('error')))}</li>"
                for g in failed]
        out.append("</ul>")
    out.append("</section>")
    return out


def _scenario_facts(scen: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    """What the lines do not say: the ruleset's sides, its victory places with their first holders, and the first
    game-turn's date (from the scenario's first state, made as self-play makes it)."""
    from . import selfplay
    from .core import game

    first = games[0]
    state, _ = selfplay.start(selfplay.Game(scen, first["seed"], options=tuple(first.get("options") or ())))
    rs = game.ruleset_of(state)
    return {"sides": list(rs.sides), "places": rs.victory_places(state), "turn": state.turn, "date": state.date}


# --- the cities ------------------------------------------------------------------------------------------------

def _cities(scen: str, done: list[dict[str, Any]], facts: dict[str, Any]) -> list[str]:
    from .city_history import fell as history

    cal = _calendar(done, facts)
    rows = []
    for name, holder in facts["places"].items():
        known, day = history(name)
        falls = [g["fell"][name] for g in done if name in (g.get("fell") or {})]
        rows.append({"name": name, "holder": holder, "known": known, "day": day, "falls": falls,
                     "at": _turn_of(cal, day) if day else None})
    rows.sort(key=lambda r: (r["day"] is None, r["day"] or "", not r["known"], r["name"]))
    n = len(done)
    out = ["<h3>When the key cities fell</h3>",
           "<p>Each victory city, the game-turn in which it first changed hands in each game, and the day it fell in "
           "1941&ndash;45 placed on the game's calendar (between the dates of the game-turns around it). "
           "A city that fell after the games' last turn, or never, is marked at the right.</p>"]
    table = []
    for r in rows:
        turns = sorted(f["turn"] for f in r["falls"])
        hist = (r["day"] or "never") if r["known"] else "not in the history table"
        if r["at"] is not None:
            hist += f" (in turn {math.floor(r['at'])})"
        table.append([r["name"], r["holder"] or "", hist, f"{len(turns)} of {n}",
                      _num(median(turns)) if turns else "", sum(1 for f in r["falls"] if f.get("kept"))])
    out.append(_table(["city", "held at the start by", "fell in history", "fell in games", "median turn",
                       "kept to the end"], table, numeric={3, 4, 5}))
    out.append(_img(_city_plot(rows, n, cal), f"game-turn each victory city of {scen} fell, against history"))
    return out


def _calendar(done: list[dict[str, Any]], facts: dict[str, Any]) -> list[tuple[int, date]]:
    """(game-turn, its date) pairs the games saw, by turn, each date later than the one before: the first state
    (a game that opens with a set-up turn 0 plays its turn 1 on the same date), every fall and every game's last
    turn. Turns in between are placed by their number, which fits the games' regular calendars."""
    seen = {max(1, int(facts["turn"])): facts["date"]}
    for g in done:
        seen[int(g["turn"])] = g["date"]
        for f in (g.get("fell") or {}).values():
            seen[int(f["turn"])] = f["date"]
    out: list[tuple[int, date]] = []
    for t in sorted(seen):
        d = _day(seen[t])
        if not out or d > out[-1][1]:
            out.append((t, d))
    return out


def _turn_of(cal: list[tuple[int, date]], day: str) -> float | None:
    """A day as a (fractional) game-turn: linear between the calendar's dates; None after the last turn's end.
    A turn dated by its month covers that month, so 28 June 1941 is late in the June turn."""
    d = date.fromisoformat(day)
    if not cal or d < cal[0][1]:
        return float(cal[0][0]) if cal else None
    for (t0, d0), (t1, d1) in zip(cal, cal[1:]):
        if d0 <= d < d1:
            return t0 + (t1 - t0) * (d - d0).days / (d1 - d0).days
    t, last = cal[-1]
    span = (cal[-1][1] - cal[-2][1]).days / max(1, cal[-1][0] - cal[-2][0]) if len(cal) > 1 else 30
    frac = (d - last).days / span
    return t + frac if frac < 1 else None


def _day(text: str) -> date:
    """A game date (YYYY-MM, the turn's month, or YYYY-MM-DD) as the day its turn begins."""
    return date.fromisoformat(text if len(text) > 7 else text + "-01")


# --- plots -----------------------------------------------------------------------------------------------------

def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def _plot(draw: Any, width: float, height: float) -> bytes:
    """A figure drawn under matplotlib's default style and the page's settings, whatever the machine's
    matplotlibrc says (so the same games give the same bytes anywhere with this matplotlib), as SVG bytes."""
    import matplotlib
    from matplotlib import style

    with style.context("default"), matplotlib.rc_context(SVG_RC):
        fig = _figure(width, height)
        draw(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "pbem selfplay --summary"},
                    bbox_inches="tight")
        return buf.getvalue()


def _win_plot(rows: list[tuple[str, int, float, float, float]], n: int) -> bytes:
    def draw(fig: Any) -> None:
        ax = fig.add_subplot()
        ys = list(range(len(rows)))[::-1]
        for y, (_, k, p, lo, hi), color in zip(ys, rows, COLORS):
            ax.barh(y, p, color=color, height=0.6)
            ax.errorbar(p, y, xerr=[[max(0.0, p - lo)], [max(0.0, hi - p)]], color="black", capsize=4, linewidth=1)
            ax.text(1.02, y, f"{k} of {n}", va="center", transform=ax.get_yaxis_transform())
        ax.set_yticks(ys, [r[0] for r in rows])
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(_percent())
        ax.set_xlabel("share of finished games, with its 95% Wilson interval")

    return _plot(draw, 6.4, 0.45 * len(rows) + 1.0)


def _margin_plot(games: list[dict[str, Any]], outcomes: list[str]) -> bytes:
    from matplotlib.ticker import MaxNLocator

    def draw(fig: Any) -> None:
        ax = fig.add_subplot()
        values = sorted({int(g["margin"]) for g in games})
        xs = list(range(min(values[0], -1), max(values[-1], 0) + 1))  # 0, just enough, always in view
        bottom = [0] * len(xs)
        for o, color in zip(outcomes, COLORS):
            counts = Counter(int(g["margin"]) for g in games if (g.get("winner") or "draw") == o)
            if counts:
                heights = [counts[x] for x in xs]
                ax.bar(xs, heights, bottom=bottom, color=color, width=0.9, label=o)
                bottom = [b + h for b, h in zip(bottom, heights)]
        ax.axvline(-0.5, color="black", linewidth=0.8, linestyle=":")
        ax.text(-0.4, 1.0, "enough to win \u2192", fontsize=7, va="top", transform=ax.get_xaxis_transform())
        ax.set_xlabel("margin (victory count beyond (+) or short of (\u2212) what the first side needed)")
        ax.set_ylabel("games")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(title="winner", frameon=False)

    return _plot(draw, 6.4, 2.8)


def _city_plot(rows: list[dict[str, Any]], n: int, cal: list[tuple[int, date]]) -> bytes:
    last = cal[-1][0] if cal else 1
    right = last + 1.2

    def draw(fig: Any) -> None:
        ax = fig.add_subplot()
        ys = list(range(len(rows)))[::-1]
        for y, r in zip(ys, rows):
            for turn, k in sorted(Counter(f["turn"] for f in r["falls"]).items()):
                ax.scatter([turn], [y], s=18 + 60 * k / max(1, n), color=COLORS[0], alpha=0.75, zorder=3,
                           edgecolors="none")
            if r["at"] is not None:
                ax.scatter([r["at"]], [y], marker="D", s=30, facecolors="none", edgecolors="black", zorder=4)
            elif r["known"]:
                ax.text(right, y, "never" if r["day"] is None else r["day"][:7], va="center", fontsize=7,
                        color="#555")
            ax.text(-0.02, y, f"{len(r['falls'])}/{n}", va="center", ha="right", fontsize=7, color=COLORS[0],
                    transform=ax.get_yaxis_transform())
        ax.set_yticks(ys, [r["name"] for r in rows])
        ax.tick_params(axis="y", pad=28)
        first = cal[0][0] if cal else 0
        ax.set_xlim(first - 0.5, right + 1.3)
        dates = dict(cal)
        ticks = list(range(first, last + 1))
        ax.set_xticks(ticks, [f"{t}\n{_short(dates[t])}" if t in dates else str(t) for t in ticks], fontsize=6.5)
        ax.set_xlabel("game-turn (its date); dots: games in which the city fell that turn (size: how many); "
                      "diamond: history", fontsize=8)
        ax.grid(axis="x", color="#ddd", linewidth=0.6)
        ax.set_ylim(-0.7, len(rows) - 0.3)

    return _plot(draw, 7.2, 0.24 * len(rows) + 1.4)


MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()  # not strftime: that follows the locale


def _short(d: date) -> str:
    """A turn's date as a tick label: 'Jun 41' for a month's turn, '22 Jun' for a dated one."""
    return f"{MONTHS[d.month - 1]} {d.year % 100:02d}" if d.day == 1 else f"{d.day} {MONTHS[d.month - 1]}"


def _percent() -> Any:
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=0)


# --- HTML ------------------------------------------------------------------------------------------------------

def _img(svg: bytes, alt: str) -> str:
    return f'<img alt="{_e(alt)}" src="data:image/svg+xml;base64,{base64.b64encode(svg).decode()}">'


def _table(head: list[str], rows: Iterable[list[Any]], numeric: set[int] = frozenset()) -> str:  # type: ignore[assignment]
    lines = ["<table>", "<tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        lines.append("<tr>" + "".join(f'<td{" class=n" if i in numeric else ""}>{_e(str(v))}</td>'
                                      for i, v in enumerate(row)) + "</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def _seed_range(games: list[dict[str, Any]]) -> str:
    seeds = [g["seed"] for g in games]
    return seeds[0] if len(seeds) == 1 else f"{seeds[0]} to {seeds[-1]}"


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def _num(x: float) -> str:
    return f"{x:g}"


def _e(text: str) -> str:
    return html.escape(text, quote=True)
