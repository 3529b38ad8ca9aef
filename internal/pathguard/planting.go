package pathguard

import (
	"path"
	"strings"

	"github.com/superagent-harness/harness/internal/verdict"
)

// Planting (testdata/corpus/README.md §9.4, rule state_via_cli): in a
// Generator session nothing but harness and the hook may create special
// entries among the workspace's state. A FIFO, socket, device node or link
// anywhere in .harness/ outside the feature's own directory, a directory
// where the protocol expects a file (a state file's, a log's or a *.lock
// name), and a workspace lock taken or opened by the Generator
// (`flock .harness/state.lock …`, `exec 9>.harness/state.lock`) are refused:
// a harness command or the hook would block on them, read from them or
// write through them. Ordinary files and directories where §3.2 allows
// writes (.harness/checkpoints/cp9/) stay allowed.

// protocolFileNames are the file names the protocol gives harness state and
// logs (lower case).
func protocolFileNames(s string) bool {
	switch s {
	case "feature_list.json", "runtime_state.json", "hermes_context_state.json", "session_pool.json",
		"claude_code_context_state.json", "eval_log.jsonl", "allow.jsonl", "rules.yaml", "hermes_handoff.md",
		".current_agent", "hook.log", "ops.journal", "generator_log.md", "handoff.md", "contract.json",
		"tooling.md":
		return true
	}
	return false
}

// judgePlanting blocks a planting operation on a target in .harness/ (ms are
// the target's matches against the root); ok is false when t is none.
func (g *Guard) judgePlanting(ms [2]match, t target, o op, tool string) (verdict.Decision, bool) {
	if g.feature == "" {
		return verdict.Decision{}, false
	}
	for _, m := range ms {
		if m.rel == "" || m.rel == "." {
			continue
		}
		low := foldName(m.rel)
		if !strings.HasPrefix(low, ".harness/") {
			continue
		}
		if dir, _, ok := featureDir(m.rel); ok && dir == g.feature {
			continue // the feature's own directory
		}
		base := path.Base(low)
		var why string
		switch {
		case o == opSpecial:
			why = "a FIFO, socket, device node or link in .harness/ outside the feature's own directory would make harness or the hook block on, read from or write through it"
		case strings.HasSuffix(base, ".lock"):
			why = "the workspace's locks belong to harness and the hook; a lock held by the Generator stalls them"
		case o == opMkdir && protocolFileNames(base):
			why = "a directory where the protocol expects the file " + path.Base(m.rel) + " would break every harness command that reads or writes it"
		default:
			continue
		}
		return g.block(g.rules[idxStateViaCLI], t, o, tool, m.rel, why), true
	}
	return verdict.Decision{}, false
}
