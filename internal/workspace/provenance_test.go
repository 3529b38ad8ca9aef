package workspace

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/superagent-harness/harness/internal/digest"
)

// keyBeforeReference is KeyBefore computed from its definition in the
// plainest way (the Hermes entries as a map of offset to sha256, sorted
// per call, the chain hashed from the start), the reference the faster one
// must equal byte for byte: every eval_log cache is keyed by it.
func keyBeforeReference(known bool, since int64, hermes, hook map[int64]string, off int64) string {
	var at []int64
	for k := range hermes {
		if k < off {
			at = append(at, k)
		}
	}
	sort.Slice(at, func(i, j int) bool { return at[i] < at[j] })
	ent := func(k int64) []byte {
		b := binary.BigEndian.AppendUint64(nil, uint64(k))
		h, err := hex.DecodeString(hermes[k])
		if err != nil || len(h) != 8 || strings.ToLower(hermes[k]) != hermes[k] {
			return append(b, make([]byte, 9)...)
		}
		return append(append(b, 1), h...)
	}
	c := digest.Sum256([]byte(fmt.Sprintf("harness-provenance-key/2\x00%t\x00%d\x00", known, since)))
	n := len(at) / 64 * 64
	for i := 0; i < n; i += 64 {
		b := c[:]
		for _, k := range at[i : i+64] {
			b = append(b, ent(k)...)
		}
		c = digest.Sum256(b)
	}
	b := append(append([]byte(nil), c[:]...), binary.BigEndian.AppendUint64(nil, uint64(len(at)))...)
	for _, k := range at[n:] {
		b = append(b, ent(k)...)
	}
	b = append(b, 0)
	var ht []int64
	for k := range hook {
		if k < off {
			ht = append(ht, k)
		}
	}
	sort.Slice(ht, func(i, j int) bool { return ht[i] < ht[j] })
	for _, k := range ht {
		b = append(b, fmt.Sprintf("%d=%s\x01", k, hook[k])...)
	}
	return digest.Hex(digest.Sum256(append(b, 0)), 16)
}

func TestKeyBeforeEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 13))
	if got, want := (*Provenance)(nil).KeyBefore(5), keyBeforeReference(false, 0, nil, nil, 5); got != want {
		t.Fatalf("nil: %s, want %s", got, want)
	}
	sha := func() string {
		switch r.IntN(12) {
		case 0:
			return "not-a-hash"
		case 1:
			return fmt.Sprintf("%016X", r.Uint64())
		}
		return fmt.Sprintf("%016x", r.Uint64())
	}
	for trial := 0; trial < 300; trial++ {
		p := &Provenance{}
		hermes, hook := map[int64]string{}, map[int64]string{}
		var lines []map[string]any
		span := int64(2000)
		if trial%3 == 0 {
			span = 40_000 // several chunks of the chain
		}
		for i, n := 0, r.IntN(int(span)/10); i < n; i++ {
			at, h := r.Int64N(span)-10, sha()
			lines = append(lines, map[string]any{"at": at, "sha256": h})
		}
		since := r.Int64N(100)
		raw, _ := json.Marshal(map[string]any{"since": since, "lines": lines})
		known := r.IntN(5) > 0
		if known {
			p.SetLedger(raw)
			for _, l := range lines {
				hermes[l["at"].(int64)] = l["sha256"].(string)
			}
		} else {
			since = 0
		}
		var rs []ResetRecord
		for i, n := 0, r.IntN(4); i < n; i++ {
			rs = append(rs, ResetRecord{EvalAt: r.Int64N(span), EvalSHA256: fmt.Sprintf("%016x", r.Uint64())})
			hook[rs[i].EvalAt] = rs[i].EvalSHA256
		}
		p.AddResets(rs)
		for _, off := range []int64{0, 1, r.Int64N(span + 100), r.Int64N(span + 100), 1 << 62} {
			if got, want := p.KeyBefore(off), keyBeforeReference(known, since, hermes, hook, off); got != want {
				t.Fatalf("trial %d off %d: %s, want %s", trial, off, got, want)
			}
		}
		// a change after a first KeyBefore is seen by the next: a Reset,
		// then file entries (in order, the later one winning)
		ra := r.Int64N(span)
		p.AddResets([]ResetRecord{{EvalAt: ra, EvalSHA256: "00000000000000aa"}})
		hook[ra] = "00000000000000aa"
		if known {
			var file []byte
			for i, n := 0, r.IntN(200); i < n; i++ {
				at, h := r.Int64N(span+500)-10, sha()
				if r.IntN(2) == 0 && len(lines) > 0 {
					at = lines[r.IntN(len(lines))]["at"].(int64) // replace an inline entry
				}
				file = append(append(file, LedgerLine(at, h)...), '\n')
				hermes[at] = h
			}
			p.SetLedgerFile(file)
		}
		for _, off := range []int64{r.Int64N(span + 600), 1 << 62} {
			if got, want := p.KeyBefore(off), keyBeforeReference(known, since, hermes, hook, off); got != want {
				t.Fatalf("trial %d after a change, off %d: %s, want %s", trial, off, got, want)
			}
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
		if got.Known != want.Known || got.Since != want.Since || !slices.Equal(got.hermes, want.hermes) {
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
