package records_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/testutil"
	"github.com/superagent-harness/harness/internal/validate"
	"github.com/superagent-harness/harness/internal/workspace"
)

// After `harness phase complete`, the workspace still passes validate.
func TestCompletePhaseLeavesWorkspaceValid(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "sprints", "valid-midway")
	root := t.TempDir()
	testutil.CopyTree(t, src, root)
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	add := func(path, text string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	add(ws.GeneratorLog("f001"), "\n## phase=2 implement — 2026-04-21T02:58:00Z\n\n### 做了什么\n实现 internal/extract/extract.go 与 position.go,三种链接语法均有表驱动测试。\n\n### 关键决策\n- 按常规实现,无特殊决策。\n")
	add(ws.EvalLog(), `{"timestamp":"2026-04-21T02:58:30Z","sprint_id":"sprint_20260421_1","feature_id":"f001","phase":2,"event_type":"phase_evaluation","result":"pass","reason":"实现 extractor 包,go build 与 go vet 通过"}`+"\n")
	if r, err := records.CompletePhase(ws, "f001"); err != nil {
		t.Fatal(err, r.Reason())
	}
	rep, err := validate.Validate(root)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Valid() {
		t.Fatalf("workspace invalid after phase complete:\n%s", rep)
	}
	if r, _ := records.CheckPhase(ws, "f001"); !r.OK() {
		t.Fatalf("Stop still blocks:\n%s", r.Reason())
	}
}
