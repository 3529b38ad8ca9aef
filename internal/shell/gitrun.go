package shell

import (
	"strconv"
	"strings"
)

// gitShellKeys are git configuration keys whose value git runs through a
// shell (git-config(1)): pagers, editors, the ssh command, the external
// diff, the fsmonitor hook, and "!"-prefixed credential helpers.
func gitShellKey(key string) bool {
	switch key {
	case "core.pager", "core.editor", "core.sshcommand", "sequence.editor", "diff.external", "core.fsmonitor",
		"core.askpass", "credential.helper":
		return true
	}
	return strings.HasPrefix(key, "pager.") || strings.HasPrefix(key, "difftool.") && strings.HasSuffix(key, ".cmd") ||
		strings.HasPrefix(key, "mergetool.") && strings.HasSuffix(key, ".cmd") ||
		strings.HasPrefix(key, "filter.") && (strings.HasSuffix(key, ".clean") || strings.HasSuffix(key, ".smudge") || strings.HasSuffix(key, ".process"))
}

// gitShellEnv are environment variables whose value git runs through a shell.
var gitShellEnv = [...]string{"GIT_PAGER", "GIT_EDITOR", "GIT_SSH_COMMAND", "GIT_SEQUENCE_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS"}

// gitRuns walks the commands a git invocation runs through a shell (testdata/corpus/README.md
// §2.1: a command is checked wherever it would be executed): the
// values of shell-valued configuration given with -c or GIT_CONFIG_COUNT /
// GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n or in the environment (GIT_PAGER,
// GIT_EDITOR, GIT_SSH_COMMAND, …), `git submodule foreach CMD…`,
// `git rebase -x|--exec CMD` and `git bisect run CMD…`. A value is judged
// whether or not the subcommand would actually use it (conservative).
func (w *walker) gitRuns(f *frame, st *state, c cmdCtx, vals []string) {
	run := func(via, src string) {
		if strings.TrimSpace(src) != "" {
			w.script(f.child(via), st.clone(), src, ioCtx{})
		}
	}
	cfg := func(kv string) {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.ToLower(k)
		if !ok || !gitShellKey(k) {
			return
		}
		if k == "credential.helper" {
			if !strings.HasPrefix(v, "!") {
				return
			}
			v = v[1:]
		}
		run("git -c "+k, v)
	}
	for _, name := range gitShellEnv {
		if v, ok := c.env[name]; ok {
			run(name, v)
		}
	}
	if n := c.env["GIT_CONFIG_COUNT"]; n != "" {
		for i := 0; i < 32; i++ {
			if k, ok := c.env["GIT_CONFIG_KEY_"+strconv.Itoa(i)]; ok {
				cfg(k + "=" + c.env["GIT_CONFIG_VALUE_"+strconv.Itoa(i)])
			}
		}
	}
	i := 0
	for i < len(vals) {
		v := vals[i]
		switch {
		case v == "-c" && i+1 < len(vals):
			cfg(vals[i+1])
			i += 2
			continue
		case strings.HasPrefix(v, "-c") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			cfg(v[2:])
		case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--super-prefix" ||
			v == "--config-env" || v == "--attr-source":
			i += 2
			continue
		case strings.HasPrefix(v, "-"):
		default:
			w.gitSubRuns(f, st, c, vals, i, run)
			return
		}
		i++
	}
}

func (w *walker) gitSubRuns(f *frame, st *state, c cmdCtx, vals []string, i int, run func(via, src string)) {
	switch vals[i] {
	case "submodule":
		for k := i + 1; k < len(vals); k++ {
			if vals[k] != "foreach" {
				continue
			}
			k++
			for k < len(vals) && strings.HasPrefix(vals[k], "-") {
				k++
			}
			if k < len(vals) {
				run("git submodule foreach", strings.Join(vals[k:], " "))
			}
			return
		}
	case "rebase":
		for k := i + 1; k < len(vals); k++ {
			v := vals[k]
			switch {
			case (v == "-x" || v == "--exec") && k+1 < len(vals):
				run("git rebase --exec", vals[k+1])
				k++
			case strings.HasPrefix(v, "--exec="):
				run("git rebase --exec", v[len("--exec="):])
			case strings.HasPrefix(v, "-x") && len(v) > 2:
				run("git rebase --exec", v[2:])
			}
		}
	case "bisect":
		if i+1 < len(vals) && vals[i+1] == "run" && i+2 < len(vals) {
			w.runWords(f, st.clone(), c.words[i+3:], c.env, nil, nil, "git bisect run")
		}
	}
}
