package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// FuzzValidateStateFiles: validate over arbitrary content in the JSON state
// files and eval_log (issue 6 hostile input). Whatever the bytes, Validate
// and FinalizeCheck must not panic or fail internally, must report the same
// findings twice (deterministic), and must never call a workspace valid when
// a state file does not even parse as JSON.
func FuzzValidateStateFiles(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `"x"`, `{"version":"1.2"}`, "{\"a\":1}\n{\"b\":", "\xff\xfe\x00",
		`{"features":[{"id":"f001","depends_on":["f001"],"next_phases":[{"phase":1e309}]}]}`,
		`{"timestamp":"2026-04-21T00:00:00+08:00","supersedes_line":-1,"reason":"补录: x"}`,
	} {
		for file := uint8(0); file < 4; file++ {
			f.Add(file, []byte(seed))
		}
	}
	src := testutil.Testdata(f, "sprints", "valid-midway")
	files := []string{"feature_list.json", "runtime_state.json", "session_pool.json", "eval_log.jsonl"}
	f.Fuzz(func(t *testing.T, which uint8, content []byte) {
		root := t.TempDir()
		testutil.CopyTree(t, src, root)
		name := files[int(which)%len(files)]
		if err := os.WriteFile(filepath.Join(root, ".harness", name), content, 0o644); err != nil {
			t.Fatal(err)
		}
		r1, err := Validate(root)
		if err != nil {
			t.Fatalf("Validate internal error on %s: %v", name, err)
		}
		r2, err := Validate(root)
		if err != nil || !reflect.DeepEqual(r1.Findings, r2.Findings) {
			t.Fatalf("Validate is not deterministic on %s", name)
		}
		if _, err := FinalizeCheck(root); err != nil {
			t.Fatalf("FinalizeCheck internal error on %s: %v", name, err)
		}
		if name != "eval_log.jsonl" && !jsonObject(content) && r1.Valid() {
			t.Fatalf("%s holding %q was judged valid", name, content)
		}
	})
}

// jsonObject reports whether b parses as one JSON object.
func jsonObject(b []byte) bool {
	var v map[string]any
	return json.Unmarshal(b, &v) == nil && v != nil
}
