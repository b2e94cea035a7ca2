"""`pbem where`: what is at one place, from the View (so it shows only what the side may see) and the board.

Each ruleset's `where` starts from `generic_where` and adds what its own rules code says about the place
(zones of control, supply), never a second copy of those rules.
"""
from __future__ import annotations

from typing import Any

from ..board.topology import Topology
from .model import View


def generic_where(view: View, board: Topology, pid: str) -> dict[str, Any]:
    """The place's printed features, its hexsides or links, its neighbours and who is there."""
    p = view.place(pid)
    if p is None:
        raise ValueError(f"{pid!r} is not on the map")
    i = board.index(pid)
    neighbours = []
    for j in board.neighbours(i):
        n = board.ids[j]
        feats = dict(board.link(i, j))
        here = view.place(n)
        neighbours.append({"place": n, "name": (here.name if here else "") or "",
                           "features": {k: ("yes" if v is True else str(v)) for k, v in sorted(feats.items())}})
    for e in view.edges:  # borders and start lines the View draws, which the board's links do not carry
        if pid in (e.a, e.b):
            other = e.b if e.a == pid else e.a
            for n in neighbours:
                if n["place"] == other:
                    for k, v in e.features.items():
                        n["features"].setdefault(k, v)
    occupants = [{"key": u.key, "side": u.side, "label": u.label, "values": u.values, "markers": list(u.markers),
                  "face_down": u.face_down, "details": dict(u.details)} for u in view.units if u.place == pid]
    out: dict[str, Any] = {"place": pid, "label": board.label(pid), "kind": p.kind}
    for k in ("name", "terrain", "country", "value", "controller", "code"):
        if getattr(p, k):
            out[k] = getattr(p, k)
    if p.tags:
        out["features"] = list(p.tags)
    out["neighbours"] = neighbours
    out["occupants"] = occupants
    out["side"] = view.side
    return out


def where_text(info: dict[str, Any]) -> str:
    """The answer as a few lines for a terminal."""
    lines = [f"{info['label']}: {info.get('kind', 'place')}"
             + (f", {info['terrain']}" if info.get("terrain") else "")
             + (f", {info['country']}" if info.get("country") else "")]
    if info.get("name"):
        lines.append(f"  city/name: {info['name']}" + (f", value {info['value']}" if info.get("value") else "")
                     + (f", controlled by {info['controller']}" if info.get("controller") else ""))
    if info.get("code"):
        lines.append(f"  printed code: {info['code']}")
    if info.get("features"):
        lines.append(f"  features: {', '.join(info['features'])}")
    for k, v in (info.get("facts") or {}).items():
        lines.append(f"  {k}: {v}")
    lines.append("  neighbours:")
    for n in info["neighbours"]:
        feats = ", ".join(k.replace("_", " ") + ("" if v == "yes" else f" {v}") for k, v in n["features"].items()
                          if k != "link")
        lines.append(f"    {n['place']}" + (f" ({n['name']})" if n["name"] and n["name"] != n["place"] else "")
                     + (f"  [{feats}]" if feats else ""))
    if info["occupants"]:
        lines.append("  occupants:")
        for u in info["occupants"]:
            what = " ".join(x for x in (u["label"], u["values"]) if x) or "counter"
            what = f"face-down {what}" if u["face_down"] else what
            name = u["details"].get("name", "")
            mk = f" [{', '.join(u['markers'])}]" if u["markers"] else ""
            lines.append(f"    {u['side']}: {what}" + (f" ({name})" if name else "") + mk)
    else:
        lines.append("  occupants: none")
    if "zoc" in info:
        lines.append(f"  zone of control of: {', '.join(info['zoc']) or 'nobody'}")
    if "supply" in info:
        lines.append("  in supply for: " + (", ".join(s for s, ok in info["supply"].items() if ok) or "nobody")
                     + (f" (not for {', '.join(s for s, ok in info['supply'].items() if not ok)})"
                        if not all(info["supply"].values()) else ""))
    for note in info.get("notes") or ():
        lines.append(f"  note: {note}")
    return "\n".join(lines)
