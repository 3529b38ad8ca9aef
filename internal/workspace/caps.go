package workspace

import (
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// ReadCap returns the read cap of the workspace file at path by its kind
// (fsutil.Cap*; docs/ARCHITECTURE.md "Reads"): ids and one-line files
// (session_id.txt, .current_agent, lock sidecars) CapSmall; the JSON Lines
// logs (eval_log.jsonl, hook.log) CapLog for the whole stream (each line is
// capped at CapLine by EachEvalLine); Markdown records CapRecord;
// configuration (rules.yaml, settings*.json, *.yaml, schemas) CapConfig;
// every other file, the JSON state files among them, CapState.
func ReadCap(path string) int64 {
	base := filepath.Base(path)
	switch {
	case base == "session_id.txt", base == ".current_agent", base == ".current_agent.json", strings.HasSuffix(base, ".lock"):
		return fsutil.CapSmall
	case base == "eval_log.jsonl", base == "hook.log":
		return fsutil.CapLog
	case strings.HasSuffix(base, ".md"):
		return fsutil.CapRecord
	case strings.HasSuffix(base, ".yaml"), strings.HasSuffix(base, ".yml"), strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json"),
		strings.HasSuffix(base, ".schema.json"):
		return fsutil.CapConfig
	}
	return fsutil.CapState
}

// ReadFile reads the workspace file at path under its ReadCap, without
// blocking on a FIFO (fsutil.ReadRegular): a file over the cap is a
// *fsutil.TooLargeError decided from fstat, before any byte is read.
func ReadFile(path string) ([]byte, error) { return fsutil.ReadRegular(path, ReadCap(path)) }
