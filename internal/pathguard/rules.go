package pathguard

import (
	"os"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Rule is one row of the protected-path table (testdata/corpus/README.md §3.2). The
// first row whose paths match a target names its rule.
type Rule struct {
	// ID is the stable rule id ("path.readonly-dir", …) used in hook.log and
	// block reasons.
	ID string
	// Family is the corpus rule name ("readonly_dir", …).
	Family string
	// Patterns are doublestar globs over the slash-separated path relative to
	// the root, lower case (names compare case-insensitively, fold.go); for
	// the hook-wiring rule relative to a Claude Code settings directory, for
	// the claude-config rule relative to a .claude/ directory.
	Patterns []string
	// ProjectFiles (claude-config) are file names Claude Code reads in the
	// root, the cwd and their ancestors (.mcp.json); HomeFiles those it reads
	// in HOME and $CLAUDE_CONFIG_DIR (.claude.json).
	ProjectFiles, HomeFiles []string
	// Message says why writes are refused; Hint is the legitimate way forward.
	Message, Hint string
}

// Family names (testdata/corpus/README.md §3.2, paths.jsonl field "rule").
const (
	FamilyReadonlyDir       = "readonly_dir"
	FamilyReadonlyFile      = "readonly_file"
	FamilyContract          = "contract"
	FamilyTooling           = "tooling"
	FamilyOtherFeature      = "other_feature"
	FamilyEvalLog           = "eval_log_append_only"
	FamilyGeneratorLog      = "generator_log_append_only"
	FamilyStateViaCLI       = "state_via_cli"
	FamilyHookLog           = "hook_log"
	FamilyProtectedAncestor = "protected_ancestor"
	FamilyClaudeConfig      = "claude_config"
	FamilyNone              = "none"
	FamilyUnresolvable      = "unresolvable"
)

// The rules are data: rules/paths.yaml (ids, families, patterns, messages,
// hints and each rule's block/allow examples), pre-decoded into rules_gen.go
// by `go generate ./internal/pathguard` so the hook parses no YAML.
//
//go:generate go run gen_rules.go

// Rules returns the §3.2 table in order (rules/paths.yaml, kind table; a
// fresh copy: the package keeps no mutable table). other_feature and generator_log depend on the running
// feature id and are matched in code (isOtherFeature, isOwnGeneratorLog);
// their rows carry their ids and messages.
func Rules() [numRules]Rule {
	return genRules()
}

// AncestorRule returns the protected_ancestor row: a folder above protected
// paths, judged only for whole-tree operations.
func AncestorRule() Rule {
	return genAncestorRule()
}

// unresolvableRule is used when a target cannot be resolved (symlink loop).
func unresolvableRule() Rule {
	return genUnresolvableRule()
}

const (
	idxReadonlyDir = iota
	idxReadonlyFile
	idxContract
	idxTooling
	idxOtherFeature
	idxEvalLog
	idxGeneratorLog
	idxStateViaCLI
	idxHookLog
	numRules
	idxNone = -1
)

// classifyRel returns the index in rules of the first row matching rel (a
// slash path relative to the root, "." for the root), or idxNone. abs is the
// path on disk, used only to ask whether `.harness/features/<dir>` exists as
// a directory.
func (g *Guard) classifyRel(rel, abs string) int {
	if rel == "." || rel == "" {
		return idxNone
	}
	low := foldName(rel)
	for i := range g.rules {
		switch i {
		case idxOtherFeature:
			if g.isOtherFeature(rel, abs) {
				return i
			}
			continue
		case idxGeneratorLog:
			if g.isOwnGeneratorLog(rel) {
				return i
			}
			continue
		}
		for _, p := range g.rules[i].Patterns {
			if ok, _ := doublestar.Match(p, low); ok {
				return i
			}
		}
	}
	return idxNone
}

// featureDir splits rel into (<dir>, rest, true) when it lies in
// `.harness/features/<dir>`.
func featureDir(rel string) (dir, rest string, ok bool) {
	const pfx = ".harness/features/"
	var r string
	switch {
	case len(rel) > len(pfx) && asciiEqualFold(rel[:len(pfx)], pfx):
		r = rel[len(pfx):]
	case isASCII(rel):
		return "", "", false
	default: // `.harneſs/features/…`: the folders fold, the feature id compares exactly
		parts := strings.SplitN(rel, "/", 3)
		if len(parts) < 3 || parts[2] == "" || !namesEqual(parts[0], ".harness") || !namesEqual(parts[1], "features") {
			return "", "", false
		}
		r = parts[2]
	}
	if i := strings.IndexByte(r, '/'); i >= 0 {
		return r[:i], r[i+1:], true
	}
	return r, "", true
}

// isOtherFeature: `.harness/features/<dir>/**` with <dir> ≠ the feature id
// exactly; <dir> alone counts only when it exists as a directory.
func (g *Guard) isOtherFeature(rel, abs string) bool {
	dir, rest, ok := featureDir(rel)
	if !ok || dir == g.feature {
		return false
	}
	if rest != "" {
		return true
	}
	fi, err := os.Stat(abs)
	return err == nil && fi.IsDir()
}

func (g *Guard) isOwnGeneratorLog(rel string) bool {
	dir, rest, ok := featureDir(rel)
	return ok && g.feature != "" && dir == g.feature && namesEqual(rest, "generator_log.md")
}

// isAncestor reports whether rel (relative to the root; "" when the path
// lies above the root) is a folder with protected paths below it: the root,
// `.harness`, `.harness/features`, `.harness/features/<feature>`,
// `.harness/sprint_contracts`, `.harness/sprint_contracts/*` (an existing
// directory) and the root's `.claude`.
func (g *Guard) isAncestor(rel, abs string) bool {
	low := foldName(strings.TrimSuffix(rel, "/"))
	switch low {
	case ".", ".harness", ".harness/features", ".harness/sprint_contracts", ".claude":
		return true
	}
	if dir, rest, ok := featureDir(rel); ok && rest == "" && g.feature != "" && dir == g.feature {
		return true
	}
	if ok, _ := doublestar.Match(".harness/sprint_contracts/*", low); ok {
		fi, err := os.Stat(abs)
		return err == nil && fi.IsDir()
	}
	return false
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// match is the outcome of classifying one target: the rule row (idxNone for
// none) and the path relative to the root that matched.
type match struct {
	idx int
	rel string
	abs string
}

// classify judges both forms of t and returns the matches found: the lexical
// form against both root forms, the physical form against the root's
// physical form (testdata/corpus/README.md §3.1 steps 4–5). inside is false when neither
// form lies in the root.
func (g *Guard) classify(t target) (ms [2]match, inside bool) {
	ms[0].idx, ms[1].idx = idxNone, idxNone
	if rel, ok := relTo(g.rootLex, t.lex); ok {
		ms[0] = match{idx: g.classifyRel(rel, t.phys), rel: rel, abs: t.lex}
		inside = true
	} else if rel, ok := relTo(g.rootPhys, t.lex); ok {
		ms[0] = match{idx: g.classifyRel(rel, t.phys), rel: rel, abs: t.lex}
		inside = true
	}
	if rel, ok := relTo(g.rootPhys, t.phys); ok {
		ms[1] = match{idx: g.classifyRel(rel, t.phys), rel: rel, abs: t.phys}
		inside = true
	}
	return ms, inside
}

// aboveRoot reports whether p is a strict ancestor of one of the root forms
// (a whole-tree operation there covers the whole workspace).
func (g *Guard) aboveRoot(p string) bool {
	for _, r := range [...]string{g.rootLex, g.rootPhys} {
		if rel, ok := relTo(p, r); ok && rel != "." {
			return true
		}
	}
	return false
}
