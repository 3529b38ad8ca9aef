package workspace

import "unsafe"

// The fixed shape of an eval_log line (docs/performance.md "harness
// validate on real-shaped lines"): the members `harness eval append`,
// `harness checkpoint reply` and the Stop hook write, decoded into fixed
// slots instead of a map[string]any. `harness validate` checks a line of
// this shape without building the map (validate's fastLine); anything
// else — another member, a repeated name, a value of another kind, an
// escape in a string, a syntax error — is not of the shape, and the
// general path (DecodeEvalLine, the schema, every rule on the map) checks
// it.

// FlatField names one member of the fixed shape.
type FlatField uint8

// The members of the fixed shape, in the order of FlatNames.
const (
	FlatTimestamp FlatField = iota
	FlatSprintID
	FlatGenerator
	FlatFeatureID
	FlatPhase
	FlatIteration
	FlatEventType
	FlatResult
	FlatReason
	FlatCheckpointID
	FlatCheckpointType
	FlatDecision
	FlatUserReplyRaw
	FlatCommit
	FlatHermesNotes
	FlatAcceptanceResults
	FlatBlockersResolved
	flatFields
)

// FlatNames are the member names of the FlatFields.
var FlatNames = [flatFields]string{"timestamp", "sprint_id", "generator", "feature_id", "phase", "iteration", "event_type", "result",
	"reason", "checkpoint_id", "checkpoint_type", "decision", "user_reply_raw", "commit", "hermes_notes", "acceptance_results",
	"blockers_resolved"}

// flatKind is the kind of value a member may have in the fixed shape.
type flatKind uint8

const (
	kindString       flatKind = 1 << iota // a JSON string
	kindNull                              // null
	kindNumber                            // a JSON number (its text is kept)
	kindAcceptance                        // an array of {id, criteria, status, evidence}, all strings, each once
	kindBlockers                          // an array of objects of id, answer, feedback: string or null, each at most once
	kindStringOrNull = kindString | kindNull
)

var flatKinds = [flatFields]flatKind{
	FlatTimestamp: kindString, FlatSprintID: kindString, FlatGenerator: kindStringOrNull, FlatFeatureID: kindString,
	FlatPhase: kindNumber, FlatIteration: kindNumber, FlatEventType: kindString, FlatResult: kindString, FlatReason: kindString,
	FlatCheckpointID: kindStringOrNull, FlatCheckpointType: kindString, FlatDecision: kindStringOrNull,
	FlatUserReplyRaw: kindStringOrNull, FlatCommit: kindStringOrNull, FlatHermesNotes: kindStringOrNull,
	FlatAcceptanceResults: kindAcceptance, FlatBlockersResolved: kindBlockers,
}

// FlatEntry is one eval_log line of the fixed shape. Its strings share the
// memory of the line it was decoded from (no copy: a copy of every line
// was half of what validate allocated): they hold while the caller leaves
// that line's bytes unchanged, so a caller that keeps one clones it
// (validate's reducedFlat does).
type FlatEntry struct {
	present, null uint32 // bit i: FlatField i is a member; its value is null
	// Val is the string value of a member, or the text of a number
	// (phase, iteration); "" when absent or null.
	Val [flatFields]string
	// Acceptance is acceptance_results (when present).
	Acceptance []FlatAcceptance
	// Blockers is the number of blockers_resolved items.
	Blockers int
}

// FlatAcceptance is one acceptance_results item.
type FlatAcceptance struct{ ID, Criteria, Status, Evidence string }

// Has reports whether member k is present (even when null).
func (f *FlatEntry) Has(k FlatField) bool { return f.present&(1<<k) != 0 }

// IsNull reports whether member k is present as null.
func (f *FlatEntry) IsNull(k FlatField) bool { return f.null&(1<<k) != 0 }

// Str returns member k's string value and whether k is present as a
// string (for phase and iteration: as a number, whose text it returns).
func (f *FlatEntry) Str(k FlatField) (string, bool) { return f.Val[k], f.Has(k) && !f.IsNull(k) }

// HasName is Has by member name (false for a name outside the shape).
func (f *FlatEntry) HasName(name string) bool {
	k, ok := flatFieldOf(name)
	return ok && f.Has(k)
}

func flatFieldOf(name string) (FlatField, bool) {
	switch name { // in the order of FlatNames (TestFlatFieldOf)
	case "timestamp":
		return FlatTimestamp, true
	case "sprint_id":
		return FlatSprintID, true
	case "generator":
		return FlatGenerator, true
	case "feature_id":
		return FlatFeatureID, true
	case "phase":
		return FlatPhase, true
	case "iteration":
		return FlatIteration, true
	case "event_type":
		return FlatEventType, true
	case "result":
		return FlatResult, true
	case "reason":
		return FlatReason, true
	case "checkpoint_id":
		return FlatCheckpointID, true
	case "checkpoint_type":
		return FlatCheckpointType, true
	case "decision":
		return FlatDecision, true
	case "user_reply_raw":
		return FlatUserReplyRaw, true
	case "commit":
		return FlatCommit, true
	case "hermes_notes":
		return FlatHermesNotes, true
	case "acceptance_results":
		return FlatAcceptanceResults, true
	case "blockers_resolved":
		return FlatBlockersResolved, true
	}
	return 0, false
}

// DecodeEvalFlat decodes line into f when it is one JSON object of the
// fixed shape: only FlatNames members, each once, each of its kind, every
// string without escapes, control bytes or invalid UTF-8 (so every value is
// what encoding/json would decode, byte for byte); surrounding whitespace
// is allowed. It reports false for anything else (f is then unspecified):
// the line may still be a valid entry, which the general path checks. It
// allocates nothing but the growth of f.Acceptance.
func DecodeEvalFlat(line []byte, f *FlatEntry) bool {
	if len(line) == 0 {
		return false
	}
	// the strings alias line (see FlatEntry)
	p := fastParser{b: unsafe.String(&line[0], len(line)), raw: line}
	f.present, f.null, f.Val, f.Acceptance, f.Blockers = 0, 0, [flatFields]string{}, f.Acceptance[:0], 0
	p.space()
	ok := p.byte('{') && p.list('}', func() bool {
		k, ok := p.flatName()
		if !ok || f.Has(k) {
			return false
		}
		f.present |= 1 << k
		return p.colon() && p.flatValue(f, k)
	})
	if !ok {
		return false
	}
	p.space()
	return p.i == len(p.b)
}

// flatName reads a member name that is one of FlatNames, spelt as it is
// (what p.str and flatFieldOf accept together: a name with an escape or
// any other name is not of the shape; TestFlatNameMatchesStrAndFieldOf).
// The first bytes pick the one name it can be, compared as a constant.
func (p *fastParser) flatName() (FlatField, bool) {
	b, i := p.b, p.i
	if len(b)-i < 4 || b[i] != '"' {
		return 0, false
	}
	switch b[i+1] {
	case 't':
		return FlatTimestamp, p.lit(`"timestamp"`)
	case 's':
		return FlatSprintID, p.lit(`"sprint_id"`)
	case 'g':
		return FlatGenerator, p.lit(`"generator"`)
	case 'f':
		return FlatFeatureID, p.lit(`"feature_id"`)
	case 'p':
		return FlatPhase, p.lit(`"phase"`)
	case 'i':
		return FlatIteration, p.lit(`"iteration"`)
	case 'e':
		return FlatEventType, p.lit(`"event_type"`)
	case 'r':
		if b[i+3] == 'a' {
			return FlatReason, p.lit(`"reason"`)
		}
		return FlatResult, p.lit(`"result"`)
	case 'c':
		if b[i+2] == 'o' {
			return FlatCommit, p.lit(`"commit"`)
		}
		if p.lit(`"checkpoint_id"`) {
			return FlatCheckpointID, true
		}
		return FlatCheckpointType, p.lit(`"checkpoint_type"`)
	case 'd':
		return FlatDecision, p.lit(`"decision"`)
	case 'u':
		return FlatUserReplyRaw, p.lit(`"user_reply_raw"`)
	case 'h':
		return FlatHermesNotes, p.lit(`"hermes_notes"`)
	case 'a':
		return FlatAcceptanceResults, p.lit(`"acceptance_results"`)
	case 'b':
		return FlatBlockersResolved, p.lit(`"blockers_resolved"`)
	}
	return 0, false
}

func (p *fastParser) flatValue(f *FlatEntry, k FlatField) bool {
	if p.i >= len(p.b) {
		return false
	}
	kind := flatKinds[k]
	switch c := p.b[p.i]; {
	case c == '"' && kind&kindString != 0:
		s, ok := p.str()
		f.Val[k] = s
		return ok
	case c == 'n' && kind&kindNull != 0:
		f.null |= 1 << k
		return p.word("null")
	case (c == '-' || isDigit(c)) && kind&kindNumber != 0:
		end, ok := p.numberEnd()
		if !ok {
			return false
		}
		f.Val[k], p.i = p.b[p.i:end], end
		return true
	case c == '[' && kind&kindAcceptance != 0:
		p.i++
		return p.list(']', func() bool {
			var a FlatAcceptance
			if !p.acceptanceItem(&a) {
				return false
			}
			f.Acceptance = append(f.Acceptance, a)
			return true
		})
	case c == '[' && kind&kindBlockers != 0:
		p.i++
		return p.list(']', func() bool {
			f.Blockers++
			return p.blockerItem()
		})
	}
	return false
}

// acceptanceItem reads one acceptance_results item: an object of exactly
// the members id, criteria, status and evidence, each once, all strings.
func (p *fastParser) acceptanceItem(a *FlatAcceptance) bool {
	var seen uint8
	ok := p.byte('{') && p.list('}', func() bool {
		var dst *string
		var bit uint8
		switch {
		case p.lit(`"id"`):
			dst, bit = &a.ID, 1
		case p.lit(`"criteria"`):
			dst, bit = &a.Criteria, 2
		case p.lit(`"status"`):
			dst, bit = &a.Status, 4
		case p.lit(`"evidence"`):
			dst, bit = &a.Evidence, 8
		default:
			return false
		}
		if seen&bit != 0 || !p.colon() {
			return false
		}
		seen |= bit
		s, ok := p.str()
		*dst = s
		return ok
	})
	return ok && seen == 15
}

// blockerItem reads one blockers_resolved item: an object of the members
// id, answer and feedback, each at most once, each a string or null.
func (p *fastParser) blockerItem() bool {
	var seen uint8
	return p.byte('{') && p.list('}', func() bool {
		var bit uint8
		switch {
		case p.lit(`"id"`):
			bit = 1
		case p.lit(`"answer"`):
			bit = 2
		case p.lit(`"feedback"`):
			bit = 4
		default:
			return false
		}
		if seen&bit != 0 || !p.colon() {
			return false
		}
		seen |= bit
		if p.i < len(p.b) && p.b[p.i] == 'n' {
			return p.word("null")
		}
		_, ok := p.str()
		return ok
	})
}
