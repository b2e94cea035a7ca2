#!/usr/bin/env bash
# The first game-turn of the Stalingrad Game (June 1942), both Player-Turns: replayed, verified and compared
# byte for byte with this folder (see README.md). `run.sh PBEM --update` rewrites the results after a rule change.
set -euo pipefail
PBEM=${1:-pbem}
UPDATE=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
NEW=(spi-barbarossa/stalingrad-1942 --seed stalingrad-demo --game-id g-1942 --setup historical)
STEPS=(orders-1-axis-a orders-1-axis-b orders-1-soviet-a orders-1-soviet-b)
ILLEGAL_AT=state-2.yaml
WHY="a third Soviet unit in a hex: two is the Stalingrad Game's limit"
source "$HERE/../spi-replay.sh"
