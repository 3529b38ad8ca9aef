package codelex

import (
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
)

// runShape is how a process-running library call takes its command
// (testdata/corpus/README.md §2.1 "Interpreters", §9.2: a library that starts
// a process is judged by the command it starts, whatever its name).
type runShape uint8

const (
	// runShell: the first argument is a command line run by a shell
	// (invoke.run("…"), fabric's local("…")).
	runShell runShape = iota + 1
	// runLine: the first argument is a command line split into words, or
	// an argv list, with an optional list of further arguments
	// (pexpect.run("git reset --hard"), pexpect.spawn("git", ["push"])):
	// judged as a shell line, which reads the same words.
	runLine
	// runArgv: the positional arguments (lists flattened) are the argv.
	runArgv
)

// runAPIs are the process-running library calls per language, by their
// qualified name (after imports and aliases), beyond the language's own
// standard calls in the per-language effect tables.
var runAPIs = lazy.Value[map[Lang]map[string]runShape]{New: func() map[Lang]map[string]runShape {
	return map[Lang]map[string]runShape{
		Python: {
			"invoke.run": runShell, "invoke.sudo": runShell, "invoke.Context.run": runShell, "invoke.context.Context.run": runShell,
			"fabric.api.local": runShell, "fabric.operations.local": runShell, "fabric.Connection.local": runShell,
			"pexpect.run": runLine, "pexpect.runu": runLine, "pexpect.spawn": runLine, "pexpect.spawnu": runLine,
			"pexpect.popen_spawn.PopenSpawn": runLine, "wexpect.run": runLine, "wexpect.spawn": runLine,
			"sarge.run": runShell, "sarge.capture_stdout": runShell, "sarge.capture_stderr": runShell, "sarge.capture_both": runShell,
			"sarge.get_stdout": runShell, "sarge.get_stderr": runShell, "sarge.get_both": runShell,
			"envoy.run": runShell, "delegator.run": runShell, "executor.execute": runShell,
			"plumbum.local.run": runArgv,
		},
		Node: {
			"shelljs.exec": runShell, "shx.exec": runShell, "zx.$": runShell, "cross_spawn": runArgv, "cross_spawn.sync": runArgv,
			"spawn_sync": runArgv, "execa.$": runShell, "tinyexec.x": runArgv, "tinyexec.exec": runArgv, "nano_spawn": runArgv,
		},
		Perl: {
			"IPC.Run.run": runArgv, "IPC.Run.start": runArgv, "IPC.Run3.run3": runLine, "run3": runLine,
			"IPC.System.Simple.run": runLine, "IPC.System.Simple.system": runLine, "IPC.System.Simple.capture": runLine,
			"IPC.System.Simple.systemx": runArgv, "IPC.System.Simple.capturex": runArgv, "IPC.System.Simple.runx": runArgv,
			"Proc.Background.new": runLine, "IPC.Cmd.run": runLine,
		},
		Ruby: {
			"TTY.Command.run": runLine, "Cocaine.CommandLine.new": runShell, "Terrapin.CommandLine.new": runShell,
		},
	}
}}

// commandModules are the modules whose attributes are programs: calling
// module.PROG(args…) (or PROG bound by an import) runs PROG with args as
// its argv, attributes after PROG are its first arguments
// (`sh.git.push("--force")`), and subscripts bind arguments
// (`plumbum.cmd.git["push", "--force"]()`, `plumbum.local["rm"]["-rf", "x"]()`).
// skip names the attributes that are the module's own API, not programs.
var commandModules = lazy.Value[map[Lang][]commandModule]{New: func() map[Lang][]commandModule {
	return map[Lang][]commandModule{
		Python: {
			{"sh", " Command bake contrib glob ErrorReturnCode SignalException TimeoutException CommandNotFound RunningCommand pushd "},
			{"plumbum.cmd", ""},
			{"plumbum.local", " cwd env path which get cmd python "},
			{"plumbum.machines.local", " cwd env path which get cmd python "},
		},
		Node: {
			{"shelljs", " config env error errorCode ShellString set tempdir exit pushd popd dirs cd exec echo test which "},
			{"shx", " config env error exit "},
		},
	}
}}

// commandModule is one entry of commandModules.
type commandModule struct {
	mod  string
	skip string
}

// commandCall returns the argv a call of a program-named module attribute
// runs (ok false when fn is not one).
func commandCall(lang Lang, fn string, bound []Value, pos []Value, kw []Arg) (argv []Value, ok bool) {
	for _, m := range commandModules.Get()[lang] {
		if fn != m.mod && !strings.HasPrefix(fn, m.mod+".") {
			continue
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(fn, m.mod), ".")
		var words []string
		if rest != "" {
			words = strings.Split(rest, ".")
		}
		for len(words) > 0 && (words[len(words)-1] == "run" || words[len(words)-1] == "popen" || words[len(words)-1] == "__call__") && len(words)+len(bound) > 1 {
			words = words[:len(words)-1] // plumbum cmd.run() / .popen(): runs the bound command
		}
		if len(words) > 0 && strings.Contains(m.skip, " "+words[0]+" ") {
			return nil, false
		}
		for _, w := range words {
			argv = append(argv, str(strings.ReplaceAll(w, "_", "-")))
		}
		if len(words) > 0 {
			argv[0] = str(words[0]) // a program's own name keeps its underscores
		}
		for _, k := range kw {
			// sh's keyword arguments are options: f=True → -f, force=True → --force
			if k.Key == "" || k.Key[0] == '_' || lang != Python || m.mod != "sh" {
				continue
			}
			flag := "--" + strings.ReplaceAll(k.Key, "_", "-")
			if len(k.Key) == 1 {
				flag = "-" + k.Key
			}
			if t, known := k.V.Truthy(); k.V.Kind == Bool && known && t {
				argv = append(argv, str(flag))
			} else if k.V.Kind == Str && len(k.Key) > 1 {
				argv = append(argv, concat(str(flag+"="), k.V))
			}
		}
		for _, v := range append(append([]Value{}, bound...), pos...) {
			if v.Kind == List {
				argv = append(argv, v.List...)
			} else {
				argv = append(argv, v)
			}
		}
		return argv, len(argv) > 0
	}
	return nil, false
}

// isCommandRef reports a reference into a command module (a program or a
// bound command), which subscripts bind arguments to.
func isCommandRef(lang Lang, name string) bool {
	for _, m := range commandModules.Get()[lang] {
		if name == m.mod || strings.HasPrefix(name, m.mod+".") {
			return true
		}
	}
	return false
}

// runAPI judges a call from runAPIs; ok false when fn is not one.
func (c *Code) runAPI(call *Call, fn string, pos []Value) bool {
	shape, ok := runAPIs.Get()[c.Lang][fn]
	if !ok {
		if argv, ok := commandCall(c.Lang, fn, call.Bound, pos, call.Args); ok {
			c.argv(fn, argv)
			return true
		}
		return false
	}
	a := argAt(pos)
	switch shape {
	case runShell:
		v := a(0)
		if k, ok := call.Kw("command"); ok && v.Kind == Unknown {
			v = k
		}
		c.shellOrArgv(fn, v)
	case runLine:
		v := a(0)
		if k, ok := call.Kw("command"); ok && v.Kind == Unknown {
			v = k
		}
		if l := a(1); l.Kind == List && v.Kind == Str {
			c.argv(fn, append([]Value{v}, l.List...))
			return true
		}
		c.shellOrArgv(fn, v)
	case runArgv:
		var flat []Value
		for _, v := range pos {
			if v.Kind == List {
				flat = append(flat, v.List...)
			} else if v.Kind != Obj {
				flat = append(flat, v)
			}
		}
		c.argv(fn, flat)
	}
	return true
}

// modeBits are the symbolic permission constants (Python stat.S_I*,
// Node fs.constants.S_I*, Perl Fcntl :mode), by their last name component.
var modeBits = lazy.Value[map[string]int64]{New: func() map[string]int64 {
	return map[string]int64{
		"S_IRWXU": 0o700, "S_IRUSR": 0o400, "S_IWUSR": 0o200, "S_IXUSR": 0o100,
		"S_IRWXG": 0o070, "S_IRGRP": 0o040, "S_IWGRP": 0o020, "S_IXGRP": 0o010,
		"S_IRWXO": 0o007, "S_IROTH": 0o004, "S_IWOTH": 0o002, "S_IXOTH": 0o001,
		"S_ISUID": 0o4000, "S_ISGID": 0o2000, "S_ISVTX": 0o1000, "S_IREAD": 0o400, "S_IWRITE": 0o200, "S_IEXEC": 0o100,
	}
}}

// modeConst returns v as a number when it names a permission constant
// (stat.S_IRWXU, fs.constants.S_IWOTH, S_IRWXO), else v.
func modeConst(v Value) Value {
	if v.Kind != Ref {
		return v
	}
	name := v.S
	if k := strings.LastIndexByte(name, '.'); k >= 0 {
		name = name[k+1:]
	}
	if n, ok := modeBits.Get()[name]; ok {
		return Value{Kind: Num, N: n}
	}
	return v
}

// shellPrograms are the programs that read a script on stdin.
var shellPrograms = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "ash": true, "mksh": true, "yash": true, "busybox": true}
}}

// isShellLine reports a command line that starts a shell reading its
// script from stdin (`sh`, `/bin/bash -s`, `bash -`, `busybox sh`).
func isShellLine(words []string) bool {
	if len(words) == 0 {
		return false
	}
	prog := words[0]
	if k := strings.LastIndexByte(prog, '/'); k >= 0 {
		prog = prog[k+1:]
	}
	if !shellPrograms.Get()[prog] {
		return false
	}
	rest := words[1:]
	if prog == "busybox" {
		if len(rest) == 0 || !shellPrograms.Get()[rest[0]] || rest[0] == "busybox" {
			return false
		}
		rest = rest[1:]
	}
	for _, w := range rest {
		if w == "-c" || !strings.HasPrefix(w, "-") && w != "" {
			return false // a -c string or a script file: stdin is data
		}
	}
	return true
}
