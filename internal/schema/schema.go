// Package schema compiles the harness's JSON Schemas (schemas/*.schema.json,
// draft 2020-12, embedded through harness.Assets()) once per Set, validates
// decoded JSON documents against them, and turns
// santhosh-tekuri/jsonschema/v6 errors into Violations that name the JSON
// pointer, the field and the offending value verbatim.
package schema

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/superagent-harness/harness/internal/fsutil"
)

// IDPrefix is the $id prefix of every harness schema; "v1" is the major
// version. A sprint copy is used only when its $id has this prefix.
const IDPrefix = "https://superagent-harness.dev/schemas/v1/"

// Names of the schemas (file schemas/<name>.schema.json).
const (
	RuntimeState           = "runtime_state"
	FeatureList            = "feature_list"
	Checkpoint             = "checkpoint"
	SprintCheckpoint       = "sprint_checkpoint"
	SessionPool            = "session_pool"
	SprintContract         = "sprint_contract"
	EvalLog                = "eval_log"
	HermesContextState     = "hermes_context_state"
	ClaudeCodeContextState = "claude_code_context_state"
	CurrentAgent           = "current_agent"
	EnvironmentProbe       = "environment_probe"
	Task                   = "task"
	Pipeline               = "pipeline"
	// PipelineRegistry is <Hermes home>/pipelines/registry.json (the index
	// `harness pipeline sink` maintains and `pipeline list` reads).
	PipelineRegistry = "pipeline_registry"
	// CLIEnvelope is the --json output of every harness command (not a
	// state file; internal/cli prints it).
	CLIEnvelope = "cli_envelope"
)

// Set is a lazily compiled collection of schemas. The zero value is not
// usable; build one with New. It is safe for concurrent use.
type Set struct {
	fsys      fs.FS
	overrides map[string][]byte // file name → sprint copy (same major)

	once    sync.Once
	err     error
	schemas map[string]*jsonschema.Schema
	// quick names the schemas quickAccepts may stand in for: compiled from
	// exactly the files it was written for (quickFor).
	quick map[string]bool
}

// New returns a Set reading "schemas/*.schema.json" from fsys (normally
// harness.Assets()). overrides maps file names ("feature_list.schema.json")
// to replacement documents (a sprint's own copy with our $id, see
// SprintCopies); it may be nil. Nothing is compiled before the first use.
func New(fsys fs.FS, overrides map[string][]byte) *Set {
	return &Set{fsys: fsys, overrides: overrides}
}

func (s *Set) compile() {
	s.once.Do(func() {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		files, err := fs.Glob(s.fsys, "schemas/*.schema.json")
		if err != nil {
			s.err = err
			return
		}
		var names []string
		sums := map[string][32]byte{}
		for _, f := range files {
			base := path.Base(f)
			data, ok := s.overrides[base]
			if !ok {
				if data, err = fs.ReadFile(s.fsys, f); err != nil {
					s.err = err
					return
				}
			}
			sums[base] = sha256.Sum256(data)
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				s.err = fmt.Errorf("schema %s: %w", base, err)
				return
			}
			if err := c.AddResource(IDPrefix+base, doc); err != nil {
				s.err = fmt.Errorf("schema %s: %w", base, err)
				return
			}
			names = append(names, strings.TrimSuffix(base, ".schema.json"))
		}
		s.schemas = map[string]*jsonschema.Schema{}
		for _, n := range names {
			sch, err := c.Compile(IDPrefix + n + ".schema.json")
			if err != nil {
				s.err = fmt.Errorf("compile schema %s: %w", n, err)
				return
			}
			s.schemas[n] = sch
		}
		s.quick = map[string]bool{}
		for n, deps := range quickFor() {
			ok := true
			for file, sum := range deps {
				ok = ok && hex.EncodeToString(sumOf(sums, file)) == sum
			}
			s.quick[n] = ok && s.schemas[n] != nil
		}
	})
}

// Err compiles the set (once) and returns the compile error, if any.
func (s *Set) Err() error { s.compile(); return s.err }

// Names lists the compiled schema names, sorted.
func (s *Set) Names() []string {
	s.compile()
	out := make([]string, 0, len(s.schemas))
	for n := range s.schemas {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Violation is one schema failure at one place of the document.
type Violation struct {
	// Pointer is the RFC 6901 pointer of the offending value ("" = root).
	Pointer string
	// Field is the property concerned: the last non-index segment of
	// Pointer, or the missing property for a "required" failure.
	Field string
	// Value is the offending scalar rendered verbatim (strings in double
	// quotes, unescaped), "" for objects/arrays or a missing property.
	Value string
	// Keyword is the failing schema keyword (enum, const, required, type,
	// pattern, minimum, …).
	Keyword string
	// Message is the validator's explanation.
	Message string
}

// String renders "field value: message" (e.g. `status "executing": value
// must be one of …`).
func (v Violation) String() string {
	var b strings.Builder
	if v.Field != "" {
		b.WriteString(v.Field)
	} else {
		b.WriteString("(document)")
	}
	if v.Value != "" {
		b.WriteString(" " + v.Value)
	}
	b.WriteString(": " + v.Message)
	return b.String()
}

// Decode parses JSON data into the value form the validator expects
// (numbers as json.Number).
func Decode(data []byte) (any, error) { return jsonschema.UnmarshalJSON(bytes.NewReader(data)) }

// Validate checks doc (decoded with Decode, or any value made only of
// map[string]any, []any, string, bool, nil, json.Number, float64, int) against
// the named schema. The error is for an unknown name or a compile failure;
// problems are Violations (nil when valid).
func (s *Set) Validate(name string, doc any) ([]Violation, error) {
	s.compile()
	if s.err != nil {
		return nil, s.err
	}
	sch, ok := s.schemas[name]
	if !ok {
		return nil, fmt.Errorf("schema %q not found", name)
	}
	if s.quick[name] && quickAccepts(name, doc) {
		return nil, nil
	}
	if s.quick[name] {
		doc = quickStrip(name, doc)
	}
	err := sch.Validate(doc)
	if err == nil {
		return nil, nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return nil, err
	}
	var out []Violation
	seen := map[string]bool{}
	collect(ve, doc, &out, seen)
	// The validator checks an object's properties in map order, so the
	// causes come in a different order from run to run: order them by
	// pointer (stable, so one place keeps the validator's order).
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out, nil
}

func pointerOf(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range loc {
		t = strings.ReplaceAll(t, "~", "~0")
		t = strings.ReplaceAll(t, "/", "~1")
		b.WriteString("/" + t)
	}
	return b.String()
}

func fieldOf(loc []string) string {
	for i := len(loc) - 1; i >= 0; i-- {
		if _, err := strconv.Atoi(loc[i]); err != nil {
			return loc[i]
		}
	}
	return ""
}

// lookup returns the value at loc inside doc.
func lookup(doc any, loc []string) (any, bool) {
	cur := doc
	for _, t := range loc {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[t]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Verbatim renders a scalar JSON value as written: strings in double quotes
// without escaping, numbers as in the source, true/false/null; "" for
// objects and arrays.
func Verbatim(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return `"` + x + `"`
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return strconv.Itoa(x)
	}
	return ""
}

func message(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.Pattern:
		return fmt.Sprintf("does not match %s", k.Want)
	}
	msg := e.Error()
	// Error() is "jsonschema validation failed with '<url>'\n- at '<loc>': <msg>"
	// for a leaf; keep the last "': " part.
	if i := strings.LastIndex(msg, "': "); i >= 0 {
		msg = msg[i+3:]
	}
	return strings.TrimSpace(msg)
}

func keyword(e *jsonschema.ValidationError) string {
	kp := e.ErrorKind.KeywordPath()
	if len(kp) == 0 {
		return ""
	}
	return kp[len(kp)-1]
}

func leafMessages(e *jsonschema.ValidationError, acc *[]string) {
	if len(e.Causes) == 0 {
		*acc = append(*acc, message(e))
		return
	}
	for _, c := range e.Causes {
		leafMessages(c, acc)
	}
}

func collect(e *jsonschema.ValidationError, doc any, out *[]Violation, seen map[string]bool) {
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		var msgs []string
		leafMessages(e, &msgs)
		add(e, doc, strings.Join(uniq(msgs), "; or "), out, seen)
		return
	case *kind.Required:
		k := e.ErrorKind.(*kind.Required)
		for _, m := range k.Missing {
			loc := append(append([]string(nil), e.InstanceLocation...), m)
			v := Violation{Pointer: pointerOf(loc), Field: m, Keyword: "required",
				Message: fmt.Sprintf("required property %q is missing", m)}
			key := v.Pointer + "\x00" + v.Message
			if !seen[key] {
				seen[key] = true
				*out = append(*out, v)
			}
		}
		return
	}
	if len(e.Causes) == 0 {
		add(e, doc, message(e), out, seen)
		return
	}
	for _, c := range e.Causes {
		collect(c, doc, out, seen)
	}
}

func add(e *jsonschema.ValidationError, doc any, msg string, out *[]Violation, seen map[string]bool) {
	v := Violation{Pointer: pointerOf(e.InstanceLocation), Field: fieldOf(e.InstanceLocation), Keyword: keyword(e), Message: msg}
	if val, ok := lookup(doc, e.InstanceLocation); ok {
		v.Value = Verbatim(val)
	}
	key := v.Pointer + "\x00" + v.Message
	if seen[key] {
		return
	}
	seen[key] = true
	*out = append(*out, v)
}

func uniq(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// SprintCopies reads the regular files directly in <root>/schemas/. JSON
// files whose "$id" is IDPrefix+<file name> (ours, same major version) are
// returned in own, keyed by file name, for New's overrides; every other file
// (another $id, another major version, not JSON, e.g. superAgent's
// pipeline.schema.yaml) is listed in foreign (path relative to root, forward
// slashes) with the reason, for the info finding schema.foreign-copy. A
// missing folder yields nothing.
func SprintCopies(root string) (own map[string][]byte, foreign map[string]string) {
	ents, _ := os.ReadDir(filepath.Join(root, "schemas"))
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		base := e.Name()
		rel := "schemas/" + base
		data, err := fsutil.ReadRegular(filepath.Join(root, "schemas", base), fsutil.CapConfig) // swapped for a FIFO after ReadDir: refused, never waited on
		if err != nil {
			continue
		}
		var hdr struct {
			ID string `json:"$id"`
		}
		err = json.Unmarshal(data, &hdr)
		if err == nil && hdr.ID == IDPrefix+base {
			if own == nil {
				own = map[string][]byte{}
			}
			own[base] = data
			continue
		}
		if foreign == nil {
			foreign = map[string]string{}
		}
		switch {
		case err != nil:
			foreign[rel] = "not a JSON schema of the harness"
		case hdr.ID == "":
			foreign[rel] = "no $id"
		default:
			foreign[rel] = fmt.Sprintf("$id %q is not %s%s", hdr.ID, IDPrefix, base)
		}
	}
	return own, foreign
}

// DecodeYAML decodes a YAML document (pipeline.yaml) into the same value
// form as Decode, so it can be validated against the pipeline schema.
func DecodeYAML(data []byte) (any, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	return Decode(js)
}
