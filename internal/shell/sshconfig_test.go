package shell

import (
	"maps"
	"testing"
)

func TestSSHConfigFor(t *testing.T) {
	text := "HostName first-default\n# comment\nHost web*\n  HostName=%h.internal\n  ProxyJump j1\nHost web1\n  HostName second\n  ProxyCommand nc %h 22\nHost !web2 *\n  User x\n"
	for host, want := range map[string]map[string]string{
		// the keyword before any Host line applies to every host and wins
		"web1":  {"hostname": "first-default", "proxyjump": "j1", "proxycommand": "nc web1 22"},
		"web2":  {"hostname": "first-default", "proxyjump": "j1"},
		"other": {"hostname": "first-default"},
	} {
		if got := sshConfigFor(text, host); !maps.Equal(got, want) {
			t.Errorf("%s: %v, want %v", host, got, want)
		}
	}
	if got := sshConfigFor("Host a\n HostName %h.x\n", "a"); got["hostname"] != "a.x" {
		t.Errorf("%%h: %v", got)
	}
	if got := sshConfigFor("Host a\n HostName b\n", "c"); got != nil {
		t.Errorf("no block for c: %v", got)
	}
	for op, want := range map[string]string{"u@h": "h", "ssh://u@h:22/x": "h", "h": "h", "ssh://[::1]": "[::1]"} {
		if got := sshTarget(op); got != want {
			t.Errorf("sshTarget(%q) = %q, want %q", op, got, want)
		}
	}
}
