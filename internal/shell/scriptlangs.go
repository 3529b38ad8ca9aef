package shell

import (
	"path"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"
)

// Script languages that run shell commands (testdata/corpus/README.md
// §9.2 "wherever the shell would execute it"), next to make (makeRuns) and
// awk in the walker's dispatch (wrapper): ninja build files, justfiles,
// Taskfiles, dc programs, m4 input and TeX input under shell escape. The
// script is read from stdin, a descriptor path, a process substitution, a
// file written earlier in the command, an option value or an operand;
// each command it runs is walked like a top-level command line.

// scriptSource calls fn with the text of the script file name names for
// program c (make -f, ninja -f, just --justfile, …): "-" is the known
// stdin, otherwise what namedContent gives (/dev/stdin and other
// descriptors, a process substitution, a file written earlier) or a later
// write of the command (readFile).
func (w *walker) scriptSource(st *state, c cmdCtx, name string, fn func(src string)) {
	if name == "-" {
		if src, _, ok := c.stdinScript(); ok {
			fn(src)
		}
		return
	}
	if src, ok := w.namedContent(st, c, name); ok {
		fn(src)
		return
	}
	w.readFile(st, name, fn)
}

// defaultScript calls fn with the name and text of the first of names (in
// dir) written earlier in the command: a program's default script file
// (make's makefiles, build.ninja, a justfile, a Taskfile).
func (w *walker) defaultScript(st *state, dir string, names []string, fn func(name, src string)) {
	for _, n := range names {
		if src, ok := w.writtenScript(st, path.Join(dir, n)); ok {
			fn(n, src)
			return
		}
	}
}

// runAll walks each command of cmds as a shell command line.
func (w *walker) runAll(f *frame, st *state, via string, cmds []string) {
	for _, cmd := range cmds {
		if strings.TrimSpace(cmd) != "" && w.spend(len(cmd)) {
			w.script(f.child(via), st.clone(), cmd, ioCtx{})
		}
	}
}

// scriptLangRuns dispatches the programs of this file; false when prog is
// none of them.
func (w *walker) scriptLangRuns(f *frame, st *state, prog string, c cmdCtx) bool {
	p := c.cmd
	switch prog {
	case "ninja":
		// ninja [-C DIR] [-f FILE] [-n] [-t TOOL] TARGETS: -n prints, a
		// tool runs no rule
		if p.Has("nt") {
			return true
		}
		run := func(src string) { w.runAll(f, st, "ninja rule", ninjaCommands(src)) }
		if mf, ok := p.Last("f"); ok {
			w.scriptSource(st, c, mf, run)
		} else {
			dir, _ := p.Last("C")
			w.defaultScript(st, dir, []string{"build.ninja"}, func(_, src string) { run(src) })
		}
	case "just":
		if p.Has("l", "list", "summary", "dump", "show", "variables", "fmt", "init", "edit", "help", "version", "completions", "changelog", "groups") {
			return true
		}
		run := func(src string) { w.runAll(f, st, "just recipe", justCommands(src)) }
		if jf, ok := p.Last("f", "justfile"); ok {
			w.scriptSource(st, c, jf, run)
		} else {
			dir, _ := p.Last("d", "working-directory")
			w.defaultScript(st, dir, []string{"justfile", "Justfile", ".justfile"}, func(_, src string) { run(src) })
		}
	case "task", "go-task":
		if p.Has("lanih", "list", "list-all", "summary", "dry", "init", "help", "version") {
			return true
		}
		run := func(src string) {
			cmds, ok := taskCommands(src)
			if !ok {
				// text the program would run but the guard cannot read
				// as YAML (§9.1 cautious default): each line's value
				// is judged as a command
				cmds = yamlLineValues(src)
			}
			w.runAll(f, st, "task cmd", cmds)
		}
		if tf, ok := p.Last("t", "taskfile"); ok {
			w.scriptSource(st, c, tf, run)
		} else {
			dir, _ := p.Last("d", "dir")
			w.defaultScript(st, dir, []string{"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "taskfile.dist.yml"}, func(_, src string) { run(src) })
		}
	case "dc":
		run := func(src string) { w.runAll(f, st, "dc !", dcCommands(src)) }
		for _, e := range p.Values("e", "expression") {
			run(e)
		}
		files := append(p.Values("f", "file"), p.OperandValues()...)
		for _, fl := range files {
			w.scriptSource(st, c, fl, run)
		}
		if len(files) == 0 && !p.Has("e", "expression") {
			w.scriptSource(st, c, "-", run)
		}
	case "m4", "gm4":
		run := func(src string) { w.runAll(f, st, "m4 syscmd", m4Commands(src)) }
		for _, d := range p.Values("D", "define") {
			run(d)
		}
		files := p.OperandValues()
		for _, fl := range files {
			w.scriptSource(st, c, fl, run)
		}
		if len(files) == 0 {
			w.scriptSource(st, c, "-", run)
		}
	case "tex", "etex", "pdftex", "latex", "pdflatex", "xetex", "xelatex", "luatex", "lualatex":
		// shell escape is on only with -shell-escape / -enable-write18
		// (the last of them and -no-shell-escape / -disable-write18 /
		// -shell-restricted wins); restricted mode runs a short list of
		// programs only
		on := false
		for _, o := range p.Opts {
			switch o.Name {
			case "shell-escape", "enable-write18":
				on = true
			case "no-shell-escape", "disable-write18", "shell-restricted":
				on = false
			}
		}
		if !on {
			return true
		}
		run := func(src string) { w.runAll(f, st, prog+" \\write18", texCommands(src)) }
		ops := p.OperandValues()
		if len(ops) == 0 {
			w.scriptSource(st, c, "-", run)
			return true
		}
		// the operands are TeX's first input line; one not starting with
		// a backslash or & names the file to \input
		line := strings.Join(ops, " ")
		run(line)
		if first := ops[0]; first != "" && first[0] != '\\' && first[0] != '&' {
			name := first
			if path.Ext(name) == "" {
				name += ".tex"
			}
			w.scriptSource(st, c, name, run)
		}
	default:
		return false
	}
	return true
}

// ninjaCommands returns the commands a ninja build file runs: the
// `command =` of each rule used by a build statement, with $in, $out and
// the build's, rule's and file's variables expanded ($$ is $, "$ " a
// blank, "$:" a colon, "$" at the end of a line joins the next).
func ninjaCommands(src string) []string {
	src = regexp.MustCompile(`\$\n[ \t]*`).ReplaceAllString(src, "")
	type scope map[string]string
	top := scope{}
	rules := map[string]scope{}
	type build struct {
		rule, in, out string
		vars          scope
	}
	var builds []*build
	var cur scope
	for _, line := range strings.Split(src, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		if indented && cur != nil {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
				cur[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			continue
		}
		cur = nil
		switch {
		case strings.HasPrefix(line, "rule "):
			cur = scope{}
			rules[strings.TrimSpace(line[5:])] = cur
		case strings.HasPrefix(line, "build "):
			outs, rest, _ := strings.Cut(strings.ReplaceAll(line[6:], "$:", "\x00"), ":")
			fs := strings.Fields(rest)
			b := &build{vars: scope{}}
			if len(fs) > 0 {
				b.rule = fs[0]
				var in []string
				for _, x := range fs[1:] {
					if x == "|" || x == "||" {
						break
					}
					in = append(in, x)
				}
				b.in = strings.ReplaceAll(strings.Join(in, " "), "\x00", ":")
			}
			var out []string
			for _, x := range strings.Fields(outs) {
				if x != "|" {
					out = append(out, x)
				}
			}
			b.out = strings.ReplaceAll(strings.Join(out, " "), "\x00", ":")
			builds = append(builds, b)
			cur = b.vars
		default:
			if k, v, ok := strings.Cut(line, "="); ok {
				top[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	varRe := regexp.MustCompile(`\$(\$|:| |\{[A-Za-z0-9_.-]+\}|[A-Za-z0-9_-]+)`)
	var out []string
	for _, b := range builds {
		r, ok := rules[b.rule]
		if !ok {
			continue
		}
		var expand func(s string, depth int) string
		expand = func(s string, depth int) string {
			return varRe.ReplaceAllStringFunc(s, func(m string) string {
				n := strings.Trim(m[1:], "{}")
				switch n {
				case "$", ":", " ", "":
					return m[1:]
				case "in":
					return b.in
				case "out":
					return b.out
				}
				if depth > 8 {
					return ""
				}
				for _, sc := range []scope{b.vars, r, top} {
					if v, ok := sc[n]; ok {
						return expand(v, depth+1)
					}
				}
				return ""
			})
		}
		if cmd, ok := r["command"]; ok {
			out = append(out, expand(cmd, 0))
		}
	}
	return out
}

// justCommands returns the commands a justfile runs (cautiously every
// recipe's): each recipe body line (indented under `name args: deps`)
// without its @ and - prefixes, a body starting with a shell #! line as
// one script, and every backtick command of the other lines (assignments
// `x := \`CMD\“, parameter defaults). A `set shell := ["PROG", ARGS…]`
// naming no shell makes each line PROG ARGS LINE.
func justCommands(src string) []string {
	var out, prefix []string
	header := regexp.MustCompile(`^@?[A-Za-z_][A-Za-z0-9_-]*[^:=]*:([^=]|$)`)
	setShell := regexp.MustCompile(`^set\s+shell\s*:=\s*\[(.*)\]`)
	tick := regexp.MustCompile("```([^`]*)```|`([^`]*)`")
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := setShell.FindStringSubmatch(line); m != nil {
			var elems []string
			for _, e := range strings.Split(m[1], ",") {
				elems = append(elems, strings.Trim(strings.TrimSpace(e), `'"`))
			}
			if len(elems) > 0 && !shells(ProgramName(elems[0])) {
				prefix = elems
			}
		}
		if !header.MatchString(line) || strings.HasPrefix(line, "set ") || strings.HasPrefix(line, "alias ") {
			for _, m := range tick.FindAllStringSubmatch(line, -1) {
				out = append(out, m[1]+m[2])
			}
			continue
		}
		var body []string
		for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
			i++
			if t := strings.TrimSpace(lines[i]); t != "" {
				body = append(body, t)
			}
		}
		if len(body) > 0 && strings.HasPrefix(body[0], "#!") {
			if fs := strings.Fields(body[0][2:]); len(fs) > 0 && (shells(ProgramName(fs[0])) || ProgramName(fs[0]) == "env" && len(fs) > 1 && shells(fs[1])) {
				out = append(out, strings.Join(body[1:], "\n"))
			}
			continue
		}
		for _, b := range body {
			b = strings.TrimLeft(b, "@-")
			if strings.HasPrefix(b, "#") {
				continue
			}
			if prefix != nil {
				qs := make([]string, 0, len(prefix)+1)
				for _, e := range append(append([]string{}, prefix...), b) {
					qs = append(qs, shellQuote(e))
				}
				b = strings.Join(qs, " ")
			}
			out = append(out, b)
		}
	}
	return out
}

// taskCommands returns the shell commands of a Taskfile (go-task v3
// YAML), cautiously of every task: a task that is a string or a list of
// strings, the strings of cmds/status/preconditions lists, and every
// cmd/sh/defer string (dynamic variables `sh:` included). false when the
// text is not YAML the guard can read.
func taskCommands(src string) ([]string, bool) {
	var doc any
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		return nil, false
	}
	var out []string
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch t := v.(type) {
		case string:
			switch key {
			case "cmd", "sh", "defer", "cmds", "status", "preconditions", "task-body":
				out = append(out, t)
			}
		case []any:
			for _, e := range t {
				k := key
				if key == "task-body" {
					k = "cmds"
				}
				walk(e, k)
			}
		case map[string]any:
			for k, e := range t {
				if key == "tasks" {
					walk(e, "task-body")
					continue
				}
				walk(e, k)
			}
		}
	}
	walk(doc, "")
	return out, true
}

// yamlLineValues returns the value text of each line of YAML-like text:
// without a "- " item mark, a `key:` prefix, [ ] brackets and quotes.
func yamlLineValues(src string) []string {
	var out []string
	key := regexp.MustCompile(`^[A-Za-z0-9_.-]+:\s*`)
	for _, line := range strings.Split(src, "\n") {
		v := strings.TrimSpace(line)
		v = strings.TrimSpace(strings.TrimPrefix(v, "- "))
		v = key.ReplaceAllString(v, "")
		v = strings.Trim(v, `[]{}"' `)
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// dcCommands returns the shell commands of a dc program (GNU dc manual):
// `!` runs the rest of the line, except `!<r`, `!>r`, `!=r` (comparisons
// with a register); `#` starts a comment; s l S L : ; < > = take a
// register name; [strings] are scanned as macros (run by x), where the
// line ends at the string's end.
func dcCommands(src string) []string {
	var out []string
	var scan func(s string)
	scan = func(s string) {
		for i := 0; i < len(s); i++ {
			switch ch := s[i]; ch {
			case '[':
				depth, j := 1, i+1
				for ; j < len(s) && depth > 0; j++ {
					switch s[j] {
					case '[':
						depth++
					case ']':
						depth--
					}
				}
				end := j - 1
				if depth > 0 {
					end = len(s)
				}
				scan(s[i+1 : end])
				i = j - 1
			case '#':
				for i < len(s) && s[i] != '\n' {
					i++
				}
			case 's', 'l', 'S', 'L', ':', ';', '<', '>', '=':
				i++
			case '!':
				if i+1 < len(s) && strings.IndexByte("<>=", s[i+1]) >= 0 {
					i += 2
					continue
				}
				line, _, _ := strings.Cut(s[i+1:], "\n")
				out = append(out, line)
				i += len(line)
			}
		}
	}
	scan(src)
	return out
}

// m4Commands returns the first argument of every syscmd/esyscmd call
// (m4_syscmd under -P) in m4 text, quoted or not (a quoted call runs when
// a macro defined with it expands), with one level of `' quotes removed.
func m4Commands(src string) []string {
	var out []string
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_])(m4_)?e?syscmd\(`)
	for _, loc := range re.FindAllStringIndex(src, -1) {
		s := src[loc[1]:]
		depth, quote, end := 0, 0, len(s)
	scan:
		for j := 0; j < len(s); j++ {
			switch c := s[j]; {
			case c == '`':
				quote++
			case c == '\'' && quote > 0:
				quote--
			case quote > 0:
			case c == '(':
				depth++
			case c == ')' && depth > 0:
				depth--
			case c == ')' || c == ',' && depth == 0:
				end = j
				break scan
			}
		}
		arg := strings.TrimLeft(s[:end], " \t\n")
		if strings.HasPrefix(arg, "`") && strings.HasSuffix(arg, "'") {
			arg = arg[1 : len(arg)-1]
		}
		out = append(out, arg)
	}
	return out
}

// texCommands returns the commands of the \write18{CMD} calls of TeX text
// (run by /bin/sh -c under shell escape), braces balanced.
func texCommands(src string) []string {
	var out []string
	for {
		i := strings.Index(src, `\write18`)
		if i < 0 {
			return out
		}
		src = strings.TrimLeft(src[i+len(`\write18`):], " \t\n")
		if !strings.HasPrefix(src, "{") {
			continue
		}
		depth, j := 0, 0
		for ; j < len(src); j++ {
			if src[j] == '{' {
				depth++
			} else if src[j] == '}' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		out = append(out, src[1:min(j, len(src))])
		src = src[min(j, len(src)):]
	}
}
