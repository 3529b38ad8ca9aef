package shell

import "strings"

// Command is an invocation's words parsed once by its program's row of
// the program table (testdata/corpus/README.md §9.1 "one argument model"): the
// subcommand path, the options before it, and the options and operands of
// the innermost (sub)command. Indexes are into the parsed words
// (Invocation.Args).
type Command struct {
	// Prog is the program's table row, nil for an unknown program.
	Prog *Program
	// Row is the innermost row: Prog, or the row of the last subcommand;
	// nil for an unknown program or an unknown subcommand.
	Row *Program
	// Sub is the subcommand path (["push"], ["compose", "exec"]); for a
	// program with subcommands, an unknown first operand is kept as its
	// subcommand (with a Partial grammar).
	Sub []string
	// SubAt are the indexes of the subcommand words.
	SubAt []int
	// Global are the program's own options before the first subcommand
	// (the zero value when there is no subcommand).
	Global ParsedOpts
	// Levels are the options of each level: the program's own, then each
	// subcommand's, the innermost last (its operands are ParsedOpts').
	// A program whose options may come at any level (kong: `harness eval
	// --feature f append`) is read across them (Command.AllValues).
	Levels []ParsedOpts
	// ParsedOpts are the options and operands of the innermost command.
	ParsedOpts
	// Config is, for git, the configuration in force for this run
	// (lower-cased keys): `-c key=value`, GIT_CONFIG_COUNT/KEY_n/VALUE_n in
	// the environment, and `git config` set earlier in the same command.
	// Nil for other programs.
	Config map[string]string
}

// SubName is the first subcommand word, "" when there is none.
func (c *Command) SubName() string {
	if c == nil || len(c.Sub) == 0 {
		return ""
	}
	return c.Sub[0]
}

// Is reports whether the subcommand path starts with subs.
func (c *Command) Is(subs ...string) bool {
	if c == nil || len(c.Sub) < len(subs) {
		return false
	}
	for i, s := range subs {
		if c.Sub[i] != s {
			return false
		}
	}
	return true
}

// ParseCommand parses the words after a program (its identity, Identity)
// by the program table. An unknown program's words are parsed with a
// Partial grammar (options permuted, no value-taking options).
func ParseCommand(name string, words []string) *Command {
	p := Lookup(name)
	c := &Command{Prog: p, Row: p}
	if p == nil {
		c.ParsedOpts = OptSpec{Partial: true}.Parse(words, 0)
		c.Levels = []ParsedOpts{c.ParsedOpts}
		return c
	}
	row := p
	opts := row.Opts.Parse(words, 0)
	for len(row.Subs) > 0 {
		first := opts.First()
		if first >= len(words) {
			break
		}
		if len(c.Sub) == 0 {
			c.Global = opts
		}
		c.Levels = append(c.Levels, opts)
		w := words[first]
		c.Sub = append(c.Sub, w)
		c.SubAt = append(c.SubAt, first)
		row = row.Sub(w)
		if row != nil && hasName(row.Synonyms, w) {
			c.Sub[len(c.Sub)-1] = row.Name
		}
		if row == nil {
			opts = OptSpec{Partial: true, Abbrev: true}.Parse(words, first+1)
			break
		}
		opts = row.Opts.Parse(words, first+1)
	}
	c.Row = row
	c.ParsedOpts = opts
	c.Levels = append(c.Levels, opts)
	return c
}

// AllOpts calls fn for every option of every level (Levels), in order,
// until fn returns false.
func (c *Command) AllOpts(fn func(p *ParsedOpts, o *Opt) bool) {
	for i := range c.Levels {
		p := &c.Levels[i]
		for j := range p.Opts {
			if !fn(p, &p.Opts[j]) {
				return
			}
		}
	}
}

// AnyHas reports whether an option of any level is one of shorts or longs
// (ParsedOpts.Has).
func (c *Command) AnyHas(shorts string, longs ...string) bool {
	found := false
	c.AllOpts(func(p *ParsedOpts, o *Opt) bool {
		found = p.matches(o, shorts, longs)
		return !found
	})
	return found
}

// String renders the parse: "SUB: " (the subcommand path) and the
// innermost command's options and operands (ParsedOpts.String).
func (c *Command) String() string {
	if len(c.Sub) == 0 {
		return c.ParsedOpts.String()
	}
	return strings.Join(c.Sub, " ") + ": " + c.ParsedOpts.String()
}

// Written returns the files and the directories the command writes by its
// row's WriteSpec (Program.Writes), stdin being the command's known stdin
// (nil when unknown); nil for a row without one. A "-" (stdout) is not a
// file.
func (c *Command) Written(stdin *string) (files, dirs []string) {
	if c == nil || c.Row == nil {
		return nil, nil
	}
	ws := &c.Row.Writes
	if *ws == (WriteSpec{}) {
		return nil, nil
	}
	p := c.ParsedOpts
	for i := range p.Opts {
		if ws.Unless != "" && optNamed(p, &p.Opts[i], ws.Unless) {
			return nil, nil
		}
	}
	if ws.Opts != "" || ws.Dirs != "" {
		for i := range p.Opts {
			o := &p.Opts[i]
			if !o.HasValue || o.Value == "" || o.Value == "-" {
				continue
			}
			switch {
			case optNamed(p, o, ws.Opts):
				files = append(files, o.Value)
			case optNamed(p, o, ws.Dirs):
				dirs = append(dirs, o.Value)
			}
		}
	}
	ops := p.OperandValues()
	switch {
	case ws.All:
		for _, v := range ops {
			if v != "-" {
				files = append(files, v)
			}
		}
	case ws.Last > 0 && len(ops) >= ws.Last && ops[len(ops)-1] != "-":
		files = append(files, ops[len(ops)-1])
	}
	if ws.First && len(ops) > 0 && ops[0] != "-" {
		files = append(files, ops[0])
	}
	if ws.Operand > 0 && ws.Operand <= len(ops) {
		dirs = append(dirs, ops[ws.Operand-1])
	}
	if ws.Lines != "" {
		texts := ops
		for i := range p.Opts {
			if p.Opts[i].HasValue {
				texts = append(texts, p.Opts[i].Value)
			}
		}
		if stdin != nil {
			texts = append(texts, *stdin)
		}
		for _, t := range texts {
			for _, line := range strings.Split(t, "\n") {
				if fs := strings.Fields(line); len(fs) >= 2 && hasName(ws.Lines, fs[0]) && fs[len(fs)-1] != "-" && !strings.HasPrefix(fs[len(fs)-1], "|") {
					files = append(files, strings.Trim(fs[len(fs)-1], `"'`))
				}
			}
		}
	}
	return files, dirs
}
