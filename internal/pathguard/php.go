package pathguard

import (
	"regexp"
	"strings"
	"sync"
)

// PHP inline code (`php -r CODE`, or a script on stdin) as an interpreter
// (testdata/corpus/README.md §3.3 interpreter writes): file_put_contents, fopen with a
// writing mode, unlink, rmdir, rename, copy, touch, mkdir, symlink and link
// write their path arguments. PHP's string literals, `.` concatenation and
// `$name = …` assignments read like Perl's, so the Perl evaluator is used.
// (Its shell strings — system, exec, shell_exec, passthru, backticks — are
// walked by internal/shell.)

var phpCalls = sync.OnceValue(func() []callRule {
	return []callRule{
		{re: regexp.MustCompile(`\bfile_put_contents\s*\(\s*`), need: []string{"file_put_contents"}, args: []op{opWrite}, mode: -1},
		{re: regexp.MustCompile(`\bfopen\s*\(\s*`), need: []string{"fopen"}, args: []op{opWrite}, mode: 1, def: opNone},
		{re: regexp.MustCompile(`\bunlink\s*\(\s*`), need: []string{"unlink"}, args: []op{opDelete}, mode: -1},
		{re: regexp.MustCompile(`\brmdir\s*\(\s*`), need: []string{"rmdir"}, args: []op{opTree}, mode: -1},
		{re: regexp.MustCompile(`\brename\s*\(\s*`), need: []string{"rename"}, args: []op{opTree, opWrite}, mode: -1},
		{re: regexp.MustCompile(`\bcopy\s*\(\s*`), need: []string{"copy"}, args: []op{opNone, opWrite}, mode: -1},
		{re: regexp.MustCompile(`\bsymlink\s*\(\s*`), need: []string{"symlink"}, args: []op{opNone, opWrite}, mode: -1, link: true},
		{re: regexp.MustCompile(`\blink\s*\(\s*`), need: []string{"link"}, args: []op{opWrite, opWrite}, mode: -1},
		{re: regexp.MustCompile(`\b(?:touch|mkdir|chmod|chown|truncate)\s*\(\s*`), need: []string{"touch", "mkdir", "chmod", "chown", "truncate"}, args: []op{opWrite}, mode: -1},
	}
})

// isPHP reports whether prog is a PHP CLI.
func isPHP(prog string) bool {
	return prog == "php" || strings.HasPrefix(prog, "php7") || strings.HasPrefix(prog, "php8") || prog == "php-cli"
}

// php judges `php -r CODE` (or -rCODE) and code on stdin; a script file's
// writes are not visible.
func (c *collector) php(args []string) {
	code, have := "", false
	for i := 0; i < len(args) && !have; i++ {
		a := args[i]
		switch {
		case a == "-r" || a == "--run":
			if i+1 < len(args) {
				code, have = args[i+1], true
			}
		case strings.HasPrefix(a, "-r") && len(a) > 2:
			code, have = a[2:], true
		case a == "-d" || a == "-c" || a == "-z":
			i++
		case a == "--":
			i = len(args)
		case strings.HasPrefix(a, "-"):
		default:
			return // a script file
		}
	}
	if !have {
		if c.inv.Stdin == nil {
			return
		}
		code = strings.TrimPrefix(strings.TrimSpace(*c.inv.Stdin), "<?php")
	}
	if strings.TrimSpace(code) == "" {
		return
	}
	ip := &interp{lang: langPerl, vars: map[string]string{}, pathVars: map[string]bool{}, root: c.g.rootLex, cwd: c.base}
	for _, m := range perlAssign().FindAllStringSubmatch(code, maxCalls) {
		if v, ok := ip.eval(strings.TrimSpace(m[2])); ok {
			ip.vars[m[1]] = v
		}
	}
	for _, cr := range phpCalls() {
		if !containsAny(code, cr.need) {
			continue
		}
		for _, loc := range cr.re.FindAllStringIndex(code, maxCalls) {
			if loc[0] > 0 && (code[loc[0]-1] == '>' || code[loc[0]-1] == ':' || code[loc[0]-1] == '$') {
				continue // a method or variable of that name
			}
			args := splitArgs(code, loc[1], true, langPerl)
			w := "php"
			if cr.link {
				w += " symlink"
			}
			c.callTargets(ip, cr, args, w)
		}
	}
}
