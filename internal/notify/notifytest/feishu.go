// Package notifytest is a loopback mock of a Feishu/Lark custom bot webhook
// for tests: it checks each request the way the bot does (POST, JSON text
// message, the signature when a secret is set, the 20 KB body limit) and
// answers like it ({"code": 0, "msg": "success"} or an error code).
package notifytest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Bot answer codes the mock gives (those of the real bot).
const (
	CodeOK        = 0
	CodeBadSign   = 19021 // sign match fail or timestamp is not within one hour
	CodeBadParams = 9499  // bad request / unsupported message
)

// Received is one request the mock accepted or refused.
type Received struct {
	Path      string `json:"path"`
	Timestamp string `json:"timestamp,omitempty"`
	Sign      string `json:"sign,omitempty"`
	MsgType   string `json:"msg_type"`
	Text      string `json:"text"`
	Code      int    `json:"code"`
}

// Feishu is a running mock bot.
type Feishu struct {
	*httptest.Server
	// Secret is the bot's signing secret ("" = no signature check).
	Secret string
	// Now is the bot's clock for the one-hour timestamp window.
	Now func() time.Time
	// FailWith, when not 0, is the code every request is answered with.
	FailWith int

	mu       sync.Mutex
	received []Received
	// OnReceive, if set, is called with every request after it is judged.
	OnReceive func(Received)
}

// Token is the path token of the mock's webhook.
const Token = "mock-token-0000"

// NewFeishu starts a mock bot on the loopback interface. Close it when done.
func NewFeishu(secret string) *Feishu {
	f := &Feishu{Secret: secret, Now: time.Now}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	return f
}

// Webhook is the mock's webhook URL.
func (f *Feishu) Webhook() string { return f.URL + "/open-apis/bot/v2/hook/" + Token }

// Received returns the requests so far, in order.
func (f *Feishu) Received() []Received {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Received(nil), f.received...)
}

func (f *Feishu) serve(w http.ResponseWriter, r *http.Request) {
	answer := func(status, code int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		b, _ := json.Marshal(map[string]any{"code": code, "msg": msg, "data": map[string]any{},
			"StatusCode": code, "StatusMessage": msg})
		_, _ = w.Write(b)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/open-apis/bot/v2/hook/"+Token {
		answer(http.StatusNotFound, 19001, "param invalid: incoming webhook access token invalid")
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || len(raw) > 20*1024 {
		answer(http.StatusBadRequest, CodeBadParams, "request body too large")
		return
	}
	var body struct {
		Timestamp string `json:"timestamp"`
		Sign      string `json:"sign"`
		MsgType   string `json:"msg_type"`
		Content   struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	rec := Received{Path: r.URL.Path}
	code, msg := CodeOK, "success"
	if err := json.Unmarshal(raw, &body); err != nil || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		code, msg = CodeBadParams, "Bad Request"
	} else {
		rec.Timestamp, rec.Sign, rec.MsgType, rec.Text = body.Timestamp, body.Sign, body.MsgType, body.Content.Text
		switch {
		case body.MsgType != "text" || body.Content.Text == "":
			code, msg = CodeBadParams, "Bad Request: msg_type text needs content.text"
		case f.Secret != "" && !f.signOK(body.Timestamp, body.Sign):
			code, msg = CodeBadSign, "sign match fail or timestamp is not within one hour from current time"
		case f.FailWith != 0:
			code, msg = f.FailWith, "mock failure"
		}
	}
	rec.Code = code
	f.mu.Lock()
	f.received = append(f.received, rec)
	cb := f.OnReceive
	f.mu.Unlock()
	if cb != nil {
		cb(rec)
	}
	answer(http.StatusOK, code, msg)
}

// signOK checks the signature as the bot does: base64 of HMAC-SHA256 keyed
// with "<timestamp>\n<secret>" over an empty message, timestamp within one
// hour of the bot's clock.
func (f *Feishu) signOK(ts, sign string) bool {
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	if d := f.Now().Sub(time.Unix(sec, 0)); d > time.Hour || d < -time.Hour {
		return false
	}
	mac := hmac.New(sha256.New, []byte(ts+"\n"+f.Secret))
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(want), []byte(sign))
}
