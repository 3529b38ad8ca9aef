package notify

import (
	"os"
	"path/filepath"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/workspace"
)

// Record appends one JSON line per delivery to the log at path
// (H/logs/notify.jsonl), each a locked whole-line append (fsutil.AppendLine),
// creating its folder. It stops at the first failed append.
func Record(path string, ds []Delivery) error {
	if len(ds) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	for _, d := range ds {
		line, err := workspace.MarshalLine(d)
		if err != nil {
			return err
		}
		if err := fsutil.AppendLine(path, append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}
