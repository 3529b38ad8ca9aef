package testutil

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// EvalLineSpec is the vocabulary of RandomEvalLine: the values (JSON text)
// each member is picked from, and the members a test adds beyond the
// common ones. The differential tests of the eval_log caches
// (internal/records' FeatureState, internal/ops' view) each keep their own.
type EvalLineSpec struct {
	Features, Phases, Events, Results, Reasons, Timestamps []string
	// Decisions are a checkpoint line's decision values.
	Decisions []string
	// Corrections are the reasons of a line with a supersedes_line.
	Corrections []string
	// More, when set, gives the members added after a checkpoint's
	// decision (et is the event_type picked, as JSON text).
	More func(rng *rand.Rand, et string) []string
	// RepeatResult, when > 0, gives one line in RepeatResult a second
	// result member after its reason (a duplicate member: the last counts).
	RepeatResult int
	// Garbage are lines returned in place of the line, after the common
	// ones (empty, blank, half a line, a CR ending, two objects).
	Garbage []string
}

// Pick is one of xs, chosen by rng.
func Pick(rng *rand.Rand, xs ...string) string { return xs[rng.IntN(len(xs))] }

// RandomEvalLine is line n of a random eval_log of spec's values: a
// timestamp and sprint_id, mostly a feature_id and phase, an event_type,
// mostly a result, a checkpoint's decision, spec.More's members, one line
// in eight from the second on a correction (supersedes_line of an earlier
// line, with a reason from spec.Corrections), mostly a reason, the members
// in random order; one line in thirty is garbage instead. The same rng
// state gives the same line.
func RandomEvalLine(rng *rand.Rand, n int, spec *EvalLineSpec) string {
	fid := Pick(rng, spec.Features...)
	phase := Pick(rng, spec.Phases...)
	et := Pick(rng, spec.Events...)
	res := Pick(rng, spec.Results...)
	reason := Pick(rng, spec.Reasons...)
	ts := Pick(rng, spec.Timestamps...)
	fields := []string{`"timestamp":` + ts, `"sprint_id":"sprint_20260421_1"`}
	if rng.IntN(10) > 0 {
		fields = append(fields, `"feature_id":`+fid)
	}
	if rng.IntN(10) > 0 {
		fields = append(fields, `"phase":`+phase)
	}
	fields = append(fields, `"event_type":`+et)
	if rng.IntN(4) > 0 {
		fields = append(fields, `"result":`+res)
	}
	if et == `"checkpoint"` {
		fields = append(fields, `"decision":`+Pick(rng, spec.Decisions...))
	}
	if spec.More != nil {
		fields = append(fields, spec.More(rng, et)...)
	}
	if rng.IntN(8) == 0 && n > 1 {
		// a correction of an earlier line (or an invalid one)
		target := 1 + rng.IntN(n)
		fields = append(fields, fmt.Sprintf(`"supersedes_line":%d`, target))
		reason = Pick(rng, spec.Corrections...)
	}
	if rng.IntN(10) > 0 {
		fields = append(fields, `"reason":`+reason)
	}
	if spec.RepeatResult > 0 && rng.IntN(spec.RepeatResult) == 0 {
		fields = append(fields, `"result":`+res)
	}
	rng.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
	line := "{" + strings.Join(fields, ",") + "}"
	garbage := append([]string{"", "   ", line[:len(line)/2], line + "\r", `{"a":1} {"b":2}`}, spec.Garbage...)
	if k := rng.IntN(30); k < len(garbage) {
		return garbage[k]
	}
	return line
}
