package validate

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/superagent-harness/harness/internal/workspace"
)

// walkTimesReference is walkTimes as first written (a pointer built for
// every member), kept as the reference the lazy one must equal.
func walkTimesReference(v any, ptr string, bad func(ptr, key, val string)) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := ptr + "/" + escapePtr(k)
			val := x[k]
			if isTimeKey(k) {
				switch tv := val.(type) {
				case string:
					if !workspace.UTCZPattern.MatchString(tv) {
						bad(p, k, tv)
					}
					continue
				case []any:
					for i, el := range tv {
						if s, ok := el.(string); ok && !workspace.UTCZPattern.MatchString(s) {
							bad(fmt.Sprintf("%s/%d", p, i), k, s)
						}
					}
					continue
				}
			}
			walkTimesReference(val, p, bad)
		}
	case []any:
		for i, el := range x {
			walkTimesReference(el, fmt.Sprintf("%s/%d", ptr, i), bad)
		}
	}
}

// walkTimes reports the same strings with the same pointers, in the same
// order, as the reference on random documents.
func TestWalkTimesEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 13))
	keys := []string{"timestamp", "updated_at", "created_at", "at", "sha256", "a/b", "x~y", "lines", "since", "note", "started_at"}
	strs := []any{"2026-04-21T08:15:00Z", "2026-04-21 08:15", "yesterday", "", "2026-04-21T08:15:00.5Z"}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch n := r.IntN(10); {
		case depth > 3 || n < 3:
			return strs[r.IntN(len(strs))]
		case n < 4:
			return nil
		case n < 7:
			m := map[string]any{}
			for i, k := 0, r.IntN(5); i < k; i++ {
				m[keys[r.IntN(len(keys))]] = gen(depth + 1)
			}
			return m
		default:
			var a []any
			for i, k := 0, r.IntN(5); i < k; i++ {
				a = append(a, gen(depth+1))
			}
			return a
		}
	}
	reported := 0
	for trial := 0; trial < 3000; trial++ {
		doc := gen(0)
		var got, want []string
		walkTimes(doc, "", func(p, k, v string) { got = append(got, p+"|"+k+"|"+v) })
		walkTimesReference(doc, "", func(p, k, v string) { want = append(want, p+"|"+k+"|"+v) })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("trial %d: %v, want %v", trial, got, want)
		}
		reported += len(want)
	}
	if reported < 500 {
		t.Fatalf("only %d reports in 3000 documents: the test does not exercise the reporting path", reported)
	}
}
