package ccsettings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// SpliceHooks returns settings text with every harness-hook handler
// (Handler.IsOurs(hookBin); hookBin "" = any harness-hook) removed and add
// appended, changing no byte
// outside the entries it touches: other members, events, groups and
// handlers keep their text, order and white space, and the new entries are
// indented like the file. A group left without handlers, an event left
// without groups and a "hooks" object left empty by the removal are removed
// too. When the file already holds exactly the handlers of add, in the same
// events and matchers, data is returned unchanged (idempotent). Empty data
// gives a new document; anything but one JSON object is an error.
//
// This is what `harness install` and `harness uninstall` (add = nil) write
// into a user's settings file, where re-encoding the whole document would
// reformat their own entries.
func SpliceHooks(data []byte, hookBin string, add []EventGroup) ([]byte, error) {
	ours := func(raw []byte) bool { return IsOursJSON(raw, hookBin) }
	if len(bytes.TrimSpace(data)) == 0 {
		if len(add) == 0 {
			return data, nil
		}
		return freshHooksDoc(add)
	}
	if !json.Valid(data) {
		return nil, errors.New("settings are not valid JSON")
	}
	p := &jparser{b: data}
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, errors.New("settings are not a JSON object")
	}
	st := detectStyle(data)
	if same, err := sameHandlers(data, root, ours, add); err != nil {
		return nil, err
	} else if same {
		return data, nil
	}
	hm := root.member(data, "hooks")
	if hm == nil || hm.val.kind == 'l' { // absent or null
		if len(add) == 0 {
			return data, nil
		}
		text, err := newEventsObject(add, st, 1)
		if err != nil {
			return nil, err
		}
		if hm != nil { // "hooks": null → replace the value
			return splice(data, hm.val.start, hm.val.end, text), nil
		}
		items := originalItems(data, root)
		items = append(items, `"hooks":`+st.colonSpace+text)
		return splice(data, root.start, root.end, rebuild(data, root, items, st, 0)), nil
	}
	if hm.val.kind != '{' {
		return nil, errors.New(`"hooks" is not an object`)
	}
	hooksText, empty, err := editHooks(data, hm.val, ours, add, st)
	if err != nil {
		return nil, err
	}
	if empty {
		// our removal emptied "hooks": drop the member
		var items []string
		for _, m := range root.members {
			if m != hm {
				items = append(items, string(data[m.keyStart:m.val.end]))
			}
		}
		return splice(data, root.start, root.end, rebuild(data, root, items, st, 0)), nil
	}
	return splice(data, hm.val.start, hm.val.end, hooksText), nil
}

// editHooks rebuilds the "hooks" object h: our handlers removed, add
// appended. empty reports that the removal left it without members (and
// nothing was added).
func editHooks(b []byte, h *jnode, ours func([]byte) bool, add []EventGroup, st style) (string, bool, error) {
	byEvent := map[string][]any{}
	var order []string
	for _, g := range add {
		if _, ok := byEvent[g.Event]; !ok {
			order = append(order, g.Event)
		}
		byEvent[g.Event] = append(byEvent[g.Event], g.Group)
	}
	var items []string
	changed := false
	for _, m := range h.members {
		newGroups := byEvent[m.key]
		delete(byEvent, m.key)
		if m.val.kind != '[' {
			items = append(items, string(b[m.keyStart:m.val.end]))
			continue
		}
		var groups []string
		removed := false
		for _, g := range m.val.elems {
			text, keep, ch := editGroup(b, g, ours, st)
			removed = removed || ch
			if keep {
				groups = append(groups, text)
			}
		}
		for _, ng := range newGroups {
			t, err := indentJSON(ng, st, 3)
			if err != nil {
				return "", false, err
			}
			groups = append(groups, t)
		}
		if !removed && len(newGroups) == 0 {
			items = append(items, string(b[m.keyStart:m.val.end]))
			continue
		}
		changed = true
		if len(groups) == 0 && len(m.val.elems) > 0 {
			continue // the event held only our groups
		}
		items = append(items, string(b[m.keyStart:m.val.start])+rebuild(b, m.val, groups, st, 2))
	}
	for _, ev := range order {
		gs, ok := byEvent[ev]
		if !ok {
			continue
		}
		changed = true
		arr, err := newArray(gs, st, 2)
		if err != nil {
			return "", false, err
		}
		key, _ := json.Marshal(ev)
		items = append(items, string(key)+":"+st.colonSpace+arr)
	}
	if !changed {
		return string(b[h.start:h.end]), false, nil
	}
	if len(items) == 0 && len(h.members) > 0 {
		return "", true, nil
	}
	return rebuild(b, h, items, st, 1), false, nil
}

// editGroup removes our handlers from one matcher group g. keep is false
// when g held handlers and all were ours; changed when any was removed.
func editGroup(b []byte, g *jnode, ours func([]byte) bool, st style) (text string, keep, changed bool) {
	orig := string(b[g.start:g.end])
	if g.kind != '{' {
		return orig, true, false
	}
	hm := g.member(b, "hooks")
	if hm == nil || hm.val.kind != '[' || len(hm.val.elems) == 0 {
		return orig, true, false
	}
	var kept []string
	for _, h := range hm.val.elems {
		if h.kind == '{' && ours(b[h.start:h.end]) {
			continue
		}
		kept = append(kept, string(b[h.start:h.end]))
	}
	switch {
	case len(kept) == len(hm.val.elems):
		return orig, true, false
	case len(kept) == 0:
		return "", false, true
	}
	arr := rebuild(b, hm.val, kept, st, 4)
	return string(b[g.start:hm.val.start]) + arr + string(b[hm.val.end:g.end]), true, true
}

// sameHandlers reports whether the file's harness-hook handlers are exactly
// those of add, event by event and matcher by matcher, in order.
func sameHandlers(b []byte, root *jnode, ours func([]byte) bool, add []EventGroup) (bool, error) {
	var have []string
	if hm := root.member(b, "hooks"); hm != nil && hm.val.kind == '{' {
		for _, m := range hm.val.members {
			if m.val.kind != '[' {
				continue
			}
			for _, g := range m.val.elems {
				if g.kind != '{' {
					continue
				}
				matcher := ""
				if mm := g.member(b, "matcher"); mm != nil {
					matcher = canonical(b[mm.val.start:mm.val.end])
				}
				hs := g.member(b, "hooks")
				if hs == nil || hs.val.kind != '[' {
					continue
				}
				for _, h := range hs.val.elems {
					if h.kind == '{' && ours(b[h.start:h.end]) {
						have = append(have, m.key+"\x00"+matcher+"\x00"+canonical(b[h.start:h.end]))
					}
				}
			}
		}
	}
	var want []string
	for _, g := range add {
		raw, err := json.Marshal(g.Group)
		if err != nil {
			return false, err
		}
		var grp struct {
			Matcher *json.RawMessage  `json:"matcher"`
			Hooks   []json.RawMessage `json:"hooks"`
		}
		if err := json.Unmarshal(raw, &grp); err != nil {
			return false, err
		}
		matcher := ""
		if grp.Matcher != nil {
			matcher = canonical(*grp.Matcher)
		}
		for _, h := range grp.Hooks {
			want = append(want, g.Event+"\x00"+matcher+"\x00"+canonical(h))
		}
	}
	if len(have) != len(want) {
		return false, nil
	}
	for i := range have {
		if have[i] != want[i] {
			return false, nil
		}
	}
	return true, nil
}

// canonical is raw JSON with sorted keys and no white space.
func canonical(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// style is how a file is laid out: the indent unit ("" for a compact file)
// and whether a space follows a colon.
type style struct {
	newline    bool
	eol        string // "\n" or "\r\n"
	unit       string
	colonSpace string
}

// detectStyle guesses the indent unit from the first indented line and the
// colon spacing from the first member.
func detectStyle(b []byte) style {
	st := style{colonSpace: ""}
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		st.newline, st.eol = true, "\n"
		if i > 0 && b[i-1] == '\r' {
			st.eol = "\r\n"
		}
		j := i + 1
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		st.unit = string(b[i+1 : j])
		if st.unit == "" {
			st.unit = "  "
		}
	}
	if i := bytes.Index(b, []byte(`":`)); i >= 0 && i+2 < len(b) && (b[i+2] == ' ' || b[i+2] == '\t') {
		st.colonSpace = " "
	} else if st.newline {
		st.colonSpace = " "
	}
	return st
}

func (st style) indent(depth int) string {
	if !st.newline {
		return ""
	}
	return st.eol + strings.Repeat(st.unit, depth)
}

// indentJSON marshals v laid out as the file is, for a value that starts at
// depth (its first line is not indented; the caller places it).
func indentJSON(v any, st style, depth int) (string, error) {
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false) // a command path or matcher with & stays readable
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	compact := bytes.TrimRight(raw.Bytes(), "\n")
	if !st.newline {
		return string(compact), nil
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, strings.Repeat(st.unit, depth), st.unit); err != nil {
		return "", err
	}
	if st.eol == "\r\n" {
		return strings.ReplaceAll(out.String(), "\n", "\r\n"), nil
	}
	return out.String(), nil
}

// newArray renders a new JSON array of vs at depth.
func newArray(vs []any, st style, depth int) (string, error) {
	parts := make([]string, len(vs))
	for i, v := range vs {
		t, err := indentJSON(v, st, depth+1)
		if err != nil {
			return "", err
		}
		parts[i] = t
	}
	return "[" + st.indent(depth+1) + strings.Join(parts, ","+st.indent(depth+1)) + st.indent(depth) + "]", nil
}

// newEventsObject renders a new "hooks" object holding add, at depth.
func newEventsObject(add []EventGroup, st style, depth int) (string, error) {
	var order []string
	by := map[string][]any{}
	for _, g := range add {
		if _, ok := by[g.Event]; !ok {
			order = append(order, g.Event)
		}
		by[g.Event] = append(by[g.Event], g.Group)
	}
	parts := make([]string, 0, len(order))
	for _, ev := range order {
		arr, err := newArray(by[ev], st, depth+1)
		if err != nil {
			return "", err
		}
		key, _ := json.Marshal(ev)
		parts = append(parts, string(key)+":"+st.colonSpace+arr)
	}
	return "{" + st.indent(depth+1) + strings.Join(parts, ","+st.indent(depth+1)) + st.indent(depth) + "}", nil
}

// freshHooksDoc is a new settings document holding only add.
func freshHooksDoc(add []EventGroup) ([]byte, error) {
	st := style{newline: true, eol: "\n", unit: "  ", colonSpace: " "}
	h, err := newEventsObject(add, st, 1)
	if err != nil {
		return nil, err
	}
	return []byte("{\n  \"hooks\": " + h + "\n}\n"), nil
}

// originalItems returns the text of every member (object) or element
// (array) of n as it is in b.
func originalItems(b []byte, n *jnode) []string {
	var out []string
	if n.kind == '{' {
		for _, m := range n.members {
			out = append(out, string(b[m.keyStart:m.val.end]))
		}
		return out
	}
	for _, e := range n.elems {
		out = append(out, string(b[e.start:e.end]))
	}
	return out
}

// rebuild renders container n (an object or array at depth) with items as
// its members/elements, reusing n's own white space: the text before the
// first item, between the first two and after the last.
func rebuild(b []byte, n *jnode, items []string, st style, depth int) string {
	open, close := b[n.start], b[n.end-1]
	var starts, ends []int
	if n.kind == '{' {
		for _, m := range n.members {
			starts, ends = append(starts, m.keyStart), append(ends, m.val.end)
		}
	} else {
		for _, e := range n.elems {
			starts, ends = append(starts, e.start), append(ends, e.end)
		}
	}
	if len(items) == 0 {
		return string([]byte{open, close})
	}
	var prefix, sep, suffix string
	switch len(starts) {
	case 0:
		prefix, suffix = st.indent(depth+1), st.indent(depth)
		sep = "," + prefix
	case 1:
		prefix, suffix = string(b[n.start+1:starts[0]]), string(b[ends[0]:n.end-1])
		sep = "," + prefix
	default:
		prefix, suffix = string(b[n.start+1:starts[0]]), string(b[ends[len(ends)-1]:n.end-1])
		sep = string(b[ends[0]:starts[1]])
	}
	return string(open) + prefix + strings.Join(items, sep) + suffix + string(close)
}

func splice(b []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(b)-(end-start)+len(text))
	out = append(out, b[:start]...)
	out = append(out, text...)
	return append(out, b[end:]...)
}

// jnode is a JSON value with its byte span in the source.
type jnode struct {
	kind       byte // '{', '[', 's' string, 'n' number, 'b' bool, 'l' null
	start, end int
	members    []*jmember
	elems      []*jnode
}

type jmember struct {
	key      string
	keyStart int
	val      *jnode
}

func (n *jnode) member(_ []byte, key string) *jmember {
	var found *jmember
	for _, m := range n.members {
		if m.key == key {
			found = m // the last one wins, as in encoding/json
		}
	}
	return found
}

// jparser reads JSON that json.Valid accepted, keeping offsets.
type jparser struct {
	b []byte
	i int
}

func (p *jparser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *jparser) value() (*jnode, error) {
	p.ws()
	if p.i >= len(p.b) {
		return nil, errors.New("unexpected end of settings")
	}
	n := &jnode{start: p.i}
	switch c := p.b[p.i]; {
	case c == '{':
		n.kind = '{'
		p.i++
		for {
			p.ws()
			if p.b[p.i] == '}' {
				p.i++
				break
			}
			if p.b[p.i] == ',' {
				p.i++
				p.ws()
			}
			ks := p.i
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			p.ws()
			p.i++ // ':'
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, &jmember{key: key, keyStart: ks, val: v})
			p.ws()
		}
	case c == '[':
		n.kind = '['
		p.i++
		for {
			p.ws()
			if p.b[p.i] == ']' {
				p.i++
				break
			}
			if p.b[p.i] == ',' {
				p.i++
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
			p.ws()
		}
	case c == '"':
		n.kind = 's'
		if _, err := p.str(); err != nil {
			return nil, err
		}
	case c == 't' || c == 'f':
		n.kind = 'b'
		for p.i < len(p.b) && p.b[p.i] >= 'a' && p.b[p.i] <= 'z' {
			p.i++
		}
	case c == 'n':
		n.kind = 'l'
		p.i += 4
	default:
		n.kind = 'n'
		for p.i < len(p.b) && strings.IndexByte("+-0123456789.eE", p.b[p.i]) >= 0 {
			p.i++
		}
	}
	n.end = p.i
	return n, nil
}

// str reads a JSON string at p.i and returns its decoded value.
func (p *jparser) str() (string, error) {
	s := p.i
	if p.b[p.i] != '"' {
		return "", fmt.Errorf("expected a string at byte %d", p.i)
	}
	p.i++
	for p.i < len(p.b) && p.b[p.i] != '"' {
		if p.b[p.i] == '\\' {
			p.i++
		}
		p.i++
	}
	p.i++
	var out string
	if err := json.Unmarshal(p.b[s:p.i], &out); err != nil {
		return "", err
	}
	return out, nil
}
