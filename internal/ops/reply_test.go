package ops

import "testing"

func gateBlockers() []Blocker {
	return []Blocker{
		{ID: "b1", Question: "q1", Options: []string{"a. x", "b. y"}},
		{ID: "b2", Question: "q2", Options: []string{"a. x", "b. y", "c. z"}},
		CatchAll(),
	}
}

func TestParseReply(t *testing.T) {
	cases := []struct {
		in       string
		decision string
		feedback string
		question bool
		suspend  bool
	}{
		{in: "1a 2b 3a", decision: "approved"},
		{in: "1a2b3a", decision: "approved"},
		{in: "v2a 1a 2b 3a", decision: "approved_with_changes", feedback: "v2a"},
		{in: "1A,2C,3a", decision: "approved"},
		{in: "１ａ ２ｂ ３ａ", decision: "approved"},
		{in: "1 选 a, 2 选 b, 3 选 a", decision: "approved"},
		{in: "1: b\n2: a\n3: a", decision: "approved"},
		{in: "1：b 2：a 3：a", decision: "approved"},
		{in: "1a 2b 3a README 加一列典型场景", decision: "approved_with_changes", feedback: "README 加一列典型场景"},
		{in: "1a 2b 3b 退出码表格加一列", decision: "approved_with_changes", feedback: "退出码表格加一列"},
		{in: "1a 2b 3b", question: true},
		{in: "1a 2b", question: true},
		{in: "1a 2d 3a", question: true},
		{in: "1a 1b 2a 3a", question: true},
		{in: "1a 2b 3a 4a", question: true},
		{in: "looks fine to me", question: true},
		{in: "", question: true},
		{in: "不对", decision: "rejected", feedback: "不对"},
		{in: "reject: the plan misses tests", decision: "rejected"},
		{in: "no, redo the split", decision: "rejected"},
		{in: "这个方案不对,重新拆分", decision: "rejected"},
		{in: "suspend", suspend: true},
		{in: "1a 2b 3a reject", question: true},
		{in: "1a 2b 3a 不对", question: true},
		{in: "1a 2b 3b 不对", question: true},
		{in: "1a 2b 3b 不对的是 README 缺少安装一节", decision: "approved_with_changes", feedback: "不对的是 README 缺少安装一节"},
		{in: "1a 2b 3b 不对的地方是拆分太粗", decision: "approved_with_changes", feedback: "不对的地方是拆分太粗"},
		{in: "1a 2b 3b no!", question: true},
		{in: "1a 2b 3a notes about 2apples", decision: "approved_with_changes", feedback: "notes about 2apples"},
		{in: "1a 2a 3a 超时默认 5s", decision: "approved_with_changes", feedback: "超时默认 5s"},
		{in: "1a 2a 3b 重试间隔 2h", decision: "approved_with_changes", feedback: "重试间隔 2h"},
		{in: "1a 2a 3b no emoji in README please", decision: "approved_with_changes", feedback: "no emoji in README please"},
	}
	for _, c := range cases {
		r := ParseReply(c.in, gateBlockers())
		switch {
		case c.suspend:
			if !r.Suspend {
				t.Errorf("%q: want suspend, got %+v", c.in, r)
			}
		case c.question:
			if r.Question == "" || r.Decision != "" {
				t.Errorf("%q: want a follow-up question, got %+v", c.in, r)
			}
		default:
			if r.Decision != c.decision || r.Question != "" {
				t.Errorf("%q: decision %q (question %q), want %q", c.in, r.Decision, r.Question, c.decision)
			}
			if c.feedback != "" && r.Feedback != c.feedback {
				t.Errorf("%q: feedback %q, want %q", c.in, r.Feedback, c.feedback)
			}
			if c.decision != "rejected" && len(r.Answers) != 3 {
				t.Errorf("%q: %d answers, want 3", c.in, len(r.Answers))
			}
		}
	}
}

func TestParseReplyAnswersAndCatchAllFeedback(t *testing.T) {
	r := ParseReply("1b 2c 3b 加一节 FAQ", gateBlockers())
	if r.Decision != "approved_with_changes" {
		t.Fatalf("decision %q", r.Decision)
	}
	want := []Answer{{ID: "b1", Answer: "b"}, {ID: "b2", Answer: "c"}, {ID: "catch_all", Answer: "b", Feedback: "加一节 FAQ"}}
	for i, a := range want {
		if r.Answers[i] != a {
			t.Errorf("answer %d = %+v, want %+v", i, r.Answers[i], a)
		}
	}
}

// FuzzParseReply: whatever the user writes, the parser decides exactly one
// thing, never approves without an answer for every blocker, and never
// approves while swallowing extra text.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{"1a 2b 3a", "1 选 a 2: b 3a 备注", "不对", "suspend", "1a2b3b 细节", "５ｓ", "3a 2a 1a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		bs := gateBlockers()
		r := ParseReply(in, bs)
		set := 0
		for _, b := range []bool{r.Decision != "", r.Question != "", r.Suspend, r.Resume} {
			if b {
				set++
			}
		}
		if set != 1 {
			t.Fatalf("%q: %d outcomes in %+v", in, set, r)
		}
		switch r.Decision {
		case "approved", "approved_with_changes":
			if len(r.Answers) != len(bs) {
				t.Fatalf("%q: %s with %d answers", in, r.Decision, len(r.Answers))
			}
			for i, a := range r.Answers {
				if a.ID != bs[i].ID || len(a.Answer) != 1 || int(a.Answer[0]-'a') >= len(bs[i].Options) {
					t.Fatalf("%q: bad answer %+v", in, a)
				}
			}
			if r.Decision == "approved" && (r.Feedback != "" || r.Answers[len(r.Answers)-1].Answer != "a") {
				t.Fatalf("%q: approved with feedback %q / catch_all %s", in, r.Feedback, r.Answers[len(r.Answers)-1].Answer)
			}
			if r.Decision == "approved_with_changes" && r.Feedback == "" {
				t.Fatalf("%q: approved_with_changes without feedback", in)
			}
		case "", "rejected":
		default:
			t.Fatalf("%q: decision %q", in, r.Decision)
		}
	})
}
