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

// TestPythonModuleSpellings: python -m MODULE runs the module as its own program (the option model
// reads -m in its cluster, attached or not, after -u or -W VALUE).
func TestPythonModuleSpellings(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"python3 -m black spec/x.py", "block"},
		{"python3 -mblack spec/x.py", "block"},
		{"python3 -u -m black spec/x.py", "block"},
		{"python3 -W ignore -m black spec/x.py", "block"},
		{"python3 -Wignore -m isort spec/x.py", "block"},
		{"python3 -m black --check spec/x.py", "allow"},
		{"python3 -m pip install --target spec x", "block"},
		{"python3 -m pip install --target build x", "allow"},
		{"python3 -c 'print(1)' -m black spec/x.py", "allow"},
		{"python3 script.py -m black spec/x.py", "allow"},
	})
}
