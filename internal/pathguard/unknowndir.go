package pathguard

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// Targets below a directory the guard cannot determine (testdata/corpus/README.md §3.3:
// relative targets resolve against the directory the command runs in). After
// `cd "$T"` (shell.DirUnknown) or with a `~user/…` path (that user's home is
// unknown) the target could lie anywhere, including below the sprint root.
// Such a relative target is judged conservatively: it is refused when it
// could be protected below some directory of the root — a path component
// names a protected folder, its base name is a protected file name, or it is
// a whole-tree operation on the unknown directory itself (`rm -r .`,
// `rm -r *`). `cd "$T" && echo hi > notes.txt` stays allowed.

// protectedDirNames are the folder names whose contents the rules of §3.2
// protect somewhere below the root.
var protectedDirNames = []string{".harness", "schemas", "templates", "spec", "protocols", "sub-skills", "features",
	"sprint_contracts", "logs", ".claude"}

// protectedFileNames are the file names (path.Match patterns) the rules of
// §3.2 protect somewhere below the root.
var protectedFileNames = []string{"eval_log.jsonl", "feature_list.json", "runtime_state.json", "session_pool.json",
	".current_agent", "hermes_*", "tooling.md", "contract.json", "generator_log.md", "hook.log", "rules.yaml",
	"allow.jsonl", "settings.json", "settings.local.json", "SKILL.md", "README.md"}

// unknownDirRule is the rule of a write below an undeterminable directory.
func unknownDirRule() Rule {
	return genUnknownDirRule()
}

// baseUnknown reports whether target t of invocation inv is relative to a
// directory the guard cannot determine.
func baseUnknown(inv shell.Invocation, c *collector, t bashTarget) bool {
	p := filepath.ToSlash(t.path)
	if strings.HasPrefix(p, "~") && p != "~" && !strings.HasPrefix(p, "~/") {
		return true // ~user/…: that user's home directory is unknown
	}
	if inv.Dir != shell.DirUnknown || path.IsAbs(p) || filepath.IsAbs(t.path) {
		return false
	}
	return t.base == c.base
}

// judgeUnknownBase decides target t whose base directory is unknown.
// sub is the path cd'd into below the unknown directory (Invocation.UnknownSub).
func (g *Guard) judgeUnknownBase(t bashTarget, sub string) verdict.Decision {
	p := filepath.ToSlash(t.path)
	comps := strings.Split(p, "/")
	if strings.HasPrefix(p, "~") {
		comps = comps[1:] // the ~user part
	} else if sub != "" {
		comps = append(strings.Split(filepath.ToSlash(sub), "/"), comps...)
	}
	var names []string
	for _, c := range comps {
		if c != "" && c != "." && c != ".." {
			names = append(names, strings.ReplaceAll(c, placeholder, "*"))
		}
	}
	why := ""
	switch {
	case len(names) == 0 || (t.op == opTree && len(names) == 1 && strings.Trim(names[0], "*?") == ""):
		if t.op == opTree || t.op == opDelete {
			why = "a whole-tree operation on the undetermined directory itself"
		}
	default:
		for i, n := range names {
			if strings.Trim(n, "*?") == "" {
				// A bare wildcard component (the "everything below" of a
				// tree write, `*/x`) names no folder; it would match every
				// protected name and refuse `cd "$T" && git clone URL`.
				continue
			}
			if d := matchName(n, protectedDirNames); d != "" && (i < len(names)-1 || t.op != opAppend) {
				why = fmt.Sprintf("its path names the protected folder %s", d)
				break
			}
		}
		if last := names[len(names)-1]; why == "" && (len(names) == 1 || strings.Trim(last, "*?") != "") {
			// (a bare wildcard after a named folder, `build/*`, is everything
			// below that folder, already judged by its name above)
			if f := matchName(last, protectedFileNames); f != "" {
				switch {
				case f == "eval_log.jsonl" && t.op == opAppend:
				case f == "generator_log.md" && (t.op == opAppend || t.op == opEdit):
				default:
					why = fmt.Sprintf("its name matches the protected file %s", f)
				}
			}
		}
		if why == "" && t.op == opTree && len(names) == 1 && strings.Trim(names[0], "*?") == "" {
			why = "a whole-tree operation on everything below the undetermined directory"
		}
	}
	if why == "" {
		return verdict.Decision{}
	}
	return g.block(unknownDirRule(), target{given: t.path}, t.op, "Bash ("+t.what+")", "", why)
}

// matchName returns the protected name n stands for (case-insensitively,
// either side may be a glob pattern), or "".
func matchName(n string, list []string) string {
	ln := strings.ToLower(n)
	for _, p := range list {
		lp := strings.ToLower(p)
		if ln == lp {
			return p
		}
		if ok, _ := path.Match(lp, ln); ok {
			return p
		}
		if hasGlobMeta(ln) {
			if ok, _ := path.Match(ln, lp); ok {
				return p
			}
		}
	}
	return ""
}

// redirectListing adds the targets of a redirection whose file is
// substituted from a listing (`echo > $(ls .harness/feature_list.json)`):
// a listed file is written with the redirection's operation, a listed
// directory stands for everything below it.
func (c *collector) redirectListing(l *shell.Listing, o op, what string) {
	for _, base := range c.listingBases(l) {
		for _, r := range l.Roots {
			if c.isDir(absJoin(base, r)) {
				c.addAt(base, r, opTree, what+" over a listing")
			} else {
				c.addAt(base, r, o, what+" over a listing")
			}
		}
	}
}

// listingBases are the directories the listing's producer may have run in:
// l.Dir, then l.AltDirs (an earlier cd may have failed).
func (c *collector) listingBases(l *shell.Listing) []string {
	bases := []string{invBase(c.g.home(l.Dir), c.cwd)}
	for _, a := range l.AltDirs {
		bases = append(bases, invBase(c.g.home(a.Dir), c.cwd))
	}
	return bases
}
