package monitor

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	harness "github.com/superagent-harness/harness"
)

// HandoffTemplate is the embedded template of handoff.md, whose headings
// the Reset instruction lists (one place for the handoff's shape).
const HandoffTemplate = "templates/claude_code_handoff.template.md"

// handoffShape is the header lines (`**Generated at**`, …) and the section
// headings (`## 当前状态`, `### 已完成`, …) of the handoff template, read
// once from the embedded assets.
var handoffShape = sync.OnceValues(func() (header, sections []string) {
	data, err := fs.ReadFile(harness.Assets(), HandoffTemplate)
	if err != nil {
		return nil, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "**") && strings.Contains(line[2:], "**"):
			header = append(header, line[:strings.Index(line[2:], "**")+4])
		case strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "### "):
			sections = append(sections, line)
		}
	}
	return header, sections
})

// Instruction is what the Generator is told when a Feature Reset trigger is
// on record: exactly how to Reset (docs/protocol.md §8.1): the handoff.md
// to write, with the template's header lines and sections and the trigger
// as its **Trigger reason**; the generator_log line; then stop. hard adds
// that every other tool call is refused. Paths are relative to the sprint
// root.
func Instruction(feature, detail, handoff, genlog string, hard bool) string {
	header, sections := handoffShape()
	var b strings.Builder
	fmt.Fprintf(&b, "harness: Feature Reset required for %s — %s (docs/protocol.md §8.1). ", feature, detail)
	if hard {
		b.WriteString("The hard limit is passed: every tool call except these Reset steps and `harness` commands is refused. ")
	} else {
		b.WriteString("Finish the step you are on, then Reset; do not start new work. ")
	}
	b.WriteString("Do exactly this:\n")
	fmt.Fprintf(&b, "1. Write %s (more than 50 bytes) with the header lines %s — `**Trigger reason**: %s` — and these sections: %s. Fill them from what you know now: the current phase, last work, files, blockers, next steps, key decisions, recent failures, runtime dependency changes, reminders for the new session.\n",
		handoff, strings.Join(header, ", "), detail, strings.Join(sections, ", "))
	fmt.Fprintf(&b, "2. Append the line `## Reset at <UTC timestamp, date -u +%%Y-%%m-%%dT%%H:%%M:%%SZ>` to %s (append with >> or Edit; never rewrite it).\n", genlog)
	b.WriteString("3. Stop (end your turn) within 300 seconds of writing handoff.md. The Stop hook lets the session end, records the Reset (session_pool status resetting, one reset eval entry), and Hermes starts a new session that continues from handoff.md.")
	return b.String()
}
