package ccsettings

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/superagent-harness/harness/internal/workspace"
)

// Hook handler timeouts in seconds (docs/hooks.md §7, §8): PreToolUse runs
// on every tool call and must answer quickly; SessionStart and Stop read
// records.
const (
	PreToolUseTimeout = 10
	OtherHookTimeout  = 30
)

// GuardedMatcher is the PreToolUse matcher of the file tools the path guard
// judges; Bash has its own group.
const GuardedMatcher = "Edit|Write|MultiEdit|NotebookEdit"

// AllToolsMatcher is the PreToolUse matcher of the group that covers every
// other tool (Read, Agent, Skill, WebFetch, mcp__…): the hook measures the
// session on those calls too and, past a hard Reset limit, refuses them
// (docs/protocol.md §8.1). For Bash and the file tools it matches as well,
// but its handler is identical to theirs, and Claude Code runs identical
// handlers of one event once (docs/hooks.md §1; internal/e2e checks that a
// Bash call runs the hook once).
const AllToolsMatcher = "*"

// Wiring names what our hook handlers run: the absolute harness-hook path
// and the workspace it guards.
type Wiring struct {
	HookBin string // absolute path of harness-hook
	Root    string // absolute sprint root
	Feature string // feature id
	Sprint  string // sprint id
}

// Handler is THE generator of one harness-hook handler (docs/hooks.md §7):
// exec form, command = the absolute hook path, args naming the event, root,
// feature and sprint, timeout in seconds. PreToolUse handlers also carry
// "onFailure": "block"; other events get none (Stop and SubagentStop ignore
// it, and a failing SessionStart must not keep the session from starting).
func (w Wiring) Handler(event string) Handler {
	t := float64(OtherHookTimeout)
	if event == "PreToolUse" {
		t = PreToolUseTimeout
	}
	h := Handler{
		Type:    "command",
		Command: w.HookBin,
		Args:    []string{"--event", event, "--root", w.Root, "--feature", w.Feature, "--sprint", w.Sprint},
		Timeout: &t,
	}
	if event == "PreToolUse" {
		h.OnFailure = "block"
	}
	return h
}

// EventGroup is one matcher group under a hook event.
type EventGroup struct {
	Event string
	Group Group
}

// Groups returns the matcher groups the harness owns, in the order they are
// written: SessionStart, UserPromptSubmit, PreToolUse (Bash;
// Edit|Write|MultiEdit|NotebookEdit; every other tool), PostToolUse (every
// tool), PreCompact, Stop, SubagentStop. UserPromptSubmit, PostToolUse and
// PreCompact carry the Reset monitoring (docs/protocol.md §8.1): their
// additionalContext reaches the model, and an automatic compaction in a
// Generator session is decided by the hook.
func (w Wiring) Groups() []EventGroup {
	one := func(ev string) []Handler { return []Handler{w.Handler(ev)} }
	bash, files, other := "Bash", GuardedMatcher, AllToolsMatcher
	return []EventGroup{
		{"SessionStart", Group{Hooks: one("SessionStart")}},
		{"UserPromptSubmit", Group{Hooks: one("UserPromptSubmit")}},
		{"PreToolUse", Group{Matcher: &bash, Hooks: one("PreToolUse")}},
		{"PreToolUse", Group{Matcher: &files, Hooks: one("PreToolUse")}},
		{"PreToolUse", Group{Matcher: &other, Hooks: one("PreToolUse")}},
		{"PostToolUse", Group{Hooks: one("PostToolUse")}},
		{"PreCompact", Group{Hooks: one("PreCompact")}},
		{"Stop", Group{Hooks: one("Stop")}},
		{"SubagentStop", Group{Hooks: one("SubagentStop")}},
	}
}

// IsOurs reports whether a handler was written by the harness: it runs the
// same hook binary, or any program named harness-hook(.exe) with an --event
// argument (exec form or shell form).
func (h Handler) IsOurs(hookBin string) bool {
	cmd := strings.TrimSpace(h.Command)
	if cmd == "" {
		return false
	}
	if hookBin != "" && h.Command == hookBin {
		return true
	}
	// Shell form: the program is the first (possibly quoted) word.
	prog := cmd
	if q := prog[0]; q == '"' || q == '\'' {
		if i := strings.IndexByte(prog[1:], q); i >= 0 {
			prog = prog[1 : i+1]
		}
	} else if i := strings.IndexAny(prog, " \t"); i >= 0 {
		prog = prog[:i]
	}
	base := strings.ToLower(filepath.Base(filepath.ToSlash(prog)))
	if base != "harness-hook" && base != "harness-hook.exe" {
		return false
	}
	for _, a := range h.Args {
		if a == "--event" {
			return true
		}
	}
	return strings.Contains(cmd, "--event")
}

// handlerOf decodes one element of a "hooks" array; ok is false for an
// element that is not a handler object.
func handlerOf(v any) (Handler, bool) {
	o, isObj := v.(*workspace.Object)
	if !isObj {
		return Handler{}, false
	}
	b, err := o.MarshalJSON()
	if err != nil {
		return Handler{}, false
	}
	var h Handler
	// A handler whose fields have other types (args of numbers, a numeric
	// command) is not ours: keep it as it is.
	if json.Unmarshal(b, &h) != nil {
		var loose struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(b, &loose) != nil {
			return Handler{}, false
		}
		h = Handler{Command: loose.Command}
	}
	return h, true
}

// RemoveHooks drops every handler IsOurs recognises (for hookBin), and the
// matcher groups and events that held only such handlers. Other groups and
// handlers keep their order and content. A "hooks" value that is not an
// object is an error; one that is absent or null is nothing to remove.
func (d *Doc) RemoveHooks(hookBin string) error {
	_, err := d.removeHooks(hookBin, false)
	return err
}

// removeHooks is RemoveHooks; with keepEmpty an event left without groups
// keeps its key (with an empty list, so that SetHooks re-adds its groups in
// the same place) and is returned in emptied.
func (d *Doc) removeHooks(hookBin string, keepEmpty bool) (emptied []string, err error) {
	hooks, err := d.hooksObj(false)
	if err != nil || hooks == nil {
		return nil, err
	}
	for _, ev := range hooks.Keys() {
		groups, isArr := hooks.Value(ev).([]any)
		if !isArr {
			continue
		}
		kept := make([]any, 0, len(groups))
		for _, g := range groups {
			gm, isObj := g.(*workspace.Object)
			if !isObj {
				kept = append(kept, g)
				continue
			}
			hs, isArr := gm.Value("hooks").([]any)
			if !isArr {
				kept = append(kept, g)
				continue
			}
			keepH := make([]any, 0, len(hs))
			for _, h := range hs {
				if hh, ok := handlerOf(h); ok && hh.IsOurs(hookBin) {
					continue
				}
				keepH = append(keepH, h)
			}
			if len(keepH) == 0 && len(hs) > 0 {
				continue
			}
			if len(keepH) != len(hs) {
				gm.With("hooks", keepH)
			}
			kept = append(kept, gm)
		}
		switch {
		case len(kept) == 0 && len(groups) > 0 && keepEmpty:
			hooks.With(ev, kept)
			emptied = append(emptied, ev)
		case len(kept) == 0:
			hooks.Delete(ev)
		case len(kept) != len(groups):
			hooks.With(ev, kept)
		}
	}
	return emptied, nil
}

// SetHooks replaces the harness's handlers by the current wiring: first
// RemoveHooks(w.HookBin), then the groups of w.Groups() appended to their
// events. Running it twice gives the same document.
func (d *Doc) SetHooks(w Wiring) error {
	emptied, err := d.removeHooks(w.HookBin, true)
	if err != nil {
		return err
	}
	hooks, err := d.hooksObj(true)
	if err != nil {
		return err
	}
	for _, g := range w.Groups() {
		groups, _ := hooks.Value(g.Event).([]any)
		b, err := json.Marshal(g.Group)
		if err != nil {
			return err
		}
		obj, err := workspace.ParseObject(b)
		if err != nil {
			return err
		}
		hooks.With(g.Event, append(groups, obj))
	}
	for _, ev := range emptied {
		if groups, _ := hooks.Value(ev).([]any); len(groups) == 0 {
			hooks.Delete(ev)
		}
	}
	return nil
}

// hooksObj returns the "hooks" object, creating it when create is set and
// it is absent or null.
func (d *Doc) hooksObj(create bool) (*workspace.Object, error) {
	v := d.obj.Value("hooks")
	switch h := v.(type) {
	case *workspace.Object:
		return h, nil
	case nil:
		if !create {
			return nil, nil
		}
		o := workspace.NewObject()
		d.obj.With("hooks", o)
		return o, nil
	}
	return nil, errors.New(`"hooks" is not an object`)
}

// Merge returns old settings content with every handler the harness owns
// replaced by the current wiring w (see SetHooks). Other keys, events,
// groups and handlers are kept; content that does not change keeps its
// bytes.
func Merge(old []byte, w Wiring) ([]byte, error) {
	d, err := Parse(old)
	if err != nil {
		return nil, err
	}
	if err := d.SetHooks(w); err != nil {
		return nil, err
	}
	return d.Bytes()
}
