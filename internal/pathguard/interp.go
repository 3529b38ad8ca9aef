package pathguard

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/superagent-harness/harness/internal/shell"
)

// Interpreter file writes (testdata/corpus/README.md §3.3): code given to python, node,
// perl or ruby by -c/-e or on stdin is scanned for calls that open or change
// a path named by a string literal, a simple literal assignment earlier in
// the code, or a join/concatenation of those.

// python handles `python [opts] -c CODE`, `python -m MODULE …` (in-place
// formatters run as modules) and a script on stdin (`python3 - <<EOF`).
func (c *collector) python(args []string) {
	var code string
	haveCode := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") {
			if a != "-" {
				return // a script file: its writes are not visible
			}
			break
		}
		if a == "--" {
			break
		}
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'c':
				if k+1 < len(a) {
					code = a[k+1:]
				} else if i+1 < len(args) {
					code = args[i+1]
				}
				haveCode = true
			case 'm':
				mod := a[k+1:]
				j := i + 1
				if mod == "" && j < len(args) {
					mod = args[j]
					j++
				}
				switch mod {
				case "black", "isort", "ruff":
					c.formatter(mod, args[j:])
				case "pip":
					c.pip(args[j:])
				}
				return
			case 'W', 'X':
				if k+1 == len(a) {
					i++
				}
				k = len(a)
				continue
			default:
				continue
			}
			break
		}
		if haveCode {
			break
		}
	}
	if !haveCode {
		if c.inv.Stdin == nil {
			return
		}
		code = *c.inv.Stdin
	}
	c.scanCode(langPython, code)
}

// node handles `node -e|-p|--eval|--print CODE`, `deno eval CODE` and a
// script on stdin.
func (c *collector) node(args []string) {
	var code []string
	script := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "eval" && c.inv.Program == "deno" && i+1 < len(args):
			code = append(code, args[i+1])
			i++
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-pe":
			if i+1 < len(args) {
				code = append(code, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
			code = append(code, a[strings.IndexByte(a, '=')+1:])
		case a == "-r" || a == "--require" || a == "--import" || a == "--loader" || a == "-C" || a == "--conditions":
			i++
		case a == "-":
			i = len(args)
		case strings.HasPrefix(a, "-"):
		default:
			if len(code) == 0 {
				script = true
			}
			i = len(args)
		}
	}
	if len(code) == 0 && !script && c.inv.Stdin != nil {
		code = append(code, *c.inv.Stdin)
	}
	c.scanCode(langNode, strings.Join(code, "\n"))
}

// perl handles -e/-E code, -i/-pi in-place edits of the file operands and a
// script on stdin.
func (c *collector) perl(args []string) { c.perlLike(langPerl, args, "IMmFdDxCV", "IMm") }

// ruby handles -e code, -i in-place edits and a script on stdin.
func (c *collector) ruby(args []string) { c.perlLike(langRuby, args, "IrCEFKTUWx", "IrCEF") }

// perlLike parses perl/ruby style clusters: -i[ext] (rest of the cluster),
// -e CODE (rest or next word), -0/-l with optional digits, value letters.
func (c *collector) perlLike(lang int, args []string, valLetters, nextLetters string) {
	inplace := false
	var code []string
	i := 0
	stdinScript := false
loop:
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			i++
			break loop
		case a == "-":
			i++
			stdinScript = true
			break loop
		case !strings.HasPrefix(a, "-"):
			break loop
		case strings.HasPrefix(a, "--"):
			continue
		}
		for k := 1; k < len(a); k++ {
			ch := a[k]
			switch {
			case ch == 'i':
				inplace = true
				k = len(a)
			case ch == 'e' || ch == 'E' && lang == langPerl:
				if k+1 < len(a) {
					code = append(code, a[k+1:])
				} else if i+1 < len(args) {
					i++
					code = append(code, args[i])
				}
				k = len(a)
			case ch == '0' || ch == 'l':
				for k+1 < len(a) && (a[k+1] >= '0' && a[k+1] <= '9' || a[k+1] == 'x' || a[k+1] >= 'a' && a[k+1] <= 'f' && ch == '0') {
					k++
				}
			case strings.IndexByte(valLetters, ch) >= 0:
				if k+1 == len(a) && strings.IndexByte(nextLetters, ch) >= 0 && i+1 < len(args) {
					i++
				}
				k = len(a)
			}
		}
	}
	files := args[i:]
	if len(code) == 0 {
		switch {
		case !stdinScript && len(files) > 0:
			files = files[1:] // the script file
		case c.inv.Stdin != nil:
			code = append(code, *c.inv.Stdin)
		}
	}
	what := "perl -i"
	if lang == langRuby {
		what = "ruby -i"
	}
	if inplace {
		for _, f := range files {
			c.add(f, opWrite, what)
		}
		c.listing(opWrite, what)
	}
	c.scanCode(lang, strings.Join(code, "\n"))
}

const (
	langPython = iota
	langNode
	langPerl
	langRuby
)

// callRule is one file-changing call of an interpreter: the regexp matches
// up to the opening parenthesis (or the first argument for paren-less
// calls); args lists what each argument position does (opNone = ignored).
type callRule struct {
	re   *regexp.Regexp
	args []op
	// mode is the argument position of an open mode ("w", "a", ">>"), -1 if
	// none, -2 for Perl's open (2- or 3-argument form).
	mode int
	// def is the operation on the first argument when the mode is absent.
	def op
	// need lists literals of which at least one must occur in the code
	// for the rule's regexp to be worth running (a cheap prefilter).
	need []string
	// objOnly: the mode argument counts only as an options object
	// ({flag: 'a'}); a string there is an encoding (Node writeFile).
	objOnly bool
	// link: the call creates a symbolic link named by its last argument
	// (messages say "symlink"; the new name itself is not followed through
	// the links of the command, see ForCommand).
	link bool
}

// nodeFlags extracts the flags value of a Node options object literal.
func nodeFlags(obj string) string {
	j := strings.Index(obj, "flag")
	if j < 0 {
		return ""
	}
	rest := strings.TrimLeft(obj[j+4:], "s")
	rest = strings.TrimLeft(rest, `'" `)
	rest = strings.TrimPrefix(rest, ":")
	rest = strings.TrimSpace(rest)
	if end := strings.IndexAny(rest, ",}"); end >= 0 {
		rest = rest[:end]
	}
	return strings.TrimSpace(rest)
}

const opNone op = -1

var (
	pyCalls = sync.OnceValue(func() []callRule {
		return []callRule{
			{re: regexp.MustCompile(`\bopen\s*\(`), need: []string{"open"}, args: []op{opWrite}, mode: 1, def: opNone},
			{re: regexp.MustCompile(`\bos\s*\.\s*(?:remove|unlink|rmdir|removedirs)\b\s*\(`), need: []string{"os"}, args: []op{opDelete}, mode: -1},
			{re: regexp.MustCompile(`\bos\s*\.\s*(?:truncate|mkdir|makedirs|mkfifo|mknod)\b\s*\(`), need: []string{"os"}, args: []op{opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bos\s*\.\s*(?:rename|replace|renames)\b\s*\(`), need: []string{"os"}, args: []op{opTree, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bos\s*\.\s*symlink\b\s*\(`), need: []string{"os"}, args: []op{opNone, opWrite}, mode: -1, link: true},
			// a hard link makes its source writable under the new name
			{re: regexp.MustCompile(`\bos\s*\.\s*link\b\s*\(`), need: []string{"os"}, args: []op{opWrite, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bshutil\s*\.\s*(?:copy|copy2|copyfile|copytree|copymode|copystat)\b\s*\(`), need: []string{"shutil"}, args: []op{opNone, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bshutil\s*\.\s*move\s*\(`), need: []string{"shutil"}, args: []op{opTree, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bshutil\s*\.\s*rmtree\s*\(`), need: []string{"shutil"}, args: []op{opTree}, mode: -1},
		}
	})
	// pyPathMethod matches `.method(` of pathlib writes; the receiver is
	// found by receiverBefore.
	pyPathMethod = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\.\s*(write_text|write_bytes|unlink|touch|mkdir|rmdir|rename|replace|symlink_to|hardlink_to|link_to|open)\s*\(`)
	})
	pyPathOps = map[string]op{"write_text": opWrite, "write_bytes": opWrite, "unlink": opDelete, "touch": opWrite,
		"mkdir": opWrite, "rmdir": opDelete, "rename": opTree, "replace": opTree, "symlink_to": opWrite, "hardlink_to": opWrite,
		"link_to": opWrite} // p.link_to(new) hard-links p, which is then writable as new

	nodeCalls = sync.OnceValue(func() []callRule {
		return []callRule{
			{re: regexp.MustCompile(`\b(?:writeFile|writeFileSync|outputFile|outputFileSync|writeJson|writeJsonSync)\b\s*\(`), need: []string{"writeFile", "writeFileSync", "outputFile", "outputFileSync", "writeJson", "writeJsonSync"}, args: []op{opWrite}, mode: 2, def: opWrite, objOnly: true},
			{re: regexp.MustCompile(`\b(?:truncate|truncateSync|mkdir|mkdirSync)\b\s*\(`), need: []string{"truncate", "truncateSync", "mkdir", "mkdirSync"}, args: []op{opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bcreateWriteStream\s*\(`), need: []string{"createWriteStream"}, args: []op{opWrite}, mode: 1, def: opWrite, objOnly: true},
			{re: regexp.MustCompile(`\b(?:appendFile|appendFileSync)\b\s*\(`), need: []string{"appendFile", "appendFileSync"}, args: []op{opAppend}, mode: -1},
			{re: regexp.MustCompile(`\b(?:unlink|unlinkSync|rmdir|rmdirSync|rm|rmSync|remove|removeSync|emptyDir|emptyDirSync)\b\s*\(`), need: []string{"unlink", "unlinkSync", "rmdir", "rmdirSync", "rm", "rmSync", "remove", "removeSync", "emptyDir", "emptyDirSync"}, args: []op{opTree}, mode: -1},
			{re: regexp.MustCompile(`\b(?:rename|renameSync|move|moveSync)\b\s*\(`), need: []string{"rename", "renameSync", "move", "moveSync"}, args: []op{opTree, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\b(?:copyFile|copyFileSync|cp|cpSync|copy|copySync)\b\s*\(`), need: []string{"copyFile", "copyFileSync", "cp", "cpSync", "copy", "copySync"}, args: []op{opNone, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\b(?:symlink|symlinkSync)\b\s*\(`), need: []string{"symlink"}, args: []op{opNone, opWrite}, mode: -1, link: true},
			{re: regexp.MustCompile(`\b(?:link|linkSync)\b\s*\(`), need: []string{"link"}, args: []op{opWrite, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\b(?:open|openSync)\b\s*\(`), need: []string{"open", "openSync"}, args: []op{opWrite}, mode: 1, def: opNone},
		}
	})

	perlCalls = sync.OnceValue(func() []callRule {
		return []callRule{
			{re: regexp.MustCompile(`\bopen\s*\(?\s*(?:my\s+|our\s+|local\s+)?[\$\w:]+\s*,\s*`), need: []string{"open"}, args: []op{opWrite}, mode: -2},
			{re: regexp.MustCompile(`\bsysopen\s*\(?\s*(?:my\s+)?[\$\w:]+\s*,\s*`), need: []string{"sysopen"}, args: []op{opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bunlink\s*\(?\s*`), need: []string{"unlink"}, args: []op{opDelete, opDelete, opDelete, opDelete}, mode: -1},
			{re: regexp.MustCompile(`\b(?:rename|move|File::Copy::move)\b\s*\(?\s*`), need: []string{"rename", "move", "File::Copy::move"}, args: []op{opTree, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\b(?:copy|File::Copy::copy)\b\s*\(?\s*`), need: []string{"copy", "File::Copy::copy"}, args: []op{opNone, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bsymlink\b\s*\(?\s*`), need: []string{"symlink"}, args: []op{opNone, opWrite}, mode: -1, link: true},
			{re: regexp.MustCompile(`\blink\b\s*\(?\s*`), need: []string{"link"}, args: []op{opWrite, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\b(?:rmtree|remove_tree|rmdir)\b\s*\(?\s*`), need: []string{"rmtree", "remove_tree", "rmdir"}, args: []op{opTree}, mode: -1},
			{re: regexp.MustCompile(`\b(?:mkdir|make_path|mkpath|truncate)\b\s*\(?\s*`), need: []string{"mkdir", "make_path", "mkpath", "truncate"}, args: []op{opWrite}, mode: -1},
		}
	})

	rubyCalls = sync.OnceValue(func() []callRule {
		return []callRule{
			{re: regexp.MustCompile(`\b(?:File|IO)\s*\.\s*(?:write|binwrite)\b\s*\(?\s*`), need: []string{"File", "IO"}, args: []op{opWrite}, mode: -1},
			{re: regexp.MustCompile(`\b(?:File|IO)\s*\.\s*open\s*\(?\s*`), need: []string{"File", "IO"}, args: []op{opWrite}, mode: 1, def: opNone},
			{re: regexp.MustCompile(`\b(?:File\s*\.\s*(?:delete|unlink)|FileUtils\s*\.\s*(?:rm|rm_f|rm_r|rm_rf|remove|remove_dir|remove_entry|rmdir|rmtree))\b\s*\(?\s*`), need: []string{"File"}, args: []op{opTree}, mode: -1},
			{re: regexp.MustCompile(`\bFileUtils\s*\.\s*(?:touch|mkdir|mkdir_p|makedirs)\b\s*\(?\s*`), need: []string{"FileUtils"}, args: []op{opWrite}, mode: -1},
			{re: regexp.MustCompile(`\b(?:File\s*\.\s*rename|FileUtils\s*\.\s*(?:mv|move))\b\s*\(?\s*`), need: []string{"File"}, args: []op{opTree, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bFileUtils\s*\.\s*(?:cp|cp_r|copy|copy_file|install)\b\s*\(?\s*`), need: []string{"FileUtils"}, args: []op{opNone, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bFileUtils\s*\.\s*(?:ln_s|ln_sf|symlink)\b\s*\(?\s*`), need: []string{"FileUtils"}, args: []op{opNone, opWrite}, mode: -1, link: true},
			{re: regexp.MustCompile(`\bFileUtils\s*\.\s*(?:ln|link|cp_lr)\b\s*\(?\s*`), need: []string{"FileUtils"}, args: []op{opWrite, opWrite}, mode: -1},
			{re: regexp.MustCompile(`\bFile\s*\.\s*(?:truncate|symlink|link)\b\s*\(?\s*`), need: []string{"File"}, args: []op{opWrite, opWrite}, mode: -1},
		}
	})

	pyAssign = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)(?:^|[;:]|\bwith\b)\s*([A-Za-z_]\w*)\s*=\s*([^=\n;][^\n;]*)`)
	})
	nodeAssign = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([^;\n]+)`)
	})
	perlAssign = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\bmy\s+|\bour\s+|^|[;{\n])\s*\$(\w+)\s*=\s*([^;\n]+)`)
	})
	rubyAssign = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)(?:^|;)\s*([a-z_]\w*)\s*=\s*([^=\n;][^\n;]*)`) })
)

// Work bounds of the interpreter scan: calls (and assignments) looked at
// per rule, and the argument text read per call. Code past them is still
// scanned up to maxCalls matches; the bounds keep a pathological input
// (thousands of "open(") linear.
const (
	maxCalls   = 256
	maxArgText = 2048
)

// interp evaluates simple argument expressions of one code text.
type interp struct {
	lang int
	vars map[string]string
	// pathVars are names assigned a pathlib.Path expression (str has
	// replace() too, so Path.replace/rename need a Path receiver).
	pathVars map[string]bool
	root     string // $HARNESS_ROOT as the code reads it from its environment
	cwd      string // the process working directory (os.getcwd(), process.cwd())
}

// envRoot and cwdCalls are the spellings of HARNESS_ROOT and of the working
// directory in interpreter code.
var (
	envRootRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:os\.environ\s*\[\s*['"]HARNESS_ROOT['"]\s*\]|os\.environ\.get\(\s*['"]HARNESS_ROOT['"]\s*\)|os\.getenv\(\s*['"]HARNESS_ROOT['"]\s*\)|process\.env\.HARNESS_ROOT|process\.env\[\s*['"]HARNESS_ROOT['"]\s*\]|\$ENV\{\s*['"]?HARNESS_ROOT['"]?\s*\}|ENV\[\s*['"]HARNESS_ROOT['"]\s*\]|ENV\.fetch\(\s*['"]HARNESS_ROOT['"]\s*\))$`)
	})
	cwdRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:os\.getcwd\(\s*\)|os\.path\.abspath\(\s*['"]\.['"]\s*\)|(?:pathlib\.)?Path\.cwd\(\s*\)|process\.cwd\(\s*\)|Dir\.pwd|Dir\.getwd|getcwd\(\s*\)|cwd\(\s*\))$`)
	})
)

// scanCode adds the file writes found in code.
func (c *collector) scanCode(lang int, code string) {
	if strings.TrimSpace(code) == "" {
		return
	}
	// aliases (`from pathlib import Path as P`, `const {rmSync: r} =
	// require('fs')`) and Perl/Ruby quote operators (`q(…)`, `%q(…)`) read
	// like the plain spelling
	// sys.argv[N], process.argv[N], $ARGV[N], ARGV[N] of inline code are
	// the command's own literal arguments
	code = shell.SubstituteArgv(c.inv.Args, code, [...]string{langPython: "python", langNode: "node", langPerl: "perl", langRuby: "ruby"}[lang])
	code = shell.CanonicalCalls(code, [...]string{langPython: "python", langNode: "node", langPerl: "perl", langRuby: "ruby"}[lang])
	ip := &interp{lang: lang, vars: map[string]string{}, pathVars: map[string]bool{}, root: c.g.rootLex, cwd: c.base}
	var assign *regexp.Regexp
	var calls []callRule
	what := "interpreter"
	switch lang {
	case langPython:
		assign, calls, what = pyAssign(), pyCalls(), "python"
	case langNode:
		assign, calls, what = nodeAssign(), nodeCalls(), "node"
	case langPerl:
		assign, calls, what = perlAssign(), perlCalls(), "perl"
	case langRuby:
		assign, calls, what = rubyAssign(), rubyCalls(), "ruby"
	}
	for _, m := range assign.FindAllStringSubmatch(code, maxCalls) {
		if v, ok := ip.eval(strings.TrimSpace(m[2])); ok {
			ip.vars[m[1]] = v
			if strings.Contains(m[2], "Path(") {
				ip.pathVars[m[1]] = true
			}
		}
	}
	for _, cr := range calls {
		if !containsAny(code, cr.need) {
			continue
		}
		for _, loc := range cr.re.FindAllStringIndex(code, maxCalls) {
			paren := loc[1] > 0 && code[loc[1]-1] == '('
			args := splitArgs(code, loc[1], paren, lang)
			w := what
			if cr.link {
				w += " symlink"
			}
			c.callTargets(ip, cr, args, w)
		}
	}
	if lang == langPython && strings.Contains(code, "Path") {
		c.pathlibCalls(ip, code, what)
	}
	c.scanLinks(ip, lang, code)
}

// pathlibCalls finds pathlib method calls `RECV.write_text(…)`, `.unlink()`,
// `.open('w')`, … whose receiver is a Path(…) call, a parenthesised
// expression or a name bound to a known path.
func (c *collector) pathlibCalls(ip *interp, code, what string) {
	for _, loc := range pyPathMethod().FindAllStringSubmatchIndex(code, maxCalls) {
		name := code[loc[2]:loc[3]]
		recv := receiverBefore(code, loc[0])
		if recv == "" {
			continue
		}
		if !strings.Contains(recv, "Path(") && !ip.pathVars[recv] {
			continue // str.replace, file.write_text of unknown objects, …
		}
		p, ok := ip.eval(recv)
		if !ok {
			continue
		}
		if o, ok := pyPathOps[name]; ok {
			c.add(p, o, what+" Path."+name)
			if name == "hardlink_to" || name == "link_to" {
				// p.hardlink_to(old): old becomes writable as p (a hard
				// link to a protected file is a write to it)
				if margs := splitArgs(code, loc[1], true, langPython); len(margs) > 0 {
					if q, ok := ip.eval(strings.TrimPrefix(strings.TrimSpace(margs[0]), "target=")); ok {
						c.add(q, opWrite, what+" Path."+name)
					}
				}
			}
			continue
		}
		if name == "open" {
			margs := splitArgs(code, loc[1], true, langPython)
			if len(margs) > 0 {
				if mode, ok := ip.eval(strings.TrimPrefix(margs[0], "mode=")); ok {
					if o := pyMode(mode); o != opNone {
						c.add(p, o, what+" Path.open")
					}
				}
			}
		}
	}
}

// receiverBefore returns the expression ending just before the "." at dot:
// an identifier, a call NAME(…) (with dotted NAME) or a parenthesised group.
func receiverBefore(code string, dot int) string {
	i := dot
	for i > 0 && (code[i-1] == ' ' || code[i-1] == '\t') {
		i--
	}
	end := i
	if i > 0 && code[i-1] == ')' {
		depth := 0
		for i > 0 {
			i--
			switch code[i] {
			case ')':
				depth++
			case '(':
				depth--
			case '\'', '"':
				// strings inside the group: step over them backwards
				q := code[i]
				for i > 0 {
					i--
					if code[i] == q && (i == 0 || code[i-1] != '\\') {
						break
					}
				}
			}
			if depth == 0 {
				break
			}
		}
		if depth != 0 {
			return ""
		}
		if i == 0 || !isIdentByte(code[i-1]) && code[i-1] != '.' {
			return strings.TrimSpace(code[i+1 : end-1]) // (expr)
		}
	}
	for i > 0 && (isIdentByte(code[i-1]) || code[i-1] == '.') {
		i--
	}
	return strings.TrimSpace(code[i:end])
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// callTargets adds the targets of one matched call.
func (c *collector) callTargets(ip *interp, cr callRule, args []string, what string) {
	if len(args) == 0 {
		return
	}
	// Perl open: 3-arg (FH, MODE, PATH) or 2-arg (FH, ">PATH").
	if cr.mode == -2 {
		m, ok := ip.eval(args[0])
		if !ok {
			return
		}
		if len(args) >= 2 {
			p, ok := ip.eval(args[1])
			if o := perlMode(strings.TrimSpace(m)); ok && o != opNone {
				c.add(p, o, what+" open")
			}
			return
		}
		m = strings.TrimSpace(m)
		for _, pfx := range []string{"+>>", "+>", "+<", ">>", ">"} {
			if strings.HasPrefix(m, pfx) {
				c.add(strings.TrimSpace(m[len(pfx):]), perlMode(pfx), what+" open")
				return
			}
		}
		return
	}
	// Python/Ruby keyword arguments: `file=`/`mode=` name the path and the
	// mode; other keywords (encoding=, errors=, newline=) are neither.
	var pos []string
	kw := map[string]string{}
	for _, a := range args {
		if k, v, ok := keywordArg(a); ok && ip.lang != langNode {
			kw[k] = v
			continue
		}
		pos = append(pos, a)
	}
	if f, ok := kw["file"]; ok {
		pos = append([]string{f}, pos...)
	}
	if f, ok := kw["src"]; ok { // os.link(src=…, dst=…), shutil.copy(src=…, dst=…)
		pos = append([]string{f}, pos...)
	}
	if f, ok := kw["dst"]; ok {
		pos = append(pos, f)
	}
	if len(pos) == 0 {
		return
	}
	o0 := cr.args[0]
	if cr.mode >= 0 {
		o0 = cr.def
		mode, hasMode := "", false
		if cr.mode < len(pos) {
			mode, hasMode = pos[cr.mode], true
		} else if m, ok := kw["mode"]; ok {
			mode, hasMode = m, true
		}
		if hasMode {
			if strings.HasPrefix(mode, "{") { // node options object {flags: 'a'}
				mode = nodeFlags(mode)
			} else if cr.objOnly {
				mode = "" // an encoding string
			}
			if mode == "" {
				// options without a flag: the call's default
			} else if m, ok := ip.eval(mode); ok {
				switch ip.lang {
				case langNode:
					o0 = nodeMode(m)
				default:
					o0 = pyMode(m)
				}
			} else {
				o0 = opWrite // a mode the guard cannot read: judged as a write
			}
		}
	}
	for i, a := range pos {
		o := opNone
		if i == 0 {
			o = o0
		} else if i < len(cr.args) {
			o = cr.args[i]
		}
		if o == opNone {
			continue
		}
		if p, ok := ip.eval(a); ok {
			c.add(p, o, what)
		}
	}
}

// keywordArg splits a `name=value` keyword argument (not `==`, not inside
// a string literal).
func keywordArg(a string) (string, string, bool) {
	i := strings.IndexByte(a, '=')
	if i <= 0 || i+1 < len(a) && a[i+1] == '=' {
		return "", "", false
	}
	k := strings.TrimSpace(a[:i])
	if !isIdent(k) {
		return "", "", false
	}
	return k, strings.TrimSpace(a[i+1:]), true
}

// pyMode maps a Python/Ruby open mode to an operation.
func pyMode(m string) op {
	switch {
	case strings.ContainsAny(m, "wx+"):
		return opWrite
	case strings.Contains(m, "a"):
		return opAppend
	}
	return opNone
}

// nodeMode maps a Node flag ('w', 'a', 'r+', …) to an operation.
func nodeMode(m string) op {
	switch {
	case strings.HasPrefix(m, "a"):
		return opAppend
	case strings.ContainsAny(m, "w+"):
		return opWrite
	}
	return opNone
}

// perlMode maps a Perl open mode to an operation.
func perlMode(m string) op {
	switch {
	case strings.HasPrefix(m, ">>"):
		return opAppend
	case strings.HasPrefix(m, ">"), strings.HasPrefix(m, "+>"), strings.HasPrefix(m, "+<"):
		return opWrite
	}
	return opNone
}

// splitArgs returns the top-level arguments of a call whose argument list
// starts at code[start:] (after "(" when paren, else up to the end of the
// statement).
func splitArgs(code string, start int, paren bool, lang int) []string {
	a, _ := splitArgsEnd(code, start, paren, lang)
	return a
}

func splitArgsEnd(code string, start int, paren bool, lang int) ([]string, int) {
	var args []string
	depth := 0
	last := start
	i := start
	limit := min(len(code), start+maxArgText)
	for ; i < limit; i++ {
		ch := code[i]
		switch ch {
		case '\'', '"', '`':
			j := skipString(code, i)
			i = j - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if paren && ch == ')' {
					if s := strings.TrimSpace(code[last:i]); s != "" {
						args = append(args, s)
					}
					return args, i + 1
				}
				if !paren {
					goto done
				}
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(code[last:i]))
				last = i + 1
			}
		case ';', '\n':
			if !paren && depth == 0 {
				goto done
			}
		}
	}
done:
	if s := strings.TrimSpace(code[last:i]); s != "" {
		// Ruby/Perl paren-less calls end at a block or modifier keyword.
		for _, kw := range []string{" do", " if ", " unless ", " or ", " and ", " {"} {
			if k := strings.Index(s, kw); k >= 0 && !paren {
				s = strings.TrimSpace(s[:k])
			}
		}
		args = append(args, s)
	}
	return args, i
}

// skipString returns the index just past the string literal starting at i.
func skipString(code string, i int) int {
	q := code[i]
	if q != '`' && i+2 < len(code) && code[i+1] == q && code[i+2] == q { // Python triple quote
		end := strings.Index(code[i+3:], string([]byte{q, q, q}))
		if end < 0 {
			return len(code)
		}
		return i + 3 + end + 3
	}
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(code)
}

// eval evaluates a simple expression: a string literal, a known name, a
// `+`/`.` concatenation or a path join of those.
func (ip *interp) eval(e string) (string, bool) {
	e = strings.TrimSpace(e)
	if e == "" {
		return "", false
	}
	// Concatenation at top level.
	if parts := splitTop(e, ip.concatOp()); len(parts) > 1 {
		var b strings.Builder
		for _, p := range parts {
			v, ok := ip.eval(p)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		}
		return b.String(), true
	}
	// Python string prefixes r'', b'', u'' (not f-strings with fields).
	if len(e) >= 3 && strings.ContainsRune("rRbBuUfF", rune(e[0])) && (e[1] == '\'' || e[1] == '"') {
		if (e[0] == 'f' || e[0] == 'F') && strings.Contains(e, "{") {
			return "", false
		}
		raw := e[0] == 'r' || e[0] == 'R'
		return ip.literal(e[1:], raw)
	}
	if e[0] == '\'' || e[0] == '"' || e[0] == '`' {
		return ip.literal(e, false)
	}
	if envRootRe().MatchString(e) {
		return ip.root, true
	}
	if cwdRe().MatchString(e) {
		return ip.cwd, true
	}
	// Python pathlib's `/` operator: Path('spec') / 'index.md'.
	if ip.lang == langPython {
		if parts := splitTop(e, '/'); len(parts) > 1 && strings.Contains(parts[0], "Path") {
			var segs []string
			for _, p := range parts {
				v, ok := ip.eval(p)
				if !ok {
					return "", false
				}
				segs = append(segs, v)
			}
			return path.Join(segs...), true
		}
	}
	for _, req := range []string{`require('path').`, `require("path").`, `require('node:path').`, `require("node:path").`} {
		if rest, ok := strings.CutPrefix(e, req); ok {
			e = "path." + rest
		}
	}
	name := strings.TrimPrefix(e, "$")
	if isIdent(name) {
		v, ok := ip.vars[name]
		return v, ok
	}
	// Path joins: os.path.join(a, b), path.join(a, b), path.resolve(a, b), Path(a), File.join(a, b).
	for _, fn := range []string{"os.path.join(", "path.join(", "path.resolve(", "File.join(", "Path(", "pathlib.Path(", "os.path.abspath(", "catfile("} {
		if strings.HasPrefix(e, fn) && strings.HasSuffix(e, ")") {
			args := splitArgs(e, len(fn), true, ip.lang)
			var parts []string
			for _, a := range args {
				v, ok := ip.eval(a)
				if !ok {
					return "", false
				}
				parts = append(parts, v)
			}
			if len(parts) == 0 {
				return "", false
			}
			return path.Join(parts...), true
		}
	}
	return "", false
}

func (ip *interp) concatOp() byte {
	if ip.lang == langPerl {
		return '.'
	}
	return '+'
}

// splitTop splits e on op outside strings and brackets.
func splitTop(e string, op byte) []string {
	var parts []string
	depth, last := 0, 0
	for i := 0; i < len(e); i++ {
		switch ch := e[i]; ch {
		case '\'', '"', '`':
			i = skipString(e, i) - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		default:
			if ch == op && depth == 0 {
				parts = append(parts, e[last:i])
				last = i + 1
			}
		}
	}
	return append(parts, e[last:])
}

// literal unquotes a string literal; double-quoted Perl/Ruby strings and JS
// template literals interpolate known variables and fail on unknown ones.
func (ip *interp) literal(e string, raw bool) (string, bool) {
	q := e[0]
	if len(e) < 2 || e[len(e)-1] != q {
		return "", false
	}
	body := e[1 : len(e)-1]
	if len(body) >= 4 && body[0] == q && body[1] == q && body[len(body)-1] == q { // triple quotes
		body = strings.TrimSuffix(strings.TrimPrefix(body, string([]byte{q, q})), string([]byte{q, q}))
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		ch := body[i]
		if ch == '\\' && !raw && i+1 < len(body) {
			i++
			switch body[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(body[i])
			}
			continue
		}
		interpolates := q == '"' && (ip.lang == langPerl) || q == '`' && ip.lang == langNode
		if interpolates && ch == '$' {
			rest := body[i+1:]
			if ip.lang == langNode {
				if !strings.HasPrefix(rest, "{") {
					b.WriteByte(ch)
					continue
				}
				end := strings.IndexByte(rest, '}')
				if end < 0 {
					return "", false
				}
				v, ok := ip.vars[strings.TrimSpace(rest[1:end])]
				if !ok {
					return "", false
				}
				b.WriteString(v)
				i += end + 1
				continue
			}
			braced := strings.HasPrefix(rest, "{")
			if braced {
				rest = rest[1:]
			}
			n := 0
			for n < len(rest) && (rest[n] == '_' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= '0' && rest[n] <= '9') {
				n++
			}
			if n == 0 {
				b.WriteByte(ch)
				continue
			}
			v, ok := ip.vars[rest[:n]]
			if !ok {
				return "", false
			}
			b.WriteString(v)
			i += n
			if braced {
				i += 2
			}
			continue
		}
		if q == '"' && ip.lang == langRuby && ch == '#' && i+1 < len(body) && body[i+1] == '{' {
			end := strings.IndexByte(body[i:], '}')
			if end < 0 {
				return "", false
			}
			v, ok := ip.vars[strings.TrimSpace(body[i+2:i+end])]
			if !ok {
				return "", false
			}
			b.WriteString(v)
			i += end
			continue
		}
		b.WriteByte(ch)
	}
	return b.String(), true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9') {
			return false
		}
	}
	return true
}

// containsAny reports whether s contains one of subs (or subs is empty).
func containsAny(s string, subs []string) bool {
	if len(subs) == 0 {
		return true
	}
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
