package corpustest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// The red-team sets (testdata/redteam/README.md) are scored by the same
// runner as the shared corpus: every case goes through harness-hook. A
// case whose answer differs from its label must be listed in
// testdata/redteam/known_gaps.txt ("id<TAB>reason"; a wrapped variant as
// "id@form<TAB>reason"), and a listed entry whose case now passes must be
// removed: the list can only shrink.

// redteamSet is one round of red-team cases (testdata/redteam/README.md):
// its two case files, its own shrink-only gap list, its id patterns and the
// minimum number of cases. The case files it must not repeat are the shared
// corpus and every earlier round of redteamRounds (earlierFiles).
type redteamSet struct {
	bashFile, pathsFile, gapsFile string
	bashID, pathsID               *regexp.Regexp
	minBash, minPaths             int
}

var (
	// redteamRound1 is testdata/redteam/*.jsonl.
	redteamRound1 = redteamSet{
		bashFile: redteamBashFile, pathsFile: redteamPathsFile, gapsFile: "redteam/known_gaps.txt",
		bashID: regexp.MustCompile(`^rb[0-9]{4}$`), pathsID: regexp.MustCompile(`^rp[0-9]{4}$`),
		minBash: 450, minPaths: 220,
	}
	// redteamRound2 is testdata/redteam/round2/*.jsonl, written after the
	// first round had been used to tune the guard.
	redteamRound2 = redteamSet{
		bashFile: "redteam/round2/bash.jsonl", pathsFile: "redteam/round2/paths.jsonl", gapsFile: "redteam/round2/known_gaps.txt",
		bashID: regexp.MustCompile(`^sb[0-9]{4}$`), pathsID: regexp.MustCompile(`^sp[0-9]{4}$`),
		minBash: 200, minPaths: 100,
	}
	// redteamRound3 is testdata/redteam/round3/*.jsonl, written after the
	// engine had been tuned on rounds 1 and 2, scored before any engine
	// change made for it.
	redteamRound3 = redteamSet{
		bashFile: "redteam/round3/bash.jsonl", pathsFile: "redteam/round3/paths.jsonl", gapsFile: "redteam/round3/known_gaps.txt",
		bashID: regexp.MustCompile(`^tb[0-9]{4}$`), pathsID: regexp.MustCompile(`^tp[0-9]{4}$`),
		minBash: 300, minPaths: 120,
	}
	// redteamRound4 is testdata/redteam/round4/*.jsonl, written after the
	// engine had been tuned on rounds 1-3, scored before any engine change
	// made for it.
	redteamRound4 = redteamSet{
		bashFile: "redteam/round4/bash.jsonl", pathsFile: "redteam/round4/paths.jsonl", gapsFile: "redteam/round4/known_gaps.txt",
		bashID: regexp.MustCompile(`^ub[0-9]{4}$`), pathsID: regexp.MustCompile(`^up[0-9]{4}$`),
		minBash: 300, minPaths: 120,
	}
	// redteamRound5 is testdata/redteam/round5/*.jsonl, written after the
	// engine had been tuned on rounds 1-4, scored before any engine change
	// made for it.
	redteamRound5 = redteamSet{
		bashFile: "redteam/round5/bash.jsonl", pathsFile: "redteam/round5/paths.jsonl", gapsFile: "redteam/round5/known_gaps.txt",
		bashID: regexp.MustCompile(`^vb[0-9]{4}$`), pathsID: regexp.MustCompile(`^vp[0-9]{4}$`),
		minBash: 300, minPaths: 120,
	}
	// redteamRound6 is testdata/redteam/round6/*.jsonl, written after the
	// engine had been tuned on rounds 1-5 and scored on 91e89c5, before the
	// round-5 fixes landed (testdata/redteam/round6/README.md).
	redteamRound6 = redteamSet{
		bashFile: "redteam/round6/bash.jsonl", pathsFile: "redteam/round6/paths.jsonl", gapsFile: "redteam/round6/known_gaps.txt",
		bashID: regexp.MustCompile(`^wb[0-9]{4}$`), pathsID: regexp.MustCompile(`^wp[0-9]{4}$`),
		minBash: 200, minPaths: 100,
	}
	// redteamRound7 is testdata/redteam/round7/*.jsonl, written after the
	// engine had been tuned on rounds 1-6 and scored on main before any
	// engine change made for it (testdata/redteam/round7/README.md).
	redteamRound7 = redteamSet{
		bashFile: "redteam/round7/bash.jsonl", pathsFile: "redteam/round7/paths.jsonl", gapsFile: "redteam/round7/known_gaps.txt",
		bashID: regexp.MustCompile(`^xb[0-9]{4}$`), pathsID: regexp.MustCompile(`^xp[0-9]{4}$`),
		minBash: 200, minPaths: 120,
	}
	// redteamRound8 is testdata/redteam/round8/*.jsonl, written mechanism by
	// mechanism (bash builtins and shell options, programs that run a command,
	// protected-path writers) and scored on main before any engine change made
	// for it (testdata/redteam/round8/README.md).
	redteamRound8 = redteamSet{
		bashFile: "redteam/round8/bash.jsonl", pathsFile: "redteam/round8/paths.jsonl", gapsFile: "redteam/round8/known_gaps.txt",
		bashID: regexp.MustCompile(`^yb[0-9]{4}$`), pathsID: regexp.MustCompile(`^yp[0-9]{4}$`),
		minBash: 110, minPaths: 55,
	}
	// redteamRound10 is testdata/redteam/round10/*.jsonl, written mechanism
	// by mechanism (everyday developer commands, package-manager and
	// toolchain runners, batch editors, database CLIs, containers, archive
	// and sync tools, git plumbing, other shells, Unicode and /proc/self/cwd
	// spellings of protected paths) and scored on main before any engine
	// change made for it (testdata/redteam/round10/README.md).
	redteamRound10 = redteamSet{
		bashFile: "redteam/round10/bash.jsonl", pathsFile: "redteam/round10/paths.jsonl", gapsFile: "redteam/round10/known_gaps.txt",
		bashID: regexp.MustCompile(`^zb[0-9]{4}$`), pathsID: regexp.MustCompile(`^zp[0-9]{4}$`),
		minBash: 200, minPaths: 80,
	}
	// redteamRound12 is testdata/redteam/round12/*.jsonl, written around the
	// path guard: protected paths written through writers with unusual output
	// modes (option spellings, implicit cwd outputs, backup suffixes, git
	// plumbing, database dot-commands) and path spellings, plus the Bash
	// channels met on the way, scored on main before any engine change made
	// for it (testdata/redteam/round12/README.md).
	redteamRound12 = redteamSet{
		bashFile: "redteam/round12/bash.jsonl", pathsFile: "redteam/round12/paths.jsonl", gapsFile: "redteam/round12/known_gaps.txt",
		bashID: regexp.MustCompile(`^cb[0-9]{4}$`), pathsID: regexp.MustCompile(`^cp[0-9]{4}$`),
		minBash: 60, minPaths: 110,
	}
	// redteamRound11 is testdata/redteam/round11/*.jsonl, written mechanism
	// by mechanism (shells' less-known ways to run text, wrappers and
	// programs that run a command from an option, a config key or an
	// environment variable, stdin scripts of interpreters, less usual
	// spellings of the families, writers of protected paths with unusual
	// modes) and scored on main before any engine change made for it
	// (testdata/redteam/round11/README.md).
	redteamRound11 = redteamSet{
		bashFile: "redteam/round11/bash.jsonl", pathsFile: "redteam/round11/paths.jsonl", gapsFile: "redteam/round11/known_gaps.txt",
		bashID: regexp.MustCompile(`^kb[0-9]{4}$`), pathsID: regexp.MustCompile(`^kp[0-9]{4}$`),
		minBash: 200, minPaths: 80,
	}
	// redteamRound13 is testdata/redteam/round13/*.jsonl, written from the
	// policy only by an adversarial Generator: protected paths written by
	// programs that take their target from an option, a suffix, a config read
	// from the command line, an environment variable, an archive member, a
	// link or a directory change made earlier in the same command, file-tool
	// path spellings, and Bash families through wrappers, interpreter code,
	// indirection, functions, here-strings and git aliases, with allowed
	// neighbours; scored on main before any engine change made for it
	// (testdata/redteam/round13/README.md).
	redteamRound13 = redteamSet{
		bashFile: "redteam/round13/bash.jsonl", pathsFile: "redteam/round13/paths.jsonl", gapsFile: "redteam/round13/known_gaps.txt",
		bashID: regexp.MustCompile(`^db[0-9]{4}$`), pathsID: regexp.MustCompile(`^dp[0-9]{4}$`),
		minBash: 90, minPaths: 110,
	}
	// redteamRound14 is testdata/redteam/round14/*.jsonl, written from the
	// policy only by an adversarial Generator: protected paths written by
	// less common tools that name their output by an option or operand
	// (binutils, split/csplit, openssl, ssh-keygen, gpg, media tools, build
	// systems, container and VCS copies, downloaders, archivers), tooling.md
	// edits, file-tool spellings, and Bash families through renamed copies,
	// coproc, trap, process substitution and interpreters of less common
	// languages, with allowed neighbours; scored on main before any engine
	// change made for it (testdata/redteam/round14/README.md).
	redteamRound14 = redteamSet{
		bashFile: "redteam/round14/bash.jsonl", pathsFile: "redteam/round14/paths.jsonl", gapsFile: "redteam/round14/known_gaps.txt",
		bashID: regexp.MustCompile(`^eb[0-9]{4}$`), pathsID: regexp.MustCompile(`^ep[0-9]{4}$`),
		minBash: 60, minPaths: 100,
	}
	// redteamRound15 is testdata/redteam/round15/*.jsonl, written from the
	// policy only by an adversarial Generator: protected paths written under
	// a derived name (default output names of compilers, compressors,
	// packagers and VCS tools, cwd inside a protected directory, -C versus
	// the archive file, --prefix, environment-variable outputs, here-doc
	// diffs, find -exec and xargs -I), unknown programs, file-tool spellings,
	// and Bash families through unknown wrappers, config values that run
	// commands (fsmonitor, LESSOPEN, ProxyCommand, make --eval) and less
	// common interpreters, with allowed neighbours; scored on main before any
	// engine change made for it (testdata/redteam/round15/README.md).
	redteamRound15 = redteamSet{
		bashFile: "redteam/round15/bash.jsonl", pathsFile: "redteam/round15/paths.jsonl", gapsFile: "redteam/round15/known_gaps.txt",
		bashID: regexp.MustCompile(`^fb[0-9]{4}$`), pathsID: regexp.MustCompile(`^fp[0-9]{4}$`),
		minBash: 60, minPaths: 100,
	}
)

// redteamRounds lists the rounds in the order they were written: a round
// must not repeat a case of the shared corpus or of any round before it
// (rounds 11 and 12 were written at the same time; 12 landed first).
var redteamRounds = []redteamSet{redteamRound1, redteamRound2, redteamRound3, redteamRound4, redteamRound5, redteamRound6, redteamRound7, redteamRound8, redteamRound10, redteamRound12, redteamRound11, redteamRound13, redteamRound14, redteamRound15}

// earlierFiles returns the case files set must not repeat: the shared
// corpus and the files of every round written before it.
func (set redteamSet) earlierFiles() (bash, paths []string) {
	bash, paths = []string{sharedBashFile}, []string{sharedPathsFile}
	for _, r := range redteamRounds {
		if r.bashFile == set.bashFile {
			return bash, paths
		}
		bash, paths = append(bash, r.bashFile), append(paths, r.pathsFile)
	}
	panic("redteam set " + set.bashFile + " is not in redteamRounds")
}

// redteamGaps reads the set's known_gaps.txt: key → reason.
func redteamGaps(t *testing.T, set redteamSet) map[string]string {
	t.Helper()
	redteamGapsFile := set.gapsFile
	f, err := os.Open(filepath.Join("..", "..", "testdata", filepath.FromSlash(redteamGapsFile)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gaps := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, ok := strings.Cut(line, "\t")
		if !ok || strings.TrimSpace(reason) == "" || key != strings.TrimSpace(key) {
			t.Fatalf("known_gaps.txt:%d: want \"id<TAB>reason\", got %q", n, line)
		}
		if _, dup := gaps[key]; dup {
			t.Fatalf("known_gaps.txt:%d: %s listed twice", n, key)
		}
		gaps[key] = reason
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return gaps
}

// checkGaps compares the misses of one test (key → one-line description)
// with the gap entries it owns (keys that own() accepts): every miss must be
// listed, every listed entry must still miss, and every listed id must
// exist. The failure message gives the lines to add or remove.
func checkGaps(t *testing.T, redteamGapsFile string, gaps map[string]string, own func(key string) bool, exists func(key string) bool, misses map[string]string) {
	t.Helper()
	var unlisted, fixed, stale []string
	for k, d := range misses {
		if _, ok := gaps[k]; !ok {
			unlisted = append(unlisted, k+"\t"+d)
		}
	}
	for k := range gaps {
		if !own(k) {
			continue
		}
		switch {
		case !exists(k):
			stale = append(stale, k)
		case misses[k] == "":
			fixed = append(fixed, k)
		}
	}
	sort.Strings(unlisted)
	sort.Strings(fixed)
	sort.Strings(stale)
	if len(unlisted) > 0 {
		t.Errorf("%d mismatches not in %s (fix the guard; list a case only if it never passed):\n%s",
			len(unlisted), redteamGapsFile, strings.Join(unlisted, "\n"))
	}
	if len(fixed) > 0 {
		t.Errorf("%d entries of %s now pass; remove them (the list only shrinks):\n%s",
			len(fixed), redteamGapsFile, strings.Join(fixed, "\n"))
	}
	if len(stale) > 0 {
		t.Errorf("%d entries of %s name no case: %s", len(stale), redteamGapsFile, strings.Join(stale, " "))
	}
}

// scoreRow counts one breakdown row of the red-team score.
type scoreRow struct {
	block, blocked   int // block cases, answered block
	warn, warned     int // warn cases, answered warn
	allow, fpBlock   int // allow cases, answered block
	fpWarn, wrongWrn int // allow cases answered warn; warn cases answered block
}

func (r *scoreRow) add(expect, got string) {
	switch expect {
	case "block":
		r.block++
		if got == "block" {
			r.blocked++
		}
	case "warn":
		r.warn++
		switch got {
		case "warn":
			r.warned++
		case "block":
			r.wrongWrn++
		}
	case "allow":
		r.allow++
		switch got {
		case "block":
			r.fpBlock++
		case "warn":
			r.fpWarn++
		}
	}
}

func pct(n, d int) string {
	if d == 0 {
		return "    -"
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(n)/float64(d))
}

// scoreTable renders rows (key → row) plus a total as a fixed-width table:
// block recall, warn-as-warn, false blocks (and false warns) on allow cases.
func scoreTable(title string, rows map[string]*scoreRow) string {
	keys := make([]string, 0, len(rows))
	total := &scoreRow{}
	for k, r := range rows {
		keys = append(keys, k)
		total.block += r.block
		total.blocked += r.blocked
		total.warn += r.warn
		total.warned += r.warned
		total.allow += r.allow
		total.fpBlock += r.fpBlock
		total.fpWarn += r.fpWarn
		total.wrongWrn += r.wrongWrn
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  %-28s %-16s %-16s %-21s %10s %8s\n", title, "", "block recall", "warn as warn", "false block (allow)", "false warn", "warn→blk")
	line := func(k string, r *scoreRow) {
		fmt.Fprintf(&b, "  %-28s %4d/%-4d %6s %4d/%-4d %6s %4d/%-4d %6s %10d %8d\n", k,
			r.blocked, r.block, pct(r.blocked, r.block), r.warned, r.warn, pct(r.warned, r.warn),
			r.fpBlock, r.allow, pct(r.fpBlock, r.allow), r.fpWarn, r.wrongWrn)
	}
	for _, k := range keys {
		line(k, rows[k])
	}
	line("TOTAL", total)
	return b.String()
}

func rowOf(m map[string]*scoreRow, k string) *scoreRow {
	if m[k] == nil {
		m[k] = &scoreRow{}
	}
	return m[k]
}

// checkBashSchema enforces testdata/corpus/README.md §4 on a red-team Bash case: known expect,
// family and kind, a source and a why, and "every cmd parses except kind
// unparseable, which does not" (mvdan.cc/sh/v3/syntax, LangBash).
func checkBashSchema(t *testing.T, set redteamSet, c bashCase, seen map[string]bool) {
	t.Helper()
	families := "rm_rf privilege git_history perms disk forkbomb production harness_admin warn_external none"
	kinds := "direct wrapper nested_shell evasion in_string interpreter unparseable safe_dev edge"
	switch {
	case !set.bashID.MatchString(c.ID) || seen[c.ID]:
		t.Errorf("%s: id must match %s and be unique", c.ID, set.bashID)
	case c.Expect != "block" && c.Expect != "warn" && c.Expect != "allow":
		t.Errorf("%s: expect %q", c.ID, c.Expect)
	case !strings.Contains(" "+families+" ", " "+c.Family+" "):
		t.Errorf("%s: family %q", c.ID, c.Family)
	case !strings.Contains(" "+kinds+" ", " "+c.Kind+" "):
		t.Errorf("%s: kind %q", c.ID, c.Kind)
	case strings.TrimSpace(c.Source) == "" || strings.TrimSpace(c.Why) == "":
		t.Errorf("%s: source and why are required", c.ID)
	}
	seen[c.ID] = true
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(c.Cmd), "")
	if (err != nil) != (c.Kind == "unparseable") {
		t.Errorf("%s: kind %s but the parser says %v: %q", c.ID, c.Kind, err, c.Cmd)
	}
}

// TestRedteamBash scores testdata/redteam/bash.jsonl through harness-hook
// (same runner as TestBashCorpus), logs block recall, warn accuracy and
// false blocks per family and kind, and fails on every miss that
// known_gaps.txt does not list, and on every listed case that now passes.
func TestRedteamBash(t *testing.T) { scoreRedteamBash(t, redteamRound1) }

// TestRedteam2Bash is TestRedteamBash for round 2
// (testdata/redteam/round2/bash.jsonl, gaps in round2/known_gaps.txt).
func TestRedteam2Bash(t *testing.T) { scoreRedteamBash(t, redteamRound2) }

// TestRedteam3Bash is TestRedteamBash for round 3
// (testdata/redteam/round3/bash.jsonl, gaps in round3/known_gaps.txt).
func TestRedteam3Bash(t *testing.T) { scoreRedteamBash(t, redteamRound3) }

// TestRedteam4Bash is TestRedteamBash for round 4
// (testdata/redteam/round4/bash.jsonl, gaps in round4/known_gaps.txt).
func TestRedteam4Bash(t *testing.T) { scoreRedteamBash(t, redteamRound4) }

// TestRedteam5Bash is TestRedteamBash for round 5
// (testdata/redteam/round5/bash.jsonl, gaps in round5/known_gaps.txt).
func TestRedteam5Bash(t *testing.T) { scoreRedteamBash(t, redteamRound5) }

// TestRedteam6Bash is TestRedteamBash for round 6
// (testdata/redteam/round6/bash.jsonl, gaps in round6/known_gaps.txt).
func TestRedteam6Bash(t *testing.T) { scoreRedteamBash(t, redteamRound6) }

// TestRedteam7Bash is TestRedteamBash for round 7
// (testdata/redteam/round7/bash.jsonl, gaps in round7/known_gaps.txt).
func TestRedteam7Bash(t *testing.T) { scoreRedteamBash(t, redteamRound7) }

// TestRedteam8Bash is TestRedteamBash for round 8
// (testdata/redteam/round8/bash.jsonl, gaps in round8/known_gaps.txt).
func TestRedteam8Bash(t *testing.T) { scoreRedteamBash(t, redteamRound8) }

// TestRedteam10Bash is TestRedteamBash for round 10
// (testdata/redteam/round10/bash.jsonl, gaps in round10/known_gaps.txt).
func TestRedteam10Bash(t *testing.T) { scoreRedteamBash(t, redteamRound10) }

// TestRedteam12Bash is TestRedteamBash for round 12
// (testdata/redteam/round12/bash.jsonl, gaps in round12/known_gaps.txt).
func TestRedteam12Bash(t *testing.T) { scoreRedteamBash(t, redteamRound12) }

// TestRedteam11Bash is TestRedteamBash for round 11
// (testdata/redteam/round11/bash.jsonl, gaps in round11/known_gaps.txt).
func TestRedteam11Bash(t *testing.T) { scoreRedteamBash(t, redteamRound11) }

// TestRedteam13Bash is TestRedteamBash for round 13
// (testdata/redteam/round13/bash.jsonl, gaps in round13/known_gaps.txt).
func TestRedteam13Bash(t *testing.T) { scoreRedteamBash(t, redteamRound13) }

// TestRedteam14Bash scores round 14 (testdata/redteam/round14, gaps in round14/known_gaps.txt).
func TestRedteam14Bash(t *testing.T) { scoreRedteamBash(t, redteamRound14) }

// TestRedteam15Bash scores round 15 (testdata/redteam/round15, gaps in round15/known_gaps.txt).
func TestRedteam15Bash(t *testing.T) { scoreRedteamBash(t, redteamRound15) }

func scoreRedteamBash(t *testing.T, set redteamSet) {
	cases := loadBashCases(t, set.bashFile)
	if len(cases) < set.minBash {
		t.Fatalf("%d red-team Bash cases in %s, want ≥ %d", len(cases), set.bashFile, set.minBash)
	}
	gaps := redteamGaps(t, set)
	cwd := t.TempDir()
	shared := map[string]string{}
	earlierBash, _ := set.earlierFiles()
	for _, file := range earlierBash {
		for _, c := range loadBashCases(t, file) {
			shared[c.Cmd] = c.ID
		}
	}
	byFamily, byKind := map[string]*scoreRow{}, map[string]*scoreRow{}
	misses := map[string]string{}
	ids := map[string]bool{}
	for _, c := range cases {
		checkBashSchema(t, set, c, ids)
		if id, dup := shared[c.Cmd]; dup {
			t.Errorf("%s repeats the earlier case %s: the red-team set must be fresh", c.ID, id)
		}
		got := decideBashCase(t, c, cwd)
		rowOf(byFamily, c.Family).add(c.Expect, got.Outcome)
		rowOf(byKind, c.Kind).add(c.Expect, got.Outcome)
		if got.Outcome != c.Expect {
			misses[c.ID] = fmt.Sprintf("expect %s, got %s %s%s: %q", c.Expect, got.Outcome, got.Rule, got.Problem, c.Cmd)
		}
	}
	t.Logf("red-team Bash set: %d cases, %d misses\n%s\n%s", len(cases), len(misses),
		scoreTable("per family", byFamily), scoreTable("per kind", byKind))
	checkGaps(t, set.gapsFile, gaps, set.bashID.MatchString, func(k string) bool { return ids[k] }, misses)
}

// checkPathSchema enforces testdata/corpus/README.md §4 and testdata/redteam/README.md on a
// red-team path case.
func checkPathSchema(t *testing.T, set redteamSet, c pathCase, seen map[string]bool) {
	t.Helper()
	rules := "readonly_dir readonly_file contract tooling other_feature eval_log_append_only generator_log_append_only state_via_cli hook_log protected_ancestor claude_config hook_wiring none"
	kinds := "absolute relative dot_segments symlink hardlink unicode home content bash_write bash_read interpreter edge"
	switch {
	case !set.pathsID.MatchString(c.ID) || seen[c.ID]:
		t.Errorf("%s: id must match %s and be unique", c.ID, set.pathsID)
	case c.Expect != "block" && c.Expect != "allow":
		t.Errorf("%s: expect %q (no warn in path cases)", c.ID, c.Expect)
	case !strings.Contains(" Edit Write MultiEdit NotebookEdit Bash ", " "+c.Tool+" "):
		t.Errorf("%s: tool %q", c.ID, c.Tool)
	case !strings.Contains(" "+rules+" ", " "+c.Rule+" "):
		t.Errorf("%s: rule %q", c.ID, c.Rule)
	case !strings.Contains(" "+kinds+" ", " "+c.Kind+" "):
		t.Errorf("%s: kind %q", c.ID, c.Kind)
	case strings.TrimSpace(c.Source) == "" || strings.TrimSpace(c.Why) == "":
		t.Errorf("%s: source and why are required", c.ID)
	case !strings.HasPrefix(c.Cwd, pathCorpusRoot):
		t.Errorf("%s: cwd %q is not inside the corpus root", c.ID, c.Cwd)
	}
	seen[c.ID] = true
}

// TestRedteamPaths scores testdata/redteam/paths.jsonl through harness-hook
// (same runner as TestPathsCorpus), logs path recall and false blocks per
// rule, kind and tool, and fails on every miss that known_gaps.txt does not
// list, and on every listed case that now passes. A block whose reason
// lacks the case's reason_contains is a miss too.
func TestRedteamPaths(t *testing.T) { scoreRedteamPaths(t, redteamRound1) }

// TestRedteam2Paths is TestRedteamPaths for round 2
// (testdata/redteam/round2/paths.jsonl).
func TestRedteam2Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound2) }

// TestRedteam3Paths is TestRedteamPaths for round 3
// (testdata/redteam/round3/paths.jsonl).
func TestRedteam3Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound3) }

// TestRedteam4Paths is TestRedteamPaths for round 4
// (testdata/redteam/round4/paths.jsonl).
func TestRedteam4Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound4) }

// TestRedteam5Paths is TestRedteamPaths for round 5
// (testdata/redteam/round5/paths.jsonl).
func TestRedteam5Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound5) }

// TestRedteam6Paths is TestRedteamPaths for round 6
// (testdata/redteam/round6/paths.jsonl, gaps in round6/known_gaps.txt).
func TestRedteam6Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound6) }

// TestRedteam7Paths is TestRedteamPaths for round 7
// (testdata/redteam/round7/paths.jsonl, gaps in round7/known_gaps.txt).
func TestRedteam7Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound7) }

// TestRedteam8Paths is TestRedteamPaths for round 8
// (testdata/redteam/round8/paths.jsonl, gaps in round8/known_gaps.txt).
func TestRedteam8Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound8) }

// TestRedteam10Paths is TestRedteamPaths for round 10
// (testdata/redteam/round10/paths.jsonl, gaps in round10/known_gaps.txt).
func TestRedteam10Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound10) }

// TestRedteam12Paths is TestRedteamPaths for round 12
// (testdata/redteam/round12/paths.jsonl, gaps in round12/known_gaps.txt).
func TestRedteam12Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound12) }

// TestRedteam11Paths is TestRedteamPaths for round 11
// (testdata/redteam/round11/paths.jsonl, gaps in round11/known_gaps.txt).
func TestRedteam11Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound11) }

// TestRedteam13Paths is TestRedteamPaths for round 13
// (testdata/redteam/round13/paths.jsonl, gaps in round13/known_gaps.txt).
func TestRedteam13Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound13) }

// TestRedteam14Paths scores round 14 (testdata/redteam/round14, gaps in round14/known_gaps.txt).
func TestRedteam14Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound14) }

// TestRedteam15Paths scores round 15 (testdata/redteam/round15, gaps in round15/known_gaps.txt).
func TestRedteam15Paths(t *testing.T) { scoreRedteamPaths(t, redteamRound15) }

func scoreRedteamPaths(t *testing.T, set redteamSet) {
	cases := loadPathCases(t, set.pathsFile)
	if len(cases) < set.minPaths {
		t.Fatalf("%d red-team path cases in %s, want ≥ %d", len(cases), set.pathsFile, set.minPaths)
	}
	gaps := redteamGaps(t, set)
	shared := map[string]string{}
	_, earlierPaths := set.earlierFiles()
	for _, file := range earlierPaths {
		for _, c := range loadPathCases(t, file) {
			shared[c.Tool+string(c.ToolInput)] = c.ID
		}
	}
	byRule, byKind, byTool, bySession := map[string]*scoreRow{}, map[string]*scoreRow{}, map[string]*scoreRow{}, map[string]*scoreRow{}
	misses := map[string]string{}
	ids := map[string]bool{}
	for _, c := range cases {
		checkPathSchema(t, set, c, ids)
		if id, dup := shared[c.Tool+string(c.ToolInput)]; dup {
			t.Errorf("%s repeats the earlier case %s: the red-team set must be fresh", c.ID, id)
		}
		got := runPathCase(t, c)
		outcome := got.Outcome
		session := "generator"
		if c.noFeature {
			session = "no feature"
		}
		rowOf(byRule, c.Rule).add(c.Expect, outcome)
		rowOf(byKind, c.Kind).add(c.Expect, outcome)
		rowOf(byTool, c.Tool).add(c.Expect, outcome)
		rowOf(bySession, session).add(c.Expect, outcome)
		switch {
		case outcome != c.Expect:
			misses[c.ID] = fmt.Sprintf("expect %s, got %s %s%s (%s %s, %s): %s", c.Expect, outcome, got.Rule, got.Problem, c.Tool, session, c.Rule, c.ToolInput)
		case c.ReasonContains != "" && outcome == "block" && !strings.Contains(got.Text, c.ReasonContains):
			misses[c.ID] = fmt.Sprintf("blocked, but the reason does not name %q: %s", c.ReasonContains, got.Text)
		}
	}
	t.Logf("red-team path set: %d cases, %d misses\n%s\n%s\n%s\n%s", len(cases), len(misses),
		scoreTable("per rule", byRule), scoreTable("per kind", byKind), scoreTable("per tool", byTool), scoreTable("per session", bySession))
	checkGaps(t, set.gapsFile, gaps, set.pathsID.MatchString, func(k string) bool { return ids[k] }, misses)
}

// wrappedGapKey accepts "rbNNNN@form" / "rpNNNN@form" keys of prefix.
func wrappedGapKey(prefix string) func(string) bool {
	return func(k string) bool {
		id, form, ok := strings.Cut(k, "@")
		return ok && form != "" && strings.HasPrefix(id, prefix) && len(id) == 6
	}
}

// TestRedteamBashWrapped runs the metamorphic wrapped variants of
// TestBashCorpusWrapped over the red-team Bash cases whose own verdict is
// right (a listed case is skipped: its variants would only repeat its
// miss). A wrapped miss must be listed as "id@form".
func TestRedteamBashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound1) }

// TestRedteam2BashWrapped is TestRedteamBashWrapped for round 2.
func TestRedteam2BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound2) }

// TestRedteam3BashWrapped is TestRedteamBashWrapped for round 3.
func TestRedteam3BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound3) }

// TestRedteam4BashWrapped is TestRedteamBashWrapped for round 4.
func TestRedteam4BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound4) }

// TestRedteam5BashWrapped is TestRedteamBashWrapped for round 5.
func TestRedteam5BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound5) }

// TestRedteam6BashWrapped is TestRedteamBashWrapped for round 6.
func TestRedteam6BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound6) }

// TestRedteam7BashWrapped is TestRedteamBashWrapped for round 7.
func TestRedteam7BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound7) }

// TestRedteam8BashWrapped is TestRedteamBashWrapped for round 8.
func TestRedteam8BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound8) }

// TestRedteam10BashWrapped is TestRedteamBashWrapped for round 10.
func TestRedteam10BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound10) }

// TestRedteam12BashWrapped is TestRedteamBashWrapped for round 12.
func TestRedteam12BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound12) }

// TestRedteam11BashWrapped is TestRedteamBashWrapped for round 11.
func TestRedteam11BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound11) }

// TestRedteam13BashWrapped is TestRedteamBashWrapped for round 13.
func TestRedteam13BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound13) }

// TestRedteam14BashWrapped scores round 14 (testdata/redteam/round14, gaps in round14/known_gaps.txt).
func TestRedteam14BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound14) }

// TestRedteam15BashWrapped scores round 15 (testdata/redteam/round15, gaps in round15/known_gaps.txt).
func TestRedteam15BashWrapped(t *testing.T) { redteamBashWrapped(t, redteamRound15) }

func redteamBashWrapped(t *testing.T, set redteamSet) {
	cases := loadBashCases(t, set.bashFile)
	gaps := redteamGaps(t, set)
	skip := map[string]bool{}
	for k := range gaps {
		if set.bashID.MatchString(k) {
			skip[k] = true
		}
	}
	found, n := bashWrappedMisses(t, cases, skip)
	misses := map[string]string{}
	for _, m := range found {
		misses[m.key()] = fmt.Sprintf("got %s: %q", m.got, m.cmd)
	}
	t.Logf("%d wrapped red-team Bash variants, %d misses", n, len(misses))
	checkGaps(t, set.gapsFile, gaps, wrappedGapKey(set.bashID.String()[1:3]), func(k string) bool {
		id, form, _ := strings.Cut(k, "@")
		return !skip[id] && knownBashForm(form) && bashIDExists(cases, id)
	}, misses)
}

// TestRedteamPathsWrapped is TestRedteamBashWrapped for the Bash cases of
// testdata/redteam/paths.jsonl.
func TestRedteamPathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound1) }

// TestRedteam2PathsWrapped is TestRedteamPathsWrapped for round 2.
func TestRedteam2PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound2) }

// TestRedteam3PathsWrapped is TestRedteamPathsWrapped for round 3.
func TestRedteam3PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound3) }

// TestRedteam4PathsWrapped is TestRedteamPathsWrapped for round 4.
func TestRedteam4PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound4) }

// TestRedteam5PathsWrapped is TestRedteamPathsWrapped for round 5.
func TestRedteam5PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound5) }

// TestRedteam6PathsWrapped is TestRedteamPathsWrapped for round 6.
func TestRedteam6PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound6) }

// TestRedteam7PathsWrapped is TestRedteamPathsWrapped for round 7.
func TestRedteam7PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound7) }

// TestRedteam8PathsWrapped is TestRedteamPathsWrapped for round 8.
func TestRedteam8PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound8) }

// TestRedteam10PathsWrapped is TestRedteamPathsWrapped for round 10.
func TestRedteam10PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound10) }

// TestRedteam12PathsWrapped is TestRedteamPathsWrapped for round 12.
func TestRedteam12PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound12) }

// TestRedteam11PathsWrapped is TestRedteamPathsWrapped for round 11.
func TestRedteam11PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound11) }

// TestRedteam13PathsWrapped is TestRedteamPathsWrapped for round 13.
func TestRedteam13PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound13) }

// TestRedteam14PathsWrapped scores round 14 (testdata/redteam/round14, gaps in round14/known_gaps.txt).
func TestRedteam14PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound14) }

// TestRedteam15PathsWrapped scores round 15 (testdata/redteam/round15, gaps in round15/known_gaps.txt).
func TestRedteam15PathsWrapped(t *testing.T) { redteamPathsWrapped(t, redteamRound15) }

func redteamPathsWrapped(t *testing.T, set redteamSet) {
	cases := loadPathCases(t, set.pathsFile)
	gaps := redteamGaps(t, set)
	skip := map[string]bool{}
	for k := range gaps {
		if set.pathsID.MatchString(k) {
			skip[k] = true
		}
	}
	found, n := pathWrappedMisses(t, cases, skip)
	misses := map[string]string{}
	for _, m := range found {
		misses[m.key()] = fmt.Sprintf("got %s: %q", m.got, m.cmd)
	}
	t.Logf("%d wrapped red-team path variants, %d misses", n, len(misses))
	exists := map[string]bool{}
	for _, c := range cases {
		exists[c.ID] = c.Tool == "Bash"
	}
	checkGaps(t, set.gapsFile, gaps, wrappedGapKey(set.pathsID.String()[1:3]), func(k string) bool {
		id, form, _ := strings.Cut(k, "@")
		if skip[id] || !exists[id] {
			return false
		}
		for _, w := range pathWrapForms {
			if w.name == form {
				return true
			}
		}
		return false
	}, misses)
}

func knownBashForm(form string) bool {
	for _, w := range bashRunForms {
		if w.name == form {
			return true
		}
	}
	for _, w := range bashDataForms {
		if w.name == form {
			return true
		}
	}
	return false
}

func bashIDExists(cases []bashCase, id string) bool {
	for _, c := range cases {
		if c.ID == id {
			return true
		}
	}
	return false
}
