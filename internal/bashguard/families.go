package bashguard

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/superagent-harness/harness/internal/roles"
	"github.com/superagent-harness/harness/internal/shell"
)

// matcher reports whether the rule fires on one invocation, and why.
type matcher func(m *evalCtx, c *call) (bool, string)

// evalCtx is the state shared by the matchers during one Decide.
type evalCtx struct {
	ctx Context
	res *shell.Result
	// cleanForceOff is set once a `git config clean.requireForce false`
	// was seen earlier in the command.
	cleanForceOff bool
	// gitAliases are aliases set by `git config alias.X VALUE` earlier in
	// the command (lower-cased names).
	gitAliases map[string]string
}

// matchers maps rule ids to their Go matchers (rules/*.yaml reference them).
var matchers = map[string]matcher{
	"fs.rm-recursive-force":       matchRmRF,
	"priv.sudo":                   matchSudo,
	"priv.su":                     matchSu,
	"git.push-force":              matchGitPushForce,
	"git.reset-hard":              matchGitResetHard,
	"git.clean-force":             matchGitClean,
	"git.clean-require-force-off": matchGitCleanConfig,
	"git.checkout-discard":        matchGitCheckout,
	"git.restore-discard":         matchGitRestore,
	"git.switch-discard":          matchGitSwitch,
	"git.branch-force-delete":     matchGitBranch,
	"git.commit-amend":            matchGitAmend,
	"git.add-all":                 matchGitAddAll,
	"git.history-rewrite":         matchGitHistory,
	"perms.world-writable":        matchPerms,
	"disk.dd":                     matchDD,
	"disk.mkfs":                   matchMkfs,
	"disk.block-device-write":     matchBlockWrite,
	"disk.wipe":                   matchWipe,
	"prod.ssh-host":               matchProdHost,
	"prod.kube-context":           matchProdKube,
	"prod.aws-profile":            matchProdAWS,
	"harness.admin-command":       matchHarnessAdmin,
	"harness.other-feature":       matchHarnessOtherFeature,
	"harness.session-env":         matchHarnessSessionEnv,
	"harness.generator-entry":     matchHarnessGeneratorEntry,
	"warn.http-write":             matchHTTPWrite,
	"warn.publish":                matchPublish,
	"warn.git-push-prune":         matchGitPushPrune,
	"forkbomb.self-background":    nil, // judged on shell.Result.Functions
	"shell.too-complex":           nil, // judged on shell.Result.Overflow
}

// ---------------------------------------------------------------- rm_rf

var rmTable = shell.OptSpec{Long: "force interactive one-file-system no-preserve-root preserve-root recursive dir verbose help version", Abbrev: true}

func matchRmRF(_ *evalCtx, c *call) (bool, string) {
	if c.prog != "rm" {
		return false, ""
	}
	p := rmTable.Parse(c.args, 0)
	if (p.Has("r", "recursive") || p.Has("R")) && p.Has("f", "force") {
		return true, "rm with both a recursive and a force option"
	}
	return false, ""
}

// ---------------------------------------------------------------- privilege

var privPrograms = map[string]bool{"sudo": true, "sudoedit": true, "doas": true, "pkexec": true, "run0": true, "sudo-rs": true}

func matchSudo(_ *evalCtx, c *call) (bool, string) {
	if !privPrograms[c.prog] {
		return false, ""
	}
	if c.prog == "sudo" && len(c.args) == 1 {
		switch c.args[0] {
		case "-h", "--help", "-V", "--version":
			return false, ""
		}
	}
	return true, c.prog + " runs a command with elevated privileges"
}

func matchSu(_ *evalCtx, c *call) (bool, string) {
	if c.prog != "su" {
		return false, ""
	}
	return true, "su switches user (an interactive root shell hangs the agent)"
}

// ---------------------------------------------------------------- git

// gitCall is a git invocation after global options and -c aliases.
type gitCall struct {
	sub     string
	args    []string
	configs map[string]string // lower-cased keys
}

func falseValue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

// parseGit parses a git (or hub) invocation once per call.
func parseGit(m *evalCtx, c *call) *gitCall {
	if c.gitDone {
		return c.git
	}
	c.gitDone = true
	c.git = parseGitArgs(m, c)
	return c.git
}

func parseGitArgs(m *evalCtx, c *call) *gitCall {
	if c.prog != "git" && c.prog != "hub" {
		return nil
	}
	g := &gitCall{configs: map[string]string{}}
	if m != nil {
		for k, v := range m.gitAliases {
			g.configs["alias."+k] = v
		}
	}
	env := c.inv.Env
	if n := env["GIT_CONFIG_COUNT"]; n != "" {
		for i := 0; i < 32; i++ {
			k, ok := env["GIT_CONFIG_KEY_"+itoa(i)]
			if !ok {
				continue
			}
			g.configs[strings.ToLower(k)] = env["GIT_CONFIG_VALUE_"+itoa(i)]
		}
	}
	args := c.args
	i := 0
	addCfg := func(kv string) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			v = "true"
		}
		g.configs[strings.ToLower(k)] = v
	}
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-c" && i+1 < len(args):
			addCfg(args[i+1])
			i += 2
		case strings.HasPrefix(a, "-c") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			addCfg(a[2:])
			i++
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix" || a == "--config-env" || a == "--attr-source":
			i += 2
		case strings.HasPrefix(a, "-"):
			i++
		default:
			goto sub
		}
	}
sub:
	if i >= len(args) {
		return g
	}
	g.sub = args[i]
	g.args = args[i+1:]
	for n := 0; n < 8; n++ {
		al, ok := g.configs["alias."+strings.ToLower(g.sub)]
		if !ok || strings.HasPrefix(al, "!") {
			break
		}
		words := strings.Fields(strings.NewReplacer("'", "", "\"", "").Replace(al))
		if len(words) == 0 {
			break
		}
		rest := append(append([]string{}, words[1:]...), g.args...)
		g.sub, g.args = words[0], rest
	}
	return g
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

var gitPush = shell.OptSpec{Short: "o", Long: "all branches mirror tags follow-tags no-follow-tags atomic no-atomic dry-run porcelain delete prune force no-force force-with-lease no-force-with-lease force-if-includes no-force-if-includes repo= set-upstream thin no-thin quiet verbose progress no-progress no-verify verify receive-pack= exec= recurse-submodules= no-recurse-submodules signed no-signed push-option= ipv4 ipv6", Abbrev: true}

func matchGitPushForce(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "push" {
		return false, ""
	}
	p := gitPush.Parse(g.args, 0)
	switch {
	case p.Has("f") || p.Has("", "force"):
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
	return false, ""
}

func matchGitPushPrune(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "push" {
		return false, ""
	}
	if gitPush.Parse(g.args, 0).Has("", "prune") {
		return true, "git push --prune deletes remote branches that no longer exist locally"
	}
	return false, ""
}

var gitReset = shell.OptSpec{Long: "hard soft mixed merge keep quiet no-quiet recurse-submodules no-recurse-submodules pathspec-from-file= pathspec-file-nul patch intent-to-add no-refresh refresh", Abbrev: true}

func matchGitResetHard(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "reset" {
		return false, ""
	}
	if gitReset.Parse(g.args, 0).Has("", "hard") {
		return true, "git reset --hard throws away uncommitted changes"
	}
	return false, ""
}

var gitClean = shell.OptSpec{Short: "e", Long: "force dry-run quiet exclude= interactive", Abbrev: true}

func matchGitClean(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "clean" {
		return false, ""
	}
	p := gitClean.Parse(g.args, 0)
	if p.Has("f", "force") {
		return true, "git clean -f deletes untracked files"
	}
	if v, ok := g.configs["clean.requireforce"]; ok && falseValue(v) {
		return true, "git clean with clean.requireForce=false deletes untracked files"
	}
	if m.cleanForceOff {
		return true, "git clean after clean.requireForce was set false deletes untracked files"
	}
	return false, ""
}

func matchGitCleanConfig(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "config" {
		return false, ""
	}
	var ops []string
	args := g.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--file" || a == "-f" || a == "--blob" || a == "--type" || a == "--comment" || a == "--value" || a == "--default":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) > 0 && (ops[0] == "set") {
		ops = ops[1:]
	}
	if len(ops) >= 2 && strings.HasPrefix(strings.ToLower(ops[0]), "alias.") {
		if m.gitAliases == nil {
			m.gitAliases = map[string]string{}
		}
		m.gitAliases[strings.ToLower(ops[0][len("alias."):])] = strings.Join(ops[1:], " ")
	}
	if len(ops) >= 2 && strings.EqualFold(ops[0], "clean.requireForce") && falseValue(ops[1]) {
		m.cleanForceOff = true
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
var toplevelRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^[\"']?(?:\\$\\(|`)\\s*git\\s+rev-parse\\s+--show-(?:toplevel|cdup)\\s*(?:\\)|`)[\"']?/?\\.?/?[\"']?$")
})

// toplevelArg reports an argument given as $(git rev-parse --show-toplevel)
// (or --show-cdup): the whole worktree.
func toplevelArg(c *call) (string, bool) {
	for _, a := range c.inv.Args {
		if !a.Known && toplevelRe().MatchString(a.Raw) {
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

var gitCheckout = shell.OptSpec{Short: "bB", Long: "force quiet ours theirs track no-track detach merge conflict= patch orphan= ignore-skip-worktree-bits ignore-other-worktrees overwrite-ignore no-overwrite-ignore recurse-submodules no-recurse-submodules pathspec-from-file= pathspec-file-nul progress no-progress guess no-guess overlay no-overlay", Abbrev: true}

func isHead(s string) bool { return s == "HEAD" || s == "@" }

func matchGitCheckout(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "checkout" {
		return false, ""
	}
	p := gitCheckout.Parse(g.args, 0)
	for _, op := range p.OperandValues() {
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
	if p.Has("f", "force") && !p.Has("b") && !p.Has("B") && !p.Has("", "orphan") {
		if len(p.After()) == 0 && (len(p.Before()) == 0 || (len(p.Before()) == 1 && isHead(p.Before()[0]))) {
			return true, "git checkout --force without another branch throws away every local change"
		}
	}
	return false, ""
}

var gitRestore = shell.OptSpec{Short: "s", Long: "source= staged worktree patch ours theirs merge conflict= ignore-unmerged ignore-skip-worktree-bits recurse-submodules no-recurse-submodules overlay no-overlay quiet progress no-progress pathspec-from-file= pathspec-file-nul", Abbrev: true}

func matchGitRestore(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "restore" {
		return false, ""
	}
	p := gitRestore.Parse(g.args, 0)
	staged := p.Has("S", "staged")
	worktree := p.Has("W", "worktree") || !staged
	if !worktree {
		return false, ""
	}
	for _, op := range p.OperandValues() {
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
	return false, ""
}

var gitSwitch = shell.OptSpec{Short: "cC", Long: "create= force-create= detach guess no-guess discard-changes force merge conflict= quiet progress no-progress track no-track orphan= ignore-other-worktrees recurse-submodules no-recurse-submodules", Abbrev: true}

var currentBranchRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`branch\s+--show-current|rev-parse\s+--abbrev-ref\s+HEAD|symbolic-ref\s+(--short\s+|-q\s+)*HEAD|name-rev\s+--name-only\s+HEAD`)
})

func matchGitSwitch(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "switch" {
		return false, ""
	}
	p := gitSwitch.Parse(g.args, 0)
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
		if !a.Known && currentBranchRe().MatchString(a.Raw) {
			return true, "git switch --force to the current branch throws away every local change"
		}
	}
	return false, ""
}

var gitBranch = shell.OptSpec{Short: "u", Long: "delete force move copy list all remotes verbose quiet track no-track set-upstream-to= unset-upstream contains= no-contains= merged= no-merged= sort= points-at= format= column no-column color no-color abbrev no-abbrev edit-description create-reflog show-current ignore-case omit-empty recurse-submodules", Abbrev: true}

func matchGitBranch(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "branch" {
		return false, ""
	}
	p := gitBranch.Parse(g.args, 0)
	if p.Has("D") || (p.Has("d", "delete") && p.Has("f", "force")) {
		return true, "git branch -D force-deletes a branch with unmerged work"
	}
	return false, ""
}

var gitCommit = shell.OptSpec{Short: "mFCct", Long: "amend all author= allow-empty allow-empty-message branch cleanup= date= dry-run edit no-edit file= fixup= gpg-sign no-gpg-sign include interactive long message= no-verify verify only patch porcelain quiet reedit-message= reuse-message= reset-author short signoff no-signoff squash= status no-status template= trailer= untracked-files verbose null pathspec-from-file= pathspec-file-nul no-post-rewrite ahead-behind no-ahead-behind", Abbrev: true}

func matchGitAmend(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "commit" {
		return false, ""
	}
	if gitCommit.Parse(g.args, 0).Has("", "amend") {
		return true, "git commit --amend rewrites the last commit"
	}
	return false, ""
}

var gitAdd = shell.OptSpec{Long: "all no-all ignore-removal no-ignore-removal update dry-run verbose force interactive patch edit intent-to-add refresh ignore-errors ignore-missing renormalize chmod= sparse pathspec-from-file= pathspec-file-nul no-warn-embedded-repo", Abbrev: true}

func matchGitAddAll(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil || g.sub != "add" {
		return false, ""
	}
	p := gitAdd.Parse(g.args, 0)
	if p.Has("A") || p.Has("", "all") {
		return true, "git add -A stages every change in the work tree"
	}
	for _, op := range p.OperandValues() {
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

func matchGitHistory(m *evalCtx, c *call) (bool, string) {
	g := parseGit(m, c)
	if g == nil {
		return false, ""
	}
	switch g.sub {
	case "filter-branch", "filter-repo":
		return true, "git " + g.sub + " rewrites history"
	case "reflog":
		if len(g.args) > 0 && (g.args[0] == "expire" || g.args[0] == "delete") {
			return true, "git reflog " + g.args[0] + " destroys the recovery log"
		}
	case "update-ref":
		p := shell.OptSpec{Short: "m", Long: "delete no-deref stdin create-reflog", Abbrev: true}.Parse(g.args, 0)
		if p.Has("d", "delete") {
			return true, "git update-ref -d deletes a ref"
		}
	}
	return false, ""
}

// ---------------------------------------------------------------- perms

var octal777 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-7]*777$`) })

// worldRWX reports whether mode (octal or symbolic) gives rwx to u, g and o.
func worldRWX(mode string) bool {
	if mode == "" {
		return false
	}
	if mode[0] >= '0' && mode[0] <= '7' {
		return octal777().MatchString(mode)
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

var chmodTable = shell.OptSpec{Long: "changes silent quiet verbose no-preserve-root preserve-root reference recursive help version dereference no-dereference", Abbrev: true}

func matchPerms(_ *evalCtx, c *call) (bool, string) {
	switch c.prog {
	case "chmod":
		// the mode is the first operand; symbolic modes may start with '-'
		for _, a := range c.args {
			if a == "--" {
				continue
			}
			if strings.HasPrefix(a, "--") || a == "-R" || a == "-v" || a == "-c" || a == "-f" || a == "-h" || a == "-H" || a == "-L" || a == "-P" || (strings.HasPrefix(a, "-") && strings.Trim(a[1:], "Rvcfh") == "") {
				continue
			}
			if worldRWX(a) {
				return true, "chmod " + a + " makes files writable by everyone"
			}
			break
		}
	case "install", "mkdir":
		for i := 0; i < len(c.args); i++ {
			a := c.args[i]
			var mode string
			switch {
			case a == "--mode" && i+1 < len(c.args):
				mode = c.args[i+1]
			case strings.HasPrefix(a, "--mode="):
				mode = a[len("--mode="):]
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
				k := strings.IndexByte(a, 'm')
				if k < 0 {
					continue
				}
				if c.prog == "install" {
					// value-taking letters before m end the cluster
					if j := strings.IndexAny(a[1:], "ogStT"); j >= 0 && j+1 < k {
						continue
					}
				}
				if k+1 < len(a) {
					mode = a[k+1:]
				} else if i+1 < len(c.args) {
					mode = c.args[i+1]
				}
			}
			if mode != "" && worldRWX(mode) {
				return true, c.prog + " with mode " + mode + " makes files writable by everyone"
			}
		}
	}
	return false, ""
}

// ---------------------------------------------------------------- disk

var blockDevRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^/dev/(sd[a-z]|nvme[0-9]|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk[0-9]|r?disk[0-9]|loop[0-9]|dm-[0-9]|md[0-9]|md/.|mapper/.|disk/by-[^/]+/.)`)
})

// blockDevice reports whether p names a block device (testdata/corpus/README.md §2.4 disk).
func blockDevice(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	cl := path.Clean(p)
	if cl == "/dev/mapper/control" {
		return false
	}
	return blockDevRe().MatchString(cl)
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
		c.prog == "mke2fs" || c.prog == "mkdosfs":
		return true, c.prog + " creates a file system (erasing the target)"
	}
	return false, ""
}

var writeOps = map[string]bool{">": true, ">>": true, ">|": true, "&>": true, "&>>": true, "<>": true, ">&": true}

func matchBlockWrite(_ *evalCtx, c *call) (bool, string) {
	for _, r := range c.inv.Redirects {
		if writeOps[r.Op] && blockDevice(r.Target.Value) {
			return true, "a redirection writes the block device " + r.Target.Value
		}
	}
	switch c.prog {
	case "tee":
		for _, a := range c.args {
			if blockDevice(a) {
				return true, "tee writes the block device " + a
			}
		}
	case "cp", "install", "pv", "cat":
		if c.prog == "cat" || c.prog == "pv" {
			return false, ""
		}
		var ops []string
		for i := 0; i < len(c.args); i++ {
			a := c.args[i]
			if a == "-t" && i+1 < len(c.args) {
				if blockDevice(c.args[i+1]) {
					return true, c.prog + " writes the block device " + c.args[i+1]
				}
				i++
				continue
			}
			if strings.HasPrefix(a, "--target-directory=") && blockDevice(a[len("--target-directory="):]) {
				return true, c.prog + " writes the block device " + a
			}
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		if len(ops) >= 2 && blockDevice(ops[len(ops)-1]) {
			return true, c.prog + " writes the block device " + ops[len(ops)-1]
		}
	}
	return false, ""
}

func anyBlockDev(args []string) (string, bool) {
	for _, a := range args {
		if blockDevice(a) {
			return a, true
		}
	}
	return "", false
}

func matchWipe(_ *evalCtx, c *call) (bool, string) {
	switch c.prog {
	case "wipefs":
		p := shell.OptSpec{Short: "otO", Long: "all offset= types= backup force noheadings json no-act output= parsable quiet lock", Abbrev: true}.Parse(c.args, 0)
		if p.Has("a", "all") || p.Has("o", "offset") {
			if p.Has("n", "no-act") {
				return false, ""
			}
			return true, "wipefs erases file-system signatures"
		}
	case "blkdiscard":
		return true, "blkdiscard discards every block of the device"
	case "sgdisk":
		p := shell.OptSpec{Long: "zap-all zap clear print", Abbrev: true}.Parse(c.args, 0)
		if p.Has("Z", "zap-all") || p.Has("z", "zap") || p.Has("o", "clear") {
			return true, "sgdisk wipes the partition table"
		}
	case "shred":
		if d, ok := anyBlockDev(c.args); ok {
			return true, "shred overwrites the block device " + d
		}
	case "parted":
		for _, a := range c.args {
			switch a {
			case "mklabel", "mktable", "mkpart", "rm", "resizepart", "mkfs", "mkpartfs", "resize":
				return true, "parted " + a + " rewrites the partition table"
			}
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

var sshTable = shell.OptSpec{Short: "BbcDEeFIiJLlmOopQRSWw", Abbrev: true}

func sshOptHosts(p shell.ParsedOpts, args []string) (string, bool) {
	if v, ok := p.Last("J"); ok {
		for _, h := range jumpHosts(v) {
			if hasProd(h) {
				return h, true
			}
		}
	}
	for i, a := range args {
		var opt string
		if a == "-o" && i+1 < len(args) {
			opt = args[i+1]
		} else if strings.HasPrefix(a, "-o") {
			opt = a[2:]
		}
		lo := strings.ToLower(opt)
		if strings.HasPrefix(lo, "proxyjump") || strings.HasPrefix(lo, "hostname") {
			v := strings.TrimLeft(opt[strings.IndexAny(lo, "= ")+1:], " =")
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
	switch c.prog {
	case "ssh", "mosh", "sftp":
		tbl := sshTable
		if c.prog == "mosh" {
			tbl = shell.OptSpec{Short: "p", Long: "ssh= port= server= client= predict= family= bind-server= experimental-remote-ip= predict-overwrite no-init local help version", Abbrev: true}
		}
		if c.prog == "sftp" {
			tbl = shell.OptSpec{Short: "BbcDFiJlloPRSsX", Abbrev: true}
		}
		p := tbl.Parse(c.args, 0)
		if h, ok := sshOptHosts(p, c.args); ok {
			return true, "jump host " + h + " is production"
		}
		// the host is the first operand (ssh stops at it; the rest is the remote command)
		i := tbl.FirstOperand(c.args, 0)
		if i < len(c.args) {
			h := hostOf(c.args[i], c.prog == "sftp")
			if hasProd(h) {
				return true, "host " + h + " is production"
			}
		}
	case "scp", "rsync", "sshfs":
		tbl := shell.OptSpec{Short: "cFiJloPSXD", Abbrev: true}
		if c.prog == "rsync" {
			tbl = shell.OptSpec{Short: "efBTM", Long: rsyncLong, Abbrev: true}
		}
		if c.prog == "sshfs" {
			tbl = shell.OptSpec{Short: "op", Abbrev: true}
		}
		p := tbl.Parse(c.args, 0)
		if h, ok := sshOptHosts(p, c.args); ok {
			return true, "jump host " + h + " is production"
		}
		for _, op := range p.OperandValues() {
			if h, ok := remoteOperand(op); ok && hasProd(h) {
				return true, "host " + h + " is production"
			}
		}
	}
	return false, ""
}

// rsyncLong is rsync's long options ("=": takes a value).
const rsyncLong = "archive verbose quiet recursive compress delete dry-run progress partial human-readable checksum update links perms times group owner devices specials hard-links acls xattrs sparse inplace append whole-file one-file-system existing ignore-existing remove-source-files delete-before delete-during delete-after delete-excluded force numeric-ids stats itemize-changes list-only mkpath " +
	"rsh= exclude= include= filter= port= password-file= log-file= temp-dir= partial-dir= backup-dir= suffix= chmod= chown= block-size= max-size= min-size= timeout= contimeout= compare-dest= copy-dest= link-dest= files-from= exclude-from= include-from= bwlimit= remote-option= usermap= groupmap= info= debug= out-format= log-file-format= iconv= checksum-choice= compress-choice= compress-level= skip-compress= rsync-path= sockopts= stop-after= stop-at= max-delete= modify-window= outbuf= address= protocol= checksum-seed= write-batch= only-write-batch= read-batch= early-input="

func kubeProd(args []string, names []string) (string, bool) {
	for i, a := range args {
		for _, n := range names {
			if a == "--"+n && i+1 < len(args) && hasProd(args[i+1]) {
				return a + " " + args[i+1], true
			}
			if strings.HasPrefix(a, "--"+n+"=") && hasProd(a) {
				return a, true
			}
		}
	}
	return "", false
}

func matchProdKube(_ *evalCtx, c *call) (bool, string) {
	var names []string
	switch c.prog {
	case "kubectl":
		names = []string{"context", "kubeconfig"}
	case "helm":
		names = []string{"kube-context", "kubeconfig"}
	default:
		return false, ""
	}
	if s, ok := kubeProd(c.args, names); ok {
		return true, c.prog + " " + s + " selects a production cluster"
	}
	if v := c.inv.Env["KUBECONFIG"]; hasProd(v) {
		return true, "KUBECONFIG=" + v + " selects a production cluster"
	}
	return false, ""
}

func matchProdAWS(_ *evalCtx, c *call) (bool, string) {
	if c.prog != "aws" {
		return false, ""
	}
	if s, ok := kubeProd(c.args, []string{"profile"}); ok {
		return true, "aws " + s + " uses a production profile"
	}
	for _, k := range []string{"AWS_PROFILE"} {
		if v := c.inv.Env[k]; hasProd(v) {
			return true, k + "=" + v + " uses a production profile"
		}
	}
	return false, ""
}

// ---------------------------------------------------------------- harness_admin

// harnessSub returns the subcommand words of a harness invocation after
// its global options, and a --feature given before the subcommand.
func harnessSub(c *call) (sub []string, feature string) { return harnessSubArgs(c.args) }

// harnessSubArgs skips the harness CLI's options before the subcommand in
// args (the words after the program name) and returns the subcommand words
// and the --feature value given before it.
func harnessSubArgs(args []string) (sub []string, feature string) {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "--root" || a == "--feature":
			if a == "--feature" && i+1 < len(args) {
				feature = args[i+1]
			}
			i += 2
		case strings.HasPrefix(a, "--feature="):
			feature = a[len("--feature="):]
			i++
		case strings.HasPrefix(a, "--root=") || a == "--json" || a == "--quiet" || a == "-q" || a == "--verbose" || a == "-v":
			i++
		default:
			return args[i:], feature
		}
	}
	return nil, feature
}

func isHelp(args []string) bool {
	for _, a := range args {
		if a == "--help" || a == "-h" {
			return true
		}
	}
	return false
}

func matchHarnessAdmin(m *evalCtx, c *call) (bool, string) {
	if m.ctx.Feature == "" || c.prog != "harness" {
		return false, ""
	}
	sub, _ := harnessSub(c)
	if len(sub) == 0 || isHelp(sub) {
		return false, ""
	}
	if roles.GeneratorMayRun(sub) {
		return false, ""
	}
	return true, "harness " + strings.Join(sub[:min(2, len(sub))], " ") + " is reserved for Hermes or the user"
}

func matchHarnessOtherFeature(m *evalCtx, c *call) (bool, string) {
	if m.ctx.Feature == "" || c.prog != "harness" {
		return false, ""
	}
	sub, gfeat := harnessSub(c)
	if len(sub) < 2 || isHelp(sub) {
		return false, ""
	}
	var other string
	switch {
	case sub[0] == "eval" && sub[1] == "append":
		other = gfeat
		for i := 2; i < len(sub); i++ {
			if sub[i] == "--feature" && i+1 < len(sub) {
				other = sub[i+1]
			} else if strings.HasPrefix(sub[i], "--feature=") {
				other = sub[i][len("--feature="):]
			}
		}
	case sub[0] == "phase" && sub[1] == "complete":
		other = gfeat
		for i := 2; i < len(sub); i++ {
			if sub[i] == "--feature" && i+1 < len(sub) {
				other = sub[i+1]
				i++
			} else if strings.HasPrefix(sub[i], "--feature=") {
				other = sub[i][len("--feature="):]
			} else if !strings.HasPrefix(sub[i], "-") {
				other = sub[i]
				break
			}
		}
	default:
		return false, ""
	}
	if other != "" && other != m.ctx.Feature {
		return true, "harness " + sub[0] + " " + sub[1] + " for feature " + other + " (this session is " + m.ctx.Feature + ")"
	}
	return false, ""
}

// ---------------------------------------------------------------- warn_external

func writeMethod(m string) bool {
	m = strings.ToUpper(strings.TrimSpace(m))
	return m == "DELETE" || m == "PUT"
}

var curlTable = shell.OptSpec{Short: "dDeEFHoTuUXxAbcCKmrwyYzQtP", Abbrev: true}

func matchHTTPWrite(_ *evalCtx, c *call) (bool, string) {
	switch c.prog {
	case "curl":
		for i := 0; i < len(c.args); i++ {
			a := c.args[i]
			switch {
			case a == "--request" || a == "-X":
				if i+1 < len(c.args) && writeMethod(c.args[i+1]) {
					return true, "curl " + a + " " + c.args[i+1] + " changes a remote resource"
				}
				i++
			case strings.HasPrefix(a, "--request="):
				if writeMethod(a[len("--request="):]) {
					return true, "curl " + a + " changes a remote resource"
				}
			case a == "--upload-file" || strings.HasPrefix(a, "--upload-file="):
				return true, "curl --upload-file sends a PUT"
			case strings.HasPrefix(a, "--"):
				if strings.HasPrefix("--request", a) && len(a) > 4 && i+1 < len(c.args) && writeMethod(c.args[i+1]) {
					return true, "curl " + a + " " + c.args[i+1] + " changes a remote resource"
				}
			case strings.HasPrefix(a, "-") && len(a) > 1:
				for k := 1; k < len(a); k++ {
					ch := a[k]
					if strings.IndexByte(curlTable.Short, ch) < 0 {
						continue
					}
					val := a[k+1:]
					if val == "" && i+1 < len(c.args) {
						val = c.args[i+1]
						i++
					}
					if ch == 'X' && writeMethod(val) {
						return true, "curl -X " + val + " changes a remote resource"
					}
					if ch == 'T' {
						return true, "curl -T uploads a file (PUT)"
					}
					break
				}
			}
		}
	case "wget":
		for i, a := range c.args {
			if strings.HasPrefix(a, "--method=") && writeMethod(a[len("--method="):]) {
				return true, "wget " + a + " changes a remote resource"
			}
			if a == "--method" && i+1 < len(c.args) && writeMethod(c.args[i+1]) {
				return true, "wget --method " + c.args[i+1] + " changes a remote resource"
			}
		}
	case "http", "https":
		for _, a := range c.args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if writeMethod(a) {
				return true, c.prog + " " + a + " changes a remote resource"
			}
			break
		}
	case "gh":
		if len(c.args) > 0 && c.args[0] == "api" {
			for i, a := range c.args {
				if (a == "-X" || a == "--method") && i+1 < len(c.args) && writeMethod(c.args[i+1]) {
					return true, "gh api " + a + " " + c.args[i+1] + " changes a remote resource"
				}
				if (strings.HasPrefix(a, "--method=") && writeMethod(a[len("--method="):])) || (strings.HasPrefix(a, "-X") && len(a) > 2 && writeMethod(strings.TrimPrefix(a[2:], "="))) {
					return true, "gh api " + a + " changes a remote resource"
				}
			}
		}
	}
	return false, ""
}

func firstOperand(args []string, valOpts ...string) (int, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if contains(valOpts, a) {
				i++
			}
			continue
		}
		return i, a
	}
	return -1, ""
}

func matchPublish(_ *evalCtx, c *call) (bool, string) {
	sub := func(valOpts ...string) (string, []string) {
		i, s := firstOperand(c.args, valOpts...)
		if i < 0 {
			return "", nil
		}
		return s, c.args[i+1:]
	}
	pub := func(what string) (bool, string) { return true, what + " publishes to a public registry" }
	switch c.prog {
	case "npm":
		if s, _ := sub("--registry", "-w", "--workspace", "--prefix", "-C", "--otp", "--tag", "--access"); s == "publish" || s == "unpublish" {
			return pub("npm " + s)
		}
	case "yarn":
		s, rest := sub("--cwd")
		if s == "publish" || (s == "npm" && len(rest) > 0 && rest[0] == "publish") {
			return pub("yarn publish")
		}
	case "pnpm":
		if s, _ := sub("--filter", "-F", "-C", "--dir", "-w", "--workspace"); s == "publish" {
			return pub("pnpm publish")
		}
	case "twine":
		if s, _ := sub(); s == "upload" {
			return pub("twine upload")
		}
	case "poetry", "uv":
		if s, _ := sub(); s == "publish" {
			return pub(c.prog + " publish")
		}
	case "cargo":
		for _, a := range c.args {
			if strings.HasPrefix(a, "+") || strings.HasPrefix(a, "-") {
				continue
			}
			if a == "publish" {
				return pub("cargo publish")
			}
			break
		}
	case "gem":
		if s, _ := sub(); s == "push" {
			return pub("gem push")
		}
	case "helm":
		if s, _ := sub(); s == "push" {
			return pub("helm push")
		}
	case "docker":
		s, rest := sub("-H", "--host", "--config", "-c", "--context", "-l", "--log-level")
		switch s {
		case "push":
			return pub(c.prog + " push")
		case "image":
			if len(rest) > 0 && rest[0] == "push" {
				return pub(c.prog + " image push")
			}
		case "build", "buildx", "builder":
			if s == "buildx" && (len(rest) == 0 || (rest[0] != "build" && rest[0] != "b")) {
				return false, ""
			}
			for _, a := range rest {
				if a == "--push" || strings.HasPrefix(a, "--output=type=registry") || a == "--push=true" {
					return pub(c.prog + " " + s + " --push")
				}
			}
		}
	case "gh":
		s, rest := sub("-R", "--repo")
		if s == "release" && len(rest) > 0 {
			switch rest[0] {
			case "create", "delete", "upload", "edit":
				if rest[0] == "edit" {
					return false, ""
				}
				return true, "gh release " + rest[0] + " changes a published release"
			}
		}
	default:
		if strings.HasPrefix(c.prog, "python") || c.prog == "py" {
			for i, a := range c.args {
				if a == "-m" && i+2 < len(c.args) && c.args[i+1] == "twine" && c.args[i+2] == "upload" {
					return pub("python -m twine upload")
				}
			}
		}
	}
	return false, ""
}
