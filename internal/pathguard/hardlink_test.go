package pathguard

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// TestHardLinkIsTheFile: a write through another hard link of a protected
// file is a write to that file (testdata/corpus/README.md §9.4), inside or
// outside the root, for the file tools and Bash; removing one name, and links
// between unprotected files, stay allowed.
func TestHardLinkIsTheFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("hard-link counts are not read on Windows (nlink_other.go)")
	}
	root := newWorkspace(t)
	out := t.TempDir()
	link := func(src, dst string) {
		t.Helper()
		if err := os.Link(filepath.Join(root, src), dst); err != nil {
			t.Fatal(err)
		}
	}
	link("SKILL.md", filepath.Join(root, "docs", "skill.md"))
	link(".harness/eval_log.jsonl", filepath.Join(out, "el.jsonl"))
	link("spec/index.md", filepath.Join(root, "research", "i.md"))
	if err := os.WriteFile(filepath.Join(root, "docs", "a.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link("docs/a.md", filepath.Join(root, "docs", "b.md"))
	gen, hermes := mustGuard(t, root, "f002"), mustGuard(t, root, "")
	for _, c := range []struct {
		g            *Guard
		tool, path   string
		want, family string
	}{
		{gen, "Write", "docs/skill.md", "block", FamilyReadonlyFile},
		{gen, "Edit", "docs/skill.md", "block", FamilyReadonlyFile},
		{gen, "Write", filepath.Join(out, "el.jsonl"), "block", FamilyEvalLog},
		{gen, "Write", "docs/b.md", "allow", ""},
		{hermes, "Write", "research/i.md", "block", FamilyReadonlyDir},
	} {
		in := write(c.path)
		if c.tool == "Edit" {
			in = []byte(`{"file_path":"` + c.path + `","old_string":"a","new_string":"b"}`)
		}
		d := c.g.CheckTool(c.tool, in, root)
		if d.Action.String() != c.want || d.Family != c.family {
			t.Errorf("%s %s: got %s %s (%s), want %s %s", c.tool, c.path, d.Action, d.Family, d.Message, c.want, c.family)
		}
	}
	for _, c := range []struct {
		g         *Guard
		cmd, want string
	}{
		{gen, "echo x >> docs/skill.md", "block"},
		{gen, "echo '{}' >> " + filepath.Join(out, "el.jsonl"), "block"}, // an append to eval_log in a Generator session
		{hermes, "echo '{}' >> " + filepath.Join(out, "el.jsonl"), "allow"},
		{hermes, "echo x > " + filepath.Join(out, "el.jsonl"), "block"},
		{gen, "rm docs/skill.md", "allow"}, // one name less; SKILL.md is unchanged
		{gen, "echo x >> docs/b.md", "allow"},
	} {
		if d := bashDecide(c.g, c.cmd, root, nil); d.Action.String() != c.want {
			t.Errorf("%s (feature %q): got %s %s, want %s", c.cmd, c.g.Feature(), d.Action, d.Rule, c.want)
		}
	}
	if d := gen.CheckTool("Write", write("docs/new.md"), root); d.Action != verdict.Allow {
		t.Errorf("a new file: %+v", d)
	}
}
