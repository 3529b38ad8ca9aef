package validate

import (
	"fmt"

	"github.com/superagent-harness/harness/internal/records"
	"github.com/superagent-harness/harness/internal/ruleid"
)

// tooling.section6-list-only: below the section-6 heading of tooling.md,
// which a Generator may append to, only list lines (one runtime addition
// each) and the template's own notes stand; a heading or any other text
// there would be read as a section of the sprint's tooling decisions (and
// copied into a pipeline's tooling template by `harness pipeline sink`).
func (c *checker) toolingSection6() {
	if c.fl == nil || c.relCT == "" {
		return
	}
	data, err := c.readFile(c.ws.Tooling(c.fl.Sprint))
	if err != nil {
		return // finalize.tooling-sections reports a missing file
	}
	rel := relContractsDir + "/" + c.fl.Sprint + "/tooling.md"
	bad, _, _ := records.ToolingSection6(string(data))
	for _, b := range bad {
		txt := b.Text
		if len([]rune(txt)) > 80 {
			txt = string([]rune(txt)[:80]) + "…"
		}
		c.rep.add(Finding{File: rel, Line: b.Line, Rule: ruleid.ToolingSection6ListOnly,
			Message: fmt.Sprintf("line %d below `%s` is not a list line: %q; section 6 takes one `- YYYY-MM-DD HH:MM | f<N> phase=<X> | <addition> | <reason>` line per runtime addition, and nothing after `%s` but its list (a heading here would pass for a section of the tooling decisions); Hermes removes it", b.Line, records.Section6Prefix, txt, records.SignOffHeading)})
	}
}
