#!/usr/bin/env bash
# The first months of the Campaign Game (June 1941 to the German first step of September 1941): replayed,
# verified and compared byte for byte with this folder (see README.md). `run.sh PBEM --update` rewrites the
# results after a rule change.
set -euo pipefail
PBEM=${1:-pbem}
UPDATE=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
NEW=(spi-barbarossa/campaign-1941 --seed campaign-demo --game-id g-campaign --setup historical)
STEPS=(orders-1-axis-a orders-1-axis-b orders-1-soviet-a orders-1-soviet-b orders-2-axis-a orders-2-axis-b
       orders-2-soviet-a orders-2-soviet-b orders-3-axis-a orders-3-axis-b orders-3-soviet-a orders-3-soviet-b
       orders-4-axis-a)
ILLEGAL_AT=state-4.yaml
WHY="the 4th Army, destroyed in June, brought back in July: only on the third game-turn after"
source "$HERE/../spi-replay.sh"
