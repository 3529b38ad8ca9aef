package pathguard

// GitPathspecs returns git pathspecs (":(glob,icase)…", relative to the
// root repository's top) for the protected paths of the §3.2 table whose
// rows are patterns (readonly_dir, readonly_file, contract, tooling,
// eval_log, state_via_cli, hook_log), and for Claude Code's channels at the
// root (the claude-config rule's patterns below .claude/ and its project
// files). gitrepo.ProtectedChanges asks git about exactly these, so the
// check Hermes runs before git knows the same paths the guard does (round
// 16 #13, testdata/redteam/round16/README.md).
func GitPathspecs() []string {
	var out []string
	add := func(p string) { out = append(out, ":(glob,icase)"+p) }
	for _, r := range Rules() {
		for _, p := range r.Patterns {
			add(p)
		}
	}
	cc := ClaudeConfigRule()
	for _, p := range cc.Patterns {
		add(".claude/" + p)
	}
	for _, f := range cc.ProjectFiles {
		add(f)
	}
	return out
}
