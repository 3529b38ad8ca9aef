package shell

import (
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// interpLang maps an interpreter program to its language.
func interpLang(prog string) string {
	switch {
	case prog == "python" || prog == "python2" || prog == "python3" || prog == "pypy" || prog == "pypy3" ||
		(strings.HasPrefix(prog, "python3.") || strings.HasPrefix(prog, "python2.")):
		return "python"
	case prog == "node" || prog == "nodejs" || prog == "bun" || prog == "deno":
		return "node"
	case prog == "perl" || strings.HasPrefix(prog, "perl5"):
		return "perl"
	case prog == "php" || strings.HasPrefix(prog, "php8") || strings.HasPrefix(prog, "php7"):
		return "php"
	case prog == "lua" || prog == "luajit" || strings.HasPrefix(prog, "lua5"):
		return "lua"
	case prog == "ruby" || prog == "jruby":
		return "ruby"
	}
	return ""
}

// InterpreterCode returns the code an interpreter invocation runs inline
// (`-c`/`-e` code, or a script on stdin), its language, and ok=false when
// the program is not an interpreter or the code is not inline.
func InterpreterCode(inv Invocation) (code, lang string, ok bool) {
	lang = interpLang(inv.Program)
	if lang == "" {
		return "", "", false
	}
	vals := make([]string, len(inv.Args))
	for i, a := range inv.Args {
		vals[i] = a.Value
	}
	flag := "-c"
	switch lang {
	case "python":
	case "php":
		flag = "-r"
	default:
		flag = "-e"
	}
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" {
			break
		}
		if lang == "node" && (v == "--eval" || v == "-p" || v == "--print") && i+1 < len(vals) {
			return vals[i+1], lang, true
		}
		if lang == "node" && v == "eval" && inv.Program == "deno" && i+1 < len(vals) {
			return vals[i+1], lang, true
		}
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1 {
			if lang == "python" && (v == "-m" || v == "-W" || v == "-X") {
				if v == "-m" {
					return "", lang, false
				}
				i++
				continue
			}
			// options with an attached value (-Wignore, -Mstrict, -rjson, -I/lib)
			if (lang == "python" && (v[1] == 'W' || v[1] == 'X' || v[1] == 'm')) ||
				((lang == "perl" || lang == "ruby") && strings.IndexByte("MmIrxC", v[1]) >= 0) ||
				(lang == "node" && (v == "-r" || v == "--require")) {
				if len(v) == 2 && v[1] != 'x' {
					i++
				}
				if lang == "python" && v[1] == 'm' {
					return "", lang, false
				}
				continue
			}
			k := strings.IndexByte(v, flag[1])
			if lang == "perl" && k < 0 {
				k = strings.IndexByte(v, 'E')
			}
			if k > 0 {
				if k < len(v)-1 {
					return v[k+1:], lang, true
				}
				if i+1 < len(vals) {
					return vals[i+1], lang, true
				}
			}
			continue
		}
		if v == "-" {
			break
		}
		if !strings.HasPrefix(v, "-") {
			return "", lang, false // a script file
		}
	}
	if inv.Stdin != nil {
		return *inv.Stdin, lang, true
	}
	return "", lang, false
}

func (w *walker) interpreter(f *frame, st *state, prog string, c cmdCtx, vals []string) *string {
	if r := c.cmd.Prog; r != nil && r.Name == "python" {
		// python -m MODULE ARGS… runs the module as a program
		// (`python -m twine upload`, `python3 -m pip install --target D`)
		if mod, ok := c.cmd.Last("m"); ok && mod != "" {
			ws := append(knownWords(mod), c.words[c.cmd.First()+1:]...)
			return w.runWords(f, st, ws, c.env, c.stdin, nil, prog+" -m")
		}
	}
	inv := Invocation{Program: prog, Args: c.words[1:], Stdin: c.stdin}
	code, lang, ok := InterpreterCode(inv)
	if !ok || code == "" {
		return nil
	}
	if !w.spend(len(code)) {
		return nil
	}
	if argv, ok := codeArgv(c.words[1:], code); ok {
		code = substArgv(code, lang, argv)
	}
	calls, complete := interpreterCalls(code, lang)
	if !complete {
		w.overflow("interpreter code too complex to scan for process calls")
	}
	for _, call := range calls {
		via := prog + " " + call.Func
		if call.Shell != "" {
			w.script(f.child(via), st.clone(), call.Shell, ioCtx{})
		} else if len(call.Argv) > 0 {
			w.runWords(f, st, knownWords(call.Argv...), c.env, nil, nil, via)
		}
	}
	return printedOutput(code)
}

// printedOutput is what the code prints when every statement that prints
// is a print of one string literal (`print('…')`, `console.log("…")`,
// `puts '…'`): generated commands piped into a shell are then checked.
func printedOutput(code string) *string {
	ms := printRe().FindAllStringSubmatch(code, 64)
	if len(ms) == 0 {
		return nil
	}
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(unquoteLit(m[2]))
		b.WriteByte('\n')
	}
	out := b.String()
	return &out
}

// InterpCall is one process-starting call found in interpreter code.
type InterpCall struct {
	// Func is the called name as written (e.g. "os.system", "execFileSync").
	Func string
	// Shell is the shell command line handed to a shell, when the call runs one.
	Shell string
	// Argv is the literal argument vector of a call that starts a program directly.
	Argv []string
}

var (
	callRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\(`)
	})
	assignRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\b(?:const|let|var|my|our)\s+)?([$@]?[A-Za-z_]\w*)\s*=\s*(?:[rRuUbBfF]{1,2})?('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")`)
	})
	btickRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]*)`") })
	qxRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:\bqx|%x)\s*([({\[/|!])`) })
	shlexRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`shlex\s*\.\s*split\s*\(\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[A-Za-z_]\w*)\s*\)`)
	})
	b64Re = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:base64\s*\.\s*b64decode|b64decode|atob|Base64\s*\.\s*decode64|decode_base64)\s*\(\s*b?['"]([A-Za-z0-9+/=_\-\s]+)['"]\s*\)(?:\s*\.\s*decode\s*\([^)]*\))?|Buffer\s*\.\s*from\s*\(\s*['"]([A-Za-z0-9+/=_\-]+)['"]\s*,\s*['"]base64['"]\s*\)(?:\s*\.\s*toString\s*\([^)]*\))?`)
	})
	printRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(print|console\.log|puts|say|echo|process\.stdout\.write|sys\.stdout\.write)\s*\(?\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")\s*\)?`)
	})
	zxRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\\$`([^`]*)`") })
	sysRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(system|exec)\s+((?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")(?:\s*,\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"))*)`)
	})
)

var shellFuncs = map[string]bool{"system": true, "popen": true, "getoutput": true, "getstatusoutput": true, "exec": true, "execSync": true, "popen2": true, "popen3": true, "capture2": true, "capture2e": true, "capture3": true, "pipeline": true, "spawn": true}
var subprocFuncs = map[string]bool{"run": true, "call": true, "check_call": true, "check_output": true, "Popen": true}

// InterpreterCalls scans interpreter code for shell strings and argv lists
// handed to process-starting calls (testdata/corpus/README.md §2.1 "Interpreters").
// Simple literal assignments are substituted where the name is used.
func InterpreterCalls(code, lang string) []InterpCall {
	calls, _ := interpreterCalls(code, lang)
	return calls
}

// interpreterCalls is InterpreterCalls with a work bound: complete is false
// when argument scanning stopped early (pathological code).
func interpreterCalls(code, lang string) (calls []InterpCall, complete bool) {
	complete = true
	budget := 8*len(code) + 1<<16
	code = shlexRe().ReplaceAllString(code, "$1.split()")
	code = decodeLiterals(code)
	code = CanonicalCalls(code, lang)
	hasSubprocess := strings.Contains(code, "subprocess")
	hasChildProcess := strings.Contains(code, "child_process") || strings.Contains(code, "Bun.") || strings.Contains(code, "zx")
	vars := map[string]string{}
	for _, m := range assignRe().FindAllStringSubmatch(code, -1) {
		vars[strings.TrimLeft(m[1], "$@")] = unquoteLit(m[2])
	}
	for _, loc := range callRe().FindAllStringSubmatchIndex(code, -1) {
		if budget < 0 {
			complete = false
			break
		}
		full := strings.Join(strings.Fields(code[loc[2]:loc[3]]), "")
		name := full
		if k := strings.LastIndexByte(full, '.'); k >= 0 {
			name = full[k+1:]
		}
		args, kw, used := splitArgs(code[loc[1]:], vars)
		budget -= used
		if args == nil && kw == nil {
			continue
		}
		switch lang {
		case "python":
			switch {
			case name == "system" || name == "popen" || name == "getoutput" || name == "getstatusoutput":
				if len(args) > 0 && args[0].str != nil {
					calls = append(calls, InterpCall{Func: full, Shell: *args[0].str})
				}
			case subprocFuncs[name] && hasSubprocess && (strings.Contains(full, "subprocess") || strings.Count(full, ".") == 1 || full == name):
				if len(args) > 0 {
					if args[0].list != nil {
						calls = append(calls, InterpCall{Func: full, Argv: args[0].list})
					} else if args[0].str != nil {
						calls = append(calls, InterpCall{Func: full, Shell: *args[0].str})
					}
				}
			case name == "create_subprocess_shell":
				if len(args) > 0 && args[0].str != nil {
					calls = append(calls, InterpCall{Func: full, Shell: *args[0].str})
				}
			case name == "create_subprocess_exec":
				var strs []string
				for _, a := range args {
					if a.str != nil {
						strs = append(strs, *a.str)
					}
				}
				if len(strs) > 0 {
					calls = append(calls, InterpCall{Func: full, Argv: strs})
				}
			case strings.HasPrefix(name, "exec") || strings.HasPrefix(name, "spawn") || strings.HasPrefix(name, "posix_spawn"):
				if argv := argvFrom(args); argv != nil {
					calls = append(calls, InterpCall{Func: full, Argv: argv})
				}
			}
		case "node":
			if !hasChildProcess {
				break
			}
			switch name {
			case "exec", "execSync":
				if len(args) > 0 && args[0].str != nil {
					calls = append(calls, InterpCall{Func: full, Shell: *args[0].str})
				}
			case "execFile", "execFileSync", "spawn", "spawnSync", "fork":
				if len(args) > 0 && args[0].list != nil {
					// Bun.spawn(["rm", "-rf", "x"])
					calls = append(calls, InterpCall{Func: full, Argv: args[0].list})
				} else if len(args) > 0 && args[0].str != nil {
					argv := []string{*args[0].str}
					if len(args) > 1 && args[1].list != nil {
						argv = append(argv, args[1].list...)
					}
					if kw["shell"] {
						calls = append(calls, InterpCall{Func: full, Shell: strings.Join(argv, " ")})
					} else {
						calls = append(calls, InterpCall{Func: full, Argv: argv})
					}
				}
			}
		case "php":
			switch name {
			case "system", "exec", "shell_exec", "passthru", "popen", "proc_open":
				if len(args) > 0 && args[0].str != nil {
					calls = append(calls, InterpCall{Func: full, Shell: *args[0].str})
				}
			}
		case "lua":
			if (name == "execute" || name == "popen") && len(args) > 0 && args[0].str != nil {
				calls = append(calls, InterpCall{Func: full, Shell: *args[0].str})
			}
		case "perl", "ruby":
			if shellFuncs[name] || name == "spawn" {
				var strs []string
				for _, a := range args {
					if a.list != nil {
						strs = append(strs, a.list...)
					} else if a.str != nil {
						strs = append(strs, *a.str)
					}
				}
				if len(strs) == 1 {
					calls = append(calls, InterpCall{Func: full, Shell: strs[0]})
				} else if len(strs) > 1 {
					calls = append(calls, InterpCall{Func: full, Argv: strs})
				}
			}
		}
	}
	if lang == "node" {
		// zx / Bun shell: $`cmd`
		for _, m := range zxRe().FindAllStringSubmatch(code, -1) {
			if !strings.Contains(m[1], "${") {
				calls = append(calls, InterpCall{Func: "$``", Shell: m[1]})
			}
		}
	}
	if lang == "perl" || lang == "ruby" || lang == "php" {
		// perl/ruby: system "cmd" without parentheses; backticks, qx, %x
		{
			re := sysRe()
			for _, m := range re.FindAllStringSubmatch(code, -1) {
				args, _, _ := splitArgs(m[2]+")", vars)
				var strs []string
				for _, a := range args {
					if a.str != nil {
						strs = append(strs, *a.str)
					}
				}
				if len(strs) == 1 {
					calls = append(calls, InterpCall{Func: m[1], Shell: strs[0]})
				} else if len(strs) > 1 {
					calls = append(calls, InterpCall{Func: m[1], Argv: strs})
				}
			}
			for _, m := range btickRe().FindAllStringSubmatch(code, -1) {
				calls = append(calls, InterpCall{Func: "``", Shell: m[1]})
			}
			for _, loc := range qxRe().FindAllStringSubmatchIndex(code, -1) {
				open := code[loc[2]]
				close := map[byte]byte{'(': ')', '{': '}', '[': ']', '/': '/', '|': '|', '!': '!'}[open]
				rest := code[loc[3]:]
				if k := strings.IndexByte(rest, close); k >= 0 {
					calls = append(calls, InterpCall{Func: "qx", Shell: rest[:k]})
				}
			}
		}
	}
	return calls, complete
}

func argvFrom(args []interpArg) []string {
	for _, a := range args {
		if a.list != nil {
			return a.list
		}
	}
	var strs []string
	for _, a := range args {
		if a.str != nil {
			strs = append(strs, *a.str)
		}
	}
	if len(strs) >= 2 {
		return strs[1:]
	}
	return nil
}

type interpArg struct {
	str  *string
	list []string
}

// splitArgs reads a call's arguments from s (just after "(") up to the
// matching ")": string literals (concatenated with + or .), names with a
// literal value, and lists of those. kw reports keyword flags set true
// (shell=True, {shell: true}).
func splitArgs(s string, vars map[string]string) (args []interpArg, kw map[string]bool, used int) {
	args, kw, used = splitArgs1(s, vars)
	return
}

func splitArgs1(s string, vars map[string]string) ([]interpArg, map[string]bool, int) {
	var args []interpArg
	kw := map[string]bool{}
	depth := 0
	var cur interpArg
	var curStr *string
	var list []string
	inList := false
	bad := false
	lastIdent := ""
	i := 0
	flush := func() {
		if !bad {
			if inList {
				cur.list = list
			} else if curStr != nil {
				cur.str = curStr
			}
		}
		args = append(args, cur)
		cur = interpArg{}
		curStr = nil
		list = nil
		inList = false
		bad = false
	}
	appendStr := func(v string) {
		if inList && depth == 1 {
			list = append(list, v)
			return
		}
		if depth == 0 {
			if curStr == nil {
				curStr = &v
			} else {
				n := *curStr + v
				curStr = &n
			}
		}
	}
	for i < len(s) && i < 1<<16 {
		ch := s[i]
		switch {
		case ch == '\'' || ch == '"' || ch == '`':
			j := i + 1
			for j < len(s) && s[j] != ch {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return args, kw, i
			}
			v := unquoteLit(s[i : j+1])
			if ch == '`' && strings.Contains(v, "${") {
				bad = true
			}
			i = j + 1
			if strings.HasPrefix(s[i:], ".split()") && depth == 0 && curStr == nil && !inList {
				inList = true
				list = strings.Fields(v)
				i += len(".split()")
				continue
			}
			appendStr(v)
			continue
		case ch == '(' || ch == '{':
			depth++
			if ch == '{' && depth == 1 {
				inList = false
			}
		case ch == '[':
			if depth == 0 && curStr == nil {
				inList = true
			}
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			if depth == 0 {
				if ch == ')' {
					flush()
					return args, kw, i
				}
				return args, kw, i
			}
			depth--
		case ch == ',':
			if depth == 0 {
				flush()
			}
		case ch == '=' || ch == ':':
			if lastIdent == "shell" {
				rest := strings.TrimLeft(s[i+1:], " ")
				if strings.HasPrefix(rest, "True") || strings.HasPrefix(rest, "true") {
					kw["shell"] = true
				}
			}
		case isIdentByte(ch):
			j := i
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
				j++
			}
			id := s[i:j]
			if j < len(s) && (s[j] == '\'' || s[j] == '"') && len(id) <= 2 && strings.Trim(id, "rRuUbBfF") == "" {
				// a Python string prefix: r'…', f"…", rb'…'
				i = j
				continue
			}
			lastIdent = strings.TrimLeft(id, "$@")
			if base, ok := strings.CutSuffix(lastIdent, ".split"); ok && strings.HasPrefix(s[j:], "()") && depth == 0 && curStr == nil && !inList {
				if v, known := vars[base]; known {
					inList = true
					list = strings.Fields(v)
					i = j + 2
					continue
				}
			}
			if v, ok := vars[lastIdent]; ok && !(j < len(s) && s[j] == '=') {
				appendStr(v)
			} else if depth == 0 && id != "shell" && id != "True" && id != "true" {
				// a name with unknown value: not a literal argument
				if rest := strings.TrimLeft(s[j:], " "); !strings.HasPrefix(rest, "=") {
					bad = true
				}
			}
			i = j
			continue
		}
		i++
	}
	return args, kw, i
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c == '@' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func unquoteLit(s string) string {
	if len(s) < 2 {
		return s
	}
	body := s[1 : len(s)-1]
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	return ansiC(body)
}

// decodeLiterals replaces base64-decoding calls of a literal
// (`base64.b64decode('…').decode()`, `atob('…')`, `Buffer.from('…','base64')`,
// Ruby `Base64.decode64('…')`, Perl `decode_base64('…')`) with the decoded
// text as a string literal, so a decoded command handed to a process call is
// checked like a plain one.
func decodeLiterals(code string) string {
	if !strings.Contains(code, "64") && !strings.Contains(code, "atob") {
		return code
	}
	return b64Re().ReplaceAllStringFunc(code, func(m string) string {
		sub := b64Re().FindStringSubmatch(m)
		enc := sub[1]
		if enc == "" {
			enc = sub[2]
		}
		enc = strings.Join(strings.Fields(enc), "")
		b, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			if b, err = base64.URLEncoding.DecodeString(enc); err != nil {
				return m
			}
		}
		return strconv.Quote(string(b))
	})
}
