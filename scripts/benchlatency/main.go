// Command benchlatency measures the wall time and peak RSS of the built
// harness binaries per hook call, the way Claude Code runs them (one process
// per call, payload on stdin), next to a minimal static Go program that reads
// stdin and prints {} (the floor any Go hook pays for exec + runtime start).
//
// Usage (from the repository root):
//
//	go run ./scripts/benchlatency [-runs 100] [-evallines 100000] [-validateruns 10] [-compare OLD-HOOK-BINARY]
//	go run ./scripts/benchlatency -scaling [-runs 30] [-large 1000000] [-appendlarge 100000] [-hooklogmb 140] [-validatelines 1000000]
//
// -scaling measures what must not grow with the sprint's history
// (scaling.go): Stop at -small vs -large eval_log lines in two shapes,
// eval append at -small vs -appendlarge lines, status with a large hook.log,
// validate on real-shaped lines, PreToolUse with the transcript, as paired
// ratios of interleaved rows.
//
// It builds static binaries (CGO_ENABLED=0) into a temp dir, makes a sprint
// workspace from testdata/sprints/valid-midway whose eval_log.jsonl has
// -evallines lines, and prints a Markdown table (median, p99, max of wall
// time; peak RSS; median page faults and CPU time from getrusage, which
// depend far less on the machine's load than wall time) plus the
// PreToolUse/minimal ratio. The hook
// rows run interleaved (one call of each per round) so that load changes hit
// all rows alike; the paired ratio is the median of the per-round ratios.
// Results are recorded in docs/performance.md.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/testutil"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// measurement is one scenario's result.
type measurement struct {
	name        string
	median, p99 time.Duration
	max         time.Duration
	rss         int64
	// faults and cpu are the medians of the runs' page faults (minor +
	// major) and user+system CPU time from getrusage (0 where the OS does
	// not report them): load-independent proxies of the start-up cost.
	faults        float64
	cpu           time.Duration
	exitCodes     map[int]int
	stdoutExcerpt string
	runs          int
	failed        error
	// rssSource says where rss comes from: "/usr/bin/time" (exact: GNU
	// time's small process forks the child) or "rusage" (os.ProcessState;
	// on Linux it can include this benchmark's own pages, since Go starts
	// children with vfork, so it is only an upper bound).
	rssSource string
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("benchlatency", flag.ContinueOnError)
	fl.SetOutput(stderr)
	runs := fl.Int("runs", 100, "runs per scenario (≥ 50 for a meaningful p99)")
	evalLines := fl.Int("evallines", 100000, "lines in the workspace's eval_log.jsonl")
	compare := fl.String("compare", "", "another harness-hook binary (e.g. built from an older commit): adds its PreToolUse Bash and Stop rows to the interleaved rounds")
	validateRuns := fl.Int("validateruns", 10, "runs of the (slow) harness validate row")
	keep := fl.Bool("keep", false, "keep the temp dir (binaries and workspace) and print its path")
	scaling := fl.Bool("scaling", false, "measure the costs that must not grow with the sprint's history instead (Stop, eval append, status, validate; docs/performance.md)")
	small := fl.Int("small", 200, "-scaling: lines of the small eval_log")
	large := fl.Int("large", 1000000, "-scaling: lines of the large eval_log (Stop)")
	appendLarge := fl.Int("appendlarge", 100000, "-scaling: lines of the large eval_log (eval append)")
	hookLogMB := fl.Int("hooklogmb", 140, "-scaling: size of the hook.log of the status row, MB")
	validateLines := fl.Int("validatelines", 1000000, "-scaling: real-shaped eval_log lines of the validate row")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	tmp, err := os.MkdirTemp("", "benchlatency-")
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *keep {
		fmt.Fprintln(stderr, "temp dir:", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	repo, err := testutil.ModuleRoot()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	bin := filepath.Join(tmp, "bin")
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	hook, harness, minimal := filepath.Join(bin, "harness-hook"+exe), filepath.Join(bin, "harness"+exe), filepath.Join(bin, "minimal"+exe)
	if err := testutil.GoBuild(repo, "./cmd/harness-hook", hook); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := testutil.GoBuild(repo, "./cmd/harness", harness); err != nil {
		fmt.Fprintln(stderr, "warning: the validate row is skipped:", err)
	}
	if err := buildMinimal(filepath.Join(tmp, "minimal"), minimal); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	// How a binary's file was written changes how fast it starts: the same
	// bytes written by the linker and by one write(2) differed by ~10 % in
	// CPU and by 35 page faults per process on this machine (the page
	// cache's folio sizes, docs/performance.md). Every measured binary is
	// therefore rewritten the same way (copyExecutable) before it runs.
	for _, b := range []string{hook, harness, minimal} {
		if err := copyExecutable(b, b); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if *scaling {
		return runScaling(tmp, repo, hook, harness, minimal, *runs, *small, *large, *appendLarge, *hookLogMB, *validateLines, stdout, stderr)
	}
	root := filepath.Join(tmp, "sprint_20260421_1")
	if err := makeWorkspace(filepath.Join(repo, "testdata", "sprints", "valid-midway"), root, *evalLines); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	hookArgs := func(event string) []string {
		return []string{"--event", event, "--root", root, "--feature", "f002", "--sprint", "sprint_20260421_1"}
	}
	payload := func(v map[string]any) []byte {
		v["session_id"] = "sess-bench"
		v["transcript_path"] = filepath.Join(tmp, "t.jsonl")
		v["cwd"] = filepath.Join(root, ".harness", "features", "f002")
		b, _ := json.Marshal(v)
		return append(b, '\n')
	}
	scenarios := []scenario{
		{"minimal Go program (reads stdin, prints {})", minimal, nil, payload(map[string]any{"hook_event_name": "PreToolUse"})},
		{"PreToolUse Bash `go test ./... 2>&1 | tail -n 20`", hook, hookArgs("PreToolUse"), payload(map[string]any{
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_b",
			"tool_input": map[string]any{"command": "go test ./... 2>&1 | tail -n 20", "description": "run tests"}})},
		{"PreToolUse Bash `rm -rf build` (block)", hook, hookArgs("PreToolUse"), payload(map[string]any{
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_r",
			"tool_input": map[string]any{"command": "rm -rf build"}})},
		{"PreToolUse Edit src/main.go in the workspace", hook, hookArgs("PreToolUse"), payload(map[string]any{
			"hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_use_id": "toolu_e",
			"tool_input": map[string]any{"file_path": filepath.Join(root, "src", "main.go"), "old_string": "a", "new_string": "b", "replace_all": false}})},
		{"SessionStart (startup)", hook, hookArgs("SessionStart"), payload(map[string]any{"hook_event_name": "SessionStart", "source": "startup"})},
		{fmt.Sprintf("Stop, eval_log %d lines, records complete", *evalLines), hook, hookArgs("Stop"), payload(map[string]any{
			"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "done"})},
		{"`harness validate` on that workspace", harness, []string{"validate", "--root", root}, nil},
	}
	if *compare != "" {
		// written the way the built ones were (see copyExecutable above)
		cmp := filepath.Join(bin, "compare-hook"+exe)
		if err := copyExecutable(*compare, cmp); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		// The compared binary's rows get a workspace of their own: binaries
		// of commits whose caches differ (the eval_log caches under
		// .harness/logs/cache) would otherwise rebuild each other's caches on
		// every round and measure that instead.
		root0 := root
		root = filepath.Join(tmp, "compare", "sprint_20260421_1")
		if err := makeWorkspace(filepath.Join(repo, "testdata", "sprints", "valid-midway"), root, *evalLines); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		bash := scenarios[1]
		bash.name, bash.bin, bash.args = bash.name+" — "+*compare, cmp, hookArgs("PreToolUse")
		bash.stdin = payload(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_b",
			"tool_input": map[string]any{"command": "go test ./... 2>&1 | tail -n 20", "description": "run tests"}})
		stop := scenarios[5]
		stop.name, stop.bin, stop.args = stop.name+" — "+*compare, cmp, hookArgs("Stop")
		stop.stdin = payload(map[string]any{"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "done"})
		root = root0
		scenarios = append(scenarios[:len(scenarios)-1:len(scenarios)-1], bash, stop, scenarios[len(scenarios)-1])
	}
	// The hook rows run interleaved (one call of each per round), so that a
	// change of the machine's load during the run shifts every row alike and
	// the ratios stay comparable; the slow validate row runs after them.
	fmt.Fprintf(stderr, "measuring %d hook rows, interleaved, %d rounds …\n", len(scenarios)-1, *runs)
	ms, ds := measureInterleaved(scenarios[:len(scenarios)-1], *runs)
	v := scenarios[len(scenarios)-1]
	fmt.Fprintf(stderr, "measuring %s (%d runs) …\n", v.name, *validateRuns)
	vm, _ := measureInterleaved([]scenario{v}, *validateRuns)
	ms = append(ms, vm...)
	fmt.Fprintf(stdout, "Go %s, %s/%s, %d CPUs, %d runs per hook row (interleaved), %d of validate, %s\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), *runs, *validateRuns, time.Now().UTC().Format(time.RFC3339))
	fmt.Fprintln(stdout, "| scenario | median | p99 | max | peak RSS | page faults | CPU | exit codes |")
	fmt.Fprintln(stdout, "|---|---:|---:|---:|---:|---:|---:|---|")
	for _, m := range ms {
		if m.failed != nil {
			fmt.Fprintf(stdout, "| %s | – | – | – | – | – | – | error: %v |\n", strings.ReplaceAll(m.name, "|", "\\|"), m.failed)
			continue
		}
		fmt.Fprintf(stdout, "| %s | %s | %s | %s | %.1f MB (%s) | %.0f | %s | %v |\n", strings.ReplaceAll(m.name, "|", "\\|"), ms2(m.median), ms2(m.p99), ms2(m.max), float64(m.rss)/1e6, m.rssSource, m.faults, ms2(m.cpu), m.exitCodes)
	}
	if ms[0].failed == nil && ms[1].failed == nil && ms[0].median > 0 {
		fmt.Fprintf(stdout, "\nratio PreToolUse Bash / minimal (medians): %.2f\n", float64(ms[1].median)/float64(ms[0].median))
		fmt.Fprintf(stdout, "ratio PreToolUse Edit / minimal (medians): %.2f\n", float64(ms[3].median)/float64(ms[0].median))
		fmt.Fprintf(stdout, "paired ratio PreToolUse Bash / minimal (median of per-round ratios): %.2f\n", pairedRatio(ds[1], ds[0]))
		fmt.Fprintf(stdout, "paired ratio PreToolUse Edit / minimal (median of per-round ratios): %.2f\n", pairedRatio(ds[3], ds[0]))
		if *compare != "" && len(ds) > 6 && ms[6].failed == nil {
			fmt.Fprintf(stdout, "paired ratio PreToolUse Bash of %s / minimal: %.2f; this hook / that one: %.2f\n", *compare, pairedRatio(ds[6], ds[0]), pairedRatio(ds[1], ds[6]))
		}
	}
	for _, m := range ms[1:] {
		if m.stdoutExcerpt != "" {
			fmt.Fprintf(stdout, "\n%s → %s", m.name, m.stdoutExcerpt)
		}
	}
	fmt.Fprintln(stdout)
	return 0
}

func ms2(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

// scenario is one row: a binary, its arguments and its stdin.
type scenario struct {
	name  string
	bin   string
	args  []string
	stdin []byte
}

// measureInterleaved runs every scenario runs times (after 3 warm-up
// rounds), one call of each scenario per round, and summarises each. It also
// returns the wall times per scenario in round order (for paired ratios).
func measureInterleaved(scs []scenario, runs int) ([]measurement, [][]time.Duration) {
	ms := make([]measurement, len(scs))
	ds := make([][]time.Duration, len(scs))
	faults := make([][]float64, len(scs))
	cpus := make([][]time.Duration, len(scs))
	for k, sc := range scs {
		ms[k] = measurement{name: sc.name, exitCodes: map[int]int{}, runs: runs}
	}
	for i := 0; i < runs+3; i++ {
		for k, sc := range scs {
			m := &ms[k]
			if m.failed != nil {
				continue
			}
			cmd := exec.Command(sc.bin, sc.args...)
			if sc.stdin != nil {
				cmd.Stdin = bytes.NewReader(sc.stdin)
			}
			var out bytes.Buffer
			cmd.Stdout = &out
			cmd.Stderr = io.Discard
			start := time.Now()
			err := cmd.Run()
			d := time.Since(start)
			if cmd.ProcessState == nil {
				m.failed = err
				continue
			}
			if i < 3 {
				if i == 0 {
					ex := strings.TrimSpace(out.String())
					if len(ex) > 200 {
						ex = ex[:200] + "…"
					}
					m.stdoutExcerpt = ex
				}
				continue
			}
			m.exitCodes[cmd.ProcessState.ExitCode()]++
			ds[k] = append(ds[k], d)
			m.rss = max(m.rss, maxRSS(cmd.ProcessState))
			if f, c, ok := usage(cmd.ProcessState); ok {
				faults[k] = append(faults[k], float64(f))
				cpus[k] = append(cpus[k], c)
			}
		}
	}
	for k, sc := range scs {
		m := &ms[k]
		if m.failed != nil || len(ds[k]) == 0 {
			continue
		}
		if rss, ok := rssViaTime(sc.bin, sc.args, sc.stdin); ok {
			m.rss, m.rssSource = rss, "/usr/bin/time"
		} else {
			m.rssSource = "rusage"
		}
		sorted := slices.Sorted(slices.Values(ds[k]))
		m.median = sorted[len(sorted)/2]
		m.p99 = sorted[min(len(sorted)-1, (len(sorted)*99+99)/100-1)]
		m.max = sorted[len(sorted)-1]
		if len(faults[k]) > 0 {
			m.faults = slices.Sorted(slices.Values(faults[k]))[len(faults[k])/2]
			m.cpu = slices.Sorted(slices.Values(cpus[k]))[len(cpus[k])/2]
		}
	}
	return ms, ds
}

// pairedRatio is the median over rounds of a[i]/b[i]: the ratio of two rows
// measured back to back in the same round, robust to load that changes
// during the run.
func pairedRatio(a, b []time.Duration) float64 {
	n := min(len(a), len(b))
	if n == 0 {
		return 0
	}
	rs := make([]float64, 0, n)
	for i := range n {
		if b[i] > 0 {
			rs = append(rs, float64(a[i])/float64(b[i]))
		}
	}
	if len(rs) == 0 {
		return 0
	}
	slices.Sort(rs)
	return rs[len(rs)/2]
}

// buildMinimal builds the baseline: a static Go program that reads all of
// stdin and prints {} (what any hook must at least do).
func buildMinimal(dir, out string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	src := "package main\n\nimport (\n\t\"io\"\n\t\"os\"\n)\n\nfunc main() {\n\t_, _ = io.Copy(io.Discard, os.Stdin)\n\t_, _ = os.Stdout.WriteString(\"{}\\n\")\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module minimal\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}
	return testutil.GoBuild(dir, ".", out)
}

// makeWorkspace copies the fixture, completes f002's phase-1 records (so
// Stop runs every check and allows) and pads eval_log.jsonl to lines lines
// with realistic entries of another feature.
func makeWorkspace(src, root string, lines int) error {
	if err := testutil.StopReadyWorkspace(src, root); err != nil {
		return err
	}
	return testutil.PadEvalLog(root, lines, testutil.EvalPaddingLine)
}

// rssViaTime runs the command once under GNU time (`/usr/bin/time -f %M`),
// whose own small process forks the child, and returns the child's peak RSS
// in bytes.
func rssViaTime(bin string, args []string, stdin []byte) (int64, bool) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		return 0, false
	}
	f, err := os.CreateTemp("", "rss-")
	if err != nil {
		return 0, false
	}
	f.Close()
	defer os.Remove(f.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", f.Name(), bin}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	_ = cmd.Run()
	out, err := os.ReadFile(f.Name())
	if err != nil {
		return 0, false
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return 0, false
	}
	var kb int64
	if _, err := fmt.Sscan(lines[len(lines)-1], &kb); err != nil || kb <= 0 {
		return 0, false
	}
	return kb * 1024, true
}

func runtimeVersion() string { return runtime.Version() }

// copyExecutable writes the executable src to dst (src itself when the
// same) as a new file in one write and renames it into place, so that every
// measured binary's page-cache pages come from the same kind of write.
func copyExecutable(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	tmp := dst + ".copy"
	if err := os.WriteFile(tmp, data, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
