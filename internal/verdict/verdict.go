// Package verdict defines the one typed decision every guard returns
// (Bash command policy, path guard, Stop completeness) and that each hook
// event encoder turns into Claude Code's stdout JSON.
package verdict

// Action is what the guard decided. Actions are ordered: when several rules
// fire, the strongest wins (Block > Warn > Allow), testdata/corpus/README.md §1.
type Action int

const (
	// Allow lets the tool call go through the normal permission flow. The hook
	// never turns it into permissionDecision "allow".
	Allow Action = iota
	// Warn lets the call through and tells the model why it is risky
	// (PreToolUse hookSpecificOutput.additionalContext, no permissionDecision).
	Warn
	// Block refuses the call (PreToolUse permissionDecision "deny", Stop
	// decision "block").
	Block
)

// String returns "allow", "warn" or "block" (the words hook.log and --json use).
func (a Action) String() string {
	switch a {
	case Warn:
		return "warn"
	case Block:
		return "block"
	default:
		return "allow"
	}
}

// Decision is one guard verdict with everything needed to explain it.
type Decision struct {
	Action Action
	// Rule is the stable rule id, e.g. "fs.rm-recursive-force" or
	// "path.eval-log-append-only"; empty for a plain allow.
	Rule string
	// Family is the corpus family or path rule (rm_rf, privilege, readonly_dir, …).
	Family string
	// Message says what was blocked or warned about, for the model.
	Message string
	// Hint is the legitimate way forward.
	Hint string
	// Subject is the sub-command or path that triggered the rule.
	Subject string
}

// Stronger reports whether d outranks o (Block > Warn > Allow; on a tie the
// earlier decision, o, is kept so the first blocking target decides).
func (d Decision) Stronger(o Decision) bool { return d.Action > o.Action }

// Max returns the strongest of ds, the first one on ties; Allow when empty.
func Max(ds ...Decision) Decision {
	var best Decision
	for _, d := range ds {
		if d.Stronger(best) {
			best = d
		}
	}
	return best
}
