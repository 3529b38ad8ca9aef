package monitor

import (
	"strconv"
	"strings"
)

// Context windows in tokens.
const (
	// DefaultWindow is the window of a Claude model not known to have a
	// larger one, and of an unknown model (a gateway's own name): assuming
	// the smaller window makes the ratio fire early rather than never.
	DefaultWindow int64 = 200_000
	// Window1M is the window of the 1M-context models and of the "[1m]"
	// variants.
	Window1M int64 = 1_000_000
)

// native1M are the model id prefixes whose standard window is 1M tokens
// (the model registry of Claude Code 2.1.332). Every other Claude model has
// DefaultWindow unless it is asked for with the "[1m]" suffix.
var native1M = []string{
	"claude-opus-4-7", "claude-opus-4-8", "claude-opus-5",
	"claude-sonnet-5", "claude-haiku-5", "claude-fable-5", "claude-mythos-5",
}

// ContextWindow returns the context window of model in tokens. model is a
// Claude Code model id as the transcript records it: an alias's resolved id
// ("claude-sonnet-4-6"), a dated id ("claude-sonnet-4-5-20250929"), a
// Bedrock or Vertex spelling ("us.anthropic.claude-opus-4-6-v1:0",
// "claude-opus-4-6@20260101"), or the requested id with Claude Code's
// 1M-context suffix ("claude-sonnet-4-6[1m]", which always means 1M). Case is
// ignored. An unknown model gets DefaultWindow.
func ContextWindow(model string) int64 {
	m := strings.ToLower(strings.TrimSpace(model))
	if strings.HasSuffix(m, "[1m]") {
		return Window1M
	}
	if i := strings.Index(m, "claude-"); i >= 0 {
		m = m[i:]
	}
	for _, p := range native1M {
		if m == p || strings.HasPrefix(m, p+"-") || strings.HasPrefix(m, p+"@") || strings.HasPrefix(m, p+"[") {
			return Window1M
		}
	}
	return DefaultWindow
}

// summaryBuffer is the least room Claude Code keeps below its
// auto-compaction window for the summary (the client's threshold is its
// window minus a summary buffer, docs/hooks.md §5 PreCompact). The hook
// takes the smallest plausible buffer, so that it never judges the
// client's threshold lower than it is.
const summaryBuffer = 13_000

// CompactionThreshold estimates the context (tokens) at which Claude Code
// 2.1.332 compacts on its own before a request, for a model of window
// tokens and the client's environment env: the window, or
// CLAUDE_CODE_AUTO_COMPACT_WINDOW when smaller, minus summaryBuffer, and
// lowered to CLAUDE_AUTOCOMPACT_PCT_OVERRIDE percent of that window when
// set. The estimate errs high: a compaction below it cannot be the
// client's threshold compaction (the `--autocompact` flag, which the hook
// cannot see, is the exception docs/hooks.md names).
func CompactionThreshold(window int64, env map[string]string) int64 {
	w := window
	if v, err := strconv.ParseInt(strings.TrimSpace(env["CLAUDE_CODE_AUTO_COMPACT_WINDOW"]), 10, 64); err == nil && v > 0 && v < w {
		w = v
	}
	thr := w - summaryBuffer
	if p, err := strconv.ParseFloat(strings.TrimSpace(env["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"]), 64); err == nil && p > 0 && p <= 100 {
		if o := int64(float64(w) * p / 100); o < thr {
			thr = o
		}
	}
	if thr < 0 {
		thr = 0
	}
	return thr
}

// Recovering reports whether an automatic compaction is Claude Code's
// recovery from a context-limit error (the request failed with "prompt is
// too long") rather than its threshold compaction: the transcript shows a
// request without an answer, or the context on record (tokens) is below the
// client's threshold (CompactionThreshold), where it would not compact on
// its own. Checked with the real client (internal/e2e): the request's
// record may reach the transcript after PreCompact runs, the threshold
// test does not depend on that.
func Recovering(rd Reading, tokens, window int64, env map[string]string) bool {
	return rd.PendingRequest || window <= 0 || tokens < CompactionThreshold(window, env)
}
