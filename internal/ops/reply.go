package ops

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Blocker is one checkpoint question (docs/protocol.md §3.2).
type Blocker struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Options  []string `json:"options"`
}

// CatchAll returns the fixed last blocker of every gate (docs/protocol.md §3.2).
func CatchAll() Blocker {
	return Blocker{ID: "catch_all", Question: "还有其他你觉得不对的地方吗?", Options: []string{"a. 没有", "b. 有(请详述)"}}
}

// Answer is one resolved blocker (eval_log blockers_resolved item).
type Answer struct {
	ID       string `json:"id"`
	Answer   string `json:"answer"`
	Feedback string `json:"feedback,omitempty"`
}

// Reply is the parsed user reply to a checkpoint (docs/protocol.md §5 reply
// grammar). Exactly one of Decision, Suspend, Resume or Question is set.
type Reply struct {
	Decision string   `json:"decision,omitempty"` // approved | approved_with_changes | rejected
	Answers  []Answer `json:"blockers_resolved,omitempty"`
	Feedback string   `json:"feedback,omitempty"`
	Suspend  bool     `json:"suspend,omitempty"`
	Resume   bool     `json:"resume,omitempty"`
	// Question is the follow-up to send when the reply is unanswered or
	// ambiguous; the checkpoint stays pending (never guess).
	Question string `json:"question,omitempty"`
}

// choiceRE finds "<n><letter>" with an optional separator: strict "1a",
// loose "1 选 a", "1: a", "1：a", "1=a".
var choiceRE = regexp.MustCompile(`(\d+)(?:\s*(?:选|:|=)\s*|)([a-z])`)

var rejectWords = []string{"reject", "rejected", "no", "nope", "不对", "不同意", "拒绝", "不行", "驳回", "否决"}

// ParseReply parses a user's reply against the checkpoint's blockers
// (numbered 1..n in order, catch_all last). Rules (docs/protocol.md §5): every
// "N<letter>" pair (also "N 选 x", "N: x") answers blocker N; all blockers
// answered, no extra text and catch_all "a" → approved; extra text next to
// the choices, or catch_all "b" with text → approved_with_changes with the
// text as feedback; a reply that starts with a reject word (reject, no, 不对,
// 拒绝, …), or has no choices but a reject word → rejected; "suspend" /
// "resume" → global suspend/resume. Fewer or more answers than blockers, a
// letter outside a blocker's options, two different answers to one blocker
// or catch_all "b" without details → Question (ask again, never guess).
// A number followed by a letter beyond every blocker's options ("5s",
// "2h") is free text, not a choice.
func ParseReply(text string, blockers []Blocker) Reply {
	norm := normalizeReply(text)
	trimmed := strings.TrimSpace(norm)
	// ASCII-only lower-casing keeps byte offsets identical to trimmed
	// (strings.ToLower may change the length of some runes, e.g. 'Ⱥ').
	lower := asciiLower(trimmed)
	switch lower {
	case "suspend", "暂停":
		return Reply{Suspend: true}
	case "resume", "继续", "恢复":
		return Reply{Resume: true}
	}
	if trimmed == "" {
		return Reply{Question: "回复为空。" + replyHint(blockers)}
	}

	// Find the choices on the lower-cased text, checking word boundaries.
	type choice struct {
		n      int
		letter string
		start  int
		end    int
	}
	var choices []choice
	// A letter beyond every blocker's options ("5s", "2h") is free text.
	maxOpts := 2
	for _, b := range blockers {
		if len(b.Options) > maxOpts {
			maxOpts = len(b.Options)
		}
	}
	for _, m := range choiceRE.FindAllStringSubmatchIndex(lower, -1) {
		start, end := m[0], m[1]
		if int(lower[m[4]]-'a') >= maxOpts {
			continue
		}
		// Boundaries: not glued to a word before ("v2a"), unless it directly
		// follows the previous choice ("1a2b3a"); not followed by a letter
		// ("2apples").
		prevEnd := -1
		if len(choices) > 0 {
			prevEnd = choices[len(choices)-1].end
		}
		if start > 0 && start != prevEnd && isASCIIAlnum(lastRune(lower[:start])) {
			continue
		}
		if end < len(lower) {
			r := firstRune(lower[end:])
			if r < unicode.MaxASCII && unicode.IsLetter(r) {
				continue
			}
		}
		var n int
		fmt.Sscanf(lower[m[2]:m[3]], "%d", &n)
		choices = append(choices, choice{n: n, letter: lower[m[4]:m[5]], start: start, end: end})
	}
	// Extra text = the reply minus the choices and separators.
	var rest strings.Builder
	prev := 0
	for _, c := range choices {
		rest.WriteString(trimmed[prev:c.start])
		rest.WriteString(" ")
		prev = c.end
	}
	rest.WriteString(trimmed[prev:])
	extra := cleanExtra(rest.String())

	if startsWithWord(strings.ToLower(extra), rejectWords) && (len(choices) == 0 || strings.HasPrefix(lower, strings.ToLower(firstWord(extra)))) {
		return Reply{Decision: "rejected", Feedback: strings.TrimSpace(trimmed)}
	}
	if len(choices) == 0 {
		if containsWord(lower, rejectWords) {
			return Reply{Decision: "rejected", Feedback: trimmed}
		}
		return Reply{Question: "没有识别到选项。" + replyHint(blockers)}
	}
	// Choices followed by a reject word ("1a 2b 3a reject") contradict each
	// other, unless the reject word opens the details of a catch_all "b"
	// ("3b no emoji in README").
	if w := firstWord(strings.ToLower(extra)); w != "" && startsWithWord(w, rejectWords) {
		catchAllB := false
		for _, c := range choices {
			if c.n == len(blockers) && blockers[c.n-1].ID == "catch_all" && c.letter == "b" {
				catchAllB = true
			}
		}
		if !catchAllB || oneOf(strings.ToLower(strings.TrimFunc(extra, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })), rejectWords) {
			return Reply{Question: fmt.Sprintf("回复里既有选项又有「%s」:是拒绝整个方案(请说明哪里不对),还是按选项通过?", firstWord(extra))}
		}
	}

	got := map[int]string{}
	var problems []string
	for _, c := range choices {
		if c.n < 1 || c.n > len(blockers) {
			problems = append(problems, fmt.Sprintf("第 %d 题不存在(共 %d 题)", c.n, len(blockers)))
			continue
		}
		b := blockers[c.n-1]
		idx := int(c.letter[0] - 'a')
		if idx >= len(b.Options) {
			problems = append(problems, fmt.Sprintf("第 %d 题没有选项 %s(可选 %s)", c.n, c.letter, letters(len(b.Options))))
			continue
		}
		if old, ok := got[c.n]; ok && old != c.letter {
			problems = append(problems, fmt.Sprintf("第 %d 题同时选了 %s 和 %s", c.n, old, c.letter))
			continue
		}
		got[c.n] = c.letter
	}
	var missing []string
	for i := range blockers {
		if _, ok := got[i+1]; !ok {
			missing = append(missing, fmt.Sprint(i+1))
		}
	}
	if len(problems) > 0 || len(missing) > 0 {
		q := strings.Join(problems, ";")
		if len(missing) > 0 {
			if q != "" {
				q += ";"
			}
			q += "请补充第 " + strings.Join(missing, "、") + " 题的选择"
		}
		return Reply{Question: q + "。" + replyHint(blockers)}
	}

	r := Reply{Decision: "approved"}
	nums := make([]int, 0, len(got))
	for n := range got {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		b := blockers[n-1]
		a := Answer{ID: b.ID, Answer: got[n]}
		if b.ID == "catch_all" && got[n] == "b" {
			if extra == "" {
				return Reply{Question: fmt.Sprintf("第 %d 题选了 b(有其他问题),请详述哪里不对。", n)}
			}
			a.Feedback = extra
		}
		r.Answers = append(r.Answers, a)
	}
	if extra != "" {
		r.Decision = "approved_with_changes"
		r.Feedback = extra
	}
	return r
}

// asciiLower lower-cases ASCII letters only, so byte offsets are preserved.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// normalizeReply maps full-width ASCII (１ａ：) to ASCII.
func normalizeReply(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0xFF01 && r <= 0xFF5E {
			return r - 0xFEE0
		}
		if r == '\u3000' {
			return ' '
		}
		return r
	}, s)
}

// cleanExtra strips separators and punctuation around the leftover text.
func cleanExtra(s string) string {
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r)
	})
	var keep []string
	for _, f := range fields {
		t := strings.TrimFunc(f, func(r rune) bool {
			return unicode.IsPunct(r) || unicode.IsSymbol(r) || r == '，' || r == '。' || r == '、' || r == '；'
		})
		if t != "" {
			keep = append(keep, f)
		}
	}
	out := strings.Join(keep, " ")
	return strings.TrimFunc(out, func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ';' || r == '，' || r == '；' || r == '、' || r == ':' || r == '：'
	})
}

func startsWithWord(s string, words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(s, w) {
			rest := s[len(w):]
			if rest == "" || !isASCIIAlnum(firstRune(rest)) || !isASCIIWord(w) {
				return true
			}
		}
	}
	return false
}

func containsWord(s string, words []string) bool {
	for _, w := range words {
		for i := 0; ; {
			j := strings.Index(s[i:], w)
			if j < 0 {
				break
			}
			j += i
			okL := j == 0 || !isASCIIAlnum(lastRune(s[:j])) || !isASCIIWord(w)
			okR := j+len(w) == len(s) || !isASCIIAlnum(firstRune(s[j+len(w):])) || !isASCIIWord(w)
			if okL && okR {
				return true
			}
			i = j + len(w)
		}
	}
	return false
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func isASCIIWord(w string) bool {
	for _, r := range w {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

func isASCIIAlnum(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func lastRune(s string) rune {
	var last rune
	for _, r := range s {
		last = r
	}
	return last
}

func letters(n int) string {
	var b []string
	for i := 0; i < n; i++ {
		b = append(b, string(rune('a'+i)))
	}
	return strings.Join(b, "/")
}

func replyHint(blockers []Blocker) string {
	var ex []string
	for i := range blockers {
		ex = append(ex, fmt.Sprintf("%da", i+1))
	}
	return fmt.Sprintf("请按「%s」的格式回复全部 %d 题(有补充意见可直接写在选项后面)。", strings.Join(ex, " "), len(blockers))
}
