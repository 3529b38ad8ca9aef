package workspace

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// flatAgrees fails when DecodeEvalFlat accepts line but encoding/json
// decodes it to another object: a member outside the fixed shape, another
// value, another kind. It reports whether the line is of the shape.
func flatAgrees(t testing.TB, line []byte) bool {
	var f FlatEntry
	if !DecodeEvalFlat(line, &f) {
		return false
	}
	want, err := decodeJSON(line)
	if err != nil {
		t.Fatalf("DecodeEvalFlat accepts %q, encoding/json refuses it: %v", line, err)
	}
	got := map[string]any{}
	for k, name := range FlatNames {
		k := FlatField(k)
		switch {
		case !f.Has(k):
		case f.IsNull(k):
			got[name] = nil
		case k == FlatPhase || k == FlatIteration:
			got[name] = json.Number(f.Val[k])
		case k == FlatAcceptanceResults:
			a := []any{}
			for _, it := range f.Acceptance {
				a = append(a, map[string]any{"id": it.ID, "criteria": it.Criteria, "status": it.Status, "evidence": it.Evidence})
			}
			got[name] = a
		case k == FlatBlockersResolved:
			// the items are only counted; the decoder held each to
			// {id, answer, feedback} of strings or null
			arr, ok := want[name].([]any)
			if !ok || len(arr) != f.Blockers {
				t.Fatalf("%q: blockers_resolved %#v, DecodeEvalFlat counted %d", line, want[name], f.Blockers)
			}
			for _, it := range arr {
				m, ok := it.(map[string]any)
				if !ok {
					t.Fatalf("%q: a blockers_resolved item %#v is no object", line, it)
				}
				for bk, bv := range m {
					if _, isStr := bv.(string); (bk != "id" && bk != "answer" && bk != "feedback") || (bv != nil && !isStr) {
						t.Fatalf("%q: blockers_resolved member %s=%#v outside the shape", line, bk, bv)
					}
				}
			}
			got[name] = want[name]
		default:
			got[name] = f.Val[k]
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeEvalFlat(%q) = %#v, encoding/json %#v", line, got, want)
	}
	return true
}

func TestDecodeEvalFlatMatchesEncodingJSON(t *testing.T) {
	fixed := []string{
		`{}`, ` { } `, `{"timestamp":"x"}`, `{"timestamp":"x","timestamp":"y"}`, `{"phase":2}`, `{"phase":"2"}`, `{"phase":null}`,
		`{"generator":null}`, `{"reason":null}`, `{"reason":"a\"b"}`, `{"extra":1}`, `{"Phase":1}`, `{"phase":1e0}`, `{"phase":-0.5}`,
		`{"acceptance_results":[]}`, `{"acceptance_results":[{}]}`, `{"acceptance_results":[{"id":"a1","criteria":"c","status":"pass","evidence":"e"}]}`,
		`{"acceptance_results":[{"id":"a1","criteria":"c","status":"pass","evidence":"e","id":"a2"}]}`,
		`{"acceptance_results":[{"id":"a1","criteria":"c","status":"pass"}]}`, `{"acceptance_results":[{"id":"a1","criteria":"c","status":"pass","evidence":null}]}`,
		`{"blockers_resolved":[]}`, `{"blockers_resolved":[{}]}`, `{"blockers_resolved":[{"id":"q1","answer":null,"feedback":"x"}]}`,
		`{"blockers_resolved":[{"id":"q1","id":"q2"}]}`, `{"blockers_resolved":[{"id":1}]}`, `{"blockers_resolved":[{"at":"x"}]}`,
		`{"blockers_resolved":{}}`, `{"acceptance_results":null}`, "{\"reason\":\"\t\"}", "\ufeff{}", `{"reason":"x"} x`, `{"reason":"x",}`,
		`{"reason":"x"`, ` {"commit" : null , "iteration" : 12 } ` + "\r",
	}
	n := 0
	for _, l := range fixed {
		if flatAgrees(t, []byte(l)) {
			n++
		}
	}
	if n < 10 {
		t.Errorf("DecodeEvalFlat accepted only %d of the lines of the shape", n)
	}
	lines := fixtureEvalLines(t, "*", filepath.Join("broken", "*"))
	n = 0
	for _, l := range lines {
		if flatAgrees(t, []byte(l)) {
			n++
		}
	}
	if n < len(lines)/2 {
		t.Errorf("DecodeEvalFlat accepted only %d of %d fixture lines", n, len(lines))
	}
	// random byte mutations of the fixture lines
	alphabet := []byte("{}[]:,\"\\ 0123456789-+.eEtrufalsn\t\r\n\x00\x1f\x7f\xc3\xa9\xff")
	r := rand.New(rand.NewPCG(3, 17))
	for i := 0; i < 50000; i++ {
		flatAgrees(t, mutate(r, []byte(lines[r.IntN(len(lines))]), alphabet))
	}
}

func FuzzDecodeEvalFlat(f *testing.F) {
	for _, s := range []string{`{"phase":2,"reason":"长"}`, `{"acceptance_results":[{"id":"a1","criteria":"c","status":"pass","evidence":"e"}]}`,
		`{"blockers_resolved":[{"id":"q1","answer":null}],"decision":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { flatAgrees(t, b) })
}

func TestFlatFieldOf(t *testing.T) {
	for i, n := range FlatNames {
		if k, ok := flatFieldOf(n); !ok || k != FlatField(i) {
			t.Errorf("flatFieldOf(%q) = %d, %v; want %d", n, k, ok, i)
		}
	}
	for _, n := range []string{"", "Phase", "extra", "supersedes_line", "created_at"} {
		if _, ok := flatFieldOf(n); ok {
			t.Errorf("flatFieldOf(%q) is a member of the shape", n)
		}
	}
}

// TestFlatNameMatchesStrAndFieldOf holds flatName (the name picked by its
// first bytes) to what p.str and flatFieldOf accept together, on every
// FlatName, each with one byte changed, dropped or added at every place,
// each prefix, and escaped spellings, with the line ending right after the
// name or well after it.
func TestFlatNameMatchesStrAndFieldOf(t *testing.T) {
	var names []string
	alphabet := []byte("acdefghiklmnoprstuy_\"\\ \x00\xe4")
	for _, n := range append(FlatNames[:], "id", "x", "") {
		names = append(names, n, strings.ToUpper(n), `\u0074`+n[min(1, len(n)):], n+`\"`)
		for i := 0; i <= len(n); i++ {
			names = append(names, n[:i], n[:i]+n[min(i+1, len(n)):])
			for _, c := range alphabet {
				names = append(names, n[:i]+string(c)+n[i:])
				if i < len(n) {
					names = append(names, n[:i]+string(c)+n[i+1:])
				}
			}
		}
	}
	checked := 0
	for _, n := range names {
		for _, tail := range []string{`"`, `":`, `":"2026-04-21T02:00:00Z"}`, ``} {
			b := []byte(`"` + n + tail)
			p := fastParser{b: string(b), raw: b}
			k, ok := p.flatName()
			q := fastParser{b: string(b), raw: b}
			s, sok := q.str()
			wk, wok := flatFieldOf(s)
			wok = wok && sok
			if ok != wok || ok && (k != wk || p.i != q.i) {
				t.Fatalf("flatName(%q) = %d, %v at %d; str+flatFieldOf %d, %v at %d", b, k, ok, p.i, wk, wok, q.i)
			}
			if ok {
				checked++
			}
		}
	}
	if checked < 4*len(FlatNames) {
		t.Errorf("only %d names accepted", checked)
	}
}
