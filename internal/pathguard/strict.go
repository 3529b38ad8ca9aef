package pathguard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// toolFields are the tool_input keys of Edit, Write, MultiEdit and
// NotebookEdit that Claude Code reads (hook protocol: tool_input is the
// exact tool object).
var toolFields = [...]string{"file_path", "notebook_path", "old_string", "new_string", "replace_all", "edits", "content",
	"new_source", "cell_id", "cell_type", "edit_mode"}

// checkKeys rejects a tool_input that Go's encoding/json would read
// differently from Claude Code: encoding/json matches keys ASCII
// case-insensitively and keeps the last of duplicates, so
// {"file_path":"schemas/x","File_Path":"src/ok"} would be judged on src/ok
// while the tool writes schemas/x. A key that differs from a known field
// only in case, or a known field given twice, is an error; so is either in
// an element of "edits". Other keys are ignored.
func checkKeys(raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	return checkObject(dec, true)
}

func checkObject(dec *json.Decoder, top bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		for _, f := range toolFields {
			if !strings.EqualFold(key, f) {
				continue
			}
			if key != f {
				return fmt.Errorf("key %q differs from the field %q only in case", key, f)
			}
			if seen[f] {
				return fmt.Errorf("the field %q is given twice", f)
			}
			seen[f] = true
		}
		if top && key == "edits" {
			if err := checkEdits(dec); err != nil {
				return err
			}
			continue
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	_, err = dec.Token() // '}'
	return err
}

// checkEdits checks each object of the "edits" array (other values are
// skipped; the typed decoding reports them).
func checkEdits(dec *json.Decoder) error {
	var arr []json.RawMessage
	if err := dec.Decode(&arr); err != nil {
		return err
	}
	for i, e := range arr {
		if t := bytes.TrimSpace(e); len(t) == 0 || t[0] != '{' {
			continue
		}
		if err := checkObject(json.NewDecoder(bytes.NewReader(e)), false); err != nil {
			return fmt.Errorf("edits[%d]: %w", i, err)
		}
	}
	return nil
}
