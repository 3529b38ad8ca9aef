package shell

import (
	"path"
	"strings"
)

// sshConfigKeys are the ssh_config keywords the guards read: where the
// connection goes (hostname, proxyjump: Command.Config for the production
// rule) and what ssh runs (proxycommand, localcommand with
// permitlocalcommand, remotecommand: walked as commands).
var sshConfigKeys = [...]string{"hostname", "proxyjump", "proxycommand", "localcommand", "permitlocalcommand", "remotecommand"}

// sshConfigFor reads ssh_config(5) text as OpenSSH does for the target
// name host: `Host PATTERN…` blocks whose patterns match it (`*` and `?`
// globs, a `!pattern` match excludes the block; before any Host line the
// block applies to every host; a `Match` block is taken as applying, the
// cautious side), keywords case-insensitive, separated from their value by
// blanks or `=`, the first value of a keyword winning. The result holds
// the keywords of sshConfigKeys that are set, lower-cased; `%h` in a value
// is the target name. Nil when none is set.
func sshConfigFor(text, host string) map[string]string {
	var got map[string]string
	applies := true
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		k := strings.IndexAny(line, " \t=")
		if k < 0 {
			continue
		}
		key := strings.ToLower(line[:k])
		val := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line[k:]), "="))
		switch key {
		case "host":
			applies = sshHostMatch(strings.Fields(val), host)
			continue
		case "match":
			applies = true
			continue
		}
		if !applies || val == "" {
			continue
		}
		for _, want := range sshConfigKeys {
			if key != want {
				continue
			}
			if _, set := got[key]; !set {
				if got == nil {
					got = map[string]string{}
				}
				got[key] = strings.ReplaceAll(strings.Trim(val, `"`), "%h", host)
			}
		}
	}
	return got
}

// sshHostMatch reports whether a Host line's patterns select host: one
// pattern matches and no negated one does.
func sshHostMatch(patterns []string, host string) bool {
	hit := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(host)); ok {
			if neg {
				return false
			}
			hit = true
		}
	}
	return hit
}

// sshTarget is the name ssh connects to from its first operand
// ([user@]host, ssh://[user@]host[:port]).
func sshTarget(op string) string {
	if rest, ok := strings.CutPrefix(op, "ssh://"); ok {
		op = rest
		if k := strings.IndexByte(op, '/'); k >= 0 {
			op = op[:k]
		}
		if k := strings.LastIndexByte(op, ':'); k >= 0 && !strings.Contains(op[k:], "]") {
			op = op[:k]
		}
	}
	if k := strings.LastIndexByte(op, '@'); k >= 0 {
		op = op[k+1:]
	}
	return op
}

// sshConfigText is the configuration file text this ssh run reads when the
// command itself makes it known: the value of -F (a file written earlier
// in the command, a process substitution, a descriptor path), else
// ~/.ssh/config when the command wrote it.
func (w *walker) sshConfigText(st *state, c cmdCtx) (string, bool) {
	if c.cmd == nil {
		return "", false
	}
	for _, o := range c.cmd.Opts {
		if !o.Long && o.Name == "F" && o.HasValue {
			return w.optContent(st, c, o)
		}
	}
	if text, ok := w.writtenScript(st, "~/.ssh/config"); ok {
		return text, true
	}
	if home, ok := homeOf(st); ok {
		return w.writtenScript(st, path.Join(home, ".ssh/config"))
	}
	return "", false
}
