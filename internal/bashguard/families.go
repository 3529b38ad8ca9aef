package bashguard

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/superagent-harness/harness/internal/lazy"
	"github.com/superagent-harness/harness/internal/roles"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/shell/codelex"
)

// matcher reports whether the rule fires on one invocation, and why.
type matcher func(m *evalCtx, c *call) (bool, string)

// evalCtx is the state shared by the matchers during one Decide.
type evalCtx struct {
	ctx Context
	res *shell.Result
}

// matchers maps rule ids to their Go matchers (rules/*.yaml reference them).
var matchers = lazy.Value[map[string]matcher]{New: func() map[string]matcher {
	return map[string]matcher{
		ruleid.FsRmRecursiveForce:      matchRmRF,
		ruleid.FsCodeTreeDelete:        matchCodeTreeDelete,
		ruleid.PermsCodeChmod:          matchCodeChmod,
		ruleid.ForkbombCodeForkLoop:    matchCodeForkLoop,
		ruleid.PrivSudo:                matchSudo,
		ruleid.PrivSu:                  matchSu,
		ruleid.PrivHostRoot:            matchHostRoot,
		ruleid.GitPushForce:            matchGitPushForce,
		ruleid.GitResetHard:            matchGitResetHard,
		ruleid.GitCleanForce:           matchGitClean,
		ruleid.GitCleanRequireForceOff: matchGitCleanConfig,
		ruleid.GitCheckoutDiscard:      matchGitCheckout,
		ruleid.GitRestoreDiscard:       matchGitRestore,
		ruleid.GitSwitchDiscard:        matchGitSwitch,
		ruleid.GitReverseApplyDiscard:  matchReverseApply,
		ruleid.GitBranchForceDelete:    matchGitBranch,
		ruleid.GitWorktreeRemoveForce:  matchGitWorktreeRemove,
		ruleid.GitCommitAmend:          matchGitAmend,
		ruleid.GitAddAll:               matchGitAddAll,
		ruleid.GitHistoryRewrite:       matchGitHistory,
		ruleid.PermsWorldWritable:      matchPerms,
		ruleid.DiskDd:                  matchDD,
		ruleid.DiskMkfs:                matchMkfs,
		ruleid.DiskBlockDeviceWrite:    matchBlockWrite,
		ruleid.DiskWipe:                matchWipe,
		ruleid.ProdSshHost:             matchProdHost,
		ruleid.ProdKubeContext:         matchProdKube,
		ruleid.ProdAwsProfile:          matchProdAWS,
		ruleid.ProdDockerHost:          matchProdDocker,
		ruleid.ProdDbHost:              matchProdDB,
		ruleid.HarnessAdminCommand:     matchHarnessAdmin,
		ruleid.HarnessOtherFeature:     matchHarnessOtherFeature,
		ruleid.HarnessSessionEnv:       matchHarnessSessionEnv,
		ruleid.HarnessGeneratorEntry:   matchHarnessGeneratorEntry,
		ruleid.HarnessBinaryCopy:       matchHarnessBinaryCopy,
		ruleid.WarnHttpWrite:           matchHTTPWrite,
		ruleid.WarnPublish:             matchPublish,
		ruleid.WarnGitPushPrune:        matchGitPushPrune,
		ruleid.ForkbombSelfBackground:  nil, // judged on shell.Result.Functions
		ruleid.ForkbombBackgroundLoop:  nil, // judged on shell.Result.BackgroundLoops
		ruleid.ShellTooComplex:         nil, // judged on shell.Result.Overflow
	}
}}

// ---------------------------------------------------------------- rm_rf

// treeDeleters are programs whose only job is rm -rf: they delete every
// operand as a whole tree and never prompt (rimraf, the npm package most
// build scripts call; del-cli's del), so the family judges them by that
// effect (testdata/corpus/README.md §9: judge the effect, not the spelling).
func treeDeleters(s string) bool {
	switch s {
	case "rimraf", "del-cli":
		return true
	}
	return false
}

func matchRmRF(_ *evalCtx, c *call) (bool, string) {
	if treeDeleters(c.prog) {
		if slices.ContainsFunc(c.inv.Command().OperandValues(), func(a string) bool { return a != "" }) {
			return true, c.prog + " deletes each operand as a whole tree without a prompt (it is rm -rf as a program)"
		}
		return false, "" // --help, --version: a lookup
	}
	switch c.prog {
	case "rm", "srm", "wipe":
		// srm and wipe: rm's options -r/-R and -f with rm's effect, the
		// files overwritten before they are unlinked (the table's rows)
	default:
		return false, ""
	}
	p := c.inv.Cmd.ParsedOpts
	if !p.Has("rR", "recursive") {
		return false, ""
	}
	if p.Has("f", "force") {
		return true, c.prog + " with both a recursive and a force option"
	}
	for _, v := range p.Values("", "interactive") {
		if shell.ArgMatch(v, [2]string{"never", "never"}, [2]string{"no", "never"}, [2]string{"none", "never"},
			[2]string{"once", "once"}, [2]string{"always", "always"}, [2]string{"yes", "always"}) == "never" {
			return true, "rm -r with --interactive=never deletes whole trees without a prompt"
		}
	}
	if c.inv.Stdin != nil && strings.HasPrefix(strings.TrimSpace(*c.inv.Stdin), "y") {
		return true, "rm -r fed yes on its input deletes whole trees without a prompt"
	}
	return false, ""
}

// ---------------------------------------------------------------- privilege

func privPrograms(s string) bool {
	switch s {
	case "sudo", "sudoedit", "doas", "pkexec", "run0", "sudo-rs", "please", "pleaseedit", "ksu":
		return true
	}
	return false
}

func matchSudo(_ *evalCtx, c *call) (bool, string) {
	if code := c.inv.Code; code != nil {
		// interpreter code that runs a command as root: AppleScript's `do
		// shell script … with administrator privileges` (JXA's
		// administratorPrivileges: true) asks for an administrator's
		// password and runs the script as root; the script itself is
		// judged as a command of its own (the walker runs it)
		for _, e := range code.Execs {
			if e.Admin {
				return true, c.prog + " runs a shell script as root (" + e.Func + " with administrator privileges)"
			}
		}
	}
	if !privPrograms(c.prog) {
		return false, ""
	}
	if c.prog == "sudo" && len(c.args) == 1 {
		// sudo's only word a help or version option (also abbreviated:
		// --vers, --he) is a lookup
		if p := c.inv.Cmd.ParsedOpts; len(p.Opts) == 1 && len(p.Operands) == 0 {
			switch p.Opts[0].Name {
			case "h", "help", "V", "version":
				return false, ""
			}
		}
	}
	return true, c.prog + " runs a command with elevated privileges"
}

// matchHostRoot blocks a root shell on the host through namespaces or
// containers (testdata/corpus/README.md §9.3 privilege).
func matchHostRoot(_ *evalCtx, c *call) (bool, string) {
	cmd := c.inv.Cmd
	switch c.prog {
	case "nsenter":
		return true, "nsenter enters another process's namespaces (a host root shell)"
	case "machinectl":
		if sub := firstOp(cmd); sub == "shell" || sub == "login" {
			return true, "machinectl " + sub + " opens a root shell in a machine"
		}
	case "unshare":
		if cmd.Has("r", "map-root-user") {
			ops := cmd.OperandValues()
			if len(ops) == 0 || shell.IsShell(shell.Identity(ops[0])) {
				return true, "unshare -r starts a shell as root of a new user namespace"
			}
		}
	case "ssh", "slogin", "autossh":
		if h, ok := sshRootLoopback(cmd.ParsedOpts); ok {
			return true, c.prog + " logs in as root to this machine (" + h + "): a root shell on the host"
		}
	case "docker", "podman", "nerdctl":
		if !cmd.Is("run") && !cmd.Is("create") && !cmd.Is("container", "run") && !cmd.Is("container", "create") {
			return false, ""
		}
		ops := cmd.OperandValues()
		if len(ops) < 2 {
			return false, ""
		}
		run := shell.Identity(ops[1])
		if run != "chroot" && !shell.IsShell(run) {
			return false, ""
		}
		if cmd.Has("", "privileged") {
			return true, c.prog + " run --privileged with " + run + " is a root shell on the host"
		}
		for _, v := range cmd.Values("v", "volume") {
			if src, _, _ := strings.Cut(v, ":"); src == "/" {
				return true, c.prog + " run with the host root mounted (" + v + ") and " + run + " is a root shell on the host"
			}
		}
		for _, m := range cmd.Values("", "mount") {
			for _, kv := range strings.Split(m, ",") {
				if k, v, _ := strings.Cut(kv, "="); (k == "src" || k == "source") && v == "/" {
					return true, c.prog + " run with the host root mounted (" + m + ") and " + run + " is a root shell on the host"
				}
			}
		}
	}
	return false, ""
}

// sshRootLoopback returns the host of an ssh invocation that logs in as
// root (root@HOST, -l root, -o User=root) to a loopback address of this
// machine (localhost, 127.0.0.0/8, ::1); ssh -G connects nowhere.
func sshRootLoopback(p shell.ParsedOpts) (string, bool) {
	ops := p.OperandValues()
	if len(ops) == 0 || p.Has("G") {
		return "", false
	}
	dest := strings.TrimPrefix(ops[0], "ssh://")
	user, host, ok := strings.Cut(dest, "@")
	if !ok {
		user, host = "", dest
	}
	if v, ok := p.Last("l"); ok && user == "" {
		user = v
	}
	for _, o := range p.Values("o") {
		if k, v, ok := strings.Cut(strings.Replace(o, " ", "=", 1), "="); ok && strings.EqualFold(k, "user") && user == "" {
			user = strings.TrimSpace(v)
		}
	}
	if user != "root" {
		return "", false
	}
	h := strings.ToLower(strings.Trim(hostOf(host, false), "[]"))
	if k := strings.LastIndexByte(h, ':'); k >= 0 && !strings.Contains(h[:k], ":") {
		h = h[:k] // ssh://root@localhost:22
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || h == "localhost.localdomain" || h == "::1" || h == "0.0.0.0" || strings.HasPrefix(h, "127.") {
		return h, true
	}
	return "", false
}

// firstOp is the first operand of a parsed command, "" when none.
func firstOp(cmd *shell.Command) string {
	if ops := cmd.OperandValues(); len(ops) > 0 {
		return ops[0]
	}
	return ""
}

func matchSu(_ *evalCtx, c *call) (bool, string) {
	if c.prog != "su" {
		return false, ""
	}
	return true, "su switches user (an interactive root shell hangs the agent)"
}

// ---------------------------------------------------------------- git

func falseValue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

// gitSub returns the parsed git invocation (global options, -c and
// GIT_CONFIG_* configuration and aliases applied by internal/shell) when
// c runs git subcommand sub, nil otherwise.
func gitSub(c *call, sub string) *shell.Command {
	if c.prog != "git" && c.prog != "hub" {
		return nil
	}
	if cmd := c.inv.Cmd; cmd.SubName() == sub {
		return cmd
	}
	return nil
}

func matchGitPushForce(_ *evalCtx, c *call) (bool, string) {
	g := gitSub(c, "push")
	if g == nil {
		return false, ""
	}
	p := g.ParsedOpts
	switch {
	case p.Has("f", "force"):
		return true, "git push --force rewrites the remote history"
	case p.Has("", "force-with-lease", "force-if-includes"):
		return true, "git push --force-with-lease/--force-if-includes is a force push"
	case p.Has("", "mirror"):
		return true, "git push --mirror overwrites and deletes remote refs"
	}
	for _, op := range p.OperandValues() {
		if strings.HasPrefix(op, "+") {
			return true, "a refspec starting with + is a force push"
		}
	}
	// a push made forced or mirroring by the run's configuration
	for k, v := range g.Config {
		if !strings.HasPrefix(k, "remote.") {
			continue
		}
		switch {
		case strings.HasSuffix(k, ".mirror") && !falseValue(v) && v != "":
			return true, "git push with " + k + "=" + v + " is a mirror push"
		case strings.HasSuffix(k, ".push") && strings.HasPrefix(strings.TrimSpace(v), "+"):
			return true, "git push with " + k + "=" + v + " is a force push"
		}
	}
	return false, ""
}

func matchGitPushPrune(_ *evalCtx, c *call) (bool, string) {
	if g := gitSub(c, "push"); g != nil && g.Has("", "prune") {
		return true, "git push --prune deletes remote branches that no longer exist locally"
	}
	return false, ""
}

func matchGitResetHard(_ *evalCtx, c *call) (bool, string) {
	if g := gitSub(c, "reset"); g != nil && g.Has("", "hard") {
		return true, "git reset --hard throws away uncommitted changes"
	}
	// the plumbing with the same effect: read-tree --reset -u writes the
	// tree over the index and the worktree
	if g := gitSub(c, "read-tree"); g != nil && g.Has("", "reset") && g.Has("u") {
		return true, "git read-tree --reset -u overwrites the worktree like reset --hard (uncommitted changes are lost)"
	}
	return false, ""
}

func matchGitClean(_ *evalCtx, c *call) (bool, string) {
	g := gitSub(c, "clean")
	if g == nil {
		return false, ""
	}
	if g.Has("f", "force") {
		return true, "git clean -f deletes untracked files"
	}
	if v, ok := g.Config["clean.requireforce"]; ok && falseValue(v) {
		return true, "git clean with clean.requireForce=false deletes untracked files"
	}
	return false, ""
}

func matchGitCleanConfig(_ *evalCtx, c *call) (bool, string) {
	g := gitSub(c, "config")
	if g == nil {
		return false, ""
	}
	ops := g.OperandValues()
	if len(ops) > 0 && ops[0] == "set" {
		ops = ops[1:]
	}
	if len(ops) >= 2 && strings.EqualFold(ops[0], "clean.requireForce") && falseValue(ops[1]) {
		return true, "setting clean.requireForce false turns every later git clean into a delete"
	}
	return false, ""
}

// pathspecMagic splits git pathspec magic off p (`:(top,glob)x`, `:/x`,
// `:!x`, `:^x`): rest is the pattern, top whether it is anchored at the
// top of the tree, exclude whether it excludes.
func pathspecMagic(p string) (rest string, top, exclude bool) {
	if !strings.HasPrefix(p, ":") || len(p) < 2 {
		return p, false, false
	}
	if p[1] == '(' {
		end := strings.IndexByte(p, ')')
		if end < 0 {
			return p, false, false
		}
		for _, m := range strings.Split(p[2:end], ",") {
			switch strings.TrimSpace(m) {
			case "top":
				top = true
			case "exclude":
				exclude = true
			}
		}
		return p[end+1:], top, exclude
	}
	i := 1
	for i < len(p) && strings.IndexByte("/!^", p[i]) >= 0 {
		switch p[i] {
		case '/':
			top = true
		case '!', '^':
			exclude = true
		}
		i++
	}
	if i < len(p) && p[i] == ':' {
		i++
	}
	return p[i:], top, exclude
}

// wildcardTree reports a pattern whose every segment is ".", "*" or "**"
// (`**`, `**/*`, `*/*`, `./*`): it matches the whole tree.
func wildcardTree(p string) bool {
	p = strings.Trim(p, "/")
	if p == "" {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg != "" && seg != "." && seg != "*" && seg != "**" {
			return false
		}
	}
	return true
}

// excludeOnly reports pathspecs that are all exclusions (`:!README.md`):
// git then works on everything else, the whole tree.
func excludeOnly(ops []string) bool {
	if len(ops) == 0 {
		return false
	}
	for _, op := range ops {
		if _, _, ex := pathspecMagic(op); !ex {
			return false
		}
	}
	return true
}

// toplevelRe matches a substitution naming the top of the worktree.
var toplevelRe = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile("^[\"']?(?:\\$\\(|`)\\s*git\\s+rev-parse\\s+--show-(?:toplevel|cdup)\\s*(?:\\)|`)[\"']?/?\\.?/?[\"']?$")
}}

// toplevelArg reports an argument given as $(git rev-parse --show-toplevel)
// (or --show-cdup): the whole worktree.
func toplevelArg(c *call) (string, bool) {
	for _, a := range c.inv.Args {
		if !a.Known && toplevelRe.Get().MatchString(a.Raw) {
			return a.Raw, true
		}
	}
	return "", false
}

// wholeTree reports a whole-tree or directory pathspec (checkout/restore).
func wholeTree(p string) bool {
	if rest, top, ex := pathspecMagic(p); !ex && rest != p {
		if rest == "" || top && (rest == "." || rest == "*") {
			return true // `:/`, `:(top)`, `:(top).`
		}
		p = rest
	}
	if wildcardTree(p) {
		return true
	}
	switch p {
	case ":/", ":", "*", ":/*", ":(top)", ":(top).", ":/.", "**", ":*":
		return true
	}
	if p == "" {
		return false
	}
	if strings.HasSuffix(p, "/") {
		return true
	}
	cl := path.Clean(p)
	if cl == "." || cl == ".." || cl == "*" || strings.Trim(cl, "./") == "" {
		return true
	}
	return false
}

// wholeTreeAdd is wholeTree for git add: a named directory is not.
func wholeTreeAdd(p string) bool {
	if rest, top, ex := pathspecMagic(p); !ex && rest != p {
		if rest == "" {
			return top || p == ":"
		}
		p = rest
	}
	if wildcardTree(p) {
		return true
	}
	switch p {
	case ":/", ":", "*", ":/*", ":(top)", ":(top).", ":/.", "**", ":*":
		return true
	}
	if p == "" {
		return false
	}
	cl := path.Clean(p)
	return cl == "." || cl == ".." || cl == "*" || strings.Trim(cl, "./") == ""
}

// isHead reports a revision that names HEAD's own commit: HEAD or @,
// followed by any steps that stay on it — ~0, ^0, @{0} (the newest
// reflog entry is the current value), ^{} and ^{commit} (peeling a commit
// is the commit) — as gitrevisions(7) reads them (`HEAD~0`, `@^0`,
// `HEAD@{0}`, `@{0}`, `HEAD^{}~0`). checkout -f / switch -f to it throws
// away every local change exactly as to HEAD (testdata/corpus/README.md
// §2.4 git_history, the cautious reading).
func isHead(s string) bool {
	rest, ok := strings.CutPrefix(s, "HEAD")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "@"); !ok {
			return false
		}
		if r, ok := strings.CutPrefix(rest, "{0}"); ok {
			rest = r // @{0}: the current branch's newest reflog entry
		}
	}
	for rest != "" {
		n := 0
		for _, step := range []string{"~0", "^0", "@{0}", "^{}", "^{commit}"} {
			if r, ok := strings.CutPrefix(rest, step); ok && (step != "@{0}" || n == 0) {
				rest, n = r, n+1
				break
			}
		}
		if n == 0 {
			return false
		}
	}
	return true
}

// pathspecs returns the pathspecs of a git subcommand: its operands and
// those its --pathspec-from-file names (shell.Command.FromFile).
func pathspecs(g *shell.Command) []string {
	ops := g.OperandValues()
	if len(g.FromFile) == 0 {
		return ops
	}
	return append(ops, g.FromFile...)
}

// checkoutIndexOverWorktree reports a checkout-index --prefix that leaves
// the files where they are (none, "", "./", the working directory
// itself, or a value the guard cannot read): with --all --force every
// tracked file is written over its worktree copy. Another prefix
// (`--prefix=/tmp/export/`, `build/x/`) writes copies there.
func checkoutIndexOverWorktree(m *evalCtx, c *call, g *shell.Command) bool {
	if g.Has("", "temp") {
		return false // temporary files, their names printed
	}
	var opt *shell.Opt
	for i := range g.Opts {
		if o := &g.Opts[i]; o.Long && o.Name == "prefix" && o.HasValue {
			opt = o
		}
	}
	if opt == nil {
		return true
	}
	a := c.inv.Args[opt.ValArg]
	raw := a.Raw
	if opt.ValArg == opt.Arg {
		_, raw, _ = strings.Cut(raw, "=")
	}
	if !a.Known || pwdRe.Get().MatchString(raw) {
		return true
	}
	v := opt.Value
	if v == "" {
		return true
	}
	if !strings.HasSuffix(v, "/") {
		return false // a name prefix (`--prefix=old-`): other files
	}
	if path.Clean(v) == "." {
		return true
	}
	if m != nil && m.ctx.Cwd != "" && c.inv.Dir != shell.DirUnknown && !strings.HasPrefix(c.inv.Dir, "~") {
		dir := c.inv.Dir
		if !path.IsAbs(dir) {
			dir = path.Join(m.ctx.Cwd, dir)
		}
		return path.Join(dir, v) == path.Clean(dir)
	}
	return false
}

func matchGitCheckout(m *evalCtx, c *call) (bool, string) {
	if g := gitSub(c, "checkout-index"); g != nil && g.Has("a", "all") && g.Has("f", "force") && checkoutIndexOverWorktree(m, c, g) {
		// the plumbing of `git checkout -- .`
		return true, "git checkout-index --all --force overwrites every tracked file from the index (local changes are lost)"
	}
	g := gitSub(c, "checkout")
	if g == nil {
		return false, ""
	}
	p := g.ParsedOpts
	for _, op := range pathspecs(g) {
		if wholeTree(op) {
			return true, "git checkout of a whole-tree or directory pathspec (" + op + ") discards local changes"
		}
	}
	if excludeOnly(p.After()) || len(p.After()) == 0 && (excludeOnly(p.Before()) || len(p.Before()) >= 2 && excludeOnly(p.Before()[1:])) {
		return true, "git checkout with only excluding pathspecs discards local changes in every other file"
	}
	if raw, ok := toplevelArg(c); ok {
		return true, "git checkout of the worktree's top (" + raw + ") discards local changes"
	}
	if raw, ok := workDirArg(m, c, g); ok {
		return true, "git checkout of the working directory (" + raw + ") discards local changes"
	}
	if root, ok := treeListing(c); ok {
		return true, "git checkout of every file a listing of " + root + " names discards local changes"
	}
	if p.Has("f", "force") && !p.Has("b") && !p.Has("B") && !p.Has("", "orphan", "pathspec-from-file") {
		if len(p.After()) == 0 && (len(p.Before()) == 0 || (len(p.Before()) == 1 && isHead(p.Before()[0]))) {
			return true, "git checkout --force without another branch throws away every local change"
		}
		// the current branch given by a substitution (as for switch)
		for _, a := range c.inv.Args {
			if !a.Known && currentBranchRe.Get().MatchString(a.Raw) {
				return true, "git checkout --force to the current branch throws away every local change"
			}
		}
	}
	return false, ""
}

// pwdRe matches a word that is the shell's working directory: "$PWD",
// "${PWD}", "$(pwd)", `pwd` (quoted or not, a trailing / or /. allowed).
var pwdRe = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile("^[\"']?(?:\\$PWD|\\$\\{PWD\\}|\\$\\(\\s*pwd\\s*\\)|`\\s*pwd\\s*`)[\"']?/?\\.?/?[\"']?$")
}}

// workDirArg reports a pathspec operand of g that names the directory the
// command runs in (`git checkout -- "$PWD"`, `"$(pwd)"`): the whole tree
// below it.
func workDirArg(m *evalCtx, c *call, g *shell.Command) (string, bool) {
	dir := ""
	if m != nil && m.ctx.Cwd != "" && c.inv.Dir != shell.DirUnknown && !strings.HasPrefix(c.inv.Dir, "~") {
		dir = c.inv.Dir
		if !path.IsAbs(dir) {
			dir = path.Join(m.ctx.Cwd, dir)
		}
	}
	for _, k := range g.Operands {
		a := c.inv.Args[k]
		if pwdRe.Get().MatchString(a.Raw) {
			return a.Raw, true
		}
		if dir != "" && a.Known && path.IsAbs(a.Value) && path.Clean(a.Value) == path.Clean(dir) {
			return a.Raw, true
		}
	}
	return "", false
}

func matchGitRestore(m *evalCtx, c *call) (bool, string) {
	g := gitSub(c, "restore")
	if g == nil {
		return false, ""
	}
	p := g.ParsedOpts
	staged := p.Has("S", "staged")
	worktree := p.Has("W", "worktree") || !staged
	if !worktree {
		return false, ""
	}
	for _, op := range pathspecs(g) {
		if wholeTree(op) {
			return true, "git restore of a whole-tree or directory pathspec (" + op + ") discards local changes"
		}
	}
	if excludeOnly(p.OperandValues()) {
		return true, "git restore with only excluding pathspecs discards local changes in every other file"
	}
	if raw, ok := toplevelArg(c); ok {
		return true, "git restore of the worktree's top (" + raw + ") discards local changes"
	}
	if raw, ok := workDirArg(m, c, g); ok {
		return true, "git restore of the working directory (" + raw + ") discards local changes"
	}
	if root, ok := treeListing(c); ok {
		return true, "git restore of every file a listing of " + root + " names discards local changes"
	}
	return false, ""
}

// treeListing reports pathspecs that come from a listing of a whole tree
// or a directory (`git ls-files -m | xargs git checkout --`, `git restore
// $(git diff --name-only)`): every file there, as the directory pathspec
// itself would be (wholeTree). A listing of named files is not.
func treeListing(c *call) (string, bool) {
	l := c.inv.Listing
	if l == nil {
		return "", false
	}
	for _, r := range l.Roots {
		if wholeTree(r) {
			return r, true
		}
	}
	return "", false
}

// matchReverseApply reports the work tree's own diff applied in reverse
// (testdata/corpus/README.md §9.3 git_history, the effect of `git
// checkout -- .`; checked with git 2.39): `git diff [REV] [-- PATHS] |
// git apply -R` or `| patch -R`, the diff reversed instead (`git diff -R
// | git apply`), `git diff --cached | git apply -R --index`. Not: a check
// or a summary (--check, --stat, --numstat, --summary, patch --dry-run),
// the index only (--cached), another directory (patch -d, -o, git apply
// --directory), a patch file operand, a diff between two commits (REV
// REV, A..B), named files after "--" (as `git checkout -- f.go`), or a
// staged diff reversed in the work tree alone (the index keeps it).
func matchReverseApply(_ *evalCtx, c *call) (bool, string) {
	from := c.inv.PipedFrom
	if from == nil || (from.Program != "git" && from.Program != "hub") || from.Cmd.SubName() != "diff" {
		return false, ""
	}
	d := from.Cmd
	if d.Has("", "name-only", "name-status", "stat", "numstat", "shortstat", "summary", "no-patch", "no-index") || d.Has("s") {
		return false, ""
	}
	revs := d.Before()
	if len(revs) >= 2 || slices.ContainsFunc(revs, func(r string) bool { return strings.Contains(r, "..") }) {
		return false, ""
	}
	if paths := d.After(); len(paths) > 0 && !excludeOnly(paths) && !slices.ContainsFunc(paths, wholeTree) {
		return false, ""
	}
	staged := d.Has("", "cached", "staged")
	reversed := d.Has("R")
	p := c.inv.Cmd.ParsedOpts
	var what string
	switch {
	case gitSub(c, "apply") != nil:
		if p.Has("", "check", "stat", "numstat", "summary") && !p.Has("", "apply") || p.Has("", "cached", "directory") ||
			len(p.OperandValues()) > 0 && !slices.Equal(p.OperandValues(), []string{"-"}) {
			return false, ""
		}
		if staged && !p.Has("", "index") {
			return false, ""
		}
		reversed = reversed != p.Has("R", "reverse")
		what = "git apply"
	case c.prog == "patch" || c.prog == "gpatch":
		if staged || p.Has("", "dry-run") || p.Has("doi", "directory", "output", "input") || len(p.OperandValues()) > 0 {
			return false, ""
		}
		reversed = reversed != p.Has("R", "reverse")
		what = "patch"
	default:
		return false, ""
	}
	if !reversed {
		return false, ""
	}
	return true, subject(from) + " | " + what + " in reverse discards the local changes it lists"
}

var currentBranchRe = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`branch\s+--show-current|rev-parse\s+--abbrev-ref(?:=\w+)?\s+(?:HEAD|@(?:[^{~^\w]|$))|symbolic-ref\s+(--short\s+|-q\s+)*HEAD|name-rev\s+--name-only\s+(?:HEAD|@(?:[^{~^\w]|$))`)
}}

func matchGitSwitch(m *evalCtx, c *call) (bool, string) {
	g := gitSub(c, "switch")
	if g == nil {
		return false, ""
	}
	p := g.ParsedOpts
	if !p.Has("f", "force", "discard-changes") || p.Has("c") || p.Has("C") || p.Has("", "create", "force-create", "orphan") {
		return false, ""
	}
	ops := p.OperandValues()
	if len(ops) == 0 {
		return true, "git switch --force/--discard-changes without a branch change throws away every local change"
	}
	for _, op := range ops {
		if isHead(op) {
			return true, "git switch --force to the current branch throws away every local change"
		}
	}
	// the current branch given by a substitution
	for _, a := range c.inv.Args {
		if !a.Known && currentBranchRe.Get().MatchString(a.Raw) {
			return true, "git switch --force to the current branch throws away every local change"
		}
	}
	return false, ""
}

func matchGitBranch(m *evalCtx, c *call) (bool, string) {
	g := gitSub(c, "branch")
	if g == nil {
		return false, ""
	}
	p := g.ParsedOpts
	if p.Has("D") || (p.Has("d", "delete") && p.Has("f", "force")) {
		return true, "git branch -D force-deletes a branch with unmerged work"
	}
	return false, ""
}

// matchGitWorktreeRemove: `git worktree remove --force` deletes the
// worktree's uncommitted changes and untracked files with it (git refuses
// a dirty worktree without it): git_history's discarding of work
// (testdata/corpus/README.md §2.4, §9 "judge the effect").
func matchGitWorktreeRemove(_ *evalCtx, c *call) (bool, string) {
	if g := gitSub(c, "worktree"); g != nil && g.Is("worktree", "remove") && g.Has("f", "force") {
		return true, "git worktree remove --force deletes the worktree with its uncommitted changes"
	}
	return false, ""
}

func matchGitAmend(m *evalCtx, c *call) (bool, string) {
	if g := gitSub(c, "commit"); g != nil && g.Has("", "amend") {
		return true, "git commit --amend rewrites the last commit"
	}
	return false, ""
}

func matchGitAddAll(m *evalCtx, c *call) (bool, string) {
	g := gitSub(c, "add")
	if g == nil {
		return false, ""
	}
	p := g.ParsedOpts
	if p.Has("A") || p.Has("", "all") {
		return true, "git add -A stages every change in the work tree"
	}
	for _, op := range pathspecs(g) {
		if wholeTreeAdd(op) {
			return true, "git add " + op + " stages every change in the work tree"
		}
	}
	if excludeOnly(p.OperandValues()) {
		return true, "git add with only excluding pathspecs stages every other change in the work tree"
	}
	if raw, ok := toplevelArg(c); ok {
		return true, "git add " + raw + " stages every change in the work tree"
	}
	return false, ""
}

func matchGitHistory(_ *evalCtx, c *call) (bool, string) {
	if c.prog != "git" && c.prog != "hub" {
		return false, ""
	}
	g := c.inv.Cmd
	switch sub := g.SubName(); sub {
	case "filter-branch", "filter-repo":
		return true, "git " + sub + " rewrites history"
	case "reflog":
		if g.Is("reflog", "expire") || g.Is("reflog", "delete") {
			return true, "git reflog " + g.Sub[1] + " destroys the recovery log"
		}
	case "update-ref":
		if g.Has("d", "delete") {
			return true, "git update-ref -d deletes a ref"
		}
		if g.Has("", "stdin") && c.inv.Stdin != nil {
			// update-ref --stdin: `delete REF …` deletes, `update REF NEW OLD` rewrites
			for _, line := range strings.Split(*c.inv.Stdin, "\n") {
				f := strings.Fields(line)
				if len(f) >= 2 && f[0] == "delete" || len(f) >= 4 && f[0] == "update" {
					return true, "git update-ref --stdin " + f[0] + " " + f[1] + " deletes or rewrites a ref"
				}
			}
		}
	}
	return false, ""
}

// ---------------------------------------------------------------- perms

var octal777 = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^[0-7]*777$`) }}

// worldRWX reports whether mode (octal or symbolic) gives rwx to u, g and o.
func worldRWX(mode string) bool {
	if mode == "" {
		return false
	}
	if mode[0] >= '0' && mode[0] <= '7' {
		return octal777.Get().MatchString(mode)
	}
	var perm [3]uint8 // u g o, bits r=4 w=2 x=1
	for _, clause := range strings.Split(mode, ",") {
		i := 0
		var who []int
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			switch clause[i] {
			case 'u':
				who = append(who, 0)
			case 'g':
				who = append(who, 1)
			case 'o':
				who = append(who, 2)
			case 'a':
				who = append(who, 0, 1, 2)
			}
			i++
		}
		if len(who) == 0 {
			who = []int{0, 1, 2}
		}
		if i >= len(clause) {
			return false
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return false
			}
			i++
			var bits uint8
			for i < len(clause) && strings.IndexByte("rwxXstugo", clause[i]) >= 0 {
				switch clause[i] {
				case 'r':
					bits |= 4
				case 'w':
					bits |= 2
				case 'x', 'X':
					bits |= 1
				case 'u':
					bits |= perm[0]
				case 'g':
					bits |= perm[1]
				case 'o':
					bits |= perm[2]
				}
				i++
			}
			for _, wh := range who {
				switch op {
				case '+':
					perm[wh] |= bits
				case '-':
					perm[wh] &^= bits
				case '=':
					perm[wh] = bits
				}
			}
		}
	}
	return perm[0] == 7 && perm[1] == 7 && perm[2] == 7
}

func matchPerms(_ *evalCtx, c *call) (bool, string) {
	switch c.prog {
	case "chmod":
		// the mode is the first operand (the table's chmod row reads
		// '-'-led modes as operands: `chmod -R -w d`)
		if ops := c.inv.Cmd.OperandValues(); len(ops) > 0 && worldRWX(ops[0]) {
			return true, "chmod " + ops[0] + " makes files writable by everyone"
		}
	case "setfacl":
		// an ACL entry giving others (o::, other:) rwx
		p := c.inv.Cmd.ParsedOpts
		for _, spec := range p.Values("m", "modify", "set") {
			for _, e := range strings.Split(spec, ",") {
				f := strings.Split(strings.TrimSpace(e), ":")
				if len(f) >= 2 && (f[0] == "o" || f[0] == "other") && strings.Trim(f[len(f)-1], "rwxX") == "" && strings.Contains(f[len(f)-1], "r") && strings.Contains(f[len(f)-1], "w") && strings.ContainsAny(f[len(f)-1], "xX") {
					return true, "setfacl " + spec + " gives others rwx"
				}
			}
		}
	case "rsync":
		// --chmod=[DF]MODE,… applies to what rsync writes
		for _, spec := range c.inv.Cmd.Values("", "chmod") {
			for _, cl := range strings.Split(spec, ",") {
				if m := strings.TrimLeft(cl, "DF"); worldRWX(m) {
					return true, "rsync --chmod=" + spec + " makes files writable by everyone"
				}
			}
		}
	case "install", "mkdir", "mkfifo", "mknod":
		// the mode the new file, directory, FIFO or node is made with
		for _, mode := range c.inv.Cmd.Values("m", "mode") {
			if worldRWX(mode) {
				return true, c.prog + " with mode " + mode + " makes files writable by everyone"
			}
		}
	}
	return false, ""
}

// ---------------------------------------------------------------- disk

var blockDevRe = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`^/dev/(sd[a-z]|nvme[0-9]|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk[0-9]|r?disk[0-9]|loop[0-9]|dm-[0-9]|md[0-9]|md/.|mapper/.|disk/by-[^/]+/.|nbd[0-9]|zd[0-9]|rbd[0-9]|bcache[0-9])`)
}}

// blockDevice reports whether p names a block device (testdata/corpus/README.md §2.4 disk).
func blockDevice(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	cl := path.Clean(p)
	if cl == "/dev/mapper/control" {
		return false
	}
	return blockDevRe.Get().MatchString(cl)
}

func matchDD(_ *evalCtx, c *call) (bool, string) {
	if c.prog != "dd" {
		return false, ""
	}
	for _, a := range c.args {
		if strings.HasPrefix(a, "if=") {
			return true, "dd copies raw data (" + a + ")"
		}
	}
	for _, a := range c.args {
		if strings.HasPrefix(a, "of=") && blockDevice(a[3:]) {
			return true, "dd writes the block device " + a[3:]
		}
	}
	return false, ""
}

func matchMkfs(_ *evalCtx, c *call) (bool, string) {
	switch {
	case c.prog == "mkfs" || strings.HasPrefix(c.prog, "mkfs."),
		c.prog == "mke2fs" || c.prog == "mkdosfs" || c.prog == "mkntfs" || c.prog == "mkswap":
		return true, c.prog + " creates a file system (erasing the target)"
	}
	return false, ""
}

func writeOps(s string) bool {
	switch s {
	case ">", ">>", ">|", "&>", "&>>", "<>", ">&":
		return true
	}
	return false
}

func matchBlockWrite(m *evalCtx, c *call) (bool, string) {
	for _, r := range c.inv.Redirects {
		if writeOps(r.Op) && blockDevice(r.Target.Value) {
			return true, "a redirection writes the block device " + r.Target.Value
		}
	}
	if name, dev, ok := madeDeviceWrite(m, c); ok {
		return true, c.prog + " writes " + name + ", made earlier in the command to stand for the block device " + dev
	}
	if code := c.inv.Code; code != nil {
		// interpreter code that opens a block device for writing
		// (`open("/dev/sdb", "wb")`, §9.3)
		for _, f := range code.Files {
			if (f.Op == codelex.Write || f.Op == codelex.Append) && f.Path.Known() && blockDevice(f.Path.S) {
				return true, c.prog + " code calls " + f.Func + " on the block device " + f.Path.S
			}
		}
	}
	switch c.prog {
	case "tee":
		for _, a := range c.args {
			if blockDevice(a) {
				return true, "tee writes the block device " + a
			}
		}
	case "cp", "install":
		// the target directory (-t DIR, -tDIR, -ft DIR, --target-directory=DIR,
		// --target-dir DIR) or the last of two operands or more
		p := c.inv.Cmd.ParsedOpts
		for _, d := range p.Values("t", "target-directory") {
			if blockDevice(d) {
				return true, c.prog + " writes the block device " + d
			}
		}
		if ops := p.OperandValues(); len(ops) >= 2 && blockDevice(ops[len(ops)-1]) {
			return true, c.prog + " writes the block device " + ops[len(ops)-1]
		}
	default:
		if d, ok := deviceTarget(c); ok {
			return true, c.prog + " writes the block device " + d + " (cautious reading: a file copied onto a disk)"
		}
	}
	return false, ""
}

// madeDeviceWrite reports a write by c (a redirection, tee's files, cp's
// or install's target, dd of=) to a name an earlier invocation of the
// same command made to stand for a block device: a link to one (`ln -s
// /dev/sdb t.img`, also a link to such a name) or a block device node
// (`mknod d b 8 16`): the write goes to the disk (testdata/corpus/README.md
// §2.4 disk, §9.4 "made earlier"). It returns the name and the device.
func madeDeviceWrite(m *evalCtx, c *call) (name, dev string, ok bool) {
	var targets []string
	for _, r := range c.inv.Redirects {
		if writeOps(r.Op) {
			targets = append(targets, r.Target.Value)
		}
	}
	switch c.prog {
	case "tee":
		targets = append(targets, c.inv.Cmd.OperandValues()...)
	case "cp", "install":
		p := c.inv.Cmd.ParsedOpts
		targets = append(targets, p.Values("t", "target-directory")...)
		if ops := p.OperandValues(); len(ops) >= 2 {
			targets = append(targets, ops[len(ops)-1])
		}
	case "dd":
		for _, a := range c.args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				targets = append(targets, v)
			}
		}
	}
	if len(targets) == 0 || m == nil || m.res == nil {
		return "", "", false
	}
	made := madeDevices(m.res.Invocations[:min(c.index, len(m.res.Invocations))])
	for _, t := range targets {
		if d, ok := made[madeName(c.inv.Dir, t)]; ok {
			return t, d, true
		}
	}
	return "", "", false
}

// madeName is the key of a file name given in directory dir (an
// Invocation's Dir) among the names madeDevices returns.
func madeName(dir, name string) string {
	if path.IsAbs(name) || dir == "" || dir == shell.DirUnknown {
		return path.Clean(name)
	}
	return path.Join(dir, name)
}

// madeDevices maps each name that invs make to stand for a block device
// to that device: the new names of `ln [-s] DEV NAME`, `ln -s DEV… DIR`
// (DIR/base), `ln -t DIR DEV…`, `ln -s DEV` (./base), whose DEV is a
// block device or a name made so before, and the NAME of `mknod NAME b
// MAJOR MINOR`. A name given as a directory may be one (NAME and
// NAME/base both count).
func madeDevices(invs []shell.Invocation) map[string]string {
	made := map[string]string{}
	for i := range invs {
		inv := &invs[i]
		if inv.Cmd == nil {
			continue
		}
		p := inv.Cmd.ParsedOpts
		ops := p.OperandValues()
		switch inv.Program {
		case "ln", "gln":
			dev := func(t string) (string, bool) {
				if blockDevice(t) {
					return t, true
				}
				d, ok := made[madeName(inv.Dir, t)]
				return d, ok
			}
			dirs := p.Values("t", "target-directory")
			srcs := ops
			if len(dirs) == 0 && len(ops) >= 2 {
				dirs, srcs = ops[len(ops)-1:], ops[:len(ops)-1]
			} else if len(dirs) == 0 {
				dirs = []string{"."}
			}
			for _, src := range srcs {
				d, ok := dev(src)
				if !ok {
					continue
				}
				for _, dir := range dirs {
					made[madeName(inv.Dir, path.Join(dir, path.Base(src)))] = d
					if len(srcs) == 1 && len(ops) >= 2 {
						made[madeName(inv.Dir, dir)] = d
					}
				}
			}
		case "mknod":
			if len(ops) >= 2 && ops[1] == "b" {
				made[madeName(inv.Dir, ops[0])] = "node " + strings.Join(ops[1:], " ")
			}
		}
	}
	return made
}

// deviceReaders are programs whose operands are all inputs (or a mount
// point) or that only query a device: a block device among them is read,
// not written. The disk tools with rules of their own (wipefs, sgdisk,
// cryptsetup, nvme, hdparm, mdadm, …) are judged by those rules.
func deviceReaders(s string) bool {
	switch s {
	case "cat", "pv", "less", "more", "head", "tail", "grep", "cmp", "diff", "ls", "stat", "file", "md5sum",
		"sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "hexdump", "od", "xxd", "strings", "wc", "lsblk",
		"blkid", "smartctl", "udevadm", "mount", "umount", "findmnt", "ln", "readlink", "realpath", "test", "[",
		"echo", "printf", "losetup", "fsck", "e2fsck", "partprobe", "eject", "sync", "fdisk", "gdisk", "parted",
		"sfdisk", "sgdisk", "blockdev", "iostat", "dumpe2fs", "tune2fs", "xfs_info", "pvs", "pvdisplay", "pvscan",
		"vgs", "lvs", "lvdisplay", "vgdisplay", "udisksctl", "sg_inq", "hdparm", "nvme", "wipefs", "cryptsetup",
		"mdadm", "badblocks", "zpool", "shred", "blkdiscard", "dd", "tee", "cp", "install", "isoinfo", "debugfs":
		return true
	}
	return false
}

// outputOpts are the option names (after their dashes) whose value is what
// a program writes: `-o F`, `-O F` (wget), `-out F` (openssl), `--output=F`,
// `of=F` (dd-style), `--target=F`, `--device=F`.
func outputOpts(s string) bool {
	switch s {
	case "o", "O", "of", "out", "output", "outfile", "output-file", "output-document", "target", "device",
		"dest", "destination":
		return true
	}
	return false
}

// deviceTarget is the cautious default of testdata/corpus/README.md §9.1
// for the disk family. Any program that is not a known reader and names a
// block device as its output (`-o DEV`, `-qO DEV`, `-out DEV`,
// `--output=DEV`, `of=DEV`), as an address of a relay (`FILE:DEV`), or as
// its last operand after a file or another device (`ddrescue os.img
// /dev/sdb`, `clonetool /dev/sda /dev/sdb`) writes that device; a program
// the model does not know at all (no row in the program table) writes any
// block device handed to it as an operand or an option value (`zpool
// create tank /dev/sdb`, `flash --dev=/dev/sdb`) unless it comes before a
// file operand, the destination of a copy (`rescue /dev/sda disk.img`). A
// known program's device alone (`iostat -x /dev/sda`) or first is read.
func deviceTarget(c *call) (string, bool) {
	if deviceReaders(c.prog) || c.prog == "" {
		return "", false
	}
	// the files the program table says it writes (`wget -O DEV`,
	// `openssl … -out DEV`, `ffmpeg -i IN DEV`), and socat's file addresses
	var files []string
	if c.inv.Cmd != nil && c.inv.Cmd.Row != nil && !c.inv.Cmd.Row.Writes.Meta {
		// a mode, owner or ACL change writes no data to a device
		files, _ = c.inv.Cmd.Written(c.inv.Stdin, c.inv.Env)
	}
	if c.prog == "socat" {
		for _, f := range shell.SocatFiles(c.inv.Cmd.ParsedOpts) {
			if f.Write {
				files = append(files, f.Path)
			}
		}
	}
	for _, f := range files {
		if blockDevice(f) {
			return f, true
		}
	}
	// the cautious default beyond what the table says, on the options as
	// the model parses them (an unknown program's by shell.OptSpec.Guess:
	// `-out=DEV`, `-O/dev/sdb`)
	cmd := c.inv.Command()
	unknown := cmd.Prog == nil
	if cmd.Prog != nil && cmd.Prog.Runs.Remote && cmd.Row != nil && cmd.Row.Kind == shell.KindRun && len(cmd.Operands) >= 2 {
		// a container runner given IMAGE CMD…: its options (--device DEV)
		// hand the device to the container, and the command it runs there
		// is judged on its own (testdata/corpus/README.md §2.1 containers);
		// without CMD the image's entrypoint gets the device (cautious)
		return "", false
	}
	if d, ok := optionDevice(c, cmd, unknown); ok {
		return d, true
	}
	// dd-style key=value operands before "--" (`of=DEV`)
	for _, i := range cmd.Operands {
		if cmd.End >= 0 && i > cmd.End {
			break
		}
		a := c.args[i]
		if k, v, ok := strings.Cut(a, "="); ok && k != "" && !strings.HasPrefix(a, "/") && (unknown || outputOpts(k)) {
			if d, ok := addressDevice(v); ok {
				return d, true
			}
		}
	}
	var ops []string
	if c.inv.Cmd != nil {
		ops = c.inv.Cmd.OperandValues()
	}
	if len(ops) == 0 {
		return "", false
	}
	last, ok := addressDevice(ops[len(ops)-1])
	if unknown && !ok {
		// a device before a file operand is the source of a copy
		// (`rescue /dev/sda disk.img`); any other is written
		for _, o := range ops[:len(ops)-1] {
			if d, isDev := addressDevice(o); isDev && !strings.ContainsAny(ops[len(ops)-1], "./") {
				return d, true
			}
		}
	}
	if !ok {
		return "", false
	}
	if unknown {
		return last, true
	}
	for _, o := range ops[:len(ops)-1] {
		if d, ok := addressDevice(o); ok && d != last {
			return last, true // one device copied onto another
		}
		if strings.ContainsAny(o, "./") && !strings.HasPrefix(o, "/dev/") {
			return last, true
		}
	}
	return "", false
}

// optionDevice is a block device given to an output option of cmd (any
// option of an unknown program) as its value (`--output=DEV`, `-O/dev/sdb`,
// `FILE:DEV`), or in the operand after an output option that takes none
// in the model: `-o DEV`, a cluster ending in the letter (`-qO DEV`), an
// unknown program's one-dash name (`-out DEV`, the cluster's letters).
func optionDevice(c *call, cmd *shell.Command, unknown bool) (string, bool) {
	dev := ""
	cmd.AllOpts(func(p *shell.ParsedOpts, o *shell.Opt) bool {
		if o.HasValue {
			if d, ok := addressDevice(o.Value); ok && (unknown || outputOpts(o.Name)) {
				dev = d
			}
			return dev == ""
		}
		k := slices.IndexFunc(p.Opts, func(q shell.Opt) bool { return q.Arg == o.Arg })
		n := k
		for n < len(p.Opts) && p.Opts[n].Arg == o.Arg {
			n++
		}
		if &p.Opts[n-1] != o {
			return true // not the last option of its word
		}
		name := o.Name
		if !o.Long && n-k > 1 {
			var b strings.Builder
			for _, q := range p.Opts[k:n] {
				b.WriteString(q.Name)
			}
			if outputOpts(b.String()) {
				name = b.String() // `-out DEV` of a program without a row
			}
		}
		if !outputOpts(name) {
			return true
		}
		if slices.Contains(p.Operands, o.Arg+1) && blockDevice(c.args[o.Arg+1]) {
			dev = c.args[o.Arg+1]
		}
		return dev == ""
	})
	return dev, dev != ""
}

// addressDevice is the block device a word names: the word itself, or
// the path of a relay address (`FILE:/dev/sdb`, `OPEN:/dev/sdb,creat`,
// `file:///dev/sdb`).
func addressDevice(a string) (string, bool) {
	if blockDevice(a) {
		return a, true
	}
	if strings.HasPrefix(a, "file:///dev/") {
		return addressDevice(a[len("file://"):])
	}
	k := strings.Index(a, ":/dev/")
	if k <= 0 {
		return "", false
	}
	for _, r := range a[:k] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_') {
			return "", false
		}
	}
	d := a[k+1:]
	if j := strings.IndexByte(d, ','); j >= 0 {
		d = d[:j]
	}
	if blockDevice(d) {
		return d, true
	}
	return "", false
}

func anyBlockDev(args []string) (string, bool) {
	for _, a := range args {
		if blockDevice(a) {
			return a, true
		}
	}
	return "", false
}

// labelWrite reports whether the invocation writes a new label,
// superblock or metadata onto the block devices among its operands (a
// pool, an array, a physical volume: the disk's data is gone) and what
// does it: a subcommand (`zpool create`, `bcache make`), a mode option of
// mdadm (-C/--create, -B/--build, -G/--grow, --add, --zero-superblock, as
// the option model reads them: bundled, abbreviated) or the program
// itself (pvcreate, vgcreate …); its other verbs only read (`zpool
// status`, `mdadm --detail`). Cautious reading by effect
// (testdata/corpus/README.md §9.1, §9.3 disk).
func labelWrite(c *call) (string, bool) {
	cmd := c.inv.Command()
	first := ""
	if len(cmd.Operands) > 0 {
		first = c.args[cmd.Operands[0]]
	}
	switch c.prog {
	case "zpool":
		switch first {
		case "create", "add", "attach", "replace", "labelclear", "split", "initialize":
			return "zpool " + first, true
		}
	case "bcache":
		if first == "make" {
			return "bcache make", true
		}
	case "mdadm":
		for _, m := range []struct{ short, long string }{{"C", "create"}, {"B", "build"}, {"", "zero-superblock"}, {"", "add"}, {"G", "grow"}} {
			if cmd.AnyHas(m.short, m.long) {
				return "mdadm --" + m.long, true
			}
		}
	case "pvcreate", "pvremove", "vgcreate", "vgextend", "mkraid", "make-bcache":
		return c.prog, true
	}
	return "", false
}

func matchWipe(_ *evalCtx, c *call) (bool, string) {
	if what, ok := labelWrite(c); ok {
		if d, ok := anyBlockDev(c.args); ok {
			return true, what + " writes a new label over the block device " + d
		}
	}
	switch c.prog {
	case "wipefs":
		p := c.inv.Cmd.ParsedOpts
		if p.Has("ao", "all", "offset") && !p.Has("n", "no-act") {
			return true, "wipefs erases file-system signatures"
		}
	case "blkdiscard":
		return true, "blkdiscard discards every block of the device"
	case "sgdisk":
		if c.inv.Cmd.Has("Zzo", "zap-all", "zap", "clear") {
			return true, "sgdisk wipes the partition table"
		}
	case "shred":
		if d, ok := anyBlockDev(c.args); ok {
			return true, "shred overwrites the block device " + d
		}
	case "cryptsetup":
		switch sub := firstOp(c.inv.Cmd); sub {
		case "luksFormat", "erase", "luksErase", "reencrypt":
			return true, "cryptsetup " + sub + " destroys the device's data or keys"
		}
	case "sfdisk":
		p := c.inv.Cmd.ParsedOpts
		if p.Has("lsdJ", "list", "show-size", "dump", "json", "verify", "help", "version") && !p.Has("", "delete") {
			return false, ""
		}
		if p.Has("f", "force", "delete") {
			return true, "sfdisk rewrites the partition table"
		}
		if c.inv.Stdin != nil {
			return true, "sfdisk with a script on stdin rewrites the partition table"
		}
		for _, r := range c.inv.Redirects {
			if r.Op == "<" && (r.Fd == "" || r.Fd == "0") {
				return true, "sfdisk with a script on stdin rewrites the partition table"
			}
		}
	case "badblocks":
		if c.inv.Cmd.Has("w", "") {
			return true, "badblocks -w overwrites every block of the device"
		}
	case "nvme":
		if sub := firstOp(c.inv.Cmd); sub == "format" || sub == "sanitize" {
			return true, "nvme " + sub + " erases the drive"
		}
	case "hdparm":
		for _, o := range c.inv.Cmd.Opts {
			if o.Long && (strings.HasPrefix(o.Name, "security-erase") || o.Name == "trim-sector-ranges" || o.Name == "trim-sector-ranges-stdin") {
				return true, "hdparm --" + o.Name + " erases data on the drive"
			}
		}
	case "fdisk", "gdisk", "cgdisk", "diskutil":
		if c.prog == "diskutil" {
			return diskutilErase(c)
		}
		if c.inv.Cmd.Has("l", "list") {
			return false, ""
		}
		if stdinScript(c) {
			return true, c.prog + " with a script on stdin rewrites the partition table"
		}
	case "lvremove", "vgremove", "pvremove":
		// LVM asks before it removes a volume; -y/--yes or -f/--force
		// answer for the user and the volume's data is gone (§9.3)
		if p := c.inv.Cmd.ParsedOpts; p.Has("yf", "yes", "force") && len(p.Operands) > 0 {
			return true, c.prog + " removes the volume " + c.args[p.Operands[0]] + " and its data without asking"
		}
	case "parted":
		if _, ok := anyBlockDev(c.args); ok && stdinScript(c) {
			return true, "parted with a script on stdin rewrites the partition table"
		}
		for _, a := range c.args {
			switch a {
			case "mklabel", "mktable", "mkpart", "rm", "resizepart", "mkfs", "mkpartfs", "resize":
				return true, "parted " + a + " rewrites the partition table"
			}
		}
	}
	return false, ""
}

// stdinScript reports whether c reads a script on stdin: a known stdin
// (pipe from a literal producer, heredoc, here-string) or a file redirected
// to fd 0.
func stdinScript(c *call) bool {
	if c.inv.Stdin != nil {
		return true
	}
	for _, r := range c.inv.Redirects {
		if (r.Op == "<" || r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<") && (r.Fd == "" || r.Fd == "0") {
			return true
		}
	}
	return false
}

// diskutilErasers are the diskutil verbs (case-insensitive, as diskutil
// reads them) that erase or repartition a disk or volume.
func diskutilErasers(s string) bool {
	switch s {
	case "erasedisk", "erasevolume", "partitiondisk", "zerodisk", "randomdisk", "secureerase", "reformat",
		"splitpartition", "mergepartitions", "resizevolume", "deletecontainer", "deletevolume", "eraseeverything":
		return true
	}
	return false
}

func diskutilErase(c *call) (bool, string) {
	ops := c.inv.Cmd.OperandValues()
	for i, o := range ops {
		if i > 1 {
			break
		}
		if diskutilErasers(strings.ToLower(o)) {
			return true, "diskutil " + o + " erases or repartitions a disk"
		}
	}
	return false, ""
}

// ---------------------------------------------------------------- production

func hasProd(s string) bool { return strings.Contains(strings.ToLower(s), "prod") }

// hostOf extracts the host from [user@]host[:path] / [user@]host.
func hostOf(s string, colonPath bool) string {
	if strings.HasPrefix(s, "ssh://") || strings.HasPrefix(s, "rsync://") || strings.HasPrefix(s, "sftp://") {
		s = s[strings.Index(s, "://")+3:]
		if k := strings.IndexByte(s, '/'); k >= 0 {
			s = s[:k]
		}
	}
	if k := strings.LastIndexByte(s, '@'); k >= 0 {
		s = s[k+1:]
	}
	if colonPath {
		if strings.HasPrefix(s, "[") {
			if k := strings.IndexByte(s, ']'); k >= 0 {
				return s[1:k]
			}
		}
		if k := strings.IndexByte(s, ':'); k >= 0 {
			return s[:k]
		}
	}
	return s
}

// remoteOperand reports whether an scp/rsync operand names a remote host.
func remoteOperand(s string) (string, bool) {
	if strings.Contains(s, "://") {
		return hostOf(s, true), true
	}
	k := strings.IndexByte(s, ':')
	if k <= 0 {
		return "", false
	}
	if sl := strings.IndexByte(s, '/'); sl >= 0 && sl < k {
		return "", false
	}
	return hostOf(s, true), true
}

func jumpHosts(v string) []string {
	var hs []string
	for _, h := range strings.Split(v, ",") {
		h = hostOf(h, false)
		if k := strings.IndexByte(h, ':'); k >= 0 {
			h = h[:k]
		}
		hs = append(hs, h)
	}
	return hs
}

// sshOptHosts returns a production host the connection goes to or
// through: given by -J, -W, an -o ProxyJump=/HostName= option, or the
// HostName/ProxyJump of a configuration file the command wrote for the
// target (shell.Command.Config, ssh -F).
func sshOptHosts(p shell.ParsedOpts, cfg map[string]string) (string, bool) {
	for _, key := range []string{"hostname", "proxyjump"} {
		for _, h := range jumpHosts(cfg[key]) {
			if hasProd(h) {
				return h, true
			}
		}
	}
	// -J jump hosts, and -W HOST:PORT (stdio forwarded to HOST: the
	// connection reaches it through the named host)
	for _, v := range append(p.Values("J"), p.Values("W")...) {
		for _, h := range jumpHosts(v) {
			if hasProd(h) {
				return h, true
			}
		}
	}
	for _, opt := range p.Values("o") {
		lo := strings.ToLower(opt)
		if strings.HasPrefix(lo, "proxyjump") || strings.HasPrefix(lo, "hostname") {
			v := strings.TrimLeft(opt[strings.IndexAny(lo+"=", "= ")+1:], " =")
			for _, h := range jumpHosts(v) {
				if hasProd(h) {
					return h, true
				}
			}
		}
	}
	return "", false
}

func matchProdHost(_ *evalCtx, c *call) (bool, string) {
	p := c.inv.Cmd.ParsedOpts
	switch c.prog {
	case "ssh", "slogin", "autossh", "mosh", "sftp":
		if c.prog != "mosh" && c.prog != "sftp" && p.Has("G") {
			return false, "" // ssh -G prints the configuration it would use and exits: no connection
		}
		if h, ok := sshOptHosts(p, c.inv.Cmd.Config); ok {
			return true, "the connection goes to or through " + h + ", a production host"
		}
		// the host is the first operand (the rest is the remote command)
		if ops := p.OperandValues(); len(ops) > 0 {
			if h := hostOf(ops[0], c.prog == "sftp"); hasProd(h) {
				return true, "host " + h + " is production"
			}
		}
	case "ssh-copy-id":
		// ssh-copy-id … [USER@]HOST logs in to HOST over ssh
		if h, ok := sshOptHosts(p, nil); ok {
			return true, "the connection goes to or through " + h + ", a production host"
		}
		if ops := p.OperandValues(); len(ops) > 0 {
			if h := hostOf(ops[len(ops)-1], false); hasProd(h) {
				return true, "ssh-copy-id logs in to the production host " + h
			}
		}
	case "scp", "rsync", "sshfs":
		if h, ok := sshOptHosts(p, nil); ok {
			return true, "the connection goes to or through " + h + ", a production host"
		}
		for _, op := range p.OperandValues() {
			if h, ok := remoteOperand(op); ok && hasProd(h) {
				return true, "host " + h + " is production"
			}
		}
	}
	return false, ""
}

// prodValue returns "--name value" for the first option named one of
// names whose value contains prod.
func prodValue(p shell.ParsedOpts, shorts string, names ...string) (string, bool) {
	for _, o := range p.Opts {
		if !o.HasValue || !hasProd(o.Value) {
			continue
		}
		if !o.Long && len(o.Name) == 1 && strings.IndexByte(shorts, o.Name[0]) >= 0 {
			return "-" + o.Name + " " + o.Value, true
		}
		if o.Long && !o.Ambiguous && slices.Contains(names, o.Name) {
			return "--" + o.Name + " " + o.Value, true
		}
	}
	return "", false
}

func matchProdKube(_ *evalCtx, c *call) (bool, string) {
	var shorts string
	var names []string
	switch c.prog {
	case "kubectl", "oc", "kubecolor":
		// kubecolor runs kubectl with its arguments
		shorts, names = "s", []string{"context", "kubeconfig", "cluster", "user", "server"}
	case "helm", "helmfile":
		// helmfile hands --kube-context to the helm it runs
		names = []string{"kube-context", "kubeconfig", "kube-apiserver"}
	default:
		return false, ""
	}
	// the cluster options may stand before or after the subcommand
	s, ok := prodValue(c.inv.Cmd.ParsedOpts, shorts, names...)
	if !ok {
		s, ok = prodValue(c.inv.Cmd.Global, shorts, names...)
	}
	if ok {
		return true, c.prog + " " + s + " selects a production cluster"
	}
	env := []string{"KUBECONFIG"}
	if c.prog == "helm" {
		// helm's environment forms of --kube-context / --kube-apiserver
		env = append(env, "HELM_KUBECONTEXT", "HELM_KUBEAPISERVER")
	}
	for _, k := range env {
		if v := c.inv.Env[k]; hasProd(v) {
			return true, k + "=" + v + " selects a production cluster"
		}
	}
	return false, ""
}

func matchProdAWS(_ *evalCtx, c *call) (bool, string) {
	switch c.prog {
	case "aws":
		// the profile may stand before or after the subcommands
		if s, ok := prodValue(c.inv.Cmd.ParsedOpts, "", "profile"); ok {
			return true, "aws " + s + " uses a production profile"
		}
		if s, ok := prodValue(c.inv.Cmd.Global, "", "profile"); ok {
			return true, "aws " + s + " uses a production profile"
		}
		for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE"} {
			if v := c.inv.Env[k]; hasProd(v) {
				return true, k + "=" + v + " uses a production profile"
			}
		}
	case "aws-vault", "granted", "assume":
		// aws-vault exec PROFILE, granted sso/assume PROFILE: the first
		// operand after the subcommand (aws-vault) or the first (assume)
		ops := c.inv.Cmd.OperandValues()
		if c.prog == "aws-vault" && !c.inv.Cmd.Is("exec") {
			return false, ""
		}
		for _, op := range ops {
			if hasProd(op) {
				return true, c.prog + " " + op + " uses a production profile"
			}
			break
		}
	}
	return false, ""
}

func matchProdDocker(_ *evalCtx, c *call) (bool, string) {
	switch c.prog {
	case "docker", "podman", "docker-compose", "nerdctl":
	default:
		return false, ""
	}
	g := c.inv.Cmd.Global
	if len(c.inv.Cmd.Sub) == 0 {
		g = c.inv.Cmd.ParsedOpts
	}
	if s, ok := prodValue(g, "Hc", "host", "context"); ok {
		return true, c.prog + " " + s + " targets a production docker host"
	}
	for _, k := range []string{"DOCKER_HOST", "DOCKER_CONTEXT"} {
		if v := c.inv.Env[k]; hasProd(v) {
			return true, k + "=" + v + " targets a production docker host"
		}
	}
	return false, ""
}

// dbHostURI matches a database URI's host part (postgres://user@HOST/…).
var dbHostURI = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss)://(?:[^@/]*@)?([^/:?]+)`)
}}

func matchProdDB(_ *evalCtx, c *call) (bool, string) {
	var shorts string
	var longs []string
	switch c.prog {
	case "psql", "pg_dump", "pg_restore", "pg_dumpall":
		shorts, longs = "h", []string{"host", "dbname"}
	case "mysql", "mysqldump", "mariadb":
		shorts, longs = "h", []string{"host"}
	case "dropdb", "createdb":
		shorts, longs = "h", []string{"host", "maintenance-db"}
	case "clickhouse-client":
		shorts, longs = "h", []string{"host"}
	case "redis-cli", "valkey-cli", "keydb-cli":
		shorts, longs = "hu", nil
	case "cqlsh":
		// cqlsh [OPTIONS] [HOST [PORT]]: the first operand is the host
		if h := firstOp(c.inv.Cmd); hasProd(h) {
			return true, "cqlsh connects to the production host " + h
		}
		return false, ""
	case "mongosh", "mongo":
		longs = []string{"host"}
	default:
		return false, ""
	}
	p := c.inv.Cmd.ParsedOpts
	for _, o := range p.Opts {
		if !o.HasValue {
			continue
		}
		if (!o.Long && strings.IndexByte(shorts, o.Name[0]) >= 0 || o.Long && slices.Contains(longs, o.Name)) && dbProd(o.Value, o.Name != "dbname" && o.Name != "maintenance-db") {
			return true, c.prog + " connects to the production host " + o.Value
		}
	}
	for _, op := range p.OperandValues() {
		if dbProd(op, false) {
			return true, c.prog + " connects to the production host in " + op
		}
	}
	if v := c.inv.Env["PGHOST"]; c.prog == "psql" && hasProd(v) {
		return true, "PGHOST=" + v + " is a production host"
	}
	return false, ""
}

// dbProd reports a database URI or conninfo string whose host names
// production, or (plain) a host value that does.
func dbProd(v string, plain bool) bool {
	if m := dbHostURI.Get().FindStringSubmatch(v); m != nil {
		return hasProd(m[1])
	}
	if k := strings.Index(v, "host="); k >= 0 { // psql "host=… dbname=…"
		h, _, _ := strings.Cut(v[k+5:], " ")
		return hasProd(h)
	}
	return plain && hasProd(v)
}

// ---------------------------------------------------------------- harness_admin

// harnessSub returns the subcommand words of a harness invocation after
// its global options (the table's harness rows parse them): the words
// from the first subcommand on.
func harnessSub(c *call) []string {
	if at := c.inv.Cmd.SubAt; len(at) > 0 {
		return c.args[at[0]:]
	}
	return nil
}

// harnessHelp reports a --help/-h at any level of a harness invocation.
func harnessHelp(cmd *shell.Command) bool { return cmd.AnyHas("h", "help") }

func matchHarnessAdmin(m *evalCtx, c *call) (bool, string) {
	if m.ctx.Feature == "" || c.prog != "harness" {
		return false, ""
	}
	sub := harnessSub(c)
	if len(sub) == 0 || harnessHelp(c.inv.Cmd) {
		return false, ""
	}
	if roles.GeneratorMayRun(sub) {
		return false, ""
	}
	return true, "harness " + strings.Join(sub[:min(2, len(sub))], " ") + " is reserved for Hermes or the user"
}

func matchHarnessOtherFeature(m *evalCtx, c *call) (bool, string) {
	if m.ctx.Feature == "" || c.prog != "harness" || !writesState(c.inv.Cmd) {
		return false, ""
	}
	cmd := c.inv.Cmd
	// the last --feature at any level; phase complete's FID operand wins
	var other string
	cmd.AllOpts(func(_ *shell.ParsedOpts, o *shell.Opt) bool {
		if o.Long && o.Name == "feature" && o.HasValue {
			other = o.Value
		}
		return true
	})
	if cmd.Is("phase", "complete") {
		if ops := cmd.OperandValues(); len(ops) > 0 {
			other = ops[0]
		}
	}
	if other != "" && other != m.ctx.Feature {
		return true, "harness " + strings.Join(cmd.Sub, " ") + " for feature " + other + " (this session is " + m.ctx.Feature + ")"
	}
	return false, ""
}

// ---------------------------------------------------------------- warn_external

func writeMethod(m string) bool {
	m = strings.ToUpper(strings.TrimSpace(m))
	return m == "DELETE" || m == "PUT"
}

func matchHTTPWrite(_ *evalCtx, c *call) (bool, string) {
	cmd := c.inv.Cmd
	p := cmd.ParsedOpts
	switch c.prog {
	case "curl":
		for _, m := range p.Values("X", "request") {
			if writeMethod(m) {
				return true, "curl -X " + m + " changes a remote resource"
			}
		}
		if p.Has("T", "upload-file") {
			return true, "curl -T/--upload-file uploads a file (PUT)"
		}
	case "wget":
		for _, m := range p.Values("", "method") {
			if writeMethod(m) {
				return true, "wget --method=" + m + " changes a remote resource"
			}
		}
	case "http", "https", "xh", "xhs":
		// HTTPie: [options] [METHOD] URL [ITEM…]
		if ops := p.OperandValues(); len(ops) > 0 && writeMethod(ops[0]) {
			return true, c.prog + " " + ops[0] + " changes a remote resource"
		}
	case "gh":
		if cmd.Is("api") {
			for _, m := range p.Values("X", "method") {
				if writeMethod(m) {
					return true, "gh api -X " + m + " changes a remote resource"
				}
			}
		}
	}
	return false, ""
}

// registryRef reports an image reference in a registry transport
// (containers-transports(5): docker://, oci-archive is local).
func registryRef(v string) bool {
	return strings.HasPrefix(v, "docker://")
}

func matchPublish(_ *evalCtx, c *call) (bool, string) {
	cmd := c.inv.Cmd
	pub := func(what string) (bool, string) { return true, what + " publishes to a public registry" }
	first := func() string {
		if ops := cmd.OperandValues(); len(ops) > 0 {
			return ops[0]
		}
		return ""
	}
	sub := cmd.SubName()
	switch c.prog {
	case "npm":
		if sub == "publish" || sub == "unpublish" {
			return pub("npm " + sub)
		}
	case "yarn":
		if sub == "publish" || cmd.Is("npm") && first() == "publish" {
			return pub("yarn publish")
		}
	case "twine":
		if first() == "upload" {
			return pub("twine upload")
		}
	case "mvn", "mvnw":
		// the deploy phase (or a goal of the deploy plugin) uploads the
		// artifacts to the remote repository
		for _, op := range cmd.OperandValues() {
			if op == "deploy" || strings.HasPrefix(op, "deploy:") || strings.Contains(op, ":maven-deploy-plugin:") {
				return pub("mvn " + op)
			}
		}
	case "goreleaser":
		if first() == "release" && !cmd.Has("", "snapshot") && !slices.Contains(c.args, "--skip=publish") {
			return true, "goreleaser release publishes the release and its artifacts"
		}
	case "gem", "helm":
		// helm has subcommand rows (package): its first word is then Sub
		if first() == "push" || sub == "push" {
			return pub(c.prog + " push")
		}
	case "docker", "podman", "nerdctl", "docker-compose", "podman-compose":
		switch {
		case cmd.Is("push"), cmd.Is("image", "push"), cmd.Is("compose", "push"), c.prog != "docker" && c.prog != "podman" && c.prog != "nerdctl" && cmd.Is("push"):
			return pub(c.prog + " " + strings.Join(cmd.Sub, " "))
		case cmd.Is("build"), cmd.Is("builder"), cmd.Is("buildx", "build"), cmd.Is("buildx", "b"), cmd.Is("buildx", "bake"):
			if cmd.Has("", "push") {
				return pub(c.prog + " " + strings.Join(cmd.Sub, " ") + " --push")
			}
			for _, o := range cmd.Values("o", "output") {
				if strings.Contains(o, "type=registry") || strings.Contains(o, "push=true") {
					return pub(c.prog + " " + strings.Join(cmd.Sub, " ") + " --output " + o)
				}
			}
		}
	case "gh":
		switch {
		case cmd.Is("release"):
			switch op := first(); op {
			case "create", "delete", "upload", "delete-asset":
				return true, "gh release " + op + " changes a published release"
			}
		case cmd.Is("repo"):
			switch op := first(); op {
			case "delete", "archive":
				return true, "gh repo " + op + " deletes or archives a repository"
			}
		}
	}
	if sub == "publish" && c.prog != "npm" && c.prog != "yarn" {
		// any package manager's publish subcommand (pnpm, bun, deno,
		// poetry, uv, cargo, hatch, pdm, flit …): the table parses it
		return pub(c.prog + " publish")
	}
	// a program, or a subcommand, the table has no row for (an unknown
	// program, a tool whose subcommands it does not list, `docker manifest
	// …`) is judged by its verb, the first or second word (cautious reading,
	// testdata/corpus/README.md §9.1): publish and upload publish a package
	// (changeset, maturin, flit, conan, `dotnet nuget push`), push sends an
	// image or artifact to a registry (buildah, oras, crane, `docker
	// manifest push`), and a copy or sync whose destination is a registry
	// (`skopeo copy SRC docker://REG/IMG`) uploads it. Git is judged by its
	// own rules (a push warns only with --prune).
	// A writer's operands are the files it writes (KindWrite: mkdir -p
	// upload, touch push), never a verb; a tool row without subcommands
	// (gradle, dotnet, mix …) takes its task as an operand.
	unlisted := cmd.Prog == nil || len(cmd.Sub) > 0 && cmd.Row == nil ||
		len(cmd.Sub) == 0 && cmd.Prog.Kind == shell.KindTool && len(cmd.Prog.Subs) == 0
	if unlisted && c.prog != "git" && c.prog != "hub" {
		ops := cmd.OperandValues()
		verb := strings.Join(cmd.Sub, " ")
		for k := 0; k < len(ops) && k < 2; k++ {
			verb = strings.TrimSpace(verb + " " + ops[k])
			// a task runner's namespaced task is judged by its last
			// part (`mix hex.publish`: the publish task of Hex)
			task := ops[k]
			if i := strings.LastIndexByte(task, '.'); i > 0 {
				task = task[i+1:]
			}
			switch task {
			case "publish", "upload":
				return pub(c.prog + " " + verb)
			case "push":
				return true, c.prog + " " + verb + " sends to a remote registry or repository (cautious reading of an unlisted publisher)"
			case "copy", "cp", "sync":
				if len(ops) >= k+3 && registryRef(ops[len(ops)-1]) {
					return true, c.prog + " " + verb + " uploads to the registry " + ops[len(ops)-1]
				}
			}
		}
	}
	return false, ""
}
