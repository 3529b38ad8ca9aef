package pathguard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/shell/codelex"
)

// FuzzScanCode: judging the file writes of arbitrary interpreter code, in
// every language codelex lexes, never panics.
func FuzzScanCode(f *testing.F) {
	for _, s := range []string{
		`open('a','w')`, `Path('a') / 'b').write_text(`, `(Path('x'`, `open(F, ">>`, `File.write "a`,
		`fs.writeFileSync(` + "`${a}`" + `, {flag: 'a'})`, `"""a""" + 'b'`, `$x = "a$`, `#{`, `).unlink()`, `'\`,
	} {
		f.Add(s)
	}
	root := f.TempDir()
	g, err := New(root, "f002")
	if err != nil {
		f.Fatal(err)
	}
	langs := []codelex.Lang{codelex.Python, codelex.Node, codelex.Perl, codelex.Ruby, codelex.PHP, codelex.Lua, codelex.R, codelex.Julia, codelex.AppleScript}
	f.Fuzz(func(t *testing.T, code string) {
		var made []madeLink
		for _, lang := range langs {
			c := collector{g: g, cwd: root, base: root, made: &made}
			c.codeWrites(codelex.Analyze(lang, code, codelex.Options{}))
		}
	})
}

// FuzzCheckInvocation: any program name and argument words give a decision
// without panicking.
func FuzzCheckInvocation(f *testing.F) {
	progs := []string{"sed", "perl", "ruby", "awk", "yq", "tar", "curl", "wget", "git", "patch", "cp", "mv", "ln", "rsync",
		"install", "rm", "find", "python3", "node", "ruff", "npx", "uv", "split", "7z", "mktemp", "rename", "dd", "tee"}
	f.Add(uint8(0), "-i\x00s/a/b/\x00spec/x")
	f.Add(uint8(8), "apply\x00-p\x00--directory=")
	f.Add(uint8(6), "-O\x00--output-dir\x00")
	root := f.TempDir()
	g, err := New(root, "f002")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p uint8, args string) {
		inv := shell.Invocation{Program: progs[int(p)%len(progs)]}
		for _, a := range strings.Split(args, "\x00") {
			inv.Args = append(inv.Args, shell.Word{Value: a, Known: !strings.Contains(a, "$"), Raw: a})
		}
		stdin := args
		inv.Stdin = &stdin
		inv.Redirects = []shell.Redirect{{Op: ">&", Target: shell.Word{Value: args, Raw: args}}}
		if p%2 == 0 {
			inv.Listing = &shell.Listing{Roots: strings.Fields(args)}
		} else {
			inv.Listing = &shell.Listing{Dir: shell.DirUnknown}
		}
		_ = g.CheckInvocation(inv, root)
	})
}

// FuzzCheckTool: malformed tool_input never panics and never allows
// without a path.
func FuzzCheckTool(f *testing.F) {
	f.Add("Edit", `{"file_path":"a","old_string":"x"}`)
	f.Add("MultiEdit", `{"file_path":"a","edits":[{"old_string":null}]}`)
	f.Add("NotebookEdit", `{"notebook_path":1}`)
	root := f.TempDir()
	g, err := New(root, "f002")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, tool, input string) {
		d := g.CheckTool(tool, json.RawMessage(input), root)
		var probe struct {
			FilePath     *string `json:"file_path"`
			NotebookPath *string `json:"notebook_path"`
		}
		if json.Unmarshal([]byte(input), &probe) != nil && d.Action.String() != "block" {
			t.Fatalf("malformed input %q allowed", input)
		}
	})
}
