#!/usr/bin/env bash
# install-claude-cli.sh [DIR] — install the pinned Claude Code CLI for the real-client e2e test.
#
# DIR defaults to $CC_CACHE_DIR, else $HOME/.cache/harness/claude-code.
# Idempotent: does nothing when DIR/node_modules/.bin/claude --version already reports the pinned
# version. Uses only the npm registry (the package ships its native binary as an optional npm
# dependency; nothing else is downloaded). Prints the absolute path of the claude binary on stdout;
# progress goes to stderr. The e2e test (internal/e2e) finds the binary at the same default place,
# or via CLAUDE_BIN.
set -euo pipefail

VERSION="${CC_VERSION:-2.1.332}"
DIR="${1:-${CC_CACHE_DIR:-${HOME}/.cache/harness/claude-code}}"
BIN="$DIR/node_modules/.bin/claude"

have_version() {
	[ -x "$BIN" ] || return 1
	local v
	v="$("$BIN" --version 2>/dev/null || true)"
	case "$v" in
	"$VERSION"*) return 0 ;;
	*) return 1 ;;
	esac
}

if have_version; then
	echo "claude $VERSION already installed in $DIR" >&2
	echo "$BIN"
	exit 0
fi

command -v npm >/dev/null 2>&1 || {
	echo "install-claude-cli: npm not found (install Node.js + npm, e.g. apt-get install nodejs npm)" >&2
	exit 1
}

mkdir -p "$DIR"
cd "$DIR"
[ -f package.json ] || npm init -y >/dev/null
echo "installing @anthropic-ai/claude-code@$VERSION into $DIR (about 400 MB) ..." >&2
# EBADENGINE (node < 22) and allowScripts warnings are harmless: the CLI is a native binary.
npm install --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$VERSION" >&2

if ! have_version; then
	echo "install-claude-cli: $BIN --version does not report $VERSION:" >&2
	"$BIN" --version >&2 || true
	exit 1
fi
echo "$BIN"
