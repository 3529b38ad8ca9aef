package shell

import (
	"path"
	"strconv"
	"strings"
)

// gitShellKey reports git configuration keys whose value git runs
// (git-config(1)), through a shell or as a program: pagers and editors,
// core.sshCommand, core.gitProxy, core.fsmonitor, core.askPass,
// core.alternateRefsCommand, interactive.diffFilter, the external diff and
// a diff driver's command and textconv, a merge driver, a filter driver,
// difftool/mergetool cmd and path, a remote's uploadpack and receivepack
// (run locally for a local remote), uploadpack.packObjectsHook, a signing
// program (gpg.program, gpg.<format>.program), a configured hook
// (hook.<name>.command), a trailer's command, man.<tool>.cmd,
// browser.<tool>.cmd and path, send-email's commands, and credential
// helpers, git archive's tar.<format>.command (git-archive(1): "executed
// using the shell"), gpg.ssh.defaultKeyCommand, guitool.<name>.cmd,
// imap.tunnel and man.<tool>.path (git-config(1)). Aliases and
// submodule.<name>.update run only a "!" value (gitShellValue). key is
// spelled as gitKey spells it. Checked with git 2.39 and a marker:
// diff.x.textconv, remote.origin.uploadpack, gpg.program and
// tar.tgz.command ran.
func gitShellKey(key string) bool {
	switch key {
	case "core.pager", "core.editor", "core.sshcommand", "sequence.editor", "diff.external", "core.fsmonitor",
		"core.askpass", "core.gitproxy", "core.alternaterefscommand", "interactive.difffilter", "gpg.program",
		"uploadpack.packobjectshook", "credential.helper",
		"sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd":
		return true
	}
	sec, rest, ok := strings.Cut(key, ".")
	if !ok {
		return false
	}
	variable := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		variable = rest[i+1:]
	}
	switch sec {
	case "pager":
		return true
	case "difftool", "mergetool", "browser":
		return variable == "cmd" || variable == "path"
	case "filter":
		return variable == "clean" || variable == "smudge" || variable == "process"
	case "diff":
		return variable == "textconv" || variable == "command"
	case "merge":
		return variable == "driver"
	case "remote":
		return variable == "uploadpack" || variable == "receivepack"
	case "gpg", "hook":
		return variable == "program" || variable == "command" || key == "gpg.ssh.defaultkeycommand"
	case "tar":
		return variable == "command"
	case "guitool":
		return variable == "cmd"
	case "imap":
		return variable == "tunnel"
	case "trailer":
		return variable == "command" || variable == "cmd"
	case "man":
		return variable == "cmd" || variable == "path"
	case "credential":
		return variable == "helper"
	}
	return false
}

// gitShellValue returns the command a configuration value runs, "" when
// the key does not run one: an alias and submodule.<name>.update run only
// a "!"-prefixed value; a credential helper runs a "!" value through the
// shell, an absolute path as a shell command, and NAME as the program
// git-credential-NAME (an empty value resets the list); core.fsmonitor
// true/false selects the built-in daemon or none.
func gitShellValue(key, v string) string {
	sec, _, _ := strings.Cut(key, ".")
	switch {
	case sec == "alias" || sec == "submodule" && strings.HasSuffix(key, ".update"):
		if s, ok := strings.CutPrefix(v, "!"); ok {
			return s
		}
		return ""
	case sec == "credential" && gitShellKey(key):
		v = strings.TrimSpace(v)
		if s, ok := strings.CutPrefix(v, "!"); ok {
			return s
		}
		if v == "" || strings.HasPrefix(v, "/") {
			return v
		}
		return "git-credential-" + v
	case key == "core.fsmonitor":
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "false", "yes", "no", "on", "off", "1", "0", "":
			return ""
		}
		return v
	case gitShellKey(key):
		return v
	}
	return ""
}

// gitConfig is the configuration a git run sees (Command.Config, keys as
// gitKey spells them): the files GIT_CONFIG_SYSTEM and GIT_CONFIG_GLOBAL
// name, what `git config` set earlier in the same command, git config
// files written earlier in it, then GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n /
// GIT_CONFIG_VALUE_n and GIT_CONFIG_PARAMETERS from its environment, then
// its `-c key=value` and `--config-env=key=VAR` options (a bare `-c key`
// is true). An include.path (or includeIf.*.path) naming a file written
// earlier in the command adds that file's settings where it is set
// (git-config(1) "Includes"), so `printf '[alias]…' > F && git -c
// include.path=F …` runs with F's aliases.
func (w *walker) gitConfig(st *state, env map[string]string, cmd *Command) map[string]string {
	cfg := make(map[string]string, len(w.gitSet)+2)
	set := func(k, v string) { w.gitSetting(st, cfg, "", k, v, 0) }
	for _, name := range []string{"GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL"} {
		if p := env[name]; p != "" {
			w.gitInclude(st, cfg, "", p, 0)
		}
	}
	for k, v := range w.gitSet {
		set(k, v)
	}
	for p, text := range w.files {
		// a git config file written earlier in the same command
		// (`printf '[alias]\n\tz = reset --hard\n' >> .git/config`)
		if b := path.Base(p); b == ".gitconfig" || b == "config" && (path.Base(path.Dir(p)) == ".git" || path.Base(path.Dir(p)) == "git") {
			parseGitConfig(text, func(k, v string) { w.gitSetting(st, cfg, path.Dir(p), k, v, 1) })
		}
	}
	if env["GIT_CONFIG_COUNT"] != "" {
		for i := 0; i < 32; i++ {
			if k, ok := env["GIT_CONFIG_KEY_"+strconv.Itoa(i)]; ok {
				set(k, env["GIT_CONFIG_VALUE_"+strconv.Itoa(i)])
			}
		}
	}
	// GIT_CONFIG_PARAMETERS: what git itself exports for -c to its
	// children, "'key'='value' …" (sq-quoted words)
	if v := env["GIT_CONFIG_PARAMETERS"]; v != "" {
		for _, kv := range envSplit(v) {
			if k, val, ok := strings.Cut(kv, "="); ok {
				set(k, val)
			} else {
				set(kv, "true")
			}
		}
	}
	opts := cmd.Global
	if len(cmd.Sub) == 0 {
		opts = cmd.ParsedOpts
	}
	for _, o := range opts.Opts {
		if !o.HasValue {
			continue
		}
		switch {
		case !o.Long && o.Name == "c":
			k, v, ok := strings.Cut(o.Value, "=")
			if !ok {
				v = "true"
			}
			set(k, v)
		case o.Long && o.Name == "config-env":
			// --config-env=KEY=VAR: KEY takes the value of $VAR
			if k, name, ok := strings.Cut(o.Value, "="); ok {
				if v, ok := env[name]; ok {
					set(k, v)
				}
			}
		}
	}
	return cfg
}

// gitKey spells a configuration key as git compares it: the section and
// the variable name case-insensitively (lower-cased), a subsection
// (`remote.Origin.url`, `url.<base>.insteadOf`) as written.
func gitKey(k string) string {
	i, j := strings.IndexByte(k, '.'), strings.LastIndexByte(k, '.')
	if i < 0 || i == j {
		return strings.ToLower(k)
	}
	return strings.ToLower(k[:i]) + k[i:j] + strings.ToLower(k[j:])
}

// maxGitIncludes bounds nested config includes (git's own limit is 10).
const maxGitIncludes = 10

// gitSetting sets k=v in cfg and, for an include (include.path,
// includeIf.COND.path: the condition is not evaluated, the cautious
// reading), adds the settings of the included file when the command
// wrote it earlier; dir is the directory of the file that holds the
// setting ("" for the command line and the environment: relative to the
// current directory).
func (w *walker) gitSetting(st *state, cfg map[string]string, dir, k, v string, depth int) {
	k = gitKey(k)
	cfg[k] = v
	if k == "include.path" || strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path") {
		w.gitInclude(st, cfg, dir, v, depth)
	}
}

// gitInclude adds the settings of the config file p (relative to dir when
// dir is set and p is relative) when the command wrote it earlier.
func (w *walker) gitInclude(st *state, cfg map[string]string, dir, p string, depth int) {
	if depth >= maxGitIncludes || p == "" {
		return
	}
	if dir != "" && !path.IsAbs(p) && !strings.HasPrefix(p, "~") {
		p = path.Join(dir, p)
	}
	text, ok := w.writtenScript(st, p)
	if !ok {
		return
	}
	parseGitConfig(text, func(k, v string) { w.gitSetting(st, cfg, path.Dir(p), k, v, depth+1) })
}

// parseGitConfig calls set for each setting of git config file text
// (`[section]` / `[section "sub"]` / `[section.sub]` headers, `key =
// value` lines, a key alone is true), in order, as section.key or
// section.sub.key.
func parseGitConfig(text string, set func(k, v string)) {
	sec := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			h := strings.TrimSuffix(strings.TrimPrefix(line, "["), "]")
			name, sub, hasSub := strings.Cut(h, " ")
			sec = strings.ToLower(strings.TrimSpace(name))
			if hasSub {
				sec += "." + strings.Trim(strings.TrimSpace(sub), `"`)
			}
			continue
		}
		if sec == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			v = "true"
		}
		set(sec+"."+strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`))
	}
}

// git walks what a git invocation runs (testdata/corpus/README.md §2.1,
// §9.2): it sets the run's configuration (Command.Config), remembers what
// `git config KEY VALUE` sets for later git runs of the same command, walks
// every shell-valued setting (`-c alias.x='!CMD'`, `git config alias.x
// '!CMD'`, core.pager, core.sshCommand, …: judged whether or not the
// subcommand would use it (GIT_PAGER, GIT_SSH_COMMAND, … in its environment
// are envRuns'),
// and setting a shell alias whose body is blocked is itself blocked),
// expands an alias used as the subcommand (`git -c alias.x='reset --hard'
// x` runs `git reset --hard`), and runs `git submodule foreach CMD…`,
// `git rebase -x|--exec CMD` and `git bisect run CMD…`.
func (w *walker) git(f *frame, st *state, c cmdCtx, vals []string) {
	cmd := c.cmd
	cmd.Config = w.gitConfig(st, c.env, cmd)
	run := func(via, src string) {
		if strings.TrimSpace(src) != "" {
			w.script(f.child(via), st.clone(), src, ioCtx{})
		}
	}
	for k, v := range cmd.Config {
		if _, set := w.gitSet[k]; set && w.gitSet[k] == v {
			continue // walked where `git config` set it
		}
		if s := gitShellValue(k, v); s != "" {
			via := "git -c " + k
			if strings.HasPrefix(k, "alias.") {
				// the alias runs with the words after it appended, each
				// one word (git runs `sh -c 'BODY "$@"' BODY ARGS…`,
				// git-config(1): "arguments are appended"), so `-c
				// alias.s='!sh' s -c 'rm -rf build'` runs sh -c 'rm -rf build'
				if sub := cmd.SubName(); len(cmd.SubAt) > 0 && strings.EqualFold(sub, k[len("alias."):]) {
					s += gitAliasArgs(c.words[min(cmd.SubAt[0]+2, len(c.words)):])
				}
				via = "git alias " + k[len("alias."):]
			}
			run(via, s)
		}
	}
	if len(cmd.Sub) == 0 {
		return
	}
	sub := cmd.Sub[0]
	p := cmd.ParsedOpts
	w.gitExt(f, st, c)
	if v, ok := p.Last("", "pathspec-from-file"); ok {
		cmd.FromFile = w.pathspecFile(st, c, v, p.Has("", "pathspec-file-nul"))
	}
	switch {
	case sub == "config":
		w.gitConfigSet(f, st, cmd, run)
	case cmd.Is("submodule", "foreach"):
		if i := p.First(); i < len(vals) {
			run("git submodule foreach", strings.Join(vals[i:], " "))
		}
	case sub == "remote":
		// `git remote add --mirror[=push] NAME URL` configures NAME as a
		// push mirror (remote.NAME.mirror=true) for the later git runs of
		// the same command: `git push NAME` then mirrors (§9.3)
		ops := p.OperandValues()
		if len(ops) >= 3 && (ops[0] == "add" || ops[0] == "set-url") {
			// the remote's URL, for later runs that name the remote
			if w.gitSet == nil {
				w.gitSet = map[string]string{}
			}
			w.gitSet["remote."+ops[1]+".url"] = ops[len(ops)-1]
		}
		if len(ops) >= 2 && ops[0] == "add" {
			for _, o := range p.Opts {
				if o.Long && o.Name == "mirror" && (!o.HasValue || o.Value == "push") {
					if w.gitSet == nil {
						w.gitSet = map[string]string{}
					}
					w.gitSet["remote."+strings.ToLower(ops[1])+".mirror"] = "true"
				}
			}
		}
	case sub == "rebase":
		for _, v := range p.Values("x", "exec") {
			run("git rebase --exec", v)
		}
	case cmd.Is("bisect", "run"):
		if i := p.First(); i < len(vals) {
			w.runWords(f, st.clone(), c.words[i+1:], c.env, nil, nil, "git bisect run")
		}
	}
	if al, ok := cmd.Config["alias."+strings.ToLower(sub)]; ok && !strings.HasPrefix(al, "!") && f.calls < 8 {
		// a git alias expands in place of the subcommand
		words := envSplit(al)
		if len(words) == 0 || strings.EqualFold(words[0], sub) {
			return
		}
		at := cmd.SubAt[0]
		ws := append(append(append(knownWords("git"), c.words[1:at+1]...), knownWords(words...)...), c.words[at+2:]...)
		nf := f.child("git alias " + sub)
		nf.calls++
		w.run(nf, st, cmdCtx{words: ws, env: c.env, stdin: c.stdin, redirs: c.redirs, pos: c.pos})
	}
}

// gitAliasArgs is the source text of the words appended to a "!" alias
// body: a known word quoted as one word, an unknown one as its source text
// (still unknown when the body is parsed).
func gitAliasArgs(words []Word) string {
	var b strings.Builder
	for _, wd := range words {
		b.WriteByte(' ')
		switch {
		case wd.Known:
			b.WriteString(shellQuote(wd.Value))
		case wd.Raw != "":
			b.WriteString(wd.Raw)
		default:
			b.WriteString(`"$GIT_ALIAS_ARG"`)
		}
	}
	return b.String()
}

// gitConfigSet remembers what `git config [--global|--local|--file F …]
// [set] KEY VALUE` sets, for the later git runs of the same command, and
// walks a shell-valued setting now.
func (w *walker) gitConfigSet(f *frame, st *state, cmd *Command, run func(via, src string)) {
	p := cmd.ParsedOpts
	if p.Has("l", "list", "get", "get-all", "get-regexp", "get-urlmatch", "unset", "unset-all", "rename-section", "remove-section", "edit", "show-origin", "show-scope") {
		return
	}
	ops := p.OperandValues()
	if len(ops) > 0 && ops[0] == "set" {
		ops = ops[1:]
	}
	if len(ops) < 2 || ops[0] == "get" || ops[0] == "unset" || ops[0] == "list" {
		return
	}
	k := gitKey(ops[0])
	v := strings.Join(ops[1:], " ")
	if w.gitSet == nil {
		w.gitSet = map[string]string{}
	}
	w.gitSet[k] = v
	if s := gitShellValue(k, v); s != "" {
		run("git config "+k, s)
	}
}

// pathspecFile returns the pathspecs `--pathspec-from-file=F` reads when
// the command makes F's content known ("-": its known stdin; a descriptor
// path; a file written earlier in the command): one per line, or
// NUL-separated with --pathspec-file-nul; a line in double quotes is
// C-unquoted as git does.
func (w *walker) pathspecFile(st *state, c cmdCtx, file string, nul bool) []string {
	var text string
	switch {
	case file == "-":
		if c.stdin == nil {
			return nil
		}
		text = *c.stdin
	default:
		t, ok := w.namedContent(st, c, file)
		if !ok {
			return nil
		}
		text = t
	}
	sep := "\n"
	if nul {
		sep = "\x00"
	}
	var out []string
	for _, l := range strings.Split(text, sep) {
		l = strings.TrimSuffix(l, "\r")
		if !nul && strings.HasPrefix(l, `"`) {
			if u, err := strconv.Unquote(l); err == nil {
				l = u
			}
		}
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// gitExt walks the commands git's ext:: transport runs for this git
// invocation (git-remote-ext(1), testdata/corpus/README.md §9.2): when
// the transport is allowed (gitExtAllowed), every ext:: URL the
// subcommand opens — a URL operand or option value, the URL of a remote
// it names (set earlier by `git remote add|set-url` or `-c
// remote.NAME.url`), every configured remote's when it names none, a
// submodule's (submodule update, clone --recurse-submodules: from a
// .gitmodules written earlier or submodule.*.url), each after
// url.<base>.insteadOf rewriting — runs its command: the
// words after "ext::" split at blanks, "% " a blank, "%%" a percent, %s
// and %S the service (upload-pack, git-upload-pack), no shell.
func (w *walker) gitExt(f *frame, st *state, c cmdCtx) {
	cmd := c.cmd
	if !gitTransport(cmd) || !gitExtAllowed(cmd.Config, c.env) {
		return
	}
	service := "upload-pack"
	switch cmd.SubName() {
	case "push":
		service = "receive-pack"
	case "archive":
		service = "upload-archive"
	}
	var urls []string
	named := false
	add := func(v string) {
		if u := gitInsteadOf(cmd.Config, v); strings.HasPrefix(u, "ext::") {
			urls, named = append(urls, u), true
			return
		}
		if u, ok := cmd.Config["remote."+v+".url"]; ok {
			named = true
			urls = append(urls, gitInsteadOf(cmd.Config, u))
			if pu, ok := cmd.Config["remote."+v+".pushurl"]; ok && service == "receive-pack" {
				urls = append(urls, gitInsteadOf(cmd.Config, pu))
			}
		}
	}
	p := cmd.ParsedOpts
	for _, v := range p.OperandValues() {
		add(v)
	}
	for _, o := range p.Opts {
		if o.HasValue {
			add(o.Value)
		}
	}
	if cmd.Is("submodule", "update") || cmd.SubName() == "clone" && cmd.Has("", "recurse-submodules") {
		// the submodules' URLs: those of a .gitmodules written earlier in
		// the command (`[submodule "x"] url = ext::…`), and submodule.*.url
		// in the run's configuration
		for p, text := range w.files {
			if path.Base(p) == ".gitmodules" {
				parseGitConfig(text, func(k, v string) {
					if k = gitKey(k); strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".url") {
						urls = append(urls, gitInsteadOf(cmd.Config, v))
					}
				})
			}
		}
		for k, u := range cmd.Config {
			if strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".url") {
				urls = append(urls, gitInsteadOf(cmd.Config, u))
			}
		}
	}
	if !named {
		// `git fetch`, `git pull`, `git fetch --all`, `git remote update`:
		// a configured remote, whichever it is
		for k, u := range cmd.Config {
			if strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".url") || strings.HasSuffix(k, ".pushurl")) {
				urls = append(urls, gitInsteadOf(cmd.Config, u))
			}
		}
	}
	seen := map[string]bool{}
	for _, u := range urls {
		rest, ok := strings.CutPrefix(u, "ext::")
		if !ok || seen[u] {
			continue
		}
		seen[u] = true
		if args, ok := extArgs(rest, service); ok && len(args) > 0 {
			w.runWords(f, st.clone(), knownWords(args...), c.env, nil, nil, "git ext::")
		}
	}
}

// gitTransport reports git subcommands that open a remote repository.
func gitTransport(cmd *Command) bool {
	switch cmd.SubName() {
	case "ls-remote", "fetch", "pull", "push", "clone", "archive":
		return cmd.SubName() != "archive" || cmd.Has("", "remote")
	case "submodule":
		return cmd.Is("submodule", "add") || cmd.Is("submodule", "update")
	case "remote":
		ops := cmd.OperandValues()
		if len(ops) == 0 {
			return false
		}
		switch ops[0] {
		case "update", "prune", "show", "set-head":
			return true
		case "add":
			return cmd.Has("f", "fetch")
		}
	}
	return false
}

// gitExtAllowed reports whether git lets the ext transport run
// (git-config(1) protocol.allow): GIT_ALLOW_PROTOCOL, when set, is the
// whole list of allowed protocols; otherwise protocol.ext.allow, else
// protocol.allow, is "always", or "user" with GIT_PROTOCOL_FROM_USER
// unset or true. The default for ext is "never".
func gitExtAllowed(cfg map[string]string, env map[string]string) bool {
	if v, ok := env["GIT_ALLOW_PROTOCOL"]; ok {
		for _, p := range strings.Split(v, ":") {
			if p == "ext" {
				return true
			}
		}
		return false
	}
	pol, ok := cfg["protocol.ext.allow"]
	if !ok {
		pol = cfg["protocol.allow"]
	}
	switch strings.ToLower(strings.TrimSpace(pol)) {
	case "always":
		return true
	case "user":
		switch strings.ToLower(env["GIT_PROTOCOL_FROM_USER"]) {
		case "0", "false", "no", "off":
			return false
		}
		return true
	}
	return false
}

// gitInsteadOf rewrites url by the longest url.<base>.insteadOf prefix of
// cfg (git-config(1) url.<base>.insteadOf).
func gitInsteadOf(cfg map[string]string, url string) string {
	best, base := "", ""
	for k, v := range cfg {
		b, ok := strings.CutPrefix(k, "url.")
		if !ok {
			continue
		}
		b, ok = strings.CutSuffix(b, ".insteadof")
		if ok && v != "" && strings.HasPrefix(url, v) && len(v) > len(best) {
			best, base = v, b
		}
	}
	if best == "" {
		return url
	}
	return base + url[len(best):]
}

// extArgs splits the command of an ext:: URL into its words as
// git-remote-ext does: a blank ends a word (two blanks make an empty
// word), "% " is a blank, "%%" a percent, %s the service and %S
// "git-"+service; a word starting with %G or %V is git's pseudo-argument
// and no word. Any other escape makes git refuse the URL (false).
func extArgs(s, service string) ([]string, bool) {
	var args []string
	var b strings.Builder
	pseudo := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == ' ' {
			if !pseudo {
				args = append(args, b.String())
			}
			b.Reset()
			pseudo = false
			continue
		}
		if pseudo {
			continue
		}
		if ch != '%' {
			b.WriteByte(ch)
			continue
		}
		if i+1 >= len(s) {
			return nil, false
		}
		i++
		switch s[i] {
		case ' ', '%':
			b.WriteByte(s[i])
		case 's':
			b.WriteString(service)
		case 'S':
			b.WriteString("git-" + service)
		case 'G', 'V':
			if b.Len() != 0 {
				return nil, false
			}
			pseudo = true
		default:
			return nil, false
		}
	}
	if !pseudo {
		args = append(args, b.String())
	}
	return args, true
}

// GitConfigValue returns the value git takes for key (the last setting, key
// compared as gitKey spells it) in git configuration file text; false when
// the text does not set it.
func GitConfigValue(text, key string) (v string, ok bool) {
	key = gitKey(key)
	parseGitConfig(text, func(k, val string) {
		if gitKey(k) == key {
			v, ok = val, true
		}
	})
	return v, ok
}

// GitConfigRunners returns the settings of git configuration file text
// that make a later git run code (git-config(1)): every key whose value git
// runs through a shell (gitShellValue: core.fsmonitor, core.pager,
// diff.external, filter drivers, "!" aliases and credential helpers, …),
// and core.hooksPath and include.path / includeIf.*.path, which move where
// git finds hooks and further settings. Each is "key=value", keys spelled
// as gitKey does, in file order. Used outside the sandbox to judge a
// repository a Generator created (internal/gitrepo, docs/sandbox.md §6).
func GitConfigRunners(text string) []string {
	var out []string
	parseGitConfig(text, func(k, v string) {
		k = gitKey(k)
		if gitShellValue(k, v) != "" || k == "core.hookspath" || k == "include.path" ||
			strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path") {
			out = append(out, k+"="+v)
		}
	})
	return out
}
