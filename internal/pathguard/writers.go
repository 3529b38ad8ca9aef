package pathguard

import (
	"strings"

	"github.com/superagent-harness/harness/internal/shell"
)

// gitClone adds the directory `git clone URL [DIR]` or `git worktree add
// PATH` creates, and the .git directory of `git init [DIR]`. When the new
// repository's configuration or hooks come from the command — a template
// (--template, or templated: GIT_TEMPLATE_DIR, init.templateDir, a config
// source of the call) copies its config and hooks/ into the new .git, and
// clone's --config KEY=VALUE writes the new .git/config — they are writes
// to that repository's config and hooks (rule kind git-config): through
// the real client a `git init --template=T src/sub/inner` made Hermes's
// git status at the root run the template's core.fsmonitor outside the
// sandbox (testdata/redteam/round16/README.md).
func (c *collector) gitClone(cmd *shell.Command, p shell.ParsedOpts, templated bool) {
	ops := p.OperandValues()
	dir := ""
	switch {
	case cmd.Is("clone"):
		switch {
		case len(ops) >= 2:
			dir = ops[1]
			c.addNewDir(ops[1], "git clone")
		case len(ops) == 1:
			if name := shell.CloneName(ops[0]); name != "" {
				dir = name
				c.addNewDir(name, "git clone")
			}
		}
		templated = templated || p.Has("c", "config")
	case cmd.Is("worktree", "add"):
		if len(ops) > 0 {
			c.addNewDir(ops[0], "git worktree add")
		}
		return
	case cmd.Is("init"):
		dir = "."
		if len(ops) > 0 {
			dir = ops[0]
		}
		c.addNewDir(strings.TrimRight(dir, "/")+"/.git", "git init")
	default:
		return
	}
	if dir == "" || p.Has("", "bare", "mirror") || !(templated || p.Has("", "template")) {
		return
	}
	g := strings.TrimRight(dir, "/") + "/.git/"
	c.add(g+"config", opWrite, "git "+cmd.SubName()+" (template or --config)")
	c.add(g+"hooks/"+placeholder, opWrite, "git "+cmd.SubName()+" (template)")
}

// gitTemplated reports a git call whose new repositories may get their
// configuration and hooks from a template the call itself names: -c
// init.templateDir=…, GIT_TEMPLATE_DIR, or a configuration source set for
// the call (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT, GIT_CONFIG_GLOBAL,
// GIT_CONFIG_SYSTEM, HOME, XDG_CONFIG_HOME), any of which can carry
// init.templateDir.
func (c *collector) gitTemplated(g shell.ParsedOpts) bool {
	for _, o := range g.Opts {
		if o.HasValue && o.Name == "c" && strings.HasPrefix(strings.ToLower(o.Value), "init.templatedir") {
			return true
		}
	}
	for _, k := range [...]string{"GIT_TEMPLATE_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "HOME", "XDG_CONFIG_HOME"} {
		if _, ok := c.inv.Env[k]; ok {
			return true
		}
	}
	return false
}

// addNewDir adds a directory the command creates, and an entry below it
// (a new `.harness/features/<dir>` is another feature's directory).
func (c *collector) addNewDir(p, what string) {
	if p == "" {
		return
	}
	c.add(p, opMkdir, what)
	c.add(strings.TrimRight(p, "/")+"/"+placeholder, opWrite, what)
}
