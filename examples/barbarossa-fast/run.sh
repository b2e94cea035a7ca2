#!/usr/bin/env bash
# Barbarossa Fast, game-turn 1 (June 1941) of a two-player game, replayed in a scratch folder from this
# folder's orders and compared byte for byte with the committed states and reports.
# The Russian player adjudicates the German steps with his secret (they expose his units); the German
# adjudicates the Russian steps without it. UPDATE=1 copies the results back (after a rules change).
set -euo pipefail
PBEM=${1:-pbem}
HERE=$(cd "$(dirname "$0")" && pwd)
SECRET="$HERE/russian-only/soviet.secret"
chmod 600 "$SECRET"  # git checks files out readable by all; pbem warns when a secret is (docs/pbem.md)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
KEY=6e5a21ef87f249639b00ad6282a3282ac64627edc7522f5c0a52ac4f1939a006  # `pbem keys new` prints it

"$PBEM" new barbarossa-fast/june-1941 --seed fast-demo --game-id bf-1941 --hidden "soviet=$KEY" -o "$OUT/state-0.yaml" >/dev/null
step() {  # step N ORDERS [--secret FILE]: adjudicate state-N with ORDERS into state-(N+1) and its report
  local n=$1 orders=$2; shift 2
  "$PBEM" adjudicate "$OUT/state-$n.yaml" "$HERE/$orders" -o "$OUT/state-$((n + 1)).yaml" \
    --report "$OUT/report-$((n + 1)).txt" "$@" >/dev/null
}
step 0 orders-0-soviet.yaml --secret "$SECRET"   # the Russian draw, face-down
step 1 orders-1-soviet.yaml --secret "$SECRET"   # the Russian deployment
step 2 orders-2-german.yaml --secret "$SECRET"   # the German plan
step 3 orders-3-german.yaml --secret "$SECRET"   # German movement and air battles (recon)
step 4 orders-4-german.yaml --secret "$SECRET"   # German attacks
"$PBEM" reveal "$OUT/state-5.yaml" "$HERE/orders-5-soviet.yaml" --secret "$SECRET" -o "$OUT/orders-5-sent.yaml"
step 5 orders-5-soviet.yaml                      # Russian movement: the German adjudicates, no secret
step 6 orders-6-soviet.yaml                      # Russian replacements; supply; turn 2 begins
for n in 4 5; do  # the Russian's copy of the report: the shared one plus what only his secret shows
  "$PBEM" show "$OUT/state-$n.yaml" --report text --secret "$SECRET" > "$OUT/report-$n-russian-view.txt"
done

echo "== the German's report of his attacks (what both players receive) =="
cat "$OUT/report-5.txt"
echo "== the Russian's copy: the same report, plus his own face-down units =="
sed -n '/^Only for/,$p' "$OUT/report-5-russian-view.txt"
echo
echo "== refused: a Russian counter-attack where the line broke this turn =="
"$PBEM" check "$OUT/state-5.yaml" "$HERE/orders-illegal-soviet.yaml" 2>&1 || true
echo
echo "== anyone, the German included, re-runs every step without the Russian secret =="
for n in 0 1 2 3 4 5 6; do
  orders=$(ls "$HERE" | grep "^orders-$n-")
  "$PBEM" verify "$OUT/state-$n.yaml" "$HERE/$orders" "$OUT/state-$((n + 1)).yaml" >/dev/null
done
echo "all 7 steps verified"
for f in $(cd "$OUT" && ls state-*.yaml report-*.txt); do
  if [ "${UPDATE:-}" = 1 ]; then cp "$OUT/$f" "$HERE/$f"; continue; fi
  cmp -s "$OUT/$f" "$HERE/$f" || { echo "$f differs from the committed example" >&2; exit 1; }
done
echo "the results match the committed example byte for byte"
