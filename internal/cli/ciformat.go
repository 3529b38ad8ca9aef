package cli

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/validate"
)

// ciFormat is the --format flag of validate and finalize: the output a CI
// job reads.
type ciFormat struct {
	Format string `name:"format" enum:"text,github,junit" default:"text" placeholder:"text|github|junit" help:"Output: text (one finding per line), github (GitHub Actions annotations with file and line), junit (JUnit XML report)."`
}

// locator resolves a finding to the file and line a CI annotation points
// at: the path relative to the working directory (the CI checkout) and, for
// a finding with a JSON pointer but no line, the line of the pointed value.
type locator struct {
	root, cwd string
	docs      map[string][]byte // file (as in the finding) → content; nil = unreadable
}

// maxLocateRead bounds the read of one state file for line numbers.
const maxLocateRead = 32 << 20

func newLocator(root, cwd string) *locator {
	return &locator{root: root, cwd: cwd, docs: map[string][]byte{}}
}

// locate returns the file path to annotate ("" when the finding names no
// file that exists) and its line (0 when unknown).
func (l *locator) locate(f Finding) (string, int) {
	if f.File == "" {
		return "", 0
	}
	abs := filepath.Join(l.root, filepath.FromSlash(f.File))
	path := abs
	if rel, err := filepath.Rel(l.cwd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		path = rel
	}
	path = filepath.ToSlash(path)
	if f.Line > 0 || f.Pointer == "" {
		return path, f.Line
	}
	data, seen := l.docs[f.File]
	if !seen {
		data, _ = fsutil.ReadRegular(abs, maxLocateRead)
		l.docs[f.File] = data
	}
	if data == nil {
		return path, 0
	}
	line, _ := validate.PointerLine(data, f.Pointer)
	return path, line
}

// writeGitHub prints one GitHub Actions workflow command per finding
// (::error or ::notice with file, line and the rule id as title), then the
// summary line.
func writeGitHub(w io.Writer, r Report, loc *locator, summary string) {
	for _, f := range r.Findings {
		level := "error"
		if f.Severity == validate.SeverityInfo {
			level = "notice"
		}
		var props []string
		path, line := loc.locate(f)
		if path != "" {
			props = append(props, "file="+ghProperty(path))
			if line > 0 {
				props = append(props, "line="+strconv.Itoa(line))
			}
		}
		props = append(props, "title="+ghProperty(f.Rule))
		msg := f.Message
		if f.Pointer != "" {
			msg += " (at #" + f.Pointer + ")"
		}
		fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), ghData(msg))
	}
	fmt.Fprintln(w, summary)
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// junit* are the elements of a JUnit XML report (the schema CI systems read:
// testsuites > testsuite > testcase > failure).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit prints the findings as a JUnit XML report: one test case per
// finding (an error finding is a failure, an info finding passes with its
// text as output), or one passing case when there is none.
func writeJUnit(w io.Writer, r Report, loc *locator, what string) {
	s := junitSuite{Name: "harness " + what}
	for _, f := range r.Findings {
		path, line := loc.locate(f)
		where := path
		if line > 0 {
			where += ":" + strconv.Itoa(line)
		}
		if f.Pointer != "" {
			where += "#" + f.Pointer
		}
		c := junitCase{Name: f.Rule + " " + where, Classname: f.Rule, File: path, Line: line}
		if f.Severity == validate.SeverityInfo {
			c.SystemOut = "info: " + f.Message
		} else {
			c.Failure = &junitFailure{Message: f.Message, Type: f.Rule, Text: where + ": " + f.Message}
			s.Failures++
		}
		s.Cases = append(s.Cases, c)
	}
	if len(s.Cases) == 0 {
		s.Cases = []junitCase{{Name: what, Classname: "harness"}}
	}
	s.Tests = len(s.Cases)
	doc := junitSuites{Name: s.Name, Tests: s.Tests, Failures: s.Failures, Suites: []junitSuite{s}}
	out, _ := xml.MarshalIndent(doc, "", "  ") // plain structs of strings and ints: no error
	fmt.Fprintf(w, "%s%s\n", xml.Header, out)
}
