package pathguard

import (
	"os"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Rule is one row of the protected-path table (corpus README §3.2). The
// first row whose paths match a target names its rule.
type Rule struct {
	// ID is the stable rule id ("path.readonly-dir", …) used in hook.log and
	// block reasons.
	ID string
	// Family is the corpus rule name ("readonly_dir", …).
	Family string
	// Patterns are doublestar globs over the slash-separated path relative to
	// the root, lower case (names compare ASCII case-insensitively).
	Patterns []string
	// Message says why writes are refused; Hint is the legitimate way forward.
	Message, Hint string
}

// Family names (corpus README §3.2, paths.jsonl field "rule").
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
	FamilyNone              = "none"
	FamilyUnresolvable      = "unresolvable"
)

// Rules returns the §3.2 table in order (a fresh copy: the package keeps no
// mutable table). other_feature and generator_log depend on the running
// feature id and are matched in code (isOtherFeature, isOwnGeneratorLog);
// their rows carry their ids and messages.
func Rules() [numRules]Rule {
	return [numRules]Rule{
		{
			ID: "path.readonly-dir", Family: FamilyReadonlyDir,
			Patterns: []string{"schemas/**", "templates/**", "spec/**", "protocols/**", "sub-skills/**"},
			Message:  "this directory of the skill is read-only for the Generator (schemas/, templates/, spec/, protocols/, sub-skills/)",
			Hint:     "write your output under src/, docs/, research/ or your own .harness/features/<feature>/ directory; ask Hermes if the skill itself must change",
		},
		{
			ID: "path.readonly-file", Family: FamilyReadonlyFile,
			Patterns: []string{
				"skill.md", "readme.md",
				".harness/runtime_state.json", ".harness/hermes_handoff.md", ".harness/hermes_context_state.json",
				".harness/session_pool.json", ".harness/.current_agent", ".harness/rules.yaml", ".harness/allow.jsonl",
				".claude/settings.json", ".claude/settings.local.json",
				".harness/features/*/.claude/**",
			},
			Message: "this file is owned by Hermes or the user (skill entry points, harness state, rules, allow list, Claude Code settings)",
			Hint:    "leave it unchanged; report what you need in your generator_log.md and let Hermes act",
		},
		{
			ID: "path.contract", Family: FamilyContract,
			Patterns: []string{".harness/sprint_contracts/*/contract.json"},
			Message:  "the sprint contract is fixed for the Generator",
			Hint:     "note a disagreement with the contract in your generator_log.md; Hermes amends contracts",
		},
		{
			ID: "path.tooling-section-6", Family: FamilyTooling,
			Patterns: []string{".harness/sprint_contracts/*/tooling.md"},
			Message:  "tooling.md may only change after its `## 6. 运行时新增` heading, by appending a line",
			Hint:     "append a line `YYYY-MM-DD HH:MM | f<N> phase=<X> | <tool> | <reason>` to tooling.md below `## 6. 运行时新增` (Edit after the heading, or `>>`)",
		},
		{
			ID: "path.other-feature", Family: FamilyOtherFeature,
			Message: "this is another feature's directory; a Generator works only in its own .harness/features/<feature>/",
			Hint:    "write under your own feature directory .harness/features/<feature>/ (exact id)",
		},
		{
			ID: "path.eval-log-append-only", Family: FamilyEvalLog,
			Patterns: []string{".harness/eval_log.jsonl"},
			Message:  "eval_log.jsonl is append-only",
			Hint:     "append a line with `harness eval append …` (or `>>` one JSON line)",
		},
		{
			ID: "path.generator-log-append-only", Family: FamilyGeneratorLog,
			Message: "generator_log.md is append-only through Bash and Write (Edit/MultiEdit may change it)",
			Hint:    "append with `cat >> generator_log.md <<'EOF'` or use Edit; never overwrite, truncate, move or delete it",
		},
		{
			ID: "path.state-via-cli", Family: FamilyStateViaCLI,
			Patterns: []string{".harness/feature_list.json"},
			Message:  "feature_list.json changes only through the harness CLI",
			Hint:     "end the phase with `harness phase complete <feature>`",
		},
		{
			ID: "path.hook-log", Family: FamilyHookLog,
			Patterns: []string{".harness/logs/**"},
			Message:  "the hook log is written only by the hook itself",
			Hint:     "read it (`tail .harness/logs/hook.log`) but do not write, append, move or delete it",
		},
	}
}

// AncestorRule returns the protected_ancestor row: a folder above protected
// paths, judged only for whole-tree operations.
func AncestorRule() Rule {
	return Rule{
		ID: "path.protected-ancestor", Family: FamilyProtectedAncestor,
		Message: "this operation deletes, moves or rewrites a whole folder that contains protected sprint files",
		Hint:    "name the files you mean below it explicitly (e.g. `rm -r build/`, `gofmt -w src/`)",
	}
}

// unresolvableRule is used when a target cannot be resolved (symlink loop).
func unresolvableRule() Rule {
	return Rule{
		ID: "path.unresolvable", Family: FamilyUnresolvable,
		Message: "the target path cannot be resolved (symlink loop) and may lead into protected sprint files",
		Hint:    "use a path without symlink loops",
	}
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
	low := asciiLower(rel)
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
	if len(rel) <= len(pfx) || !asciiEqualFold(rel[:len(pfx)], pfx) {
		return "", "", false
	}
	r := rel[len(pfx):]
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
	return ok && g.feature != "" && dir == g.feature && asciiEqualFold(rest, "generator_log.md")
}

// isAncestor reports whether rel (relative to the root; "" when the path
// lies above the root) is a folder with protected paths below it: the root,
// `.harness`, `.harness/features`, `.harness/features/<feature>`,
// `.harness/sprint_contracts`, `.harness/sprint_contracts/*` (an existing
// directory) and the root's `.claude`.
func (g *Guard) isAncestor(rel, abs string) bool {
	low := asciiLower(strings.TrimSuffix(rel, "/"))
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
// physical form (corpus README §3.1 steps 4–5). inside is false when neither
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
