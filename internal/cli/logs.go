package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/hook"
	"github.com/superagent-harness/harness/internal/safetext"
	"github.com/superagent-harness/harness/internal/userlog"
	"github.com/superagent-harness/harness/internal/workspace"
)

// LogsCmd is `harness logs`: the hook's decisions, from the sprint's
// hook.log inside a sprint, else from the user-level audit log
// (internal/userlog).
type LogsCmd struct {
	Since   string `name:"since" placeholder:"D" help:"Only records newer than D: a duration (30m, 24h, 7d) or a UTC time (2026-12-01T20:00:00Z)."`
	Verdict string `name:"verdict" placeholder:"V" help:"Only this verdict: allow, warn, block, stop_forced_incomplete, authorised (an allow-once given outside a sprint)."`
	Rule    string `name:"rule" placeholder:"R" help:"Only this rule id (fs.rm-recursive-force), or a prefix ending in a dot (fs.)."`
	Probes  bool   `name:"probes" help:"Include harness doctor's probe calls (hidden by default)."`
	Dir     string `arg:"" optional:"" name:"DIR" help:"Sprint root (default: as for every command; none found = the user-level log)."`
}

// Help is the long help of logs.
func (c *LogsCmd) Help() string {
	return `Prints every decision harness-hook made, oldest first: time, verdict, rule, event, and the command or
path (credentials are masked before they are logged). Inside a sprint workspace the records are the
sprint's .harness/logs/hook.log and its rotated files hook.log.1, hook.log.2, … (rotated at 8 MiB);
elsewhere (a project guarded with 'harness install') they are the
user-level audit log: $XDG_STATE_HOME/harness/hook.log (default ~/.local/state/harness/hook.log; on macOS
~/Library/Logs/harness/hook.log, on Windows %LocalAppData%\harness\hook.log), rotated at 4 MB. There
the authorisations given with 'harness allow' outside a sprint appear too, with the verdict
"authorised"; the hook's use of one is an allow record naming it.

Examples:
  harness logs
  harness logs --since 24h --verdict block
  harness logs --rule fs. --json`
}

// logEntry is one record as logs prints it (hook.Record's fields).
type logEntry = hook.Record

// Run performs logs.
func (c *LogsCmd) Run(e *Env) error {
	switch c.Verdict {
	case "", "allow", "warn", "block", "stop_forced_incomplete", "authorised":
	default:
		return usage("--verdict %q: not a verdict (allow, warn, block, stop_forced_incomplete, authorised)", c.Verdict)
	}
	var since time.Time
	if c.Since != "" {
		t, err := parseSince(c.Since, time.Now())
		if err != nil {
			return usage("--since %q: %v", c.Since, err)
		}
		since = t
	}
	source, files := "", []string(nil)
	if root, err := e.rootFor(c.Dir); err == nil {
		// hook.log and its rotations hook.log.<N> (a larger N is newer)
		source = (&workspace.Workspace{Root: root}).HookLog()
		files = workspace.HookLogFiles(source)
		slices.Reverse(files)
	} else if c.Dir != "" || e.Root != "" {
		return err
	} else if source = userlog.Path(e.Vars, runtime.GOOS); source == "" {
		return usage("no sprint workspace and no home directory: there is no log to read")
	} else {
		files = []string{source + ".1", source}
	}
	entries, err := readLog(files)
	if err != nil {
		return err
	}
	out := []logEntry{}
	for _, r := range entries {
		switch {
		case r.Probe && !c.Probes:
		case c.Verdict != "" && r.Verdict != c.Verdict:
		case c.Rule != "" && !(r.Rule == c.Rule || strings.HasSuffix(c.Rule, ".") && strings.HasPrefix(r.Rule, c.Rule)):
		case !since.IsZero() && !after(r.Time, since):
		default:
			out = append(out, r)
		}
	}
	e.reply(map[string]any{"source": source, "records": out}, func(w io.Writer) {
		fmt.Fprintf(w, "# %s: %d record(s)\n", source, len(out))
		rows := make([][]string, 0, len(out))
		for _, r := range out {
			subj := r.Command
			if subj == "" {
				subj = r.Path
			}
			if subj == "" {
				subj = strings.Join(r.Failing, ",")
			}
			rule := r.Rule
			if rule == "" {
				rule = "-"
			}
			where := ""
			if r.Project != "" {
				where = "  in " + r.Project
			}
			rows = append(rows, []string{r.Time, r.Verdict, rule, r.Event, oneLineText(subj) + where})
		}
		safetext.Table(w, "", rows)
	})
	return nil
}

// maxLogFile bounds the read of one log file (a rotated sprint hook.log
// holds about workspace.HookLogRotateSize bytes, a user-level one at most
// userlog.MaxBytes; a file grown past this by hand is an error, not a hang).
const maxLogFile = 64 << 20

// readLog reads the JSON records of the log files in order (oldest first);
// a missing file is no records, non-JSON lines are skipped, and a file that
// is not regular (a FIFO) is an error, never a wait.
func readLog(files []string) ([]logEntry, error) {
	var out []logEntry
	for _, p := range files {
		data, err := fsutil.ReadRegular(filepath.Clean(p), maxLogFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 || line[0] != '{' {
				continue
			}
			var r logEntry
			if json.Unmarshal(line, &r) == nil {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// parseSince reads a duration back from now (with a d suffix for days) or
// an RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		if _, err := fmt.Sscanf(d, "%d", &n); err == nil && n >= 0 {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("not a duration (30m, 24h, 7d) or a UTC time")
	}
	return now.Add(-d), nil
}

func after(ts string, since time.Time) bool {
	t, err := time.Parse(time.RFC3339, ts)
	return err == nil && !t.Before(since)
}

func oneLineText(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
