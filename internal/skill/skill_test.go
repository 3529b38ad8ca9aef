package skill

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/superagent-harness/harness/internal/testutil"
)

// The shipped skill's front matter follows the Agent Skills format, and the
// skill is laid out as the format asks: SKILL.md lean, details in
// references/ that SKILL.md links to, every link resolving.
func TestShippedSkillFollowsTheFormat(t *testing.T) {
	files, err := Files(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	md := files["SKILL.md"]
	fm, body, err := Parse(md, Name)
	if err != nil {
		t.Fatal(err)
	}
	if fm.Name != Name || !strings.Contains(fm.Description, "Use when") || fm.Metadata["category"] != Category {
		t.Errorf("front matter %+v", fm)
	}
	if lines := strings.Count(string(body), "\n"); lines > 500 {
		t.Errorf("SKILL.md body has %d lines; keep it under 500 and move details to references/", lines)
	}
	wantRefs := []string{"references/evaluating.md", "references/finalizing.md", "references/hermes-reset.md",
		"references/planning.md", "references/task-runner.md"}
	var refs []string
	for p := range files {
		if strings.HasPrefix(p, "references/") {
			refs = append(refs, p)
		}
	}
	sort.Strings(refs)
	if strings.Join(refs, ",") != strings.Join(wantRefs, ",") {
		t.Errorf("references %v, want %v", refs, wantRefs)
	}
	link := regexp.MustCompile(`\]\((references/[^)#]+)(#[^)]*)?\)`)
	linked := map[string]bool{}
	for _, m := range link.FindAllStringSubmatch(string(body), -1) {
		if _, ok := files[m[1]]; !ok {
			t.Errorf("SKILL.md links to %s, which the skill does not have", m[1])
		}
		linked[m[1]] = true
	}
	for _, r := range wantRefs {
		if !linked[r] {
			t.Errorf("SKILL.md never links to %s (a reference is loaded on demand from SKILL.md)", r)
		}
	}
	// The embedded copy is the repository's skills/ folder.
	disk := filepath.Join(testutil.RepoRoot(t), "skills", Name)
	onDisk, err := Files(os.DirFS(disk))
	if err != nil {
		t.Fatal(err)
	}
	if len(onDisk) != len(files) {
		t.Errorf("embedded %d files, %s has %d", len(files), disk, len(onDisk))
	}
}

// The rules themselves, on hand-made front matter: each broken rule is named.
func TestParseRefusesBrokenFrontMatter(t *testing.T) {
	ok := "---\nname: my-skill\ndescription: Does x. Use when y.\nversion: 1.0.0\n---\nbody\n"
	if _, body, err := Parse([]byte(ok), "my-skill"); err != nil || string(body) != "body\n" {
		t.Fatalf("valid front matter: %v %q", err, body)
	}
	long := strings.Repeat("x", 1025)
	cases := map[string]string{
		"no front matter":        "# title\n",
		"unclosed":               "---\nname: a\n",
		"upper-case name":        strings.Replace(ok, "my-skill", "My-Skill", 1),
		"double hyphen":          strings.Replace(ok, "my-skill", "my--skill", 1),
		"leading hyphen":         strings.Replace(ok, "my-skill", "-my-skill", 1),
		"name not folder":        strings.Replace(ok, "my-skill", "other", 1),
		"name too long":          strings.Replace(ok, "my-skill", strings.Repeat("a", 65), 1),
		"empty description":      strings.Replace(ok, "Does x. Use when y.", "''", 1),
		"description too long":   strings.Replace(ok, "Does x. Use when y.", long, 1),
		"compatibility too long": strings.Replace(ok, "version: 1.0.0\n", "version: 1.0.0\ncompatibility: "+strings.Repeat("c", 501)+"\n", 1),
		"metadata not strings":   strings.Replace(ok, "version: 1.0.0\n", "version: 1.0.0\nmetadata:\n  tags: [a, b]\n", 1),
		"unknown field":          strings.Replace(ok, "version: 1.0.0\n", "version: 1.0.0\nauthor: me\n", 1),
		"no version":             strings.Replace(ok, "version: 1.0.0\n", "", 1),
		"version not semver":     strings.Replace(ok, "1.0.0", "v1", 1),
	}
	for name, md := range cases {
		dir := "my-skill"
		if name == "name too long" {
			dir = strings.Repeat("a", 65)
		}
		if _, _, err := Parse([]byte(md), dir); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if utf8.RuneCountInString(long) != 1025 {
		t.Fatal("bad fixture")
	}
}

func TestInstallIsIdempotentAndCompareSeesAnOutdatedCopy(t *testing.T) {
	dir := HermesDir(t.TempDir())
	if st, err := Compare(dir); err != nil || st.Status != "missing" {
		t.Fatalf("before install: %+v %v", st, err)
	}
	first, err := Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Written) == 0 || len(first.Unchanged) != 0 {
		t.Fatalf("first install %+v", first)
	}
	if st, _ := Compare(dir); st.Status != "current" || st.Installed != st.Shipped {
		t.Fatalf("after install: %+v", st)
	}
	fi, _ := os.Stat(filepath.Join(dir, "SKILL.md"))
	second, err := Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Written) != 0 || len(second.Unchanged) != len(first.Written) {
		t.Fatalf("second install rewrote files: %+v", second)
	}
	if fi2, _ := os.Stat(filepath.Join(dir, "SKILL.md")); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Error("second install touched SKILL.md")
	}
	// An older copy: a changed version line, a missing reference, a file of
	// an earlier version listed in the manifest, and a file of the user's.
	md, _ := os.ReadFile(filepath.Join(dir, "SKILL.md"))
	old := regexp.MustCompile(`(?m)^version: .*$`).ReplaceAll(md, []byte("version: 0.0.1"))
	must(t, os.WriteFile(filepath.Join(dir, "SKILL.md"), old, 0o644))
	must(t, os.Remove(filepath.Join(dir, "references", "planning.md")))
	must(t, os.WriteFile(filepath.Join(dir, "references", "gone.md"), []byte("old\n"), 0o644))
	man, _ := os.ReadFile(filepath.Join(dir, manifest))
	must(t, os.WriteFile(filepath.Join(dir, manifest), append(man, "references/gone.md\n"...), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "NOTES.md"), []byte("mine\n"), 0o644))
	st, _ := Compare(dir)
	if st.Status != "outdated" || st.Installed != "0.0.1" || strings.Join(st.Differs, ",") != "SKILL.md,references/planning.md" {
		t.Fatalf("outdated copy: %+v", st)
	}
	third, err := Install(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(third.Written, ",") != "SKILL.md,references/planning.md" || strings.Join(third.Removed, ",") != "references/gone.md" {
		t.Fatalf("update %+v", third)
	}
	if _, err := os.Stat(filepath.Join(dir, "NOTES.md")); err != nil {
		t.Error("install removed a file it did not write")
	}
	if st, _ := Compare(dir); st.Status != "current" {
		t.Fatalf("after update: %+v", st)
	}
	if !fs.ValidPath("references/gone.md") {
		t.Fatal("fixture")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
