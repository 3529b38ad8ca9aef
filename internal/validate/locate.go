package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// PointerLine returns the 1-based line of data (a JSON document) on which
// the value at the JSON pointer ptr (RFC 6901; "" = the whole document)
// starts, for CI annotations of findings that carry a pointer but no line.
// A pointer to a member that does not exist gives the line of its deepest
// existing ancestor; ok is false when not even the document's start is
// found (data is not JSON, or ptr is malformed).
func PointerLine(data []byte, ptr string) (line int, ok bool) {
	want, err := pointerTokens(ptr)
	if err != nil {
		return 0, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	best := -1 // offset of the deepest ancestor of ptr seen so far
	var stack []ptrFrame
	for {
		start := int(dec.InputOffset())
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			break
		}
		if d, isDelim := tok.(json.Delim); isDelim && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].next()
			}
			continue
		}
		if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].wantKey {
			stack[n-1].key, stack[n-1].wantKey = tok.(string), false
			continue
		}
		// a value starts at the first byte that is not white space or a separator
		for start < len(data) && strings.IndexByte(" \t\r\n,:", data[start]) >= 0 {
			start++
		}
		if len(stack) <= len(want) && onPath(stack, want) {
			best = start
			if len(stack) == len(want) {
				return lineAt(data, start), true
			}
		}
		if d, isDelim := tok.(json.Delim); isDelim {
			stack = append(stack, ptrFrame{array: d == '[', wantKey: d == '{'})
			continue
		}
		if len(stack) > 0 {
			stack[len(stack)-1].next()
		}
	}
	if best < 0 {
		return 0, false
	}
	return lineAt(data, best), true
}

// ptrFrame is one open container while PointerLine reads: the index (array)
// or key (object) of the value being read.
type ptrFrame struct {
	array   bool
	index   int
	key     string
	wantKey bool
}

// next moves past one member or element.
func (f *ptrFrame) next() {
	if f.array {
		f.index++
	} else {
		f.wantKey = true
	}
}

// onPath reports whether the open containers are the first len(stack)
// tokens of the pointer want.
func onPath(stack []ptrFrame, want []string) bool {
	for i, f := range stack {
		seg := f.key
		if f.array {
			seg = strconv.Itoa(f.index)
		}
		if seg != want[i] {
			return false
		}
	}
	return true
}

// pointerTokens splits an RFC 6901 pointer into its unescaped tokens.
func pointerTokens(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, errors.New("a JSON pointer starts with /")
	}
	parts := strings.Split(ptr[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	return bytes.Count(data[:min(off, len(data))], []byte{'\n'}) + 1
}
