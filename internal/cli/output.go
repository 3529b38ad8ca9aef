package cli

import (
	"encoding/json"
	"io"
)

// writeJSON prints v as one JSON document (2-space indent, no HTML escaping).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
