#!/usr/bin/env bash
# Shared by the SPI worked examples' run.sh (spi-stalingrad-1942, spi-campaign-1941): make state-0 with
# `pbem new`, adjudicate and verify every step from the folder's orders in a scratch folder, compare each state
# and report byte for byte with the committed ones, and show the illegal orders being refused.
# The caller sets PBEM, HERE, NEW (the `pbem new` arguments), STEPS (orders files in order, without .yaml),
# ILLEGAL_AT (the state the illegal orders answer) and WHY (what they break). With UPDATE=--update the committed
# results are rewritten instead, after a rule change: each orders file's `state:` line is set to the hash of the
# state it answers, then the step is adjudicated again.
set -euo pipefail
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$PBEM" new "${NEW[@]}" -o "$OUT/state-0.yaml" >/dev/null
if [ "${UPDATE:-}" = "--update" ]; then cp "$OUT/state-0.yaml" "$HERE/state-0.yaml"; fi
cmp -s "$OUT/state-0.yaml" "$HERE/state-0.yaml" || { echo "state-0.yaml differs from pbem new" >&2; exit 1; }
state_hash() { "$PBEM" show "$1" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["hash"])'; }
n=0
for orders in "${STEPS[@]}"; do
  prev="$HERE/state-$n.yaml"; n=$((n + 1))
  if [ "${UPDATE:-}" = "--update" ]; then
    hash=$(state_hash "$prev")
    sed -i "s/^state: .*/state: $hash/" "$HERE/$orders.yaml"
    if [ "$prev" = "$HERE/$ILLEGAL_AT" ]; then sed -i "s/^state: .*/state: $hash/" "$HERE/orders-illegal.yaml"; fi
  fi
  echo "== pbem adjudicate $orders.yaml (step $((n - 1))) =="
  "$PBEM" adjudicate "$prev" "$HERE/$orders.yaml" -o "$OUT/state-$n.yaml" --report "$OUT/report-$n.txt"
  "$PBEM" verify "$prev" "$HERE/$orders.yaml" "$OUT/state-$n.yaml"
  if [ "${UPDATE:-}" = "--update" ]; then cp "$OUT/state-$n.yaml" "$OUT/report-$n.txt" "$HERE/"; fi
  for f in "state-$n.yaml" "report-$n.txt"; do
    cmp -s "$OUT/$f" "$HERE/$f" || { echo "$f differs from the committed example" >&2; exit 1; }
  done
  cat "$OUT/report-$n.txt"
done
echo "== pbem check orders-illegal.yaml against $ILLEGAL_AT ($WHY) =="
if "$PBEM" check "$HERE/$ILLEGAL_AT" "$HERE/orders-illegal.yaml"; then
  echo "expected the illegal orders to be refused" >&2; exit 1
fi
echo "the results match the committed example byte for byte"
"$PBEM" show "$OUT/state-$n.yaml"
