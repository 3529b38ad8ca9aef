#!/usr/bin/env bash
# Timing of harness-hook for the closing note: the in-process PreToolUse Bash
# benchmark and the whole-process benchmark (the built binary exec'd at least
# 30 times, median and p90 wall time per call).
# Usage: scripts/bench-hook.sh [runs]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
go test -run '^$' -bench 'BenchmarkPreToolUseBash' -benchmem ./internal/hook
go test -run '^$' -bench 'BenchmarkProcessPreToolUseBash' -benchtime "${runs}x" ./internal/hook
