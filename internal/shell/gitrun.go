package shell

import (
	"path"
	"strconv"
	"strings"
)

// gitShellKey reports git configuration keys whose value git runs through
// a shell (git-config(1)): pagers, editors, the ssh command, the external
// diff, the fsmonitor hook, send-email's commands, "!"-prefixed credential
// helpers and aliases.
func gitShellKey(key string) bool {
	switch key {
	case "core.pager", "core.editor", "core.sshcommand", "sequence.editor", "diff.external", "core.fsmonitor",
		"core.askpass", "credential.helper", "sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd":
		return true
	}
	return strings.HasPrefix(key, "pager.") || strings.HasPrefix(key, "difftool.") && strings.HasSuffix(key, ".cmd") ||
		strings.HasPrefix(key, "mergetool.") && strings.HasSuffix(key, ".cmd") ||
		strings.HasPrefix(key, "filter.") && (strings.HasSuffix(key, ".clean") || strings.HasSuffix(key, ".smudge") || strings.HasSuffix(key, ".process"))
}

// gitShellValue returns the shell command a configuration value runs, ""
// when the key does not run one (credential helpers and aliases run only
// a "!"-prefixed value).
func gitShellValue(key, v string) string {
	switch {
	case key == "credential.helper" || strings.HasPrefix(key, "alias."):
		if s, ok := strings.CutPrefix(v, "!"); ok {
			return s
		}
		return ""
	case gitShellKey(key):
		return v
	}
	return ""
}

// gitConfig is the configuration a git run sees (Command.Config, keys
// lower-cased): what `git config` set earlier in the same command, then
// GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n and
// GIT_CONFIG_PARAMETERS from its environment, then its `-c key=value`
// options (a bare `-c key` is true).
func (w *walker) gitConfig(env map[string]string, cmd *Command) map[string]string {
	cfg := make(map[string]string, len(w.gitSet)+2)
	for k, v := range w.gitSet {
		cfg[k] = v
	}
	for p, text := range w.files {
		// a git config file written earlier in the same command
		// (`printf '[alias]\n\tz = reset --hard\n' >> .git/config`)
		if b := path.Base(p); b == ".gitconfig" || b == "config" && (path.Base(path.Dir(p)) == ".git" || path.Base(path.Dir(p)) == "git") {
			parseGitConfig(text, cfg)
		}
	}
	if env["GIT_CONFIG_COUNT"] != "" {
		for i := 0; i < 32; i++ {
			if k, ok := env["GIT_CONFIG_KEY_"+strconv.Itoa(i)]; ok {
				cfg[strings.ToLower(k)] = env["GIT_CONFIG_VALUE_"+strconv.Itoa(i)]
			}
		}
	}
	// GIT_CONFIG_PARAMETERS: what git itself exports for -c to its
	// children, "'key'='value' …" (sq-quoted words)
	if v := env["GIT_CONFIG_PARAMETERS"]; v != "" {
		for _, kv := range envSplit(v) {
			if k, val, ok := strings.Cut(kv, "="); ok {
				cfg[strings.ToLower(k)] = val
			} else {
				cfg[strings.ToLower(kv)] = "true"
			}
		}
	}
	opts := cmd.Global
	if len(cmd.Sub) == 0 {
		opts = cmd.ParsedOpts
	}
	for _, kv := range opts.Values("c") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			v = "true"
		}
		cfg[strings.ToLower(k)] = v
	}
	for _, kv := range opts.Values("", "config-env") {
		// --config-env=KEY=VAR: KEY takes the value of $VAR
		if k, name, ok := strings.Cut(kv, "="); ok {
			if v, ok := env[name]; ok {
				cfg[strings.ToLower(k)] = v
			}
		}
	}
	return cfg
}

// parseGitConfig adds the settings of git config file text to cfg
// (`[section]` / `[section "sub"]` headers, `key = value` lines; keys
// lower-cased as section.key or section.sub.key).
func parseGitConfig(text string, cfg map[string]string) {
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
		cfg[sec+"."+strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(v), `"`)
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
	cmd.Config = w.gitConfig(c.env, cmd)
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
				// the alias runs with the words after it
				if sub := cmd.SubName(); len(cmd.SubAt) > 0 && strings.EqualFold(sub, k[len("alias."):]) {
					s += " " + strings.Join(vals[cmd.SubAt[0]+1:], " ")
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
		if ops := p.OperandValues(); len(ops) >= 2 && ops[0] == "add" {
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
	k := strings.ToLower(ops[0])
	v := strings.Join(ops[1:], " ")
	if w.gitSet == nil {
		w.gitSet = map[string]string{}
	}
	w.gitSet[k] = v
	if s := gitShellValue(k, v); s != "" {
		run("git config "+k, s)
	}
}
