#!/usr/bin/env bash
# The Barbarossa File, the first Axis player-turn of 22 June 1941: the start state rebuilt with `pbem new`, the ops
# step and Reserve Phase 1 replayed in a scratch folder from this folder's orders, the reports printed,
# the illegal orders refused, every step verified and compared byte for byte with the committed files.
# UPDATE=1 copies the results back (after a rules change). Usage: bash run.sh [PATH-TO-PBEM]
# The reports are text, as mailed (FMT=json gives the same events as data).
set -euo pipefail
PBEM=${1:-pbem}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
FMT=text

"$PBEM" new barbarossa-file/barbarossa-file-1941 --setup historical --seed bf-demo-264 --game-id bf-1941 -o "$OUT/state-0.yaml" >/dev/null
echo "== refused: orders-illegal.yaml (a panzer corps moved twice, XI.A.1) =="
if "$PBEM" check "$HERE/state-0.yaml" "$HERE/orders-illegal.yaml"; then
  echo "expected the illegal orders to be refused" >&2; exit 1
fi
echo
n=0
for orders in orders-1-axis-ops.yaml orders-2-axis-reserve-1.yaml; do
  echo "== pbem adjudicate: $orders =="
  "$PBEM" adjudicate "$OUT/state-$n.yaml" "$HERE/$orders" -o "$OUT/state-$((n + 1)).yaml" \
    --report "$OUT/report-$((n + 1)).txt" --format "$FMT" >/dev/null
  cat "$OUT/report-$((n + 1)).txt"
  "$PBEM" verify "$OUT/state-$n.yaml" "$HERE/$orders" "$OUT/state-$((n + 1)).yaml" >/dev/null
  n=$((n + 1))
done
echo "both steps verified"
for f in state-0.yaml state-1.yaml state-2.yaml report-1.txt report-2.txt; do
  if [ "${UPDATE:-}" = 1 ]; then cp "$OUT/$f" "$HERE/$f"; continue; fi
  cmp -s "$OUT/$f" "$HERE/$f" || { echo "$f differs from the committed example" >&2; exit 1; }
done
echo "the results match the committed example byte for byte"
"$PBEM" show "$OUT/state-2.yaml"
