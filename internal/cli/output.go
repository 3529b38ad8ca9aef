package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/alecthomas/kong"
)

// Envelope is the one --json answer of every harness command
// (schemas/cli_envelope.schema.json):
//
//	{"ok": bool, "command": "checkpoint reply", "data": {…}, "error": {"message": "…", "exit_code": 1}}
//
// OK is true exactly when the process exits 0; Error is present exactly when
// OK is false and carries the process exit code (1 findings or refused, 2
// usage or internal error). Command is the subcommand path without the
// program name ("" before a command was recognised). Data is always a JSON
// object: the command's result on success, and whatever it had to say on a
// failure (validate's findings, a refusal's findings and follow-up question,
// doctor's checks), else {}.
type Envelope struct {
	OK      bool           `json:"ok"`
	Command string         `json:"command"`
	Data    any            `json:"data"`
	Error   *EnvelopeError `json:"error,omitempty"`
}

// EnvelopeError is the error member of a failed command's Envelope.
type EnvelopeError struct {
	Message  string `json:"message"`
	ExitCode int    `json:"exit_code"`
}

// reply is how a command answers: data becomes the envelope's data with
// --json; without --json, text (may be nil) prints the human form on
// stdout. A command calls it once, on success and on a failure that has
// something to show, then returns nil or its error; Run writes the envelope
// (the one place that does). data must marshal to a JSON object (a struct, a
// map, or a pointer to one).
func (e *Env) reply(data any, text func(w io.Writer)) {
	e.data = data
	if !e.JSON && text != nil {
		text(e.Stdout)
	}
}

// writeEnvelope prints the --json answer of a command that returned err
// (nil = success) after setting data with reply.
func writeEnvelope(w io.Writer, command string, data any, code int, msg string) {
	env := Envelope{OK: code == ExitOK, Command: command, Data: objectOrEmpty(data)}
	if code != ExitOK {
		if msg == "" {
			msg = defaultMessage(command, code)
		}
		env.Error = &EnvelopeError{Message: msg, ExitCode: code}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(env); err != nil {
		// data did not marshal: still one envelope, saying so.
		env.Data = struct{}{}
		env.OK = false
		env.Error = &EnvelopeError{Message: "internal error: encoding the result: " + err.Error(), ExitCode: ExitUsage}
		_ = enc.Encode(env)
	}
}

// objectOrEmpty returns data, or {} when it is nil (an untyped nil or a nil
// pointer/map), so "data" is always an object.
func objectOrEmpty(data any) any {
	if data == nil {
		return struct{}{}
	}
	v := reflect.ValueOf(data)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Interface:
		if v.IsNil() {
			return struct{}{}
		}
	}
	return data
}

// defaultMessage is the error message of a failure whose explanation went
// into the text output only (silent).
func defaultMessage(command string, code int) string {
	what := "harness"
	if command != "" {
		what = "harness " + command
	}
	if code == ExitFindings {
		return what + ": findings or refused (see data)"
	}
	return fmt.Sprintf("%s: exit %d", what, code)
}

// commandPath is the subcommand path of a kong node without the program
// name and without arguments: "checkpoint reply".
func commandPath(n *kong.Node) string {
	var parts []string
	for ; n != nil && n.Parent != nil; n = n.Parent {
		if n.Type == kong.CommandNode {
			parts = append([]string{n.Name}, parts...)
		}
	}
	return strings.Join(parts, " ")
}
