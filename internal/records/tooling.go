package records

import (
	"strings"
)

// Section6Prefix identifies the runtime-additions heading of tooling.md
// (docs/protocol.md §3.5): `## 6. 运行时新增`, whatever follows.
const Section6Prefix = "## 6. 运行时新增"

// SignOffHeading is the sign-off heading that follows section 6.
const SignOffHeading = "## 用户签字"

// emptyMarker are the placeholders an empty section 6 may hold.
func emptyMarker(s string) bool {
	switch s {
	case "(暂无)", "（暂无）", "暂无", "无", "(none)", "(none yet)":
		return true
	}
	return false
}

// ToolingLine is one line of tooling.md (1-based number and text).
type ToolingLine struct {
	Line int
	Text string
}

// ToolingSection6 reads tooling.md below its section-6 heading, the part a
// Generator may append to (docs/protocol.md §1.1, §3.5). Section 6 accepts
// list lines only (`- …` or `* …`, one runtime addition each), besides what
// the template puts there: blank lines, `>` notes, the `格式` line, an empty
// marker such as `(暂无)` and the `---` rule before the sign-off; the sign-off `## 用户签字` holds list lines
// only. bad lists every other line at or below the heading: a heading (a
// forged `## 4. 禁止清单`), a paragraph, a table row, a code fence, any text
// after the sign-off. additions lists the list lines of section 6 (the
// runtime additions). found is false when there is no section-6 heading.
func ToolingSection6(text string) (bad, additions []ToolingLine, found bool) {
	lines := SplitMarkdown(text)
	state := 0 // 0 before section 6, 1 in section 6, 2 in the sign-off
	for i, l := range lines {
		t := strings.TrimRight(l.Text, " \t\r")
		trim := strings.TrimSpace(t)
		switch state {
		case 0:
			if !l.Fenced && strings.HasPrefix(t, Section6Prefix) {
				state, found = 1, true
			}
			continue
		}
		isList := !l.Fenced && (strings.HasPrefix(trim, "- ") || strings.HasPrefix(trim, "* "))
		switch {
		case trim == "":
		case state == 1 && !l.Fenced && t == SignOffHeading:
			state = 2
		case isList:
			if state == 1 {
				additions = append(additions, ToolingLine{i + 1, t})
			}
		case state == 1 && !l.Fenced && (strings.HasPrefix(trim, ">") || trim == "---" ||
			strings.HasPrefix(trim, "格式:") || strings.HasPrefix(trim, "格式：") || emptyMarker(trim)):
		default:
			bad = append(bad, ToolingLine{i + 1, t})
		}
	}
	return bad, additions, found
}
