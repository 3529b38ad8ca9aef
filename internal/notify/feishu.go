// Package notify delivers the harness's messages for the user
// (render.Message, docs/protocol.md §5 message formats) to the user's
// channel, and records every delivery attempt in H/logs/notify.jsonl
// (docs/protocol.md §15).
//
// One channel is built in: a Feishu (Lark) custom bot webhook, which takes a
// JSON "text" message
//
//	{"timestamp": "1599360473", "sign": "…", "msg_type": "text", "content": {"text": "…"}}
//
// where timestamp and sign are present only when the bot has signature
// verification on: sign is base64(HMAC-SHA256(key = timestamp + "\n" +
// secret, message = empty)), timestamp in Unix seconds (the bot rejects one
// more than an hour away from its clock). The bot answers HTTP 200 with
// {"code": 0, "msg": "success", "data": {}}; any other code (e.g. 19021 for a
// bad signature, 9499 for a rate limit) is a failed delivery. Older bots
// answer {"StatusCode": 0, "StatusMessage": "success"}, read the same way.
package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/workspace"
)

// ChannelFeishu is the --notify value of the Feishu/Lark custom bot.
const ChannelFeishu = "feishu"

// MaxBody is the largest request body a Feishu custom bot accepts (20 KB).
// A longer message is sent as several text messages, split between lines.
const MaxBody = 20 * 1024

// Timeout bounds one webhook request (connect, send, answer).
const Timeout = 10 * time.Second

// maxAnswer bounds how much of the bot's answer is read.
const maxAnswer = 64 * 1024

// Feishu posts messages to one custom bot webhook.
type Feishu struct {
	// Webhook is the bot's URL (https://open.feishu.cn/open-apis/bot/v2/hook/<token>
	// or the Lark equivalent). It carries the bot's token: it is never
	// recorded, only its host.
	Webhook string
	// Secret is the bot's signing secret; "" sends unsigned requests.
	Secret string
	// Client sends the requests; nil uses one with Timeout.
	Client *http.Client
	// Now is the clock for the signature timestamp; nil is time.Now.
	Now func() time.Time
}

// CheckWebhook reports whether raw is a usable webhook URL: absolute http
// or https with a host.
func CheckWebhook(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("--webhook %q is not an http(s) URL with a host", redact(raw))
	}
	return nil
}

// Sign returns the signature of a request sent at Unix second ts with the
// bot's secret: base64(HMAC-SHA256(key = "<ts>\n<secret>", empty message)).
func Sign(secret string, ts int64) string {
	h := hmac.New(sha256.New, []byte(strconv.FormatInt(ts, 10)+"\n"+secret))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// textBody is the custom bot's text message.
type textBody struct {
	Timestamp string `json:"timestamp,omitempty"`
	Sign      string `json:"sign,omitempty"`
	MsgType   string `json:"msg_type"`
	Content   struct {
		Text string `json:"text"`
	} `json:"content"`
}

// Body returns the JSON request body that sends text at time now.
func (f *Feishu) Body(text string, now time.Time) ([]byte, error) {
	b := textBody{MsgType: "text"}
	b.Content.Text = text
	if f.Secret != "" {
		ts := now.Unix()
		b.Timestamp = strconv.FormatInt(ts, 10)
		b.Sign = Sign(f.Secret, ts)
	}
	return workspace.MarshalLine(b)
}

// Delivery is the record of one attempt to deliver one message (one line of
// H/logs/notify.jsonl, and an element of a command's --json data.deliveries).
type Delivery struct {
	Time    string `json:"time"` // UTC-Z
	Channel string `json:"channel"`
	// Command is the harness command that produced the message.
	Command string `json:"command,omitempty"`
	Title   string `json:"title"`
	// Host is the webhook's host (the URL itself holds the bot's token).
	Host string `json:"host"`
	// Parts is the number of text messages the message was sent as (> 1
	// when it is longer than MaxBody); Sent counts those the bot accepted.
	Parts int  `json:"parts"`
	Sent  int  `json:"sent"`
	OK    bool `json:"ok"`
	// HTTPStatus and Code are the last answer's HTTP status and the bot's
	// code (0 = accepted).
	HTTPStatus int    `json:"http_status,omitempty"`
	Code       *int   `json:"code,omitempty"`
	Error      string `json:"error,omitempty"`
}

// Send delivers m as one or more text messages and returns the record of the
// attempt; it stops at the first part the bot refuses. It never returns
// without a record: a failure is Delivery.OK false with Error.
func (f *Feishu) Send(ctx context.Context, m render.Message) Delivery {
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	t := now().UTC()
	d := Delivery{Time: t.Format("2006-01-02T15:04:05Z"), Channel: ChannelFeishu, Title: m.Title}
	if u, err := url.Parse(f.Webhook); err == nil {
		d.Host = u.Host
	}
	if err := CheckWebhook(f.Webhook); err != nil {
		d.Error = err.Error()
		return d
	}
	parts := Split(m.Text, MaxBody-512)
	d.Parts = len(parts)
	client := f.Client
	if client == nil {
		client = &http.Client{Timeout: Timeout}
	}
	for _, p := range parts {
		body, err := f.Body(p, t)
		if err != nil {
			d.Error = err.Error()
			return d
		}
		status, code, err := post(ctx, client, f.Webhook, body)
		d.HTTPStatus, d.Code = status, code
		if err != nil {
			d.Error = err.Error()
			return d
		}
		d.Sent++
	}
	d.OK = true
	return d
}

// post sends one request and reads the bot's answer.
func post(ctx context.Context, client *http.Client, webhook string, body []byte) (int, *int, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, webhook, bytes.NewReader(body))
	if err != nil {
		return 0, nil, fmt.Errorf("feishu: %s", redactErr(err, webhook))
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("feishu: %s", redactErr(err, webhook))
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	var ans struct {
		Code          *int   `json:"code"`
		Msg           string `json:"msg"`
		StatusCode    *int   `json:"StatusCode"`
		StatusMessage string `json:"StatusMessage"`
	}
	_ = json.Unmarshal(raw, &ans)
	code, msg := ans.Code, ans.Msg
	if code == nil {
		code, msg = ans.StatusCode, ans.StatusMessage
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, code, fmt.Errorf("feishu: HTTP %d: %s", resp.StatusCode, snippet(raw))
	}
	if code == nil {
		return resp.StatusCode, nil, fmt.Errorf("feishu: the answer has no code: %s", snippet(raw))
	}
	if *code != 0 {
		return resp.StatusCode, code, fmt.Errorf("feishu: code %d: %s", *code, msg)
	}
	return resp.StatusCode, code, nil
}

// Split cuts text into parts of at most max bytes of JSON-escaped text,
// between lines where it can (a single longer line is cut between runes).
// Parts after the first start with a 【续 n/N】 line so the reader can put
// them together. One part is text itself.
func Split(text string, max int) []string {
	if escapedLen(text) <= max {
		return []string{text}
	}
	const marker = 24 // room for "【续 nn/nn】\n", escaped
	var parts []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			parts = append(parts, cur.String())
			cur.Reset()
		}
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		for escapedLen(line) > max-marker {
			cut := cutAt(line, max-marker)
			flush()
			parts = append(parts, line[:cut])
			line = line[cut:]
		}
		if escapedLen(cur.String())+escapedLen(line) > max-marker {
			flush()
		}
		cur.WriteString(line)
	}
	flush()
	for i := 1; i < len(parts); i++ {
		parts[i] = fmt.Sprintf("【续 %d/%d】\n", i+1, len(parts)) + parts[i]
	}
	return parts
}

// escapedLen is the length of s as a JSON string body.
func escapedLen(s string) int {
	b, _ := json.Marshal(s)
	return len(b) - 2
}

// cutAt returns the largest rune boundary of s whose prefix escapes to at
// most max bytes (at least one rune).
func cutAt(s string, max int) int {
	n, size := 0, 0
	for i, r := range s {
		w := escapedLen(string(r))
		if size+w > max && i > 0 {
			return i
		}
		size += w
		n = i + utf8.RuneLen(r)
	}
	return n
}

// snippet is the start of a bot answer for an error message.
func snippet(raw []byte) string {
	s := strings.TrimSpace(string(raw))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		return "(empty answer)"
	}
	return s
}

// redact hides the path and query of a webhook URL (they hold the token).
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "<webhook>"
	}
	return u.Scheme + "://" + u.Host + "/…"
}

// redactErr is err's text with the webhook URL replaced by its redacted form.
func redactErr(err error, webhook string) string {
	s := err.Error()
	if webhook != "" {
		s = strings.ReplaceAll(s, webhook, redact(webhook))
		if u, e := url.Parse(webhook); e == nil {
			s = strings.ReplaceAll(s, u.Redacted(), redact(webhook))
		}
	}
	return s
}
