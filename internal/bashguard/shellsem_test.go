package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// judged runs each command through Decide in a Generator session and
// checks the action (own spellings of the mechanisms behind the round-3
// red-team classes, testdata/redteam/round3: none of them is a listed case).
func judged(t *testing.T, cases map[string]verdict.Action) {
	t.Helper()
	for cmd, want := range cases {
		d := Decide(cmd, Context{Feature: "f002"}).Decision
		if d.Action != want {
			t.Errorf("%q: %s (%s), want %s", cmd, d.Action, d.Rule, want)
		}
	}
}

// TestAliasExpandsWhereBashExpandsIt: an alias expands only as the first
// word of a simple command in the source text, unquoted and without a
// backslash, while expand_aliases is on; the word after an alias expands
// too only when the alias text ends in a blank.
func TestAliasExpandsWhereBashExpandsIt(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"alias r='rm -rf'\n\"r\" build":                      verdict.Allow,
		"alias r='rm -rf'\nr\"\" build":                      verdict.Allow,
		"alias r='rm -rf'\nnice r build":                     verdict.Allow,
		"alias r='rm -rf'\nenv r build":                      verdict.Allow,
		"alias r='rm -rf'\nshopt -u expand_aliases\nr build": verdict.Allow,
		// after the reserved word time the parser is at a command word (checked in bash)
		"alias t='time'\nalias r='rm -rf'\nt r build":                                 verdict.Block,
		"alias r='rm -rf'\nr build":                                                   verdict.Block,
		"alias r='rm -rf'\nls; r build":                                               verdict.Block,
		"alias e='exec '\nalias r='rm -rf'\ne r build":                                verdict.Block,
		"alias n='nice -n 5 '\nalias r='rm -rf'\nn r build":                           verdict.Block,
		"shopt -u expand_aliases\nshopt -s expand_aliases\nalias r='rm -rf'\nr build": verdict.Block,
		// switched off on the line that uses it: bash had already expanded it
		"alias r='rm -rf'\nshopt -u expand_aliases; r build": verdict.Block,
	})
}

// TestSubcommandHelpIsALookup: the help of a subcommand runs nothing.
func TestSubcommandHelpIsALookup(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"git filter-branch --help":   verdict.Allow,
		"git -C repo filter-repo -h": verdict.Allow,
		"docker system prune --help": verdict.Allow,
		"git filter-repo --path src": verdict.Block,
		"git push --force --help":    verdict.Block,
	})
}
