package pathguard

import "testing"

// TestOpensslOutputSpellings: openssl writes its -out and -keyout files in every spelling its own
// parser takes: -opt VALUE, -opt=VALUE, --opt VALUE, --opt=VALUE.
func TestOpensslOutputSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"openssl rand -out SKILL.md 16", "block"},
		{"openssl rand -out=SKILL.md 16", "block"},
		{"openssl rand --out SKILL.md 16", "block"},
		{"openssl rand --out=SKILL.md 16", "block"},
		{"openssl req -new -keyout spec/k.pem -out build/r.csr", "block"},
		{"openssl req -new -keyout=spec/k.pem -out build/r.csr", "block"},
		{`openssl rand -out "$HARNESS_ROOT/SKILL.md" 16`, "block"},
		{`openssl rand -out="$HARNESS_ROOT/SKILL.md" 16`, "block"},
		{"openssl rand -out build/r 16", "allow"},
		{"openssl enc -in SKILL.md -out build/x", "allow"},
	})
}
