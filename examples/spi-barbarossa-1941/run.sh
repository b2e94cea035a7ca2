#!/usr/bin/env bash
# make demo: adjudicate the German turn of June 1941 from this folder's orders, in a scratch folder,
# print the turn reports, show the illegal orders being refused, and check the results byte for byte.
set -euo pipefail
PBEM=${1:-pbem}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "== pbem check: orders-illegal.yaml (one attack without attack supply) =="
if "$PBEM" check "$HERE/state-0.yaml" "$HERE/orders-illegal.yaml"; then
  echo "expected the illegal orders to be refused" >&2; exit 1
fi
echo
echo "== pbem adjudicate: German first movement and combat phase, June 1941 =="
"$PBEM" adjudicate "$HERE/state-0.yaml" "$HERE/orders-1-axis-a.yaml" -o "$OUT/state-1.yaml" --report "$OUT/report-1.txt"
cat "$OUT/report-1.txt"
echo
echo "== pbem adjudicate: German second movement phase (written after reading the report above) =="
"$PBEM" adjudicate "$OUT/state-1.yaml" "$HERE/orders-1-axis-b.yaml" -o "$OUT/state-2.yaml" --report "$OUT/report-2.txt"
cat "$OUT/report-2.txt"
echo
echo "== pbem verify: anyone can re-run both steps =="
"$PBEM" verify "$HERE/state-0.yaml" "$HERE/orders-1-axis-a.yaml" "$OUT/state-1.yaml"
"$PBEM" verify "$OUT/state-1.yaml" "$HERE/orders-1-axis-b.yaml" "$OUT/state-2.yaml"
for f in state-1.yaml report-1.txt state-2.yaml report-2.txt; do
  cmp -s "$OUT/$f" "$HERE/$f" || { echo "$f differs from the committed example" >&2; exit 1; }
done
echo "the results match the committed example byte for byte"
"$PBEM" show "$OUT/state-2.yaml"
