package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/cli"
)

// TestMissingWorkspaceIsOneError: `harness next` and `harness validate` (and
// the other commands that need a sprint workspace) answer a missing one with
// the same text, exit code and --json error, whether nothing is found above
// the working directory or the named root does not exist, is a file, or has
// no .harness/. Before, next said ".harness/feature_list.json is missing
// (harness validate says what is wrong)" and validate "validate DIR: DIR: not
// a sprint workspace (no .harness/ directory)" for the same folder, and both
// "sprint root: stat DIR: no such file or directory" for a missing one.
func TestMissingWorkspaceIsOneError(t *testing.T) {
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "empty")
	file := filepath.Join(tmp, "file")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(empty)
	cases := []struct {
		name, root, want string
	}{
		{"none above the working directory", "", "harness: no sprint workspace: pass --root"},
		{"no .harness", empty, "harness: no sprint workspace at " + empty + " (no .harness/ directory): pass --root"},
		{"missing", filepath.Join(tmp, "gone"), "harness: no sprint workspace at " + filepath.Join(tmp, "gone") + " (it does not exist): pass --root"},
		{"a file", file, "harness: no sprint workspace at " + file + " (it is not a directory): pass --root"},
	}
	commands := [][]string{{"next"}, {"validate"}, {"status"}, {"finalize"}, {"phase", "complete", "f001"}, {"init-feature", "f001"}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var firstText string
			for _, c := range commands {
				args := append([]string(nil), c...)
				if tc.root != "" {
					args = append(args, "--root", tc.root)
				}
				var out, errb bytes.Buffer
				code := cli.Run(args, strings.NewReader(""), &out, &errb, map[string]string{}, "test")
				if code != cli.ExitUsage || out.Len() != 0 || !strings.HasPrefix(errb.String(), tc.want) {
					t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q…", args, code, out.String(), errb.String(), tc.want)
				}
				if firstText == "" {
					firstText = errb.String()
				} else if errb.String() != firstText {
					t.Errorf("%v: %q differs from %s's %q", args, errb.String(), commands[0][0], firstText)
				}
				out.Reset()
				errb.Reset()
				code = cli.Run(append(args, "--json"), strings.NewReader(""), &out, &errb, map[string]string{}, "test")
				var env struct {
					OK      bool
					Command string
					Data    map[string]any
					Error   struct {
						Message  string
						ExitCode int `json:"exit_code"`
					}
				}
				if err := json.Unmarshal(out.Bytes(), &env); err != nil {
					t.Fatalf("%v --json: %v\n%s", args, err, out.String())
				}
				if code != cli.ExitUsage || env.OK || env.Command != strings.Join(c, " ") && env.Command != strings.Join(c[:len(c)-1], " ") ||
					len(env.Data) != 0 || env.Error.ExitCode != cli.ExitUsage || "harness: "+env.Error.Message+"\n" != firstText {
					t.Errorf("%v --json: exit %d, envelope %+v; want the text error %q", args, code, env, firstText)
				}
			}
		})
	}
}
