#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, starts both apps and demonstrates the
# three channels (scripts/demo.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
echo "== building phoned, watchd and wcctl"
swift build --product phoned
swift build --product watchd
swift build --product wcctl
exec bash scripts/demo.sh "$(swift build --show-bin-path)"
