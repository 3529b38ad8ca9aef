// Package roles says which harness subcommands a Generator session may run
// (docs/protocol.md §1.1): the read-only commands (validate, finalize
// --check, explain, status, next, checkpoint render, allow --list, help
// lookups) plus the two writes a Generator owns, eval append and phase
// complete. Everything else (allow, checkpoint reply, session, reset, yolo,
// pipeline, task, init, init-feature, phase advance/retry, …) is Hermes's or
// the user's.
//
// One table for both enforcement points: the hook's harness_admin family
// (internal/bashguard) judges the words of a Bash command, and the CLI
// (internal/cli) refuses the parsed command itself when it runs in a
// Generator session, whatever the program was called.
package roles

import "strings"

// GeneratorMayRun reports whether the harness subcommand words sub (the
// arguments after the program name and its global options, e.g.
// ["finalize", "--check"] or ["eval", "append", "--feature", "f001"]) may
// run in a Generator session. An empty sub (bare `harness`, which prints
// help) and help lookups are allowed.
func GeneratorMayRun(sub []string) bool {
	if len(sub) == 0 || isHelp(sub) {
		return true
	}
	next := ""
	if len(sub) > 1 {
		next = sub[1]
	}
	switch sub[0] {
	case "validate", "explain", "status", "next", "help", "--version":
		return true
	case "finalize":
		// only an explicit --check (docs/protocol.md §1.1 lists
		// "finalize --check"): --close, --sink and --archive end the
		// sprint and are Hermes's, and a bare finalize, although it
		// checks today, is refused too so that the Generator's allowance
		// does not depend on the CLI's default
		check := false
		for _, a := range sub[1:] {
			switch {
			case a == "--check" || strings.HasPrefix(a, "--check="):
				check = a == "--check" || a == "--check=true"
			case a == "--close" || strings.HasPrefix(a, "--close="),
				a == "--archive" || strings.HasPrefix(a, "--archive="),
				a == "--sink" || strings.HasPrefix(a, "--sink="):
				return false
			}
		}
		return check
	case "checkpoint":
		return next == "render"
	case "allow":
		return contains(sub[1:], "--list")
	case "eval":
		return next == "append"
	case "phase":
		return next == "complete"
	}
	return false
}

// GeneratorSession reports whether the environment vars mark a Generator
// session (FEATURE_ID set, or Claude Code's CLAUDECODE=1) and names the
// variable that does, for refusal messages.
func GeneratorSession(vars map[string]string) (bool, string) {
	if f := vars["FEATURE_ID"]; f != "" {
		return true, "FEATURE_ID=" + f
	}
	if vars["CLAUDECODE"] == "1" {
		return true, "CLAUDECODE=1"
	}
	return false, ""
}

func isHelp(args []string) bool {
	for _, a := range args {
		if a == "--help" || a == "-h" {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
