package workspace

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// idSamples are edge cases of every pattern: valid ids, and near misses
// (missing/extra parts, non-ASCII digits, newline before the end).
var idSamples = []string{
	"", "f", "f1", "f001", "f1-2", "f1-2-3", "f1-", "f-1", "f1--2", "F1", "f1a", "f１", " f1", "f1\n", "f1-2\n",
	"cp-f1-1", "cp-f001-2", "cp-f1-2-3", "cp-f1", "cp-f1-", "cp-f-1", "cp-1", "cp--1", "cp-f1-2-", "cp-f1-x", "cp-f1-1\n", "xcp-f1-1",
	"sprint_20260421_1", "sprint_20260421_12", "sprint_2026042_1", "sprint_202604211_1", "sprint_20260421_", "sprint_20260421", "sprint__1",
	"sprint_20260421_1\n", "Sprint_20260421_1", "sprint_2026O421_1",
	"2026-04-21T10:00:00Z", "2026-04-21T10:00:00.123Z", "2026-04-21T10:00:00.Z", "2026-04-21T10:00:00", "2026-04-21T10:00:00+00:00",
	"2026-04-21 10:00:00Z", "2026-04-21T10:00:00ZZ", "2026-04-21T10:00:00z", "2026-4-21T10:00:00Z", "2026-04-21T10:00:00Z\n",
	"99999-04-21T10:00:00Z", "2026-04-21T10:00:00.1.2Z", "2026-04-21T1a:00:00Z",
}

func TestPatternsAgreeWithTheirRegexp(t *testing.T) {
	pats := map[string]Pattern{"feature": FeatureIDPattern, "checkpoint": CheckpointIDPattern, "sprint": SprintIDPattern, "utcz": UTCZPattern}
	// Random strings over the patterns' alphabet find disagreements the
	// hand-picked samples miss.
	alphabet := []byte("0123456789-_:.TZfcpsrint \n")
	rng := rand.New(rand.NewPCG(1, 2))
	samples := append([]string(nil), idSamples...)
	for range 20000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		samples = append(samples, string(b))
	}
	// Mutations of valid values (one byte replaced) cover the long shapes.
	for _, v := range []string{"f12-3-4", "cp-f12-3-45", "sprint_20260421_17", "2026-04-21T10:00:00.123Z"} {
		for i := range len(v) {
			for _, c := range alphabet {
				samples = append(samples, v[:i]+string(c)+v[i+1:], v[:i]+v[i+1:], v[:i]+string(c)+v[i:])
			}
		}
	}
	for name, p := range pats {
		re := regexp.MustCompile(p.String())
		matched := 0
		for _, s := range samples {
			want := re.MatchString(s)
			if got := p.MatchString(s); got != want {
				t.Errorf("%s.MatchString(%q) = %v, regexp %s says %v", name, s, got, p, want)
			}
			if want {
				matched++
			}
		}
		if matched < 3 {
			t.Errorf("%s: only %d samples match; the comparison tests too little", name, matched)
		}
	}
}

func BenchmarkUTCZPattern(b *testing.B) {
	for b.Loop() {
		UTCZPattern.MatchString("2026-04-21T10:00:00.123Z")
	}
}
