package ops

import (
	"encoding/json"
	"strconv"

	"github.com/superagent-harness/harness/internal/workspace"
)

// Obj is the ordered JSON object of the state files: workspace.Object, which
// keeps key order, unknown fields and number spelling through a rewrite.
type Obj = workspace.Object

// NewObj returns an empty ordered object.
func NewObj() *Obj { return workspace.NewObject() }

// parseObj decodes one JSON state file or JSON Lines record as an object.
func parseObj(data []byte) (*Obj, error) { return workspace.ParseObject(data) }

// parseValue decodes any JSON value with ordered objects.
func parseValue(data []byte) (any, error) { return workspace.ParseValue(data) }

// asInt returns v as an int when it is a JSON number with an integral value
// (1 and 1.0 both count, as in workspace.JSONInt; "1" does not).
func asInt(v any) (int, bool) { return workspace.IntValue(v) }

// num converts an int to the JSON number representation used in Obj.
func num(i int) json.Number { return json.Number(strconv.Itoa(i)) }

// strsToAny converts a string slice to a JSON array value.
func strsToAny(ss []string) []any {
	out := make([]any, 0, len(ss))
	for _, s := range ss {
		out = append(out, s)
	}
	return out
}
