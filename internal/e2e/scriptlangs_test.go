package e2e

import "testing"

// TestRealClaudeScriptLanguages runs, through Claude Code, the script
// languages whose text can run a shell command (66a33fa; round 6 wb0093,
// wb0098, wb0100, wb0117, wb0119, wb0122): a ninja rule's command, a
// justfile recipe, a Taskfile's cmds, dc's `!`, m4's syscmd and TeX's
// \write18 under -shell-escape, each fed from the command itself and each
// set to delete src/<dir>: the hook must refuse every one. Next to each, a
// neighbour of the same mechanism that must pass the hook and print its
// text (a harmless rule or recipe, dc arithmetic, m4 syscmd(echo), and
// \write18 without -shell-escape, which TeX's restricted mode does not
// run). The programs need not be installed: the hook judges the text
// before anything runs, and the neighbours print after them.
func TestRealClaudeScriptLanguages(t *testing.T) {
	runRound6(t, func(*testing.T, string) {}, func(R string) []r6call {
		S := R + "/src"
		return []r6call{
			{id: "sl_ninja", dir: "z1", cmd: `ninja -f /dev/stdin <<< $'rule r\n  command = rm -rf ` + S + `/z1\nbuild x: r\n'`},
			{id: "nl_ninja", want: "ninja-ok", cmd: `ninja -f /dev/stdin <<< $'rule r\n  command = echo hi\nbuild x: r\n' 2>&1; echo ninja-ok`},
			{id: "sl_just", dir: "z2", cmd: `just --justfile /dev/stdin wipe <<< $'wipe:\n    rm -rf ` + S + `/z2'`},
			{id: "nl_just", want: "just-ok", cmd: `just --justfile /dev/stdin --list <<< $'wipe:\n    echo hi' 2>&1; echo just-ok`},
			{id: "sl_task", dir: "z3", cmd: `task --taskfile /dev/stdin nuke <<< $'version: 3\ntasks:\n  nuke:\n    cmds: ["rm -rf ` + S + `/z3"]'`},
			{id: "sl_dc", dir: "z4", cmd: `dc -e '!rm -rf ` + S + `/z4'`},
			{id: "nl_dc", want: "dc-ok", cmd: `dc -e '2 3 + p' 2>&1; echo dc-ok`},
			{id: "sl_m4", dir: "z5", cmd: `m4 <<< 'syscmd(rm -rf ` + S + `/z5)'`},
			{id: "nl_m4", want: "m4-ok", cmd: `m4 <<< 'syscmd(echo hi)' 2>&1; echo m4-ok`},
			{id: "sl_tex", dir: "z6", cmd: `pdflatex -shell-escape '\immediate\write18{rm -rf ` + S + `/z6}\bye'`},
			{id: "nl_tex", want: "tex-ok", cmd: `pdflatex -interaction=batchmode '\immediate\write18{rm -rf ` + S + `/z6}\bye' 2>&1; echo tex-ok`},
		}
	}, func(string) map[string]bool { return nil })
}
