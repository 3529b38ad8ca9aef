package notify_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superagent-harness/harness/internal/notify"
	"github.com/superagent-harness/harness/internal/notify/notifytest"
	"github.com/superagent-harness/harness/internal/render"
)

// The signature of the Feishu custom bot, checked against a value computed
// independently (Python: base64(hmac.new(b"1599360473\ndemo-secret", b"",
// sha256).digest())).
func TestSignMatchesTheBotsAlgorithm(t *testing.T) {
	if got, want := notify.Sign("demo-secret", 1599360473), "3/MaVZ8JLIy4TUG+7KSFJqvUkTKd+HWY8g+56DZWq8s="; got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
}

func TestBodyIsTheTextMessage(t *testing.T) {
	at := time.Unix(1599360473, 0)
	signed, err := (&notify.Feishu{Secret: "demo-secret"}).Body("【Notify】f002 已完成\n<b>&", at)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(signed, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"timestamp": "1599360473", "sign": "3/MaVZ8JLIy4TUG+7KSFJqvUkTKd+HWY8g+56DZWq8s=",
		"msg_type": "text", "content": map[string]any{"text": "【Notify】f002 已完成\n<b>&"}}
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Errorf("body\n got %s\nwant %s", g, w)
	}
	if strings.Contains(string(signed), `\u003c`) {
		t.Errorf("HTML-escaped body: %s", signed)
	}
	unsigned, _ := (&notify.Feishu{}).Body("x", at)
	if string(unsigned) != `{"msg_type":"text","content":{"text":"x"}}` {
		t.Errorf("unsigned body %s", unsigned)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func msg(text string) render.Message {
	title, _, _ := strings.Cut(text, "\n")
	return render.Message{Title: title, Text: text}
}

func TestSendToTheMockBot(t *testing.T) {
	bot := notifytest.NewFeishu("s3cret")
	defer bot.Close()
	f := &notify.Feishu{Webhook: bot.Webhook(), Secret: "s3cret"}
	d := f.Send(context.Background(), msg("【Checkpoint】f001 x\n\n1. a?\n"))
	if !d.OK || d.Sent != 1 || d.Parts != 1 || d.Code == nil || *d.Code != 0 || d.HTTPStatus != 200 || d.Error != "" {
		t.Fatalf("delivery %+v", d)
	}
	if d.Host != strings.TrimPrefix(bot.URL, "http://") || d.Title != "【Checkpoint】f001 x" || d.Channel != "feishu" {
		t.Errorf("delivery %+v", d)
	}
	r := bot.Received()
	if len(r) != 1 || r[0].Text != "【Checkpoint】f001 x\n\n1. a?\n" || r[0].Code != 0 || r[0].MsgType != "text" {
		t.Fatalf("received %+v", r)
	}

	// Wrong secret: the bot refuses with 19021 and the delivery says so.
	bad := &notify.Feishu{Webhook: bot.Webhook(), Secret: "wrong"}
	d = bad.Send(context.Background(), msg("【Notify】f002 已完成\n"))
	if d.OK || d.Code == nil || *d.Code != notifytest.CodeBadSign || !strings.Contains(d.Error, "19021") {
		t.Fatalf("bad-secret delivery %+v", d)
	}
	// A clock more than an hour off is refused the same way.
	late := &notify.Feishu{Webhook: bot.Webhook(), Secret: "s3cret", Now: func() time.Time { return time.Now().Add(-2 * time.Hour) }}
	if d := late.Send(context.Background(), msg("【Notify】x\n")); d.OK || *d.Code != notifytest.CodeBadSign {
		t.Fatalf("stale timestamp delivery %+v", d)
	}
	// No secret although the bot checks signatures.
	if d := (&notify.Feishu{Webhook: bot.Webhook()}).Send(context.Background(), msg("【Notify】x\n")); d.OK {
		t.Fatalf("unsigned delivery to a signing bot accepted: %+v", d)
	}
	// A wrong token is a 404 from the bot; the error does not show the token.
	d = (&notify.Feishu{Webhook: bot.URL + "/open-apis/bot/v2/hook/other-token", Secret: "s3cret"}).Send(context.Background(), msg("【Notify】x\n"))
	if d.OK || d.HTTPStatus != 404 || strings.Contains(d.Error, "other-token") {
		t.Fatalf("wrong-token delivery %+v", d)
	}
	// Nothing listens: a failed delivery, not a hang or a panic.
	bot2 := notifytest.NewFeishu("")
	url := bot2.Webhook()
	bot2.Close()
	if d := (&notify.Feishu{Webhook: url}).Send(context.Background(), msg("【Notify】x\n")); d.OK || d.Error == "" || strings.Contains(d.Error, notifytest.Token) {
		t.Fatalf("closed-server delivery %+v", d)
	}
}

// A message longer than the bot's 20 KB limit goes as several text
// messages, split between lines, each accepted, in order.
func TestSendSplitsALongMessage(t *testing.T) {
	bot := notifytest.NewFeishu("")
	defer bot.Close()
	var b strings.Builder
	b.WriteString("【YOLO 已退出,请回来审】\n")
	for i := 0; b.Len() < 50*1024; i++ {
		b.WriteString("========== 1. cp-f001-1 - 一个很长的 feature 名字 ==========\n   a. 选项\n")
	}
	text := b.String()
	d := (&notify.Feishu{Webhook: bot.Webhook()}).Send(context.Background(), msg(text))
	if !d.OK || d.Parts < 3 || d.Sent != d.Parts {
		t.Fatalf("delivery %+v", d)
	}
	var joined strings.Builder
	for i, r := range bot.Received() {
		if r.Code != 0 {
			t.Fatalf("part %d refused: %d", i+1, r.Code)
		}
		part := r.Text
		if i > 0 {
			head, rest, _ := strings.Cut(part, "\n")
			if !strings.HasPrefix(head, "【续 ") {
				t.Fatalf("part %d starts %q", i+1, head)
			}
			part = rest
		}
		joined.WriteString(part)
	}
	if joined.String() != text {
		t.Error("the parts do not add up to the message")
	}
}

func TestSplitKeepsShortTextWhole(t *testing.T) {
	if p := notify.Split("a\nb\n", 100); len(p) != 1 || p[0] != "a\nb\n" {
		t.Fatalf("%q", p)
	}
	// One line longer than the limit is cut between runes.
	long := strings.Repeat("汉", 100)
	parts := notify.Split(long, 60)
	var back strings.Builder
	for i, p := range parts {
		if i > 0 {
			_, p, _ = strings.Cut(p, "\n")
		}
		back.WriteString(p)
	}
	if len(parts) < 2 || back.String() != long {
		t.Fatalf("%d parts, rejoined %q", len(parts), back.String())
	}
}

func TestRecordAppendsOneLinePerDelivery(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".harness", "logs", "notify.jsonl")
	code := 0
	ds := []notify.Delivery{{Time: "2026-04-21T03:00:00Z", Channel: "feishu", Title: "【Notify】f002 已完成", Host: "open.feishu.cn", Parts: 1, Sent: 1, OK: true, HTTPStatus: 200, Code: &code},
		{Time: "2026-04-21T03:00:00Z", Channel: "feishu", Title: "【催办】Checkpoint cp-f001-1(已等待 25 小时)", Host: "open.feishu.cn", Parts: 1, Error: "feishu: code 19021: sign match fail"}}
	if err := notify.Record(path, ds); err != nil {
		t.Fatal(err)
	}
	if err := notify.Record(path, ds[:1]); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), raw)
	}
	var back notify.Delivery
	if err := json.Unmarshal([]byte(lines[1]), &back); err != nil || back.OK || back.Title != ds[1].Title || !strings.Contains(back.Error, "19021") {
		t.Fatalf("line 2 %s → %+v %v", lines[1], back, err)
	}
}

func TestCheckWebhook(t *testing.T) {
	for _, ok := range []string{"https://open.feishu.cn/open-apis/bot/v2/hook/abc", "http://127.0.0.1:8080/hook"} {
		if err := notify.CheckWebhook(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "open.feishu.cn/hook", "ftp://x/y", "https:///nohost"} {
		if err := notify.CheckWebhook(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
