#!/usr/bin/env bash
# Codeword: Barbarossa, setup and game-turn 1 (June 1940) exchanged by both players, replayed in a scratch folder
# from each player's private draft and compared byte for byte with the committed files.
# Each step: each player prepares his draft with his own secret (`pbem reveal`: adds what the step needs from
# the secret, drops his private notes), seals it (`pbem seal`), and once both seals are in, sends the orders;
# either player (or anyone) then adjudicates without any secret.
# UPDATE=1 rewrites the committed files (after a rules change), fixing each draft's `state:` hash as it goes.
set -euo pipefail
PBEM=${1:-pbem}
HERE=$(cd "$(dirname "$0")" && pwd)
chmod 600 "$HERE"/*-only/*.secret  # git checks files out readable by all; pbem warns when a secret is
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
KEY_G=12aec581083973ca6f53a9dcd5560c0e2cd7eb4f4fa976684aa12cf71e21e68c  # printed by `pbem keys new`
KEY_S=df8555533c449c3c55bebe7da2287b5c282c7f1629a8cddfa2c14e64a3c56fb3

"$PBEM" new codeword-barbarossa/june-1940 --seed cw-demo --game-id cw-1940 --hidden "german=$KEY_G" \
  --hidden "soviet=$KEY_S" -o "$OUT/state-0.yaml" >/dev/null
for n in 0 1 2; do
  for side in german soviet; do
    draft="$HERE/$side-only/draft-$n.yaml"
    if [ "${UPDATE:-}" = 1 ]; then
      hash=$("$PBEM" show "$OUT/state-$n.yaml" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['hash'])")
      sed -i "s/^state: .*/state: $hash/" "$draft"
    fi
    "$PBEM" reveal "$OUT/state-$n.yaml" "$draft" --secret "$HERE/$side-only/$side.secret" \
      -o "$OUT/orders-$n-$side.yaml" >/dev/null
    "$PBEM" seal "$OUT/orders-$n-$side.yaml" -o "$OUT/seal-$n-$side.yaml" >/dev/null
  done
  "$PBEM" adjudicate "$OUT/state-$n.yaml" "$OUT/orders-$n-german.yaml" "$OUT/orders-$n-soviet.yaml" \
    -o "$OUT/state-$((n + 1)).yaml" --report "$OUT/report-$((n + 1)).txt" >/dev/null
done
for side in german soviet; do  # each player's own copy: the shared report plus his hand and strategy
  "$PBEM" show "$OUT/state-3.yaml" --report text --secret "$HERE/$side-only/$side.secret" > "$OUT/report-3-$side-view.txt"
done

echo "== the report of the Terminal Phase, June 1940, as both players receive it =="
cat "$OUT/report-3.txt"
for side in german soviet; do
  echo "== what only the $side player sees (from his secret) =="
  sed -n '/^Only for/,$p' "$OUT/report-3-$side-view.txt"
done
echo
echo "== anyone re-runs every step without a secret =="
for n in 0 1 2; do
  "$PBEM" verify "$OUT/state-$n.yaml" "$OUT/orders-$n-german.yaml" "$OUT/orders-$n-soviet.yaml" \
    "$OUT/state-$((n + 1)).yaml" >/dev/null
done
echo "all 3 steps verified"
for f in $(cd "$OUT" && ls state-*.yaml report-*.txt orders-*.yaml seal-*.yaml); do
  if [ "${UPDATE:-}" = 1 ]; then cp "$OUT/$f" "$HERE/$f"; continue; fi
  cmp -s "$OUT/$f" "$HERE/$f" || { echo "$f differs from the committed example" >&2; exit 1; }
done
echo "the results match the committed example byte for byte"
