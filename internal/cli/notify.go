package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/superagent-harness/harness/internal/notify"
	"github.com/superagent-harness/harness/internal/render"
	"github.com/superagent-harness/harness/internal/roles"
	"github.com/superagent-harness/harness/internal/workspace"
)

// NotifyFlags are the global flags that deliver the messages a command
// produces for the user (render.Message) to the user's channel, after the
// command's own change succeeded (internal/notify).
type NotifyFlags struct {
	Notify  string `name:"notify" placeholder:"CHANNEL" help:"Deliver the messages the command produces for the user to CHANNEL: 'feishu' (a Feishu/Lark custom bot, see --webhook). Each attempt is recorded in .harness/logs/notify.jsonl."`
	Webhook string `name:"webhook" placeholder:"URL" help:"The custom bot's webhook URL for --notify feishu (default $$HARNESS_FEISHU_WEBHOOK)."`
	Secret  string `name:"secret" placeholder:"S" help:"The bot's signing secret when it has signature verification on (default $$HARNESS_FEISHU_SECRET; prefer the variable, arguments are visible to other processes)."`
}

// Environment variables read when the flags are not given.
const (
	envFeishuWebhook = "HARNESS_FEISHU_WEBHOOK"
	envFeishuSecret  = "HARNESS_FEISHU_SECRET"
)

// notifier returns the channel the flags ask for, nil without --notify. A
// bad configuration is a usage error, given before the command changes
// anything; a Generator session may not notify (the user's channel is
// Hermes').
func (e *Env) notifier(f NotifyFlags) (*notify.Feishu, error) {
	if f.Notify == "" {
		if f.Webhook != "" || f.Secret != "" {
			return nil, usage("--webhook and --secret need --notify feishu")
		}
		return nil, nil
	}
	if f.Notify != notify.ChannelFeishu {
		return nil, usage("--notify %q: the only channel is %q", f.Notify, notify.ChannelFeishu)
	}
	if gen, who := roles.GeneratorSession(e.Vars); gen {
		return nil, refused("refused: --notify delivers to the user's channel, which is Hermes'; this is a Generator session (%s)", who)
	}
	hook := firstNonEmptyStr(f.Webhook, e.Vars[envFeishuWebhook])
	if hook == "" {
		return nil, usage("--notify feishu needs --webhook URL (or $%s)", envFeishuWebhook)
	}
	if err := notify.CheckWebhook(hook); err != nil {
		return nil, usage("%v", err)
	}
	return &notify.Feishu{Webhook: hook, Secret: firstNonEmptyStr(f.Secret, e.Vars[envFeishuSecret]), Now: e.clock()}, nil
}

// deliver posts the command's messages with ch, records every attempt in
// H/logs/notify.jsonl of the command's sprint (when it has one) and reports
// them on stdout (text) or as data.deliveries (--json). A failed delivery
// exits 1 — the command's own change is kept and recorded, only the message
// did not reach the user: resend it with `harness notify send`.
func (e *Env) deliver(ch *notify.Feishu, command string) error {
	ds := make([]notify.Delivery, 0, len(e.messages))
	for _, m := range e.messages {
		d := ch.Send(context.Background(), m)
		d.Command = command
		ds = append(ds, d)
	}
	e.deliveries = ds
	var recErr error
	if e.root != "" && len(ds) > 0 {
		recErr = notify.Record((&workspace.Workspace{Root: e.root}).NotifyLog(), ds)
	}
	failed := 0
	for _, d := range ds {
		if !d.OK {
			failed++
		}
		if !e.JSON {
			printDelivery(e.Stdout, d)
		}
	}
	switch {
	case failed > 0:
		return refused("notify: %d of %d message(s) not delivered to %s (the command's change is recorded; resend with `harness notify send`): %s",
			failed, len(ds), notify.ChannelFeishu, firstError(ds))
	case recErr != nil:
		return refused("notify: delivered, but recording the delivery failed: %v", recErr)
	}
	return nil
}

func printDelivery(w io.Writer, d notify.Delivery) {
	if d.OK {
		fmt.Fprintf(w, "notify: %s delivered to %s (%s)\n", d.Title, d.Channel, d.Host)
		return
	}
	fmt.Fprintf(w, "notify: %s NOT delivered to %s (%s): %s\n", d.Title, d.Channel, d.Host, d.Error)
}

func firstError(ds []notify.Delivery) string {
	for _, d := range ds {
		if !d.OK {
			return d.Error
		}
	}
	return ""
}

func firstNonEmptyStr(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// NotifyCmd is `harness notify`.
type NotifyCmd struct {
	Send NotifySendCmd `cmd:"" help:"Send a message to the user's channel (with --notify), e.g. one a failed delivery did not get through."`
}

// Help is shown under the usage line.
func (c *NotifyCmd) Help() string {
	return `Sends messages to the user's channel (the global --notify flags choose it).

Examples:
  harness notify send --notify feishu - < message.txt`
}

// NotifySendCmd is `harness notify send TEXT`.
type NotifySendCmd struct {
	Text string `arg:"" name:"TEXT" help:"The message, its first line the title ('-' reads stdin)."`
	Dir  string `arg:"" optional:"" name:"DIR" help:"Sprint root whose .harness/logs/notify.jsonl records the delivery (or --root; default as for every command)."`
}

// Help is shown under the usage line.
func (c *NotifySendCmd) Help() string {
	return `Delivers TEXT as one message with the global --notify flags, e.g. the text of a message whose delivery
failed (data.deliveries[i].ok false; the message itself is data.messages[i].text).
Without --notify it only prints the message (and gives it as data.message with --json). The delivery is
recorded in the sprint's .harness/logs/notify.jsonl when a sprint root is found.

Examples:
  harness notify send --notify feishu --webhook "$HARNESS_FEISHU_WEBHOOK" - < message.txt
  harness notify send $'Sprint done\nall features passed' --json`
}

// Run performs the command.
func (c *NotifySendCmd) Run(e *Env) error {
	text := c.Text
	if text == "-" {
		b, err := e.readArg("TEXT", "-")
		if err != nil {
			return err
		}
		text = string(b)
	}
	text = strings.TrimRight(text, "\n") + "\n"
	if strings.TrimSpace(text) == "" {
		return usage("notify send: the message is empty")
	}
	if root, err := e.rootFor(c.Dir); err == nil {
		e.root = root
	} else if c.Dir != "" || e.Root != "" {
		return err
	}
	title, _, _ := strings.Cut(text, "\n")
	e.send(render.Message{Title: strings.TrimSpace(title), Text: text})
	e.reply(map[string]any{}, func(w io.Writer) { fmt.Fprint(w, text) })
	return nil
}
