package ruleid

//go:generate go run gen_iron.go

// IronRule is one iron rule of the protocol: the code that refusals and the
// documents cite in parentheses ("(Z11)"), the rule in one line and how it
// is checked. The rows are generated from the table of docs/protocol.md §12,
// which is the one place they are written.
type IronRule struct {
	Code, Rule, Check string
}

// IronRules returns the iron rules in order (Z1 first).
func IronRules() []IronRule { return append([]IronRule(nil), ironRules...) }

// Iron returns the iron rule with code ("Z11").
func Iron(code string) (IronRule, bool) {
	for _, r := range ironRules {
		if r.Code == code {
			return r, true
		}
	}
	return IronRule{}, false
}
