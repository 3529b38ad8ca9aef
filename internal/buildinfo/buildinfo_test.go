package buildinfo

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	got := Get("v1.2.3", "abcdef1234567890", "2026-12-01T20:00:00Z").Line("harness")
	if got != "harness v1.2.3 (commit abcdef1, built 2026-12-01T20:00:00Z)" {
		t.Fatalf("stamped: %q", got)
	}
	got = Info{Version: "dev"}.Line("harness-hook")
	if got != "harness-hook dev (commit unknown, build date unknown, a development build)" {
		t.Fatalf("unstamped: %q", got)
	}
	if got := Get("", "", "").Line("harness"); !strings.HasPrefix(got, "harness dev (commit ") || !strings.HasSuffix(got, "a development build)") {
		t.Fatalf("dev build: %q", got)
	}
}
