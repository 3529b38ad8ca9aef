package validate

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superagent-harness/harness/internal/workspace"
)

// Options adjusts a run for the dry run of a staged change (internal/ops):
// validate the workspace as it would be after the change, without writing
// anything.
type Options struct {
	// Overlay maps slash paths relative to the root (".harness/eval_log.jsonl")
	// to the bytes the rules read instead of the file on disk; a nil value is a
	// file that does not exist (a staged removal). Folders holding an overlay
	// file exist. Only files the rules read or stat are looked up here; the
	// sprint's schemas/ and .harness/rules.yaml are always read from disk.
	Overlay map[string][]byte
	// Appends maps slash paths relative to the root to bytes appended after
	// the file's content (on disk or in Overlay), exactly as fsutil.AppendLine
	// would write them (a leading '\n' after a torn last line included): the
	// dry run of an eval_log append reads the log once instead of a copy
	// with the line added. Only .harness/eval_log.jsonl is read this way.
	Appends map[string][]byte
	// EvalSize, when set, reads .harness/eval_log.jsonl on disk as its first
	// *EvalSize bytes (all of it when shorter): a snapshot taken by the dry
	// run, so that its runs before and after the change see the same log
	// while writers that do not take the workspace lock append to it. The
	// Appends of eval_log follow the snapshot.
	EvalSize *int64
	// EvalCache makes the eval_log pass of a validate (not finalize) run
	// start from the state cached in .harness/logs/cache/validate-eval.json
	// and check only the lines appended since, refreshing the cache (see
	// evalcache.go). The operations of internal/ops set it: each `eval
	// append` then costs its own line, not the log's size.
	EvalCache bool
	// Ledger, when set, is the provenance the caller loaded from the files
	// on disk (workspace.LoadProvenance, under the workspace lock it holds):
	// its entries of the ledger file (.harness/logs/eval_ledger.jsonl) are
	// used instead of reading the file again when Overlay replaces neither
	// that file nor hermes_context_state.json, with Appends' ledger bytes
	// added (workspace.Provenance.ShareLedger), so the dry run's two runs
	// and the operation's own view read the ledger once. The Stop hook's
	// Reset records are still read from the files as validate reads them.
	Ledger *workspace.Provenance
	// HarnessOnly limits the layout rules that list or walk folders to
	// .harness/ (the sprint root's own listing and the project files around
	// .harness/ are not read). A staged change under .harness/ cannot change
	// those findings, and a dry run then costs the same however large the
	// project in the sprint root is.
	HarnessOnly bool
	// SharedLock takes the shared workspace lock (fsutil.RLockWithin on
	// .harness/state, the lock every state change holds exclusively) while
	// the files are read, so the findings describe one consistent snapshot
	// and never a change half-seen. `harness validate` and `finalize
	// --check` set it; the dry run of internal/ops must not (it already
	// holds the lock exclusively). A lock still held after
	// SharedLockTimeout is reported as the error finding state.lock-held,
	// naming the holder, and the files are read anyway.
	SharedLock bool
	// generalOnly turns the fast path of the eval_log pass off (evalfast.go):
	// the differential tests compare the two.
	generalOnly bool
	// fastLines, when set, counts the lines the fast path checked.
	fastLines *int
}

// SharedLockTimeout is how long Options.SharedLock waits for a writer.
const SharedLockTimeout = 3 * time.Second

// ValidateWith is Validate (finalize false) or FinalizeCheck (finalize true)
// with opts applied.
func ValidateWith(root string, finalize bool, opts Options) (*Report, error) {
	return runWith(root, finalize, opts)
}

// overlaid returns the overlay entry of the absolute path p, if any.
func (c *checker) overlaid(p string) (data []byte, ok bool) {
	if c.opts.Overlay == nil {
		return nil, false
	}
	data, ok = c.opts.Overlay[c.ws.Rel(p)]
	return data, ok
}

// readFile reads the absolute path p: the overlay's bytes when it has p,
// else the file through fsutil.ReadRegular (never blocking on a FIFO).
func (c *checker) readFile(p string) ([]byte, error) {
	if data, ok := c.overlaid(p); ok {
		if data == nil {
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		}
		return data, nil
	}
	return workspace.ReadFile(p)
}

// statResult is what the rules need of a stat: existence, folder, file type.
type statResult struct {
	exists, dir bool
	mode        fs.FileMode // on-disk mode type bits; 0 (regular) for overlay files
}

// stat stats the absolute path p through the overlay: an overlay file is a
// regular file (or absent when nil), a folder above an overlay file exists.
func (c *checker) stat(p string) statResult {
	if data, ok := c.overlaid(p); ok {
		return statResult{exists: data != nil}
	}
	if st, err := os.Stat(p); err == nil {
		return statResult{exists: true, dir: st.IsDir(), mode: st.Mode().Type()}
	}
	if c.opts.Overlay != nil {
		prefix := strings.TrimSuffix(c.ws.Rel(p), "/") + "/"
		for k, v := range c.opts.Overlay {
			if v != nil && strings.HasPrefix(k, prefix) {
				return statResult{exists: true, dir: true, mode: fs.ModeDir}
			}
		}
	}
	return statResult{}
}

// walkRoot is the folder the layout walk covers: the sprint root, or
// .harness/ alone under HarnessOnly.
func (c *checker) walkRoot() string {
	if c.opts.HarnessOnly {
		return filepath.Join(c.ws.Root, ".harness")
	}
	return c.ws.Root
}
