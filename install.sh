#!/usr/bin/env sh
# install.sh — build and install the harness binaries (harness, harness-hook).
#
# Usage: ./install.sh            installs into $PREFIX/bin (PREFIX defaults to $HOME/.local)
#        PREFIX=/usr/local ./install.sh
#        VERSION=v1.2.3 ./install.sh   (default: git describe of this checkout, else "dev")
#
# Static builds (CGO_ENABLED=0, -trimpath), version, commit and build date stamped with -ldflags
# (`harness --version` → "harness v1.2.3 (commit abcdef1, built 2026-…)"). Safe to re-run:
# each binary is built to a temporary file and renamed over the installed one. Ends with a
# self-check through the installed binaries: `harness --version`, a destructive Bash payload that
# harness-hook must deny, and a harmless one it must not deny.
set -eu

die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null 2>&1 || die "Go is not installed or not on PATH (need Go 1.26 or newer: https://go.dev/dl/)"

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
PREFIX=${PREFIX:-"$HOME/.local"}
BINDIR="$PREFIX/bin"
[ -f "$here/go.mod" ] || die "run me from a harness checkout (no go.mod beside $0)"

if [ -z "${VERSION:-}" ]; then
	VERSION=$(git -C "$here" describe --tags --always --dirty 2>/dev/null || true)
	[ -n "$VERSION" ] || VERSION=dev
fi
COMMIT=$(git -C "$here" rev-parse --short=7 HEAD 2>/dev/null || true)
DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)

say() { printf 'install.sh: %s\n' "$*"; }
say "installing harness $VERSION (commit ${COMMIT:-unknown}) into $BINDIR with $(go version | cut -d' ' -f3)"

mkdir -p "$BINDIR" || die "cannot create $BINDIR"

exe=
case "$(go env GOOS)" in windows) exe=.exe ;; esac

build() { # build NAME: cmd/NAME → $BINDIR/NAME
	tmp="$BINDIR/.$1.tmp.$$$exe"
	say "building $1 (static; the first build downloads the Go modules and can take a minute) ..."
	(cd "$here" && CGO_ENABLED=0 go build -trimpath \
		-ldflags "-s -w -X main.version=$VERSION -X main.commit=$COMMIT -X main.date=$DATE" -o "$tmp" "./cmd/$1") ||
		{ rm -f "$tmp"; die "go build ./cmd/$1 failed"; }
	mv -f "$tmp" "$BINDIR/$1$exe" || die "cannot install $BINDIR/$1$exe"
	printf 'installed %s\n' "$BINDIR/$1$exe"
}
build harness
build harness-hook

# Self-check through the installed binaries.
say "self-check: --version, and harness-hook must deny rm -rf / and allow go test ./..."
got=$("$BINDIR/harness$exe" --version) || die "self-check: harness --version failed"
case "$got" in
"harness $VERSION (commit "*) ;;
*) die "self-check: harness --version printed '$got', want 'harness $VERSION (commit …)'" ;;
esac

check_dir=$(mktemp -d 2>/dev/null || mktemp -d -t harness-install)
trap 'rm -rf "$check_dir"' EXIT INT TERM
# session id harness-doctor-…: a probe of the guard, which harness logs and status leave out
# (harness logs --probes shows it), so the user's audit log starts with their own sessions.
payload() {
	printf '{"session_id":"harness-doctor-install-sh","transcript_path":"%s/t.jsonl","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}\n' \
		"$check_dir" "$check_dir" "$1"
}
deny=$(cd "$check_dir" && payload 'rm -rf /' | "$BINDIR/harness-hook$exe" --event PreToolUse 2>"$check_dir/err") ||
	die "self-check: harness-hook exited non-zero on a PreToolUse payload: $(cat "$check_dir/err")"
case "$deny" in
*'"permissionDecision"'*'"deny"'*) ;;
*) die "self-check: harness-hook did not deny 'rm -rf /'; it answered: $deny" ;;
esac
allow=$(cd "$check_dir" && payload 'go test ./...' | "$BINDIR/harness-hook$exe" --event PreToolUse 2>"$check_dir/err") ||
	die "self-check: harness-hook exited non-zero on a harmless payload: $(cat "$check_dir/err")"
case "$allow" in
*'"deny"'*) die "self-check: harness-hook denied 'go test ./...': $allow" ;;
esac

printf 'self-check ok: harness %s; harness-hook denies rm -rf / and lets go test through\n' "$VERSION"
say "done. Guard a project with: harness install --project DIR (or --user for every project); see harness install --help"
case ":$PATH:" in
*":$BINDIR:"*) ;;
*) printf 'note: %s is not on your PATH; add it, e.g. export PATH="%s:$PATH"\n' "$BINDIR" "$BINDIR" ;;
esac
