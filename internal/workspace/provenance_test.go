package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/superagent-harness/harness/internal/digest"
)

// keyBeforeReference is KeyBefore as first written (fmt and a sort per
// call), kept as the reference the faster one must equal byte for byte:
// every eval_log cache is keyed by it.
func keyBeforeReference(p *Provenance, off int64) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%t\x00%d\x00", p.Known, p.Since)
	for _, m := range []map[int64]string{p.hermes, p.hook} {
		at := make([]int64, 0, len(m))
		for k := range m {
			if k < off {
				at = append(at, k)
			}
		}
		sort.Slice(at, func(i, j int) bool { return at[i] < at[j] })
		for _, k := range at {
			fmt.Fprintf(&b, "%d=%s\x01", k, m[k])
		}
		b.WriteByte(0)
	}
	return digest.Hex(digest.Sum256(b.Bytes()), 16)
}

func TestKeyBeforeEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 13))
	if got, want := (*Provenance)(nil).KeyBefore(5), keyBeforeReference(&Provenance{}, 5); got != want {
		t.Fatalf("nil: %s, want %s", got, want)
	}
	for trial := 0; trial < 300; trial++ {
		p := &Provenance{}
		var lines []map[string]any
		for i, n := 0, r.IntN(40); i < n; i++ {
			lines = append(lines, map[string]any{"at": r.Int64N(2000) - 10, "sha256": fmt.Sprintf("%016x", r.Uint64())})
		}
		raw, _ := json.Marshal(map[string]any{"since": r.Int64N(100), "lines": lines})
		if r.IntN(5) > 0 {
			p.SetLedger(raw)
		}
		var rs []ResetRecord
		for i, n := 0, r.IntN(4); i < n; i++ {
			rs = append(rs, ResetRecord{EvalAt: r.Int64N(2000), EvalSHA256: fmt.Sprintf("%016x", r.Uint64())})
		}
		p.AddResets(rs)
		for _, off := range []int64{0, 1, r.Int64N(2100), r.Int64N(2100), 1 << 62} {
			if got, want := p.KeyBefore(off), keyBeforeReference(p, off); got != want {
				t.Fatalf("trial %d off %d: %s, want %s", trial, off, got, want)
			}
		}
		// a change after a first KeyBefore is seen by the next
		p.AddResets([]ResetRecord{{EvalAt: r.Int64N(2000), EvalSHA256: "00000000000000aa"}})
		p.SetLedger(raw)
		if got, want := p.Key(), keyBeforeReference(p, 1<<62); got != want {
			t.Fatalf("trial %d after a change: %s, want %s", trial, got, want)
		}
	}
}

// SetLedgerValue (validate's path, from the decoded document) must load
// what SetLedger loads from the decoded member encoded again (what validate
// did before), on the plain shape and on every odd one: case-folded names,
// non-integers, wrong kinds, nulls, repeated names.
func TestSetLedgerValueAgreesWithSetLedger(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 13))
	nums := []string{`0`, `7`, `123456`, `-3`, `1.5`, `2.0`, `1e3`, `99999999999999999999`, `"5"`, `null`, `true`, `[]`, `{}`}
	strs := []string{`"0123456789abcdef"`, `"x"`, `""`, `7`, `null`, `[]`}
	pick := func(a []string) string { return a[r.IntN(len(a))] }
	plain := func() string {
		if r.IntN(4) == 0 {
			return pick(nums)
		}
		return fmt.Sprint(r.IntN(5000))
	}
	for trial := 0; trial < 5000; trial++ {
		var es []string
		for i, n := 0, r.IntN(6); i < n; i++ {
			var m []string
			if r.IntN(12) > 0 {
				m = append(m, `"at":`+plain())
			}
			if r.IntN(12) > 0 {
				sha := `"` + fmt.Sprintf("%016x", r.Uint64()) + `"`
				if r.IntN(6) == 0 {
					sha = pick(strs)
				}
				m = append(m, `"sha256":`+sha)
			}
			switch r.IntN(20) {
			case 0:
				m = append(m, `"AT":`+plain())
			case 1:
				m = append(m, `"Sha256":"ffffffffffffffff"`)
			case 2:
				m = append(m, `"note":"x"`)
			case 3:
				m = append(m, `"at":`+plain()) // repeated: the last counts
			}
			r.Shuffle(len(m), func(i, j int) { m[i], m[j] = m[j], m[i] })
			e := "{" + join(m) + "}"
			if r.IntN(25) == 0 {
				e = pick([]string{`null`, `"x"`, `3`, `[]`})
			}
			es = append(es, e)
		}
		var top []string
		if r.IntN(10) > 0 {
			since := fmt.Sprint(r.IntN(300))
			if r.IntN(5) == 0 {
				since = pick(nums)
			}
			top = append(top, `"since":`+since)
		}
		lines := "[" + join(es) + "]"
		if r.IntN(15) == 0 {
			lines = pick([]string{`null`, `{}`, `"x"`})
		}
		if r.IntN(12) > 0 {
			top = append(top, `"lines":`+lines)
		}
		switch r.IntN(15) {
		case 0:
			top = append(top, `"SINCE":3`)
		case 1:
			top = append(top, `"Lines":[]`)
		case 2:
			top = append(top, `"other":{"a":1}`)
		}
		raw := "{" + join(top) + "}"
		if r.IntN(30) == 0 {
			raw = pick([]string{`null`, `[]`, `"x"`, `4`})
		}
		var want, got Provenance
		dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		got.SetLedgerValue(v)
		// the reference: what validate did before, encode the decoded
		// member again and SetLedger it
		if v != nil {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			want.SetLedger(b)
		}
		if got.Known != want.Known || got.Since != want.Since || fmt.Sprint(got.hermes) != fmt.Sprint(want.hermes) {
			t.Fatalf("%s:\nSetLedgerValue %v %d %v\nSetLedger      %v %d %v", raw, got.Known, got.Since, got.hermes, want.Known, want.Since, want.hermes)
		}
	}
}

func join(parts []string) string {
	var b bytes.Buffer
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p)
	}
	return b.String()
}
