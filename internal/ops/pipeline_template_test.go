package ops

import (
	"strings"
	"testing"
)

func tmpl(t *testing.T, s string) *Obj {
	t.Helper()
	o, err := parseObj([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestTemplateChange: the version a sink needs follows the protocol's
// rules: the feature DAG → major, the checkpoint policy → minor, texts →
// patch, nothing → another run of the current version.
func TestTemplateChange(t *testing.T) {
	base := `{"features":[{"id":"f001","name":"parser","depends_on":[],"acceptance":["a"],"checkpoints":[{"phase":1,"type":"gate","blockers":[{"id":"b1","question":"q?","options":["a. x","b. y"]}]}]},
	 {"id":"f002","name":"prober","depends_on":["f001"],"acceptance":["b"],"checkpoints":[{"phase":3,"type":"notify"}]}],"contract":{"max_iterations":3}}`
	for _, c := range []struct {
		name, edit, from, to string
		want                 int
	}{
		{"same", "", "", "", changeNone},
		{"new dependency", "dep", `"depends_on":["f001"]`, `"depends_on":[]`, changeMajor},
		{"feature renamed id", "id", `"id":"f002"`, `"id":"f003"`, changeMajor},
		{"gate becomes review", "type", `"type":"gate"`, `"type":"review"`, changeMinor},
		{"checkpoint moved", "phase", `"phase":3`, `"phase":4`, changeMinor},
		{"irreversible mark", "irr", `{"phase":3,"type":"notify"}`, `{"phase":3,"type":"notify","external_irreversible":true}`, changeMinor},
		{"acceptance text", "acc", `"acceptance":["a"]`, `"acceptance":["a, reworded"]`, changePatch},
		{"blocker question", "q", `"question":"q?"`, `"question":"q2?"`, changePatch},
		{"max_iterations", "mi", `"max_iterations":3`, `"max_iterations":4`, changePatch},
	} {
		cur := base
		if c.from != "" {
			if !strings.Contains(cur, c.from) {
				t.Fatalf("%s: %q not in the base", c.name, c.from)
			}
			cur = strings.Replace(cur, c.from, c.to, 1)
		}
		got, why := templateChange(tmpl(t, base), tmpl(t, cur))
		if got != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, changeNames[got], why, changeNames[c.want])
		}
	}
	if got, _ := templateChange(nil, tmpl(t, base)); got != changePatch {
		t.Errorf("no old template: %s, want any explicit change (patch)", changeNames[got])
	}
}

// TestRunStats: consecutive failures of a version count across runs and
// reset on a success; the safety valve closes eligibility at 2.
func TestRunStats(t *testing.T) {
	st := runStats(3, 1, 3, 1, 0, false, "2026-05-02T09:00:00Z", 3, 0.9, nil, "s4")
	if v := mapSliceValue(st, "current_version_consecutive_failures"); v != 1 {
		t.Fatalf("one failure: %v", v)
	}
	if v := mapSliceValue(st, "total_success_rate"); v != 0.75 {
		t.Fatalf("rate after 3 successes and a failure: %v", v)
	}
	st = runStats(9, 1, 9, 1, 1, false, "2026-05-02T09:00:00Z", 3, 0.5, nil, "s11")
	if mapSliceValue(st, "current_version_consecutive_failures") != 2 || mapSliceValue(st, "yolo_eligible") != false {
		t.Fatalf("second failure in a row must close YOLO: %v", st)
	}
	st = runStats(10, 0.9, 10, 0.9, 2, true, "2026-05-02T09:00:00Z", 3, 0.5, []string{"a"}, "b")
	if mapSliceValue(st, "current_version_consecutive_failures") != 0 || mapSliceValue(st, "yolo_eligible") != true || mapSliceValue(st, "total_runs") != 11 {
		t.Fatalf("a success resets the counter: %v", st)
	}
	if c, _ := mapSliceValue(st, "counted_runs").([]string); len(c) != 2 || c[1] != "b" {
		t.Fatalf("counted_runs: %v", c)
	}
}

// TestDenameFill: values become placeholders longest first, and fill puts
// them back.
func TestDenameFill(t *testing.T) {
	vars := map[string]string{"product": "CC Switch", "edition": "CC Switch Pro", "target": "ubuntu-22.04"}
	in := "ship CC Switch Pro and CC Switch to ubuntu-22.04"
	d := denamer(vars)(in)
	if d != "ship {edition} and {product} to {target}" {
		t.Fatalf("dename: %q", d)
	}
	if got := filler(vars)(d); got != in {
		t.Fatalf("fill: %q", got)
	}
	if p := placeholders(d); strings.Join(p, ",") != "edition,product,target" {
		t.Fatalf("placeholders: %v", p)
	}
	if _, err := ParseVars([]string{"Bad=x"}); err == nil {
		t.Fatal("an upper-case name is refused")
	}
}
