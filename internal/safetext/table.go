package safetext

import (
	"bytes"
	"io"
	"strings"
	"text/tabwriter"
)

// Table writes rows as left-aligned columns two spaces apart, each line
// starting with indent and without trailing blanks: a column is as wide as
// its widest cell, so a long rule id or event name never shifts the columns
// after it. Every cell goes through Line first, so a tab or newline in a
// value (a denied command) cannot break the layout or fake a row.
func Table(w io.Writer, indent string, rows [][]string) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = Line(c)
		}
		if _, err := io.WriteString(tw, strings.Join(cells, "\t")+"\n"); err != nil {
			return err
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line == "" {
			continue
		}
		out.WriteString(indent + strings.TrimRight(line, " \n") + "\n")
	}
	_, err := io.WriteString(w, out.String())
	return err
}
