package bashguard

import (
	"testing"

	"github.com/superagent-harness/harness/internal/verdict"
)

// The ssh configuration file a command writes and then hands to ssh (-F
// FILE, or ~/.ssh/config written earlier in the command) is read as ssh
// reads it: the Host blocks matching the target name give its HostName and
// ProxyJump (judged like -o HostName= / -J: production hosts are refused)
// and its ProxyCommand, LocalCommand and RemoteCommand, which ssh runs
// (judged as commands). Checked with OpenSSH 9.2: printf 'Host *\n
// ProxyCommand touch m\n' > c; ssh -F c x true made m. A config given as a
// process substitution is read too (OpenSSH closes the descriptor before
// it reads -F, so that spelling fails instead; judging it is the cautious
// side).
func TestSSHConfigFileWritten(t *testing.T) {
	judged(t, map[string]verdict.Action{
		"printf 'Host *\\n ProxyCommand rm -rf build\\n' > c; ssh -F c x":                           verdict.Block,
		"printf 'Host x\\n  ProxyCommand=rm -rf build\\n' > c && ssh -F c x true":                   verdict.Block,
		"printf 'Host a x\\n  HostName prod-db\\n' > c; ssh -F c x uptime":                          verdict.Block,
		"printf 'Host x\\n  ProxyJump deploy@prod-bastion\\n' > c; ssh -Fc x uptime":                verdict.Block,
		"printf 'Host x\\n RemoteCommand git push --force origin main\\n' > c; ssh -F c x":          verdict.Block,
		"printf 'Host x\\n PermitLocalCommand yes\\n LocalCommand rm -rf build\\n' > c; ssh -F c x": verdict.Block,
		"ssh -F <(printf 'Host x\\n  HostName prod-db\\n') x uptime":                                verdict.Block,
		"cat > c <<'EOF'\nHost x?\n  ProxyCommand rm -rf build\nEOF\nssh -F c x1":                   verdict.Block,
		"printf 'Host y\\n ProxyCommand rm -rf build\\n' > c; ssh -F c x":                           verdict.Allow, // another host's block
		"printf 'Host * !x\\n ProxyCommand rm -rf build\\n' > c; ssh -F c x":                        verdict.Allow, // negated for x
		"printf 'Host x\\n HostName staging-db\\n' > c; ssh -F c x uptime":                          verdict.Allow,
		"printf 'Host x\\n ProxyCommand nc %%h %%p\\n' > c; ssh -F c x uptime":                      verdict.Allow,
		"printf 'Host x\\n LocalCommand rm -rf build\\n' > c; ssh -F c x":                           verdict.Allow, // PermitLocalCommand is off by default
		"printf 'Host x\\n ProxyCommand rm -rf build\\n' >> ~/.ssh/config; ssh x":                   verdict.Block,
		"ssh -F ~/.ssh/other x uptime":                                                              verdict.Allow, // a file the command did not write
	})
}
