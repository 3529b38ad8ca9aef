// Package validate implements `harness validate` (testdata/sprints/README.md §5) and
// `harness finalize --check` (§5 plus §6): every rule runs, every problem
// becomes a Finding, and the workspace is never modified.
package validate

import (
	"fmt"
	"sort"
	"strings"
)

// Severities of a finding (testdata/sprints/README.md §3).
const (
	SeverityError = "error"
	SeverityInfo  = "info"
)

// Finding is one problem found in a workspace.
type Finding struct {
	// File is the path relative to the workspace root, forward slashes
	// (e.g. ".harness/feature_list.json", "f003").
	File string `json:"file"`
	// Line is the 1-based physical line (eval_log.jsonl), 0 when not a line.
	Line int `json:"line"`
	// Pointer is the JSON pointer of the offending value inside File
	// (RFC 6901, e.g. "/features/2/status"), "" when not a JSON value.
	Pointer string `json:"pointer"`
	// Rule is the rule id of testdata/sprints/README.md §5/§6 (e.g. "schema.feature_list").
	Rule string `json:"rule"`
	// Severity is "error" or "info".
	Severity string `json:"severity"`
	// Message names the field, the offending value, the feature/checkpoint id
	// and phase=N as §3 requires.
	Message string `json:"message"`
}

// String renders "path[:line][#/json/pointer]: message [rule-id]", prefixed
// with "info: " for info findings.
func (f Finding) String() string {
	var b strings.Builder
	if f.Severity == SeverityInfo {
		b.WriteString("info: ")
	}
	b.WriteString(f.File)
	if f.Line > 0 {
		fmt.Fprintf(&b, ":%d", f.Line)
	}
	if f.Pointer != "" {
		b.WriteString("#" + f.Pointer)
	}
	b.WriteString(": " + f.Message + " [" + f.Rule + "]")
	return b.String()
}

// Report is the outcome of Validate or FinalizeCheck.
type Report struct {
	Findings []Finding `json:"findings"`
}

// Valid reports whether no finding has severity error.
func (r *Report) Valid() bool {
	for _, f := range r.Findings {
		if f.Severity != SeverityInfo {
			return false
		}
	}
	return true
}

// Errors counts the error findings.
func (r *Report) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity != SeverityInfo {
			n++
		}
	}
	return n
}

// String renders every finding, one per line.
func (r *Report) String() string {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func (r *Report) add(f Finding) {
	if f.Severity == "" {
		f.Severity = SeverityError
	}
	r.Findings = append(r.Findings, f)
}

// sortFindings orders findings by file, line, rule, keeping insertion order
// otherwise (stable).
func (r *Report) sortFindings() {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
}
