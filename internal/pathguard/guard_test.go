package pathguard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

func mustGuard(t testing.TB, root, feature string) *Guard {
	t.Helper()
	g, err := New(root, feature)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func symlink(t testing.TB, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func toolInput(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(path string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"file_path": path, "content": "x"})
	return b
}

func TestNewRoot(t *testing.T) {
	if _, err := New("", "f002"); err == nil {
		t.Fatal("empty root accepted")
	}
	root := newWorkspace(t)
	g := mustGuard(t, root+string(filepath.Separator)+".", "f002")
	if g.Root() != root {
		t.Fatalf("lexical root %q, want %q", g.Root(), root)
	}
	real, _ := filepath.EvalSymlinks(root)
	if g.RootPhysical() != real {
		t.Fatalf("physical root %q, want %q", g.RootPhysical(), real)
	}
	if g.Feature() != "f002" {
		t.Fatal(g.Feature())
	}
	// A root that does not exist yet resolves as far as it exists.
	missing := filepath.Join(root, "nope", "deeper")
	if g2 := mustGuard(t, missing, ""); g2.RootPhysical() != filepath.Join(real, "nope", "deeper") {
		t.Fatalf("missing root resolved to %q", g2.RootPhysical())
	}
}

func TestResolveDotDotAfterSymlink(t *testing.T) {
	root := newWorkspace(t)
	symlink(t, filepath.Join("..", "schemas"), filepath.Join(root, "src", "sch"))
	g := mustGuard(t, root, "f002")
	tg := g.resolve(root, "src/sch/../README.md")
	if want := filepath.Join(root, "src", "README.md"); tg.lex != want {
		t.Fatalf("lexical %q, want %q", tg.lex, want)
	}
	if want := filepath.Join(g.RootPhysical(), "README.md"); tg.phys != want {
		t.Fatalf("physical %q, want %q", tg.phys, want)
	}
	d := g.CheckTool("Write", write("src/sch/../README.md"), root)
	if d.Action != verdict.Block || d.Family != FamilyReadonlyFile {
		t.Fatalf("write through link and ..: %+v", d)
	}
	// The lexical form alone protects a link that leads out of a protected dir.
	symlink(t, filepath.Join("..", "build"), filepath.Join(root, "templates", "out"))
	if d := g.CheckTool("Write", write(filepath.Join(root, "templates", "out", "x.md")), root); d.Action != verdict.Block {
		t.Fatalf("templates/out -> build: %+v", d)
	}
	// A link to a harmless place from a harmless place stays allowed.
	symlink(t, filepath.Join("..", "src"), filepath.Join(root, "research", "s"))
	if d := g.CheckTool("Write", write("research/s/x.go"), root); d.Action != verdict.Allow {
		t.Fatalf("research/s -> src: %+v", d)
	}
}

func TestResolveAbsoluteLinkAndLinkedRoot(t *testing.T) {
	root := newWorkspace(t)
	parent := filepath.Dir(root)
	symlink(t, filepath.Join(root, "spec"), filepath.Join(root, "docs", "abs"))
	symlink(t, root, filepath.Join(parent, "sprint_20260421_1-cur"))
	symlink(t, filepath.Join(root, ".harness", "features", "f002"), filepath.Join(parent, "sprint_20260421_1-f2"))
	for _, r := range []string{root, filepath.Join(parent, "sprint_20260421_1-cur")} {
		g := mustGuard(t, r, "f002")
		for _, c := range []struct {
			path, want string
		}{
			{filepath.Join(root, "docs", "abs", "x.md"), "block"},
			{filepath.Join(root, "schemas", "a.json"), "block"},
			{filepath.Join(parent, "sprint_20260421_1-cur", "SKILL.md"), "block"},
			{filepath.Join(parent, "sprint_20260421_1-cur", "src", "app.go"), "allow"},
			{filepath.Join(parent, "sprint_20260421_1-f2", "notes.md"), "allow"},
			{filepath.Join(parent, "sprint_20260421_1-f2", "generator_log.md"), "block"},
			{filepath.Join(parent, "sprint_20260421_1-old", "SKILL.md"), "allow"},
		} {
			if d := g.CheckTool("Write", write(c.path), root); d.Action.String() != c.want {
				t.Errorf("root %s: Write %s: got %s %s, want %s", r, c.path, d.Action, d.Rule, c.want)
			}
		}
	}
}

func TestResolveSymlinkLoop(t *testing.T) {
	root := newWorkspace(t)
	symlink(t, "b", filepath.Join(root, "src", "a"))
	symlink(t, "a", filepath.Join(root, "src", "b"))
	g := mustGuard(t, root, "f002")
	tg := g.resolve(root, "src/a/x.md")
	if !tg.loop {
		t.Fatalf("loop not detected: %+v", tg)
	}
	d := g.CheckTool("Write", write("src/a/x.md"), root)
	if d.Action != verdict.Block || d.Rule != "path.unresolvable" {
		t.Fatalf("loop inside the root: %+v", d)
	}
	// A self-loop outside the root cannot lead into it.
	outside := t.TempDir()
	symlink(t, "self", filepath.Join(outside, "self"))
	if d := g.CheckTool("Write", write(filepath.Join(outside, "self", "x")), root); d.Action != verdict.Allow {
		t.Fatalf("loop outside the root: %+v", d)
	}
}

func TestResolveBoundedSteps(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	long := strings.Repeat("src/../", maxSteps) + "SKILL.md"
	tg := g.resolve(root, long)
	if !tg.loop {
		t.Fatalf("a %d-component walk was not bounded", 2*maxSteps)
	}
	if d := g.CheckTool("Write", write(long), root); d.Action != verdict.Block {
		t.Fatalf("unbounded path allowed: %+v", d.Rule)
	}
	short := strings.Repeat("src/../", 10) + "src/app.go"
	if tg := g.resolve(root, short); tg.loop || tg.phys != filepath.Join(g.RootPhysical(), "src", "app.go") {
		t.Fatalf("short walk: %+v", tg)
	}
}

func TestNamesCaseInsensitive(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	for _, c := range []struct {
		path, family string
	}{
		{"Spec/Index.md", FamilyReadonlyDir},
		{"readme.md", FamilyReadonlyFile},
		{"Skill.MD", FamilyReadonlyFile},
		{".HARNESS/EVAL_LOG.JSONL", FamilyEvalLog},
		{".harness/Feature_List.json", FamilyStateViaCLI},
		{".harness/features/F002/notes.md", FamilyOtherFeature},
		{".harness/features/f0020/notes.md", FamilyOtherFeature},
		{".harness/features/f002-old/notes.md", FamilyOtherFeature},
		{".harness/FEATURES/f002/Generator_Log.md", FamilyGeneratorLog},
		{".Claude/Settings.json", FamilyReadonlyFile},
		{".harness/features/f002/.Claude/x", FamilyReadonlyFile},
		{".harness/Sprint_Contracts/s1/Contract.json", FamilyContract},
		{".harness/LOGS/x.log", FamilyHookLog},
		{".harness/features/f002/GENERATOR_LOG.MD", FamilyGeneratorLog},
		// Unicode case folding (testdata/corpus/README.md §9.4)
		{"S\u212aILL.md", FamilyReadonlyFile},
		{"\u017fchemas/x.json", FamilyReadonlyDir},
		{".harne\u017fs/feature_list.json", FamilyStateViaCLI},
		{".harne\u017fs/features/f001/x.md", FamilyOtherFeature},
		{".harne\u017fs/features/f002/generator_log.md", FamilyGeneratorLog},
		{".claude/Commands/x.md", FamilyClaudeConfig},
		{".claude/\u017fkills/x/SKILL.md", FamilyClaudeConfig},
		{"", ""},
	} {
		if c.path == "" {
			continue
		}
		d := g.CheckTool("Write", write(c.path), root)
		if d.Action != verdict.Block || d.Family != c.family {
			t.Errorf("Write %s: got %s %s, want block %s", c.path, d.Action, d.Family, c.family)
		}
	}
	for _, p := range []string{"src/Spec/x", "sp\u0435c/x.md", ".harness/features/f002/generator_log.md.tmp", "docs/README.md", ".harness/features/index.json", ".harness/features/f002/notes.md",
		".harness/features/f002/claude/settings.json", ".claude/commandsx.md", "skills.md", "SKILL.md.bak", "schemas-draft/x"} {
		if d := g.CheckTool("Write", write(p), root); d.Action != verdict.Allow {
			t.Errorf("Write %s: got %+v, want allow", p, d)
		}
	}
}

func TestRelTo(t *testing.T) {
	base := filepath.Join(string(filepath.Separator)+"home", "u", "sprint_20260421_1")
	for _, c := range []struct {
		p    string
		rel  string
		ok   bool
		note string
	}{
		{base, ".", true, "root itself"},
		{filepath.Join(base, "a", "b"), "a/b", true, "below"},
		{base + "-old" + string(filepath.Separator) + "x", "", false, "prefix trap"},
		{filepath.Join(strings.ToUpper(base), "x"), "x", true, "case-insensitive"},
		{filepath.Dir(base), "", false, "above"},
	} {
		rel, ok := relTo(base, c.p)
		if ok != c.ok || rel != c.rel {
			t.Errorf("%s: relTo(%q, %q) = %q, %v", c.note, base, c.p, rel, ok)
		}
	}
	vol := filepath.VolumeName(base) + string(filepath.Separator)
	if rel, ok := relTo(vol, filepath.Join(vol, "x", "y")); !ok || rel != "x/y" {
		t.Errorf("volume root: %q %v", rel, ok)
	}
	if runtime.GOOS == "windows" {
		if rel, ok := relTo(`C:\work\s`, `c:\WORK\s\schemas\a`); !ok || rel != "schemas/a" {
			t.Errorf("windows drive letters: %q %v", rel, ok)
		}
	}
}

func TestCheckToolBadInput(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	for _, c := range []struct {
		tool, input string
	}{
		{"Write", `not json`},
		{"Write", `{"content":"x"}`},
		{"Write", `{"file_path":""}`},
		{"Write", `{"file_path":42}`},
		{"Edit", `{"file_path":"src/app.go","new_string":"x"}`},
		{"MultiEdit", `{"file_path":"src/app.go","edits":[]}`},
		{"MultiEdit", `{"file_path":"src/app.go","edits":[{"new_string":"x"}]}`},
		{"NotebookEdit", `{"file_path":"src/a.ipynb","new_source":"x"}`},
		{"Read", `{"file_path":"src/app.go"}`},
		{"Write", `[]`},
		{"Write", `null`},
	} {
		d := g.CheckTool(c.tool, json.RawMessage(c.input), root)
		if d.Action != verdict.Block || d.Rule != "path.bad-input" || d.Message == "" {
			t.Errorf("%s %s: got %+v, want a bad-input block", c.tool, c.input, d)
		}
	}
	if d := g.CheckTool("Edit", json.RawMessage(`{"file_path":"src/app.go","old_string":"a","new_string":"b"}`), root); d.Action != verdict.Allow {
		t.Fatalf("plain edit: %+v", d)
	}
}

func TestCheckToolPerTool(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	glog := ".harness/features/f002/generator_log.md"
	edit := toolInput(t, map[string]any{"file_path": glog, "old_string": "a", "new_string": "b"})
	multi := toolInput(t, map[string]any{"file_path": glog, "edits": []map[string]string{{"old_string": "a", "new_string": "b"}}})
	nb := toolInput(t, map[string]any{"notebook_path": glog, "new_source": "x"})
	for _, c := range []struct {
		tool  string
		input json.RawMessage
		want  verdict.Action
	}{
		{"Edit", edit, verdict.Allow},
		{"MultiEdit", multi, verdict.Allow},
		{"Write", write(glog), verdict.Block},
		{"NotebookEdit", nb, verdict.Block},
		{"Edit", toolInput(t, map[string]any{"file_path": ".harness/eval_log.jsonl", "old_string": "a", "new_string": "b"}), verdict.Block},
	} {
		if d := g.CheckTool(c.tool, c.input, root); d.Action != c.want {
			t.Errorf("%s: got %+v, want %s", c.tool, d, c.want)
		}
	}
}

func TestToolingSection6(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	tooling := filepath.Join(root, ".harness", "sprint_contracts", "s1", "tooling.md")
	content := "# T\n\n## 5. rules\n\n- TBD\n- keep\n\n" + Section6Heading + "(x)\n\n- TBD\n- new\n"
	if err := os.WriteFile(tooling, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := func(old string, all bool) json.RawMessage {
		return toolInput(t, map[string]any{"file_path": tooling, "old_string": old, "new_string": "z", "replace_all": all})
	}
	multi := func(olds ...string) json.RawMessage {
		var es []map[string]string
		for _, o := range olds {
			es = append(es, map[string]string{"old_string": o, "new_string": o + "!"})
		}
		return toolInput(t, map[string]any{"file_path": tooling, "edits": es})
	}
	for _, c := range []struct {
		name  string
		tool  string
		input json.RawMessage
		want  verdict.Action
	}{
		{"after the heading", "Edit", edit("- new", false), verdict.Allow},
		{"first occurrence before the heading", "Edit", edit("- TBD", false), verdict.Block},
		{"replace_all with an occurrence before", "Edit", edit("- TBD", true), verdict.Block},
		{"replace_all, all after", "Edit", edit("- new", true), verdict.Allow},
		{"the heading line itself", "Edit", edit(Section6Heading, false), verdict.Block},
		{"tail of the heading line", "Edit", edit("(x)", false), verdict.Block},
		{"not in the file", "Edit", edit("- missing", false), verdict.Block},
		{"empty old_string", "Edit", edit("", false), verdict.Block},
		{"before the heading", "Edit", edit("- keep", false), verdict.Block},
		{"multi all after", "MultiEdit", multi("- new", "\n- TBD\n- new"), verdict.Allow},
		{"multi second only after the first edit", "MultiEdit", multi("- new", "- new!"), verdict.Block},
		{"multi one before", "MultiEdit", multi("- new", "- keep"), verdict.Block},
		{"write", "Write", write(tooling), verdict.Block},
		{"notebook", "NotebookEdit", toolInput(t, map[string]any{"notebook_path": tooling, "new_source": "x"}), verdict.Block},
	} {
		d := g.CheckTool(c.tool, c.input, root)
		if d.Action != c.want {
			t.Errorf("%s: got %s (%s), want %s", c.name, d.Action, d.Message, c.want)
		}
		if d.Action == verdict.Block && c.tool != "Write" && c.tool != "NotebookEdit" && !strings.Contains(d.Hint, "## 6") {
			t.Errorf("%s: hint %q does not name the section-6 heading", c.name, d.Hint)
		}
	}
	// Without the heading nothing may change, and Bash appends are refused too.
	if err := os.WriteFile(tooling, []byte("# T\n\n- new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := g.CheckTool("Edit", edit("- new", false), root); d.Action != verdict.Block {
		t.Errorf("no heading: %+v", d)
	}
	if d := bashDecide(g, "echo x >> "+tooling, root, nil); d.Action != verdict.Block {
		t.Errorf("bash append without heading: %+v", d)
	}
	if err := os.Remove(tooling); err != nil {
		t.Fatal(err)
	}
	if d := g.CheckTool("Edit", edit("- new", false), root); d.Action != verdict.Block {
		t.Errorf("missing file: %+v", d)
	}
	// A heading that is not at the start of a line does not count.
	if err := os.WriteFile(tooling, []byte("# T\n> "+Section6Heading+"\n- new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := g.CheckTool("Edit", edit("- new", false), root); d.Action != verdict.Block {
		t.Errorf("indented heading: %+v", d)
	}
}

func TestSection6End(t *testing.T) {
	h := Section6Heading
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", -1},
		{h, len(h)},
		{h + "\nx", len(h) + 1},
		{"a\n" + h + "(x)\n", len("a\n" + h + "(x)\n")},
		{"a " + h + "\n", -1},
		{"## 6. other\n", -1},
	} {
		if got := section6End([]byte(c.in)); got != c.want {
			t.Errorf("section6End(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// FuzzNormalize: path normalisation never panics, is idempotent and yields
// an absolute path; the physical walk of arbitrary text terminates.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", ".", "..", "a/../../b", "//x//./y/", `C:\x\..\y`, "~/a", "a\x00b", strings.Repeat("../", 50), "/a/b/../../../../c"} {
		f.Add("/base/dir", s)
	}
	root := f.TempDir()
	g, err := New(root, "f002")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, base, p string) {
		if !filepath.IsAbs(base) {
			base = filepath.Join(root, base)
		}
		n := Normalize(base, p)
		if !filepath.IsAbs(n) {
			t.Fatalf("Normalize(%q, %q) = %q is not absolute", base, p, n)
		}
		if again := Normalize(base, n); again != n {
			t.Fatalf("not idempotent: %q → %q", n, again)
		}
		tg := g.resolve(root, p)
		if tg.lex == "" || tg.phys == "" {
			t.Fatalf("empty form for %q: %+v", p, tg)
		}
		_, _ = relTo(g.rootLex, tg.lex)
	})
}

func BenchmarkCheckToolEdit(b *testing.B) {
	root := newWorkspace(b)
	g := mustGuard(b, root, "f002")
	in := json.RawMessage(`{"file_path":"` + filepath.ToSlash(filepath.Join(root, "src", "hook", "bash.go")) + `","old_string":"func main() {","new_string":"func main() {\n\tlog.Println(1)"}`)
	cwd := root
	b.ReportAllocs()
	for b.Loop() {
		if d := g.CheckTool("Edit", in, cwd); d.Action != verdict.Allow {
			b.Fatal(d)
		}
	}
}

// BenchmarkNewAndCheckToolEdit is the hook's whole path-guard cost for one
// Edit: the guard is built per call (root EvalSymlinks included).
func BenchmarkNewAndCheckToolEdit(b *testing.B) {
	root := newWorkspace(b)
	in := json.RawMessage(`{"file_path":"src/app.go","old_string":"a","new_string":"b"}`)
	b.ReportAllocs()
	for b.Loop() {
		g, err := New(root, "f002")
		if err != nil {
			b.Fatal(err)
		}
		if d := g.CheckTool("Edit", in, root); d.Action != verdict.Allow {
			b.Fatal(d)
		}
	}
}

func BenchmarkCheckToolEditProtected(b *testing.B) {
	root := newWorkspace(b)
	g := mustGuard(b, root, "f002")
	in := json.RawMessage(`{"file_path":"spec/index.md","old_string":"a","new_string":"b"}`)
	b.ReportAllocs()
	for b.Loop() {
		if d := g.CheckTool("Edit", in, root); d.Action != verdict.Block {
			b.Fatal(d)
		}
	}
}

func BenchmarkCheckInvocationRedirect(b *testing.B) {
	root := newWorkspace(b)
	g := mustGuard(b, root, "f002")
	res := bashParse("go test ./... 2>&1 | tail -5 >> .harness/features/f002/generator_log.md")
	b.ReportAllocs()
	for b.Loop() {
		for _, inv := range res {
			if d := g.CheckInvocation(inv, root); d.Action != verdict.Allow {
				b.Fatal(d)
			}
		}
	}
}
