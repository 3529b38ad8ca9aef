package shell

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// jqStep is one step of a jq path: an object key, or an array index
// when isIndex.
type jqStep struct {
	key     string
	index   int
	isIndex bool
}

// jqPath parses a jq filter that is a plain path: ".", ".a.b", ".a[0]",
// ".[\"k\"]", ".\"k\"", each step optionally followed by "?". Anything
// else (pipes, functions, iterators) reports false.
func jqPath(f string) ([]jqStep, bool) {
	f = strings.TrimSpace(f)
	if f == "" || f[0] != '.' {
		return nil, false
	}
	var steps []jqStep
	i := 0
	for i < len(f) {
		switch {
		case f[i] == '.' && i+1 < len(f) && f[i+1] == '"':
			k, n, ok := jqString(f[i+1:])
			if !ok {
				return nil, false
			}
			steps = append(steps, jqStep{key: k})
			i += 1 + n
		case f[i] == '.' && i+1 < len(f) && (f[i+1] == '_' || isAlpha(f[i+1])):
			j := i + 1
			for j < len(f) && (f[j] == '_' || isAlpha(f[j]) || f[j] >= '0' && f[j] <= '9') {
				j++
			}
			steps = append(steps, jqStep{key: f[i+1 : j]})
			i = j
		case f[i] == '.' && (i+1 == len(f) || f[i+1] == '['):
			i++
		case f[i] == '[':
			end := strings.IndexByte(f[i:], ']')
			if end < 0 {
				return nil, false
			}
			in := strings.TrimSpace(f[i+1 : i+end])
			if strings.HasPrefix(in, `"`) {
				k, n, ok := jqString(in)
				if !ok || n != len(in) {
					return nil, false
				}
				steps = append(steps, jqStep{key: k})
			} else {
				n, err := strconv.Atoi(in)
				if err != nil {
					return nil, false
				}
				steps = append(steps, jqStep{index: n, isIndex: true})
			}
			i += end + 1
		case f[i] == '?':
			i++
		default:
			return nil, false
		}
	}
	return steps, true
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// jqString reads the JSON string literal at the start of s: its value and
// length.
func jqString(s string) (string, int, bool) {
	for j := 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			var v string
			if json.Unmarshal([]byte(s[:j+1]), &v) != nil {
				return "", 0, false
			}
			return v, j + 1, true
		}
	}
	return "", 0, false
}

// maxJqInputs bounds the JSON values jqSelect reads.
const maxJqInputs = 256

// jqSelect is the raw output (`jq -r PATH`) of steps applied to every
// JSON value of in: strings as they are, other values as JSON, a missing
// member as null. False when in is not JSON or a step does not apply (jq
// would fail).
func jqSelect(steps []jqStep, in string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(in))
	var b strings.Builder
	for n := 0; ; n++ {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || n >= maxJqInputs {
			return "", false
		}
		for _, s := range steps {
			switch x := v.(type) {
			case nil:
			case map[string]any:
				if s.isIndex {
					return "", false
				}
				v = x[s.key]
			case []any:
				if !s.isIndex {
					return "", false
				}
				k := s.index
				if k < 0 {
					k += len(x)
				}
				v = nil
				if k >= 0 && k < len(x) {
					v = x[k]
				}
			default:
				return "", false
			}
		}
		if str, ok := v.(string); ok {
			b.WriteString(str)
		} else {
			j, err := json.Marshal(v)
			if err != nil {
				return "", false
			}
			b.Write(j)
		}
		b.WriteByte('\n')
	}
	return b.String(), true
}
