package bashguard

import "testing"

// TestOsascriptAdmin (round 15 fb0058): AppleScript's `do shell script …
// with administrator privileges` (and JXA's doShellScript with
// administratorPrivileges: true) runs the script as root after asking for
// an administrator's password, so it is privilege (priv.sudo) whatever
// the script is, and the script is judged as a command of its own; a
// do shell script without it, a dialog, and a script file the guard does
// not read are judged as before (an interpreter's script file is run
// unread, as python FILE is). From osascript(1) and the AppleScript
// Language Guide "do shell script" (osascript is not installed here).
func TestOsascriptAdmin(t *testing.T) {
	for _, c := range []struct{ cmd, want, rule string }{
		{`osascript -e 'do shell script "launchctl list" with administrator privileges'`, "block", "priv.sudo"},
		{`osascript -e 'do shell script "id" user name "admin" password "pw" with administrator privileges'`, "block", "priv.sudo"},
		{`osascript -e 'do shell script "id" administrator privileges true'`, "block", "priv.sudo"},
		{`osascript -e 'set c to "whoami"' -e 'do shell script c with administrator privileges'`, "block", "priv.sudo"},
		{`osascript <<'EOF'` + "\n" + `do shell script "ls /var/root" with administrator privileges` + "\nEOF", "block", "priv.sudo"},
		{`osascript -l JavaScript -e 'Application.currentApplication().doShellScript("id", {administratorPrivileges: true})'`, "block", "priv.sudo"},
		{`bash -c "osascript -e 'do shell script \"id\" with administrator privileges'"`, "block", "priv.sudo"},
		{`osascript -e 'do shell script "rm -rf /" with administrator privileges'`, "block", ""},
		{`osascript -e 'do shell script "rm -rf /"'`, "block", ""},
		{`osascript -e 'display dialog "hi"'`, "allow", ""},
		{`osascript -e 'do shell script "launchctl list"'`, "allow", ""},
		{`osascript -e 'do shell script "id" without administrator privileges'`, "allow", ""},
		{`osascript -e 'display dialog "run with administrator privileges?"'`, "allow", ""},
		{`osascript script.scpt`, "allow", ""},
	} {
		d := Decide(c.cmd, Context{}).Decision
		if d.Action.String() != c.want || c.rule != "" && d.Rule != c.rule {
			t.Errorf("%s: got %s %s (%s), want %s %s", c.cmd, d.Action, d.Rule, d.Message, c.want, c.rule)
		}
	}
}
