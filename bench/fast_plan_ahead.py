"""Does playing ahead choose the Barbarossa Fast German's plan (SETUP(S)) better than always the Historical one?
An experiment for docs/selfplay.md (issue 18: the German against the random Russian), never part of `make test`:

    .venv/bin/python bench/fast_plan_ahead.py [GAMES] [SEED] [SAMPLES]

For each game (the random-legal Russian's draw and deployment, seeds SEED-0 ...) it scores each candidate plan by
playing the whole game ahead SAMPLES times from the German set-up step, himself as the level-2 bot, against a model
of the Russian (the rulebook's solitaire Russian, and the random one), on *sampled* hidden units (`determinize`:
each face-down Russian counter takes one of the identities not yet accounted for, by a keyed shuffle, and the
sample's own key stands in for the Russian secret, so the ruleset's adjudication, replacements and victory run
unchanged). Then it plays each plan once on the true hidden units against the random Russian, and counts how
often the plan the look-ahead prefers is the one that wins where the two plans' results differ.
Everything is keyed by the state and the sample number (never `random`).
"""
from __future__ import annotations

from typing import Any, Mapping

from fast_ahead import Russian, real_game, determinize, play_out, random_russian, sample_seed, solitaire_russian
from pbem.core import game
from pbem.core.state import GameState
from pbem.rulesets.barbarossa_fast.data import GERMAN, SOVIET, Data, load
CANDIDATES = ("historical", "schultz")  # the plans weighed (Marcks loses North a panzerkorps, and with it
# Leningrad; the free set-up costs a point: docs/selfplay.md)
SAMPLES = 3  # games played ahead per plan


def plan_scores(state: GameState, samples: int = SAMPLES, russian: Russian | None = None) -> dict[str, float]:
    """Mean victory margin of each candidate plan over the same `samples` sampled games (common samples, so
    the plans are compared on the same hidden Russians); empty when the hidden units cannot be sampled."""
    data = load(game.scenario_of(state))
    out: dict[str, float] = {}
    for plan in CANDIDATES:
        margins = []
        for k in range(samples):
            seed = sample_seed(state, k)
            sampled = determinize(state, data, seed)
            if sampled is None:
                return {}
            res = play_ahead(sampled, data, seed, plan, russian or solitaire_russian)
            margins.append(float(res.get("axis_points", 0)) - float(res.get("needed", 0)))
        out[plan] = sum(margins) / len(margins)
    return out


def play_ahead(state: GameState, data: Data, seed: str, plan: str, russian: Russian) -> Mapping[str, Any]:
    """Play a sampled game to its end from the German set-up step, with this plan and then the level-2 German."""
    from pbem.bots.fast import orders

    return play_out(state, data, seed, [{"plan": plan}], lambda s: orders(s, GERMAN, None), russian)


def one(args: tuple[str, int]) -> dict:
    """One game: the plans' look-ahead scores under both Russian models, and each plan played on the true units."""
    seed, samples = args
    state, secrets = real_game(seed, stop=lambda s: s.phase == "german-setup")
    data = load(game.scenario_of(state))
    true = {p: play_ahead(state, data, secrets[SOVIET]["seed"], p, random_russian) for p in CANDIDATES}
    return {"seed": seed, "solitaire": plan_scores(state, samples, solitaire_russian),
            "random": plan_scores(state, samples, random_russian),
            "won": {p: r.get("winner") == GERMAN for p, r in true.items()}}


def main() -> None:
    import sys
    from concurrent.futures import ProcessPoolExecutor

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    prefix = sys.argv[2] if len(sys.argv) > 2 else "ahead"
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else SAMPLES
    with ProcessPoolExecutor(2) as pool:
        rows = list(pool.map(one, [(f"{prefix}-{i}", samples) for i in range(games)]))
    print(f"{games} games; wins by plan on the true units: "
          + ", ".join(f"{p} {sum(r['won'][p] for r in rows)}" for p in CANDIDATES))
    split = [r for r in rows if len(set(r["won"].values())) > 1]
    for model in ("solitaire", "random"):
        picks = [max(CANDIDATES, key=lambda p, r=r: (r[model][p], p == CANDIDATES[0])) for r in rows]
        right = sum(1 for r, p in zip(rows, picks) if r in split and r["won"][p])
        print(f"look-ahead against the {model} Russian: {sum(r['won'][p] for r, p in zip(rows, picks))} wins; "
              f"of the {len(split)} games the plan decides, the right plan in {right}")


if __name__ == "__main__":
    main()
