package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/cli"
	"github.com/superagent-harness/harness/internal/testutil"
)

// TestSprintFixtures runs `harness validate` / `harness finalize --check`
// through cli.Run on a copy of every fixture whose expectation names one of
// those commands, in both output modes: the exit code must match (0 pass, 1
// fail), every must_mention string must occur in the output, and the
// workspace must be left unchanged.
func TestSprintFixtures(t *testing.T) {
	cases := testutil.SprintCases(t)
	ran := 0
	for _, c := range cases {
		var args []string
		switch c.Command {
		case "validate":
			args = []string{"validate"}
		case "finalize-check":
			args = []string{"finalize", "--check"}
		default:
			continue // stop cases belong to the hook's tests
		}
		ran++
		name := filepath.Base(c.Dir) + "/" + c.Command
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "ws")
			testutil.CopyTree(t, c.Dir, root)
			testutil.SetMTimes(t, root, c.MtimeAgeSeconds, time.Now())
			before := snapshot(t, root)
			want := 0
			if c.Expect == "fail" {
				want = 1
			}
			for _, asJSON := range []bool{false, true} {
				a := append([]string{}, args...)
				if asJSON {
					a = append(a, "--json")
				}
				a = append(a, "--root", root)
				var out, errb bytes.Buffer
				code := cli.Run(a, strings.NewReader(""), &out, &errb, map[string]string{}, "test")
				if code != want {
					t.Fatalf("harness %v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", a, code, want, out.String(), errb.String())
				}
				text := out.String() + errb.String()
				if asJSON {
					var env struct {
						Data struct {
							Valid    *bool `json:"valid"`
							Findings []struct {
								File, Rule, Severity, Message string
								Line                          int
								Pointer                       string
							} `json:"findings"`
						} `json:"data"`
					}
					if err := json.Unmarshal(out.Bytes(), &env); err != nil || env.Data.Valid == nil {
						t.Fatalf("--json output is not an envelope with data {valid, findings}: %v\n%s", err, out.String())
					}
					rep := env.Data
					if *rep.Valid != (want == 0) {
						t.Fatalf("--json valid=%v with exit %d", *rep.Valid, code)
					}
					// must_mention must hold on the decoded text too.
					var b strings.Builder
					for _, f := range rep.Findings {
						b.WriteString(f.File + " " + f.Rule + " " + f.Message + "\n")
						if f.Line > 0 {
							b.WriteString(f.File + ":" + itoa(f.Line) + "\n")
						}
					}
					text = b.String()
				}
				for _, m := range c.MustMention {
					if !strings.Contains(text, m) {
						t.Errorf("json=%v: output lacks %q:\n%s", asJSON, m, text)
					}
				}
			}
			if after := snapshot(t, root); !equalSnap(before, after) {
				t.Fatal("the command modified the workspace")
			}
		})
	}
	if ran < 30 {
		t.Fatalf("only %d validate/finalize expectations found", ran)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// snapshot maps every file under root to its content and mtime.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			m[p] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m[p] = info.ModTime().String() + "\x00" + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func equalSnap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
