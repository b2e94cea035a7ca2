"""The turn report as an HTML fragment: the same content as the text report, for pages and HTML mail.

Every string from a state (unit names, order texts, messages quoting a player's orders) is escaped here:
the fragment goes into pages and mail bodies verbatim. No scripts, no external references, inline-safe
markup only (webmail strips <style> blocks, so the fragment styles nothing itself).
"""
from __future__ import annotations

from html import escape
from itertools import groupby
from typing import Any, Mapping, Sequence

from .render import COMBAT_HEADERS, _combat_rows, _header, _tabular


def _list(items: Sequence[str]) -> str:
    return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>" if items else ""


def _combat_table(events: Sequence[Mapping[str, Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in COMBAT_HEADERS)
    rows = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in _combat_rows(events))
    return f'<table class="combat"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def _combat_notes(events: Sequence[Mapping[str, Any]]) -> list[str]:
    out = []
    for e in events:
        d = e["data"]
        out.append(f"attack {d['number']} (order {d['order']}): CRT {d['crt']} ({d['crt_reason']})"
                   + (f", roll {d['label']}" if d.get("label") else ", no roll (below the table)")
                   + f", supply {d['supply'] or '-'}: " + ("; ".join(d["consequences"]) or "no effect"))
    return out


def render_html(state: Mapping[str, Any], state_hash: str) -> str:
    """The report of a state's last step: header, events by phase (combats as a table), voided orders, dice, result."""
    log = state.get("log", {})
    out = [f"<h2>pbem turn report: {escape(str(state['game']))}</h2>", '<dl class="header">']
    out += [f"<dt>{escape(k)}</dt><dd>{escape(str(v))}</dd>" for k, v in _header(state, "") + [("State", state_hash)]]
    out.append("</dl>")
    for phase, group in groupby(log.get("events", []), key=lambda e: e["phase"]):
        group = list(group)
        out.append(f"<h3>{escape(phase)}</h3>")
        combats = [e for e in group if _tabular(e)]
        if combats:
            out += [_combat_table(combats), _list(_combat_notes(combats))]
        out.append(_list([e["text"] for e in group if not _tabular(e)]))
    if log.get("voided"):
        out += ["<h3>Orders voided by the referee (--void-illegal)</h3>",
                _list([f"order {v.get('order', -1) + 1}: {v['code']} [{v['rule']}] {v['message']}"
                       for v in log["voided"]])]
    if log.get("rolls"):
        out.append('<h3>Dice (anyone can re-derive them with <code>pbem verify</code>)</h3><table class="dice">'
                   "<thead><tr><th>Label</th><th>Die</th><th>Face</th><th>For</th></tr></thead><tbody>")
        out += [f"<tr><td>{escape(r['label'])}</td><td>d{escape(str(r['sides']))}</td><td>{escape(str(r['face']))}</td>"
                f"<td>{escape(str(r.get('purpose', '')))}</td></tr>" for r in log["rolls"]]
        out.append("</tbody></table>")
    if state.get("result"):
        res = state["result"]
        text = res.get("text") or f"{res.get('level')}: the Axis holds {res.get('axis_points')} victory points"
        out += ["<h3>Result</h3>", f"<p>{escape(str(text))}</p>"]
    return "\n".join(x for x in out if x) + "\n"


def private_html(side: str, positions: Mapping[str, Sequence[str]]) -> str:
    """What only the hiding side sees, read with its secret (its own copy of the report, never the shared one)."""
    return (f"<h3>Only for {escape(side)}, read with your secret (do not forward this part)</h3>"
            + _list([f"{p}: {', '.join(u)}" for p, u in positions.items()]) + "\n")
