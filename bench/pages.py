"""Maps and pages (issue 13 §5), printed as JSON for bench/run.py:

(a) `pbem map` of the full SPI map with every unit of the order of battle on it, as SVG and as PNG, against
    `pbem adjudicate` of the worked example's step (targets <= 1.2x and <= 2x): interleaved subprocess wall
    times, median of RUNS each (and their CPU times, steadier on a shared machine);
(b) `pbem view` of the longest example game folder (and of the SPI worked example's, the heaviest map), opened
    from file:// in headless Chromium: milliseconds from navigation start to the first frame drawn after the
    page's load (target <= 1000), and from a step button's click to the next frame drawn (target <= 100),
    measured in the page with performance.now() and requestAnimationFrame; and, steadier on a shared machine,
    the CPU time the page's renderer process spent on each (from a Chromium trace).
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
EX = ROOT / "examples/spi-barbarossa-1941"
PBEM = str(Path(sys.executable).with_name("pbem"))
RUNS = int(os.environ.get("PBEM_BENCH_RUNS", "15"))

# Recorded in the page (the bench's context bypasses the page's CSP to add it): the first frame presented
# after the load event. A rAF callback runs just before a frame is painted; the task after it, once it is.
DRAWN = """addEventListener("load", () => requestAnimationFrame(() => setTimeout(() => {
  window.__pbemDrawn = performance.now(); }, 0)));"""
STEP = """() => new Promise(done => { const t0 = performance.now(); document.querySelector('[data-go=%s]').click();
  requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0)); })"""


def wall(cmd: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of a command: on a shared machine the CPU time is the steadier."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def full_state(where: Path) -> Path:
    """The worked example after its first step (its events drawn), with every unit of the order of battle on
    the map: the units still to come placed on free land hexes of their own side's countries, in id order."""
    import yaml

    from pbem.core import game
    from pbem.core.loading import dump_yaml

    doc = game.load_state(str(EX / "state-1.yaml")).to_dict()
    hexes = yaml.safe_load((ROOT / "scenarios/spi-barbarossa/map.yaml").read_text())["hexes"]
    homes = {"axis": {"germany", "poland", "rumania", "hungary"}, "soviet": {"ussr"}}
    taken = {u.get("at") for u in doc["units"]}
    free = {side: [h for h in sorted(hexes) if hexes[h].get("country") in countries and h not in taken
                   and hexes[h].get("terrain") not in ("sea", "lake")] for side, countries in homes.items()}
    for u in doc["units"]:
        if u["status"] == "pending":
            u["at"], u["status"] = free[u["side"]].pop(), "active"
    path = where / "full.yaml"
    path.write_text(dump_yaml(doc), encoding="utf-8")
    return path


def map_ratios() -> dict:
    tmp = Path(tempfile.mkdtemp())
    state = full_state(tmp)
    adjudicate = [PBEM, "adjudicate", str(EX / "state-0.yaml"), str(EX / "orders-1-axis-a.yaml"),
                  "-o", str(tmp / "next.yaml"), "--force"]
    svg = [PBEM, "map", str(state), "-o", str(tmp / "map.svg"), "--force"]
    png = [PBEM, "map", str(state), "-o", str(tmp / "map.png"), "--force"]
    for cmd in (adjudicate, svg, png):
        wall(cmd)  # warm the file cache, the scenario cache and the PNG base cache, as a second turn would
    times: dict[str, list[float]] = {"adjudicate": [], "svg": [], "png": []}
    cpu: dict[str, list[float]] = {"adjudicate": [], "svg": [], "png": []}
    for _ in range(RUNS):
        for name, cmd in (("adjudicate", adjudicate), ("svg", svg), ("png", png)):
            w, c = wall(cmd)
            times[name].append(w)
            cpu[name].append(c)
    med = {k: statistics.median(v) for k, v in times.items()}
    mcpu = {k: statistics.median(v) for k, v in cpu.items()}
    units = sum(1 for line in state.read_text().splitlines() if line.strip() == "status: active")
    return {"runs": RUNS, "units": units, "adjudicate_s": med["adjudicate"], "svg_s": med["svg"], "png_s": med["png"],
            "svg_ratio": med["svg"] / med["adjudicate"], "png_ratio": med["png"] / med["adjudicate"],
            "svg_cpu_ratio": mcpu["svg"] / mcpu["adjudicate"], "png_cpu_ratio": mcpu["png"] / mcpu["adjudicate"],
            "svg_bytes": (tmp / "map.svg").stat().st_size, "png_bytes": (tmp / "map.png").stat().st_size}


def renderer_cpu_ms(trace: bytes) -> float:
    """CPU milliseconds the page's renderer process spent (its main, compositor and raster threads) in a trace."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    main_pids = {pid for (pid, _), n in names.items() if n == "CrRendererMain"}
    threads = {k for k, n in names.items() if k[0] in main_pids and n.startswith(("CrRendererMain", "Compositor"))}
    return sum(e["tdur"] / 1000 for e in events if e.get("ph") == "X" and "tdur" in e
               and e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask") and (e["pid"], e["tid"]) in threads)


def cpu_round(b, html: Path, steps: int) -> tuple[float, float]:
    """One traced round: renderer CPU ms to open the page and draw it, and per step change."""
    context = b.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.add_init_script(DRAWN)
    categories = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
    b.start_tracing(page=page, categories=categories)
    page.goto(html.resolve().as_uri() + "#step-0")
    page.wait_for_function("window.__pbemDrawn !== undefined")
    first = renderer_cpu_ms(b.stop_tracing())
    b.start_tracing(page=page, categories=categories)
    for _ in range(steps - 1):
        page.evaluate(STEP % "next")
    change = renderer_cpu_ms(b.stop_tracing()) / (steps - 1)
    context.close()
    return first, change


def page_times(name: str, rounds: int = 5) -> dict:
    """Open `pbem view` of the example game `name` `rounds` times in a fresh page; step through every step."""
    from tests.pages import games
    from tests.pages.browser import browser

    tmp = Path(tempfile.mkdtemp())
    folder = games.build(name, tmp / name)
    html = tmp / f"{name}.html"
    subprocess.run([PBEM, "view", str(folder), "-o", str(html)], check=True, stdout=subprocess.DEVNULL)
    steps = len(games.GAMES[name].steps) + 1
    first, change = [], []
    with browser() as b:
        for _ in range(rounds):
            context = b.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
            page = context.new_page()
            page.add_init_script(DRAWN)
            page.goto(html.resolve().as_uri() + "#step-0")
            page.wait_for_function("window.__pbemDrawn !== undefined")
            first.append(page.evaluate("window.__pbemDrawn"))
            for _ in range(steps - 1):
                change.append(page.evaluate(STEP % "next"))
            for _ in range(steps - 1):
                change.append(page.evaluate(STEP % "prev"))
            context.close()
        cpu = [cpu_round(b, html, steps) for _ in range(3)]
    return {"game": name, "steps": steps, "bytes": html.stat().st_size, "first_ms": statistics.median(first),
            "first_max_ms": max(first), "step_ms": statistics.median(change), "step_max_ms": max(change),
            "changes": len(change), "first_cpu_ms": statistics.median(c[0] for c in cpu),
            "step_cpu_ms": statistics.median(c[1] for c in cpu)}


def main() -> None:
    from tests.pages import games

    out = {"map": map_ratios(), "view": page_times(games.LONGEST)}
    if games.LONGEST != "spi-barbarossa":
        out["view_spi"] = page_times("spi-barbarossa")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
