package launch

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/superagent-harness/harness/internal/ccsettings"
	"github.com/superagent-harness/harness/internal/workspace"
)

// The feature's work area (docs/sandbox.md §2): what a sandboxed Bash call of
// the Generator of feature F may write.
//
//   - the sprint root's product tree: the root and everything below it,
//     except what corpus README §3.2 and §9.4 protect (testdata/corpus/README.md);
//   - the feature's own records .harness/features/F/generator_log.md and
//     handoff.md — nothing else under .harness/;
//   - the sandbox's temporary directory and the build caches relocated
//     under it (Go, npm, XDG);
//   - the work tree's .git, except .git/hooks and .git/config.
//
// Claude Code's sandbox gives denyWrite precedence over allowWrite, also for
// a path below a denied directory, and has no way to re-allow a file inside
// a denied directory. So .harness/ itself cannot be denied (the two records
// would go with it): every entry of .harness/, of .harness/features/ and of
// the feature's own directory except the two records is denied one by one —
// the entries that exist when the session starts and the names the protocol
// knows, whether they exist or not (a denied name that does not exist cannot
// be created either).
var (
	// readonlyTop are the root's protected entries (rules readonly_dir,
	// readonly_file, claude_config).
	readonlyTop = []string{"schemas", "templates", "spec", "protocols", "sub-skills", "SKILL.md", "README.md", ".claude", ".mcp.json",
		"CLAUDE.md", "CLAUDE.local.md"}
	// memoryFiles are Claude Code's memory files: the client loads the ones
	// of the working directory and of every directory above it at session
	// start (a CLAUDE.md at the sprint root reaches every feature's
	// Generator), and follows their @path imports. A Generator that could
	// write one would instruct the next session, its own or another
	// feature's (attack A13 of the adversary's findings).
	memoryFiles = []string{"CLAUDE.md", "CLAUDE.local.md"}
	// readonlyTopDirs are the entries of readonlyTop that are directories.
	readonlyTopDirs = []string{"schemas", "templates", "spec", "protocols", "sub-skills", ".claude"}
	// harnessNames are the names of .harness/ the protocol and the harness
	// know (state files, logs, locks, Claude Code's channels).
	harnessNames = []string{
		"feature_list.json", "eval_log.jsonl", "runtime_state.json", "session_pool.json", "hermes_handoff.md",
		"hermes_context_state.json", "claude_code_context_state.json", "environment_probe.json", ".current_agent",
		".current_agent.json", "rules.yaml", "allow.jsonl", "logs", "sprint_contracts", "checkpoints", "sessions",
		"state.lock", "feature_list.json.lock", "eval_log.jsonl.lock", "allow.jsonl.lock", "session_pool.json.lock",
		".claude", ".mcp.json", "CLAUDE.md", "CLAUDE.local.md",
	}
	// LockSidecars are the lock files of .harness/ (fsutil.Lock's
	// "<file>.lock"; relative to .harness/) the harness takes: hidden from
	// sandboxed commands (Policy.DenyRead), and created by launch before the
	// session so that the sandbox has a file to hide.
	LockSidecars = []string{"state.lock", "feature_list.json.lock", "eval_log.jsonl.lock", "allow.jsonl.lock",
		"session_pool.json.lock", "runtime_state.json.lock", "hermes_context_state.json.lock",
		"claude_code_context_state.json.lock", "logs/hook.log.lock", "logs/notify.jsonl.lock"}
	// harnessDirs are the entries of harnessNames that are directories.
	harnessDirs = []string{"logs", "sprint_contracts", "checkpoints", "sessions", ".claude"}
	// ownRecords are the only writable entries of the feature's directory.
	ownRecords = []string{"generator_log.md", "handoff.md"}
	// featureNames are the other names of a feature directory.
	featureNames = []string{".claude", "AGENTS.md", "context_snapshot.md", "session_id.txt", ".mcp.json", "CLAUDE.md", "CLAUDE.local.md", workspace.GeneratorOutputName}
	// homeChannels are files below HOME that run code for the next session
	// or for Hermes (shell start-up files, git configuration): the Write and
	// Edit tools are not sandboxed, so their own deny rules keep them.
	homeChannels = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
		".zprofile", ".zlogin", ".gitconfig", ".claude.json"}
	homeChannelDirs = []string{".claude", ".config/git"}
)

// PolicyInput is what the sandbox policy of one session depends on. Paths
// are absolute.
type PolicyInput struct {
	Root, Feature string
	// FeatureIDs are the ids of feature_list.json (their directories are
	// denied even before they exist).
	FeatureIDs []string
	// HarnessBin and HookBin are the binaries the session runs (their
	// directories are read-only).
	HarnessBin, HookBin string
	// TempDir is the sandbox's temporary directory (CLAUDE_CODE_TMPDIR);
	// CacheDir the build caches below it (writable).
	TempDir, CacheDir string
	// PathDirs are the directories of the session's PATH.
	PathDirs []string
	// Home and ClaudeConfigDir locate the user's Claude Code configuration.
	Home, ClaudeConfigDir string
	// HermesHome is Hermes' home (ops.HermesHome: task queue, pipelines, the
	// Hermes skill): denied to the Write/Edit tools, and to Bash when it lies
	// inside the work area.
	HermesHome string
	// GitDir is the work tree's git directory ("" when there is none).
	GitDir string
	// AllowDomains are network domains sandboxed commands may reach.
	AllowDomains []string
}

// Policy is the sandbox and permission policy of one session.
type Policy struct {
	// AllowWrite and DenyWrite are the sandbox.filesystem lists (absolute).
	AllowWrite, DenyWrite []string
	// DenyRead is sandbox.filesystem.denyRead (absolute): the lock sidecars
	// of .harness/. flock(2) needs only a descriptor, and a read-only one
	// will do, so denyWrite alone let a sandboxed program take Hermes's
	// workspace lock and hold it for the whole session (a background task
	// of the Bash tool): every Hermes-side write and the Stop hook's
	// bookkeeping then timed out. Hidden, the sandbox shows an empty
	// stand-in there whose lock guards nothing; the excluded harness
	// commands run outside the sandbox and lock the real file.
	DenyRead []string
	// DenyEdit are the targets of the permissions.deny Edit rules; Dir marks
	// a directory (the rule then covers everything below it).
	DenyEdit []EditTarget
	// Excluded are the commands that run outside the sandbox: exactly the
	// Generator's own harness commands.
	Excluded []string
	// AllowDomains is sandbox.network.allowedDomains.
	AllowDomains []string
}

// EditTarget is one path of a permissions.deny Edit rule.
type EditTarget struct {
	Path string
	Dir  bool
}

// GeneratorCommands are the harness subcommands a Generator runs itself
// (spec/AGENTS.md): they run outside the sandbox, as the harness binary.
var GeneratorCommands = []string{"eval append", "phase complete"}

// BuildPolicy computes the policy for in (docs/sandbox.md §2).
func BuildPolicy(in PolicyInput) Policy {
	var p Policy
	deny := &pathSet{}
	edit := &editSet{}
	both := func(path string, dir bool) { deny.add(path); edit.add(path, dir) }

	root := filepath.Clean(in.Root)
	p.AllowWrite = []string{root}
	if in.CacheDir != "" {
		p.AllowWrite = append(p.AllowWrite, in.CacheDir)
	}

	// The root's protected entries, and any spelling of them that differs
	// only in case (names compare case-insensitively, corpus README §3.1).
	for _, n := range readonlyTop {
		both(filepath.Join(root, n), slices.Contains(readonlyTopDirs, n))
	}
	for _, e := range readDir(root) {
		if i := slices.IndexFunc(readonlyTop, func(n string) bool { return strings.EqualFold(n, e.Name()) }); i >= 0 {
			both(filepath.Join(root, e.Name()), e.IsDir())
		}
	}

	// .harness/: every entry but features/.
	h := filepath.Join(root, workspace.HarnessDir)
	for _, n := range harnessNames {
		path := filepath.Join(h, n)
		deny.add(path)
		if n != "sprint_contracts" {
			edit.add(path, slices.Contains(harnessDirs, n))
		}
	}
	for _, e := range readDir(h) {
		if e.Name() == "features" {
			continue
		}
		path := filepath.Join(h, e.Name())
		deny.add(path)
		if e.Name() != "sprint_contracts" {
			edit.add(path, e.IsDir())
		}
	}
	// sprint_contracts/: the whole directory is read-only for Bash; the
	// Edit tool may still add lines under tooling.md's "## 6." heading (the
	// hook judges that edit, rule tooling), so only the other files get
	// Edit deny rules.
	sc := filepath.Join(h, "sprint_contracts")
	edit.add(filepath.Join(sc, "*", "contract.json"), false)
	for _, c := range readDir(sc) {
		if !c.IsDir() {
			edit.add(filepath.Join(sc, c.Name()), false)
			continue
		}
		for _, f := range readDir(filepath.Join(sc, c.Name())) {
			if f.Name() != "tooling.md" {
				edit.add(filepath.Join(sc, c.Name(), f.Name()), f.IsDir())
			}
		}
	}

	// .harness/features/: every other feature's directory, existing or
	// listed in feature_list.json, and Claude Code's channels there.
	fd := filepath.Join(h, "features")
	for _, n := range append([]string{".claude", ".mcp.json"}, memoryFiles...) {
		both(filepath.Join(fd, n), n == ".claude")
	}
	for _, id := range in.FeatureIDs {
		if id != in.Feature && id != "" && !strings.ContainsAny(id, `/\`) {
			both(filepath.Join(fd, id), true)
		}
	}
	for _, e := range readDir(fd) {
		if e.Name() != in.Feature {
			both(filepath.Join(fd, e.Name()), e.IsDir())
		}
	}

	// The feature's own directory: everything but its two records.
	own := filepath.Join(fd, in.Feature)
	for _, n := range featureNames {
		both(filepath.Join(own, n), n == ".claude")
	}
	for _, e := range readDir(own) {
		if !slices.Contains(ownRecords, e.Name()) {
			both(filepath.Join(own, e.Name()), e.IsDir())
		}
	}

	// git: the work tree's .git stays writable (commits), its hooks and
	// configuration (which run code for Hermes's git too) do not.
	if in.GitDir != "" {
		if !within(in.GitDir, root) {
			p.AllowWrite = append(p.AllowWrite, in.GitDir)
		}
		both(filepath.Join(in.GitDir, "hooks"), true)
		both(filepath.Join(in.GitDir, "config"), false)
	}

	// The binaries' directories and every PATH directory: read-only, so
	// that the name `harness` in an excluded command resolves to the real
	// binary and nothing can be planted where PATH looks.
	for _, b := range []string{in.HarnessBin, in.HookBin} {
		if b != "" {
			both(filepath.Dir(b), true)
		}
	}
	writable := append(append([]string{}, p.AllowWrite...), in.TempDir)
	for _, d := range in.PathDirs {
		edit.add(d, true)
		for _, w := range writable {
			if w != "" && within(d, w) {
				deny.add(d)
			}
		}
	}

	// Claude Code's own configuration outside the tree (§9.4): the ancestors
	// of the working directory, the user's ~/.claude and $CLAUDE_CONFIG_DIR,
	// and start-up files under HOME. Outside the work area they are
	// read-only for Bash anyway; these rules stop the Write and Edit tools.
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		edit.add(filepath.Join(dir, ".claude"), true)
		edit.add(filepath.Join(dir, ".mcp.json"), false)
		for _, n := range memoryFiles {
			edit.add(filepath.Join(dir, n), false)
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if in.Home != "" {
		for _, n := range homeChannels {
			edit.add(filepath.Join(in.Home, n), false)
		}
		for _, n := range homeChannelDirs {
			edit.add(filepath.Join(in.Home, filepath.FromSlash(n)), true)
		}
	}
	if in.ClaudeConfigDir != "" {
		edit.add(in.ClaudeConfigDir, true)
	}
	if in.HermesHome != "" && filepath.IsAbs(in.HermesHome) {
		hh := filepath.Clean(in.HermesHome)
		if rel, err := filepath.Rel(root, hh); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			both(hh, true)
		} else {
			edit.add(hh, true)
		}
	}

	locks := &pathSet{}
	for _, n := range LockSidecars {
		locks.add(filepath.Join(h, filepath.FromSlash(n)))
	}
	for _, d := range []string{h, filepath.Join(h, "logs"), filepath.Join(h, "logs", "cache")} {
		for _, e := range readDir(d) {
			if strings.HasSuffix(e.Name(), ".lock") && e.Type().IsRegular() {
				locks.add(filepath.Join(d, e.Name()))
			}
		}
	}
	p.DenyRead = locks.list()
	p.DenyWrite = deny.list()
	p.DenyEdit = edit.list()
	p.Excluded = excludedCommands(in.HarnessBin)
	p.AllowDomains = in.AllowDomains
	return p
}

// excludedCommands are the Bash permission-rule patterns of the Generator's
// own harness commands: with the absolute binary path, and with the bare
// name when the binary is called harness (the session's PATH then starts
// with its directory, which is read-only).
func excludedCommands(harnessBin string) []string {
	var out []string
	bare := strings.TrimSuffix(filepath.Base(harnessBin), ".exe") == "harness"
	for _, c := range GeneratorCommands {
		out = append(out, harnessBin+" "+c+" *")
	}
	if bare {
		for _, c := range GeneratorCommands {
			out = append(out, "harness "+c+" *")
		}
	}
	return out
}

// Sandbox is the settings block of the policy. With off set, the sandbox
// is explicitly disabled (harness launch --no-sandbox).
func (p Policy) Sandbox(off bool) ccsettings.Sandbox {
	if off {
		return ccsettings.Sandbox{Enabled: ccsettings.Bool(false)}
	}
	s := ccsettings.Sandbox{
		Enabled:                  ccsettings.Bool(true),
		FailIfUnavailable:        ccsettings.Bool(true),
		AllowUnsandboxedCommands: ccsettings.Bool(false),
		AutoAllowBashIfSandboxed: ccsettings.Bool(true),
		ExcludedCommands:         p.Excluded,
		Filesystem:               &ccsettings.Filesystem{},
	}
	for _, a := range p.AllowWrite {
		s.Filesystem.AllowWrite = append(s.Filesystem.AllowWrite, ccsettings.SandboxPath(a))
	}
	for _, d := range p.DenyWrite {
		s.Filesystem.DenyWrite = append(s.Filesystem.DenyWrite, ccsettings.SandboxPath(d))
	}
	for _, d := range p.DenyRead {
		s.Filesystem.DenyRead = append(s.Filesystem.DenyRead, ccsettings.SandboxPath(d))
	}
	if len(p.AllowDomains) > 0 {
		s.Network = &ccsettings.Network{AllowedDomains: p.AllowDomains}
	}
	return s
}

// Permissions is the permissions block of the policy: the Edit deny rules,
// and allow rules for the excluded harness commands (they leave the sandbox,
// so the sandbox's automatic approval does not cover them). Without the
// sandbox, Bash itself is allowed: no prompt can be answered in a headless
// session, and the hook is then the only guard.
func (p Policy) Permissions(off bool) ccsettings.Permissions {
	var perm ccsettings.Permissions
	for _, c := range p.Excluded {
		perm.Allow = append(perm.Allow, "Bash("+c+")")
	}
	if off {
		perm.Allow = append(perm.Allow, "Bash")
	}
	for _, t := range p.DenyEdit {
		perm.Deny = append(perm.Deny, ccsettings.EditRule(t.Path, t.Dir))
	}
	return perm
}

// pathSet is an ordered set of absolute paths; each is added in its
// lexical form and, when symbolic links lead elsewhere, its physical form.
type pathSet struct {
	seen map[string]bool
	out  []string
}

func (s *pathSet) add(p string) {
	for _, f := range forms(p) {
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		if !s.seen[f] {
			s.seen[f] = true
			s.out = append(s.out, f)
		}
	}
}

func (s *pathSet) list() []string { return s.out }

type editSet struct {
	seen map[string]bool
	out  []EditTarget
}

func (s *editSet) add(p string, dir bool) {
	for _, f := range forms(p) {
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		if !s.seen[f] {
			s.seen[f] = true
			s.out = append(s.out, EditTarget{Path: f, Dir: dir})
		}
	}
}

func (s *editSet) list() []EditTarget { return s.out }

// forms returns p cleaned and, when it differs, the physical form: the
// longest existing prefix with symbolic links resolved, the rest appended
// (corpus README §3.1; on macOS t.TempDir() lies below /var -> /private/var).
func forms(p string) []string {
	p = filepath.Clean(p)
	phys := physical(p)
	if phys != "" && phys != p {
		return []string{p, phys}
	}
	return []string{p}
}

func physical(p string) string {
	if strings.ContainsAny(p, "*?[") {
		return ""
	}
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return ""
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether p is dir or below it (lexically, either form).
func within(p, dir string) bool {
	for _, a := range forms(p) {
		for _, b := range forms(dir) {
			rel, err := filepath.Rel(b, a)
			if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
				return true
			}
		}
	}
	return false
}

// readDir lists a directory sorted by name (nil when unreadable).
func readDir(dir string) []os.DirEntry {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name() < es[j].Name() })
	return es
}
