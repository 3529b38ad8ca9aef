package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

// runScaling measures the costs that must not grow with a sprint's history
// (docs/performance.md "Scaling with the sprint's history"), as same-run
// ratios of interleaved rows:
//
//   - Stop with eval_log at small vs large lines, in two shapes: padding
//     lines of another feature (f001), and lines that all mention the
//     checked feature (f002 phase=2 verdicts; its phase-1 records stay
//     complete, so Stop runs every check and allows);
//   - `harness eval append` with eval_log at small vs appendLarge lines,
//     padding lines that predate the ledger and lines that are all in the
//     provenance ledger (testutil.LedgerEvalLog);
//   - `harness status` with a hook.log of hookLogMB MB;
//   - `harness validate` on validateLines real-shaped lines (phase
//     verdicts with acceptance_results, checkpoint entries with
//     blockers_resolved): µs per line and peak RSS;
//   - PreToolUse Bash with the session's transcript (the real client's)
//     against the minimal program.
func runScaling(tmp, repo, hook, harness, minimal string, runs, small, large, appendLarge, hookLogMB, validateLines int, stdout, stderr io.Writer) int {
	src := filepath.Join(repo, "testdata", "sprints", "valid-midway")
	mk := func(name string, lines int, line func(i int) string) (string, error) {
		root := filepath.Join(tmp, name, "sprint_20260421_1")
		if err := testutil.StopReadyWorkspace(src, root); err != nil {
			return "", err
		}
		return root, testutil.PadEvalLog(root, lines, line)
	}
	padding, mention := testutil.EvalPaddingLine, testutil.EvalMentionLine
	type ws struct{ name, root string }
	var wss []ws
	for _, w := range []struct {
		name  string
		lines int
		line  func(int) string
	}{{"stop-pad-small", small, padding}, {"stop-pad-large", large, padding}, {"stop-mention-small", small, mention}, {"stop-mention-large", large, mention},
		{"append-small", small, padding}, {"append-large", appendLarge, padding},
		{"append-ledgered-small", small, padding}, {"append-ledgered-large", appendLarge, padding}} {
		fmt.Fprintf(stderr, "making %s (%d lines) …\n", w.name, w.lines)
		root, err := mk(w.name, w.lines, w.line)
		if err == nil && strings.Contains(w.name, "ledgered") {
			err = testutil.LedgerEvalLog(root) // every line in the provenance ledger, as Hermes's commands write them
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		wss = append(wss, ws{w.name, root})
	}
	transcript := filepath.Join(repo, "internal", "monitor", "testdata", "growing-usage.jsonl")
	stop := func(root string) []byte {
		return []byte(fmt.Sprintf(`{"hook_event_name":"Stop","session_id":"sess-bench","transcript_path":%q,"cwd":%q,"stop_hook_active":false}`+"\n",
			transcript, filepath.Join(root, ".harness", "features", "f002")))
	}
	args := func(root, event string) []string {
		return []string{"--event", event, "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}
	}
	appendArgs := func(root string) []string {
		return []string{"--root", root, "eval", "append", "--feature", "f002", "--phase", "1", "--event", "retry", "--result", "retry",
			"--reason", "需要登记 golang.org/x/time/rate,用于 429 的限速重试"}
	}
	bashPayload := func(root string, tp string) []byte {
		return []byte(fmt.Sprintf(`{"hook_event_name":"PreToolUse","session_id":"sess-bench","transcript_path":%q,"cwd":%q,"tool_name":"Bash","tool_use_id":"toolu_b","tool_input":{"command":"go test ./... 2>&1 | tail -n 20","description":"run tests"}}`+"\n",
			tp, filepath.Join(root, ".harness", "features", "f002")))
	}
	r := wss[0].root
	scs := []scenario{
		{"minimal Go program", minimal, nil, bashPayload(r, transcript)},
		{"PreToolUse Bash, transcript of the real client (measurements on)", hook, args(r, "PreToolUse"), bashPayload(r, transcript)},
		{"PreToolUse Bash, no transcript", hook, args(r, "PreToolUse"), bashPayload(r, filepath.Join(tmp, "none.jsonl"))},
		{fmt.Sprintf("Stop, %d lines, padding", small), hook, args(wss[0].root, "Stop"), stop(wss[0].root)},
		{fmt.Sprintf("Stop, %d lines, padding", large), hook, args(wss[1].root, "Stop"), stop(wss[1].root)},
		{fmt.Sprintf("Stop, %d lines, all mention f002", small), hook, args(wss[2].root, "Stop"), stop(wss[2].root)},
		{fmt.Sprintf("Stop, %d lines, all mention f002", large), hook, args(wss[3].root, "Stop"), stop(wss[3].root)},
		{fmt.Sprintf("harness eval append, %d lines", small), harness, appendArgs(wss[4].root), nil},
		{fmt.Sprintf("harness eval append, %d lines", appendLarge), harness, appendArgs(wss[5].root), nil},
		{fmt.Sprintf("harness eval append, %d ledgered lines", small), harness, appendArgs(wss[6].root), nil},
		{fmt.Sprintf("harness eval append, %d ledgered lines", appendLarge), harness, appendArgs(wss[7].root), nil},
	}
	// status with a large hook.log (in its own workspace)
	statusRoot := filepath.Join(tmp, "status", "sprint_20260421_1")
	if err := testutil.StopReadyWorkspace(src, statusRoot); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stderr, "making a %d MB hook.log …\n", hookLogMB)
	if err := testutil.WriteHookLog(filepath.Join(statusRoot, ".harness", "logs", "hook.log"), int64(hookLogMB)<<20); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	scs = append(scs, scenario{fmt.Sprintf("harness status, hook.log %d MB", hookLogMB), harness, []string{"--root", statusRoot, "status"}, nil})

	fmt.Fprintf(stderr, "measuring %d rows, interleaved, %d rounds …\n", len(scs), runs)
	ms, ds := measureInterleaved(scs, runs)
	fmt.Fprintf(stdout, "Go %s, %d rounds (interleaved), %s\n\n", strings.TrimPrefix(goVersion(), "go"), runs, time.Now().UTC().Format(time.RFC3339))
	printTable(stdout, ms)
	pr := func(a, b int) float64 { return pairedRatio(ds[a], ds[b]) }
	fmt.Fprintf(stdout, "\npaired ratios (median of per-round ratios):\n")
	fmt.Fprintf(stdout, "  PreToolUse Bash with the transcript / minimal: %.2f (without a transcript: %.2f)\n", pr(1, 0), pr(2, 0))
	fmt.Fprintf(stdout, "  Stop %d / %d lines, padding: %.2f\n", large, small, pr(4, 3))
	fmt.Fprintf(stdout, "  Stop %d / %d lines, all mention f002: %.2f\n", large, small, pr(6, 5))
	fmt.Fprintf(stdout, "  eval append %d / %d lines: %.2f\n", appendLarge, small, pr(8, 7))
	fmt.Fprintf(stdout, "  eval append %d / %d ledgered lines: %.2f\n", appendLarge, small, pr(10, 9))

	// validate on real-shaped lines
	vroot := filepath.Join(tmp, "validate", "sprint_20260421_1")
	fmt.Fprintf(stderr, "making %d real-shaped lines …\n", validateLines)
	if err := testutil.StopReadyWorkspace(src, vroot); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := testutil.PadEvalLog(vroot, validateLines, testutil.EvalRealShapedLine); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	vm, _ := measureInterleaved([]scenario{{fmt.Sprintf("harness validate, %d real-shaped lines", validateLines), harness, []string{"validate", "--root", vroot}, nil}}, 1)
	printTable(stdout, vm)
	if vm[0].failed == nil {
		fmt.Fprintf(stdout, "\nvalidate: %.2f µs per line (wall), %.2f µs per line (CPU), peak RSS %.1f MB\n",
			float64(vm[0].median.Nanoseconds())/1000/float64(validateLines), float64(vm[0].cpu.Nanoseconds())/1000/float64(validateLines), float64(vm[0].rss)/1e6)
	}
	return 0
}

func printTable(w io.Writer, ms []measurement) {
	fmt.Fprintln(w, "| scenario | median | p99 | max | peak RSS | page faults | CPU | exit codes |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|")
	for _, m := range ms {
		if m.failed != nil {
			fmt.Fprintf(w, "| %s | – | – | – | – | – | – | error: %v |\n", m.name, m.failed)
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.1f MB | %.0f | %s | %v |\n", m.name, ms2(m.median), ms2(m.p99), ms2(m.max), float64(m.rss)/1e6, m.faults, ms2(m.cpu), m.exitCodes)
	}
}

func goVersion() string { return runtimeVersion() }
