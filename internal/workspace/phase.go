package workspace

// PhaseAction returns the action of phase p as next_phases and the
// generator_log headings spell it (docs/protocol.md §3.2, §4.1): 1 plan,
// 2 implement, 3 verify, 4 deliver; "" for any other p.
func PhaseAction(p int) string {
	switch p {
	case 1:
		return "plan"
	case 2:
		return "implement"
	case 3:
		return "verify"
	case 4:
		return "deliver"
	}
	return ""
}
