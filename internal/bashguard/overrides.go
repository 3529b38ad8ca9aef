package bashguard

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/goccy/go-yaml"

	"github.com/superagent-harness/harness/internal/fsutil"
	"github.com/superagent-harness/harness/internal/ruleid"
	"github.com/superagent-harness/harness/internal/shell"
	"github.com/superagent-harness/harness/internal/verdict"
)

// OverridesFile is the project override file, relative to the sprint root.
const OverridesFile = ".harness/rules.yaml"

// Overrides are a project's changes to the built-in rules, read from
// <root>/.harness/rules.yaml (documented in rules/README.md).
type Overrides struct {
	// Disable lists rule ids that no longer fire.
	Disable []string `yaml:"disable"`
	// Warn lists block rule ids that warn instead.
	Warn []string `yaml:"warn"`
	// Allow lists target globs for which a rule does not fire.
	Allow []AllowOverride `yaml:"allow"`
	// Block adds declarative rules.
	Block []BlockOverride `yaml:"block"`
	// Reset is the Reset-trigger thresholds section, which
	// internal/monitor reads and checks (monitor.ParseThresholds); the
	// guard rules ignore it.
	Reset any `yaml:"reset"`

	user []userRule
	// root is the sprint root the file was loaded from; allow globs are
	// relative to it ("" for ParseOverrides: relative to the command's cwd).
	root string
	// source is the file the overrides were read from ("" for
	// ParseOverrides); Match.Override names it.
	source string
	// lower is the layer beneath (Layer): consulted for a rule this layer
	// has no opinion on.
	lower *Overrides
}

// AllowOverride exempts invocations whose every target operand matches one
// of Targets (doublestar globs, relative to the command's directory, e.g.
// "build/**") from Rule (every rule when Rule is empty).
type AllowOverride struct {
	Rule    string   `yaml:"rule"`
	Targets []string `yaml:"targets"`
}

// BlockOverride is a declarative rule: it fires on an invocation of Program
// (glob) whose first operand matches Subcommand (glob, optional), that has
// every option of Flags (e.g. "-auto-approve", "--force", "-n": hasFlag),
// and whose operands each match one of Args (globs, optional). Operands and
// options are the option model's (shell.Command): the subcommand path
// comes first among the operands, option values are none.
type BlockOverride struct {
	ID         string   `yaml:"id"`
	Action     string   `yaml:"action"` // block (default) or warn
	Program    string   `yaml:"program"`
	Subcommand string   `yaml:"subcommand"`
	Flags      []string `yaml:"flags"`
	Args       []string `yaml:"args"`
	Message    string   `yaml:"message"`
	Hint       string   `yaml:"hint"`
}

// hasFlag reports whether the command has the option flag (a Flags entry
// of a BlockOverride) as the option model parses it: an option word
// spelled so (also with "=VALUE"), or the option it names: "--name" the
// long option (abbreviated as the program allows), "-x" the letter (also
// in a cluster: -rf has -f) or a Go-style flag, "-name" a Go-style long
// option. A word after "--" is an operand, no option.
func hasFlag(c *call, cmd *shell.Command, flag string) bool {
	found := false
	cmd.AllOpts(func(_ *shell.ParsedOpts, o *shell.Opt) bool {
		w := c.args[o.Arg]
		found = w == flag || strings.HasPrefix(w, flag+"=")
		return !found
	})
	if found {
		return true
	}
	switch name, long := strings.CutPrefix(flag, "--"); {
	case long:
		return name != "" && cmd.AnyHas("", name)
	case len(flag) == 2 && flag[0] == '-':
		return cmd.AnyHas(flag[1:], flag[1:])
	case len(flag) > 2 && flag[0] == '-':
		return cmd.AnyHas("", flag[1:])
	}
	return false
}

type userRule struct {
	rule Rule
	def  BlockOverride
	// ov is the layer that defines the rule (its source names the file).
	ov *Overrides
}

// LoadOverrides reads <root>/.harness/rules.yaml. A missing file gives
// (nil, nil). An invalid file gives (nil, error): the caller reports the
// error and the built-in rules stay in force (never fail open).
func LoadOverrides(root string) (*Overrides, error) {
	ov, err := LoadOverridesFile(filepath.Join(root, filepath.FromSlash(OverridesFile)), root)
	if err != nil {
		// the sprint's file is named as the protocol names it
		var pe *overridesFileError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %w", OverridesFile, pe.err)
		}
		return nil, err
	}
	return ov, nil
}

// overridesFileError is a LoadOverridesFile error: the file and the cause.
type overridesFileError struct {
	file string
	err  error
}

func (e *overridesFileError) Error() string { return e.file + ": " + e.err.Error() }
func (e *overridesFileError) Unwrap() error { return e.err }

// LoadOverridesFile reads the override file at file (the schema of
// rules/README.md "Project overrides": .harness/rules.yaml inside a sprint,
// .claude/harness.yaml and ~/.claude/harness.yaml outside one), whose allow
// globs are relative to the directory base. A missing file gives (nil,
// nil); an invalid one (nil, error naming the file): the caller reports it
// and the built-in rules stay in force (never fail open). The file is read
// without blocking (a FIFO is an error) and capped at fsutil.CapConfig.
func LoadOverridesFile(file, base string) (*Overrides, error) {
	// never os.ReadFile: a FIFO here would hang every Bash PreToolUse
	data, err := fsutil.ReadRegular(file, fsutil.CapConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &overridesFileError{file, err}
	}
	ov, err := ParseOverrides(data)
	if err != nil {
		return nil, &overridesFileError{file, err}
	}
	ov.root, ov.source = base, file
	return ov, nil
}

// Layer returns upper with lower beneath it: for each rule the highest
// layer that has an opinion decides (disable, an allow entry whose targets
// match, warn), and a block rule defined in both layers is upper's. Either
// may be nil; neither is changed.
func Layer(lower, upper *Overrides) *Overrides {
	switch {
	case lower == nil:
		return upper
	case upper == nil:
		return lower
	}
	n := *upper
	n.lower = Layer(lower, upper.lower)
	return &n
}

// Source is the file ov was read from ("" when parsed from bytes).
func (ov *Overrides) Source() string { return ov.source }

// Layers are ov and the layers beneath it, highest first.
func (ov *Overrides) Layers() []*Overrides {
	var out []*Overrides
	for o := ov; o != nil; o = o.lower {
		out = append(out, o)
	}
	return out
}

// ParseOverrides decodes and checks an override file (unknown keys, unknown
// rule ids, invalid globs and incomplete block rules are errors).
func ParseOverrides(data []byte) (*Overrides, error) {
	var ov Overrides
	if len(bytes.TrimSpace(data)) == 0 {
		return &ov, nil
	}
	if err := yaml.UnmarshalWithOptions(data, &ov, yaml.Strict()); err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, r := range builtinRules {
		known[r.ID] = true
	}
	for _, id := range ov.Disable {
		if !known[id] {
			return nil, fmt.Errorf("disable: unknown rule id %q", id)
		}
		if id == ruleid.ShellTooComplex {
			return nil, fmt.Errorf("disable: %s cannot be disabled (the guard could not finish)", id)
		}
	}
	for _, id := range ov.Warn {
		if !known[id] {
			return nil, fmt.Errorf("warn: unknown rule id %q", id)
		}
	}
	for i, a := range ov.Allow {
		if a.Rule != "" && !known[a.Rule] {
			return nil, fmt.Errorf("allow[%d]: unknown rule id %q", i, a.Rule)
		}
		if len(a.Targets) == 0 {
			return nil, fmt.Errorf("allow[%d]: targets is empty", i)
		}
		for _, g := range a.Targets {
			if !doublestar.ValidatePattern(g) {
				return nil, fmt.Errorf("allow[%d]: invalid glob %q", i, g)
			}
		}
	}
	for i, b := range ov.Block {
		if b.ID == "" || b.Program == "" {
			return nil, fmt.Errorf("block[%d]: id and program are required", i)
		}
		if known[b.ID] {
			return nil, fmt.Errorf("block[%d]: id %q is a built-in rule", i, b.ID)
		}
		for _, g := range append([]string{b.Program, b.Subcommand}, b.Args...) {
			if g != "" && !doublestar.ValidatePattern(g) {
				return nil, fmt.Errorf("block[%d]: invalid glob %q", i, g)
			}
		}
		act := verdict.Block
		switch b.Action {
		case "", "block":
		case "warn":
			act = verdict.Warn
		default:
			return nil, fmt.Errorf("block[%d]: action must be block or warn, not %q", i, b.Action)
		}
		msg := b.Message
		if msg == "" {
			msg = "blocked by the project rule " + b.ID
		}
		ov.user = append(ov.user, userRule{rule: Rule{ID: b.ID, Family: "project", Action: act, Message: msg, Hint: b.Hint}, def: b, ov: &ov})
	}
	return &ov, nil
}

// action is r's action for invocation c after the override layers, and
// which layer and entry decided ("file: disable", "" when none did): the
// highest layer with an opinion on r wins.
func (ov *Overrides) action(r *Rule, c *call, cwd string) (verdict.Action, string) {
	for o := ov; o != nil; o = o.lower {
		if a, why, ok := o.own(r, c, cwd); ok {
			if o.source != "" {
				why = o.source + ": " + why
			}
			return a, why
		}
	}
	return r.Action, ""
}

// own is this layer's opinion on r for c (ok false: none).
func (ov *Overrides) own(r *Rule, c *call, cwd string) (verdict.Action, string, bool) {
	for _, id := range ov.Disable {
		if id == r.ID && id != ruleid.ShellTooComplex {
			return verdict.Allow, "disable " + id, true
		}
	}
	if c != nil {
		for i, a := range ov.Allow {
			if (a.Rule == "" || a.Rule == r.ID) && targetsAllowed(c, a.Targets, ov.root, cwd) {
				return verdict.Allow, fmt.Sprintf("allow[%d] %s", i, strings.Join(a.Targets, ", ")), true
			}
		}
	}
	for _, id := range ov.Warn {
		if id == r.ID && r.Action == verdict.Block {
			return verdict.Warn, "warn " + id, true
		}
	}
	return r.Action, "", false
}

// userRules are the block rules of every layer, highest first; an id
// defined in several layers is the highest one's.
func (ov *Overrides) userRules() []userRule {
	if ov.lower == nil {
		return ov.user
	}
	var out []userRule
	seen := map[string]bool{}
	for o := ov; o != nil; o = o.lower {
		for _, u := range o.user {
			if !seen[u.rule.ID] {
				seen[u.rule.ID] = true
				out = append(out, u)
			}
		}
	}
	return out
}

// targetsAllowed reports whether c has at least one operand and every
// operand and every value of an option that takes one matches one of
// globs, as the option model parses the command (shell.Command: the
// innermost command's operands, shell.Opt.Takes values at every level,
// attached or in the next word; a subcommand word is no target, an
// optional value such as --interactive=never is none either). Targets
// are resolved against the command's directory (cwd joined with cd's)
// and, when the root is known and the target lies inside it, taken
// relative to the root; otherwise relative to the command's directory.
func targetsAllowed(c *call, globs []string, root, cwd string) bool {
	cmd := c.inv.Command()
	n := 0
	ok := true
	target := func(a string, known, operand bool) {
		if !ok {
			return
		}
		if !known || !globsMatch(globs, a, c.inv.Dir, root, cwd) {
			ok = false
			return
		}
		// an earlier cd may have failed: the operand must be allowed in
		// every directory the command may run in (`cd build; rm -rf *`)
		for _, d := range c.inv.AltDirs {
			if !globsMatch(globs, a, d.Dir, root, cwd) {
				ok = false
				return
			}
		}
		if operand {
			n++
		}
	}
	for _, i := range cmd.Operands {
		target(c.args[i], c.known[i], true)
	}
	cmd.AllOpts(func(_ *shell.ParsedOpts, o *shell.Opt) bool {
		if o.Takes && o.HasValue {
			target(o.Value, c.known[o.ValArg], false)
		}
		return ok
	})
	return ok && n > 0
}

// globsMatch reports whether operand a, run in directory dir
// (shell.Invocation.Dir form), matches one of globs.
func globsMatch(globs []string, a, dir, root, cwd string) bool {
	if dir == shell.DirUnknown || strings.HasPrefix(dir, "~") {
		return false
	}
	p := relTarget(a, dir, root, cwd)
	if p == "" {
		return false
	}
	for _, g := range globs {
		if m, _ := doublestar.Match(g, p); m {
			return true
		}
		if base, cut := strings.CutSuffix(g, "/**"); cut {
			if m, _ := doublestar.Match(base, p); m {
				return true
			}
		}
	}
	return false
}

// relTarget returns the slash path a glob is matched against, "" when the
// target leaves the base (root or command directory).
func relTarget(a, dir, root, cwd string) string {
	isAbs := func(p string) bool { return path.IsAbs(p) || filepath.IsAbs(filepath.FromSlash(p)) }
	p := a
	if !isAbs(p) && dir != "" {
		p = path.Join(dir, p)
	}
	if root != "" && cwd != "" {
		abs := p
		if !isAbs(abs) {
			abs = path.Join(filepath.ToSlash(cwd), abs)
		}
		rel, err := filepath.Rel(root, filepath.FromSlash(abs))
		if err != nil {
			return ""
		}
		p = filepath.ToSlash(rel)
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") || isAbs(p) {
		return ""
	}
	return p
}

func (u *userRule) matches(c *call) bool {
	d := u.def
	if ok, _ := doublestar.Match(d.Program, c.prog); !ok || c.prog == "" {
		return false
	}
	// the operands as the option model parses the command: the
	// subcommand path, then the innermost command's operands
	cmd := c.inv.Command()
	ops := append(slices.Clone(cmd.Sub), cmd.OperandValues()...)
	if d.Subcommand != "" {
		if len(ops) == 0 {
			return false
		}
		if ok, _ := doublestar.Match(d.Subcommand, ops[0]); !ok {
			return false
		}
		ops = ops[1:]
	}
	for _, f := range d.Flags {
		if !hasFlag(c, cmd, f) {
			return false
		}
	}
	if len(d.Args) > 0 {
		if len(ops) == 0 {
			return false
		}
		for _, op := range ops {
			ok := false
			for _, g := range d.Args {
				if m, _ := doublestar.Match(g, op); m {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
	}
	return true
}
