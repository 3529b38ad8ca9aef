package cli

import (
	"bytes"
	"encoding/json"

	"github.com/superagent-harness/harness/internal/render"
)

// send records messages for the user that the running command produced
// (docs/protocol.md §5 message formats), in the order to send them. Run puts
// them into the --json data and delivers them when the command was given
// --notify; the text form prints them where the command prints its report.
func (e *Env) send(ms ...render.Message) { e.messages = append(e.messages, ms...) }

// messageMembers are the members Run adds to a message-producing command's
// --json data: "message" when the command produced exactly one message,
// "messages" (in send order) whenever it produced any, and "deliveries" when
// --notify posted them.
type messageMembers struct {
	Message    *render.Message  `json:"message,omitempty"`
	Messages   []render.Message `json:"messages,omitempty"`
	Deliveries any              `json:"deliveries,omitempty"`
}

// withMessages returns data (a JSON object) with the message members
// appended after its own, keeping its members and their order. data that
// does not marshal to an object is returned unchanged.
func withMessages(data any, ms []render.Message, deliveries any) any {
	if len(ms) == 0 && deliveries == nil {
		return data
	}
	add := messageMembers{Messages: ms, Deliveries: deliveries}
	if len(ms) == 1 {
		add.Message = &ms[0]
	}
	extra, err := json.Marshal(add)
	if err != nil {
		return data
	}
	base := []byte("{}")
	if data != nil {
		b, err := json.Marshal(objectOrEmpty(data))
		if err != nil {
			return data
		}
		base = bytes.TrimSpace(b)
	}
	if len(base) < 2 || base[0] != '{' || base[len(base)-1] != '}' {
		return data
	}
	inner := bytes.TrimSpace(base[1 : len(base)-1])
	out := []byte{'{'}
	out = append(out, inner...)
	if len(inner) > 0 && len(extra) > 2 {
		out = append(out, ',')
	}
	out = append(out, extra[1:]...)
	return json.RawMessage(out)
}
