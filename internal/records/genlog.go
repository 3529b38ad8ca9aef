// Package records implements the record checks that Stop, `harness phase
// complete` and `harness finalize --check` share (testdata/sprints/README.md §4, §6, §7):
// generator_log.md parsing, eval_log scanning, lazy values, byte lengths, the
// retry rule with its rollback marks, and corrections (补录).
package records

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/superagent-harness/harness/internal/lazy"
)

// Thresholds of testdata/sprints/README.md §4 (canonical).
const (
	// MinReasonBytes is the minimum Length of a phase_evaluation reason.
	MinReasonBytes = 20
	// MinSectionBytes is the minimum Length of a phase section body.
	MinSectionBytes = 100
	// HandoffMinRawBytes: the Reset exception needs handoff.md raw size > this.
	HandoffMinRawBytes = 50
	// HandoffMaxAge: the Reset exception needs handoff.md mtime younger than this.
	HandoffMaxAge = 300 * time.Second
	// HandoffClockSkew: how far in the future a handoff.md mtime may lie and
	// still count as fresh (file servers and containers drift a little).
	HandoffClockSkew = 5 * time.Second
)

var (
	phaseHeadingRe = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^##[ \t]+phase[= ]([1-4])([^0-9]|$)`) }}
	levelOneTwoRe  = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^#{1,2}([ \t]|$)`) }}
	placeholderRe  = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`\{[A-Za-z_][A-Za-z0-9_]*\}`) }}
	keyDecisionRe  = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^###[ \t]*(关键决策|(?i:key decisions))`) }}
	utcZSubRe      = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
		return regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z`)
	}}
)

// Length is testdata/sprints/README.md §4 length: UTF-8 bytes after trimming
// leading and trailing whitespace.
func Length(s string) int { return len(trimSpace(s)) }

// trimSpace is strings.TrimSpace(s), answering at once for the usual s
// whose first and last runes are plainly no white space: an ASCII byte
// above ' ', a first byte that starts no space rune (every Unicode space
// above ASCII starts with C2, E1, E2 or E3), a last byte that ends none
// (they end in 80–8A, 9F, A0, A8, A9 or AF); otherwise strings.TrimSpace
// decides. validate checks three values per eval_log line this way
// (TestTrimSpaceIsStringsTrimSpace).
func trimSpace(s string) string {
	if len(s) == 0 {
		return s
	}
	first, last := s[0], s[len(s)-1]
	startsPlain := first > ' ' && (first < utf8.RuneSelf || first != 0xC2 && (first < 0xE1 || first > 0xE3))
	endsPlain := last > ' ' && (last < utf8.RuneSelf || last > 0x8A && last != 0x9F && last != 0xA0 && last != 0xA8 && last != 0xA9 && last != 0xAF)
	if startsPlain && endsPlain {
		return s
	}
	return strings.TrimSpace(s)
}

// IsLazy reports whether s is a lazy value (testdata/sprints/README.md §4, D5): after
// trimming, ASCII case-insensitively equal to ok, done, pass, no issue, 完成,
// 通过, 没问题, or starting with 看起来不错.
func IsLazy(s string) bool {
	t := trimSpace(s)
	// the longest value lowers from at most 9 runes of at most 4 bytes:
	// a longer reason (the usual one) is not lowered at all
	if len(t) <= 36 {
		switch strings.ToLower(t) {
		case "ok", "done", "pass", "no issue", "完成", "通过", "没问题":
			return true
		}
	}
	return strings.HasPrefix(t, "看起来不错")
}

// Section is one phase section of generator_log.md (testdata/sprints/README.md §4).
type Section struct {
	// Phase is N of the `## phase=N` heading (1..4).
	Phase int
	// Line is the 1-based line number of the heading.
	Line int
	// Heading is the heading line.
	Heading string
	// Body is the text from the line after the heading up to (not
	// including) the next level-1/2 heading or end of file.
	Body string
	// Timestamp is the first UTC-Z substring of the heading (zero if none).
	Timestamp time.Time
	// HasTimestamp reports whether the heading carries a UTC-Z timestamp.
	HasTimestamp bool
	// KeyDecisions reports whether the body has a key-decisions line outside
	// fenced code (### 关键决策 / ### key decisions).
	KeyDecisions bool
}

// Length is the body's Length in bytes.
func (s Section) Length() int { return Length(s.Body) }

// GeneratorLog is a parsed generator_log.md.
type GeneratorLog struct {
	Sections []Section
}

// ForPhase returns the sections of phase p in file order.
func (g *GeneratorLog) ForPhase(p int) []Section {
	var out []Section
	for _, s := range g.Sections {
		if s.Phase == p {
			out = append(out, s)
		}
	}
	return out
}

// FenceMarker returns the fence marker ("```" or "~~~") when line opens or
// closes a fenced code block (testdata/sprints/README.md §4): at most 3 leading spaces,
// then three backticks or tildes; "" otherwise.
func FenceMarker(line string) string {
	i := 0
	for i < len(line) && i < 4 && line[i] == ' ' {
		i++
	}
	if i > 3 {
		return ""
	}
	rest := line[i:]
	switch {
	case strings.HasPrefix(rest, "```"):
		return "```"
	case strings.HasPrefix(rest, "~~~"):
		return "~~~"
	}
	return ""
}

// ParseGeneratorLog parses generator_log.md text per testdata/sprints/README.md §4:
// phase sections open at `^##[ \t]+phase[= ]([1-4])([^0-9]|$)`, end at the next
// level-1/2 heading; headings with a {placeholder} are stubs (open nothing,
// end the previous section); lines in fenced code (``` or ~~~, up to 3
// leading spaces, unclosed runs to EOF) are never headings nor key-decisions
// lines (D36).
func ParseGeneratorLog(text string) *GeneratorLog {
	g := &GeneratorLog{}
	var cur *Section
	var body []string
	flush := func() {
		if cur != nil {
			cur.Body = strings.Join(body, "\n")
			g.Sections = append(g.Sections, *cur)
		}
		cur, body = nil, nil
	}
	for i, ml := range SplitMarkdown(text) {
		line := ml.Text
		if !ml.Fenced && levelOneTwoRe.Get().MatchString(line) {
			flush()
			if m := phaseHeadingRe.Get().FindStringSubmatch(line); m != nil && !placeholderRe.Get().MatchString(line) {
				s := &Section{Phase: int(m[1][0] - '0'), Line: i + 1, Heading: line}
				if ts := utcZSubRe.Get().FindString(line); ts != "" {
					if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
						s.Timestamp, s.HasTimestamp = t, true
					}
				}
				cur = s
			}
			continue
		}
		if cur != nil {
			body = append(body, line)
			if !ml.Fenced && keyDecisionRe.Get().MatchString(line) {
				cur.KeyDecisions = true
			}
		}
	}
	flush()
	return g
}

// LevelOneTwoHeading reports whether line is a level-1 or level-2 ATX
// heading (`^#{1,2}([ \t]|$)`).
func LevelOneTwoHeading(line string) bool { return levelOneTwoRe.Get().MatchString(line) }

// MarkdownLine is one line of a Markdown file with its fence state.
type MarkdownLine struct {
	// Text is the line without its terminator.
	Text string
	// Fenced is true for lines inside a fenced code block, fences included.
	Fenced bool
}

// SplitMarkdown splits text into lines and marks fenced code (testdata/sprints/README.md
// §4: ``` or ~~~ after at most 3 spaces; the same marker closes; an
// unclosed block runs to the end).
func SplitMarkdown(text string) []MarkdownLine {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []MarkdownLine
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		in := fence != ""
		if m := FenceMarker(line); m != "" {
			if fence == "" {
				fence, in = m, true
			} else if m == fence {
				fence, in = "", true
			}
		}
		out = append(out, MarkdownLine{Text: line, Fenced: in})
	}
	return out
}
