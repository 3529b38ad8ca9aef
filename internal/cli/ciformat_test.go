package cli

import "testing"

// TestGitHubEscaping: a message or property with the characters the
// workflow-command syntax uses stays one annotation with the same text.
func TestGitHubEscaping(t *testing.T) {
	if got := ghData("100% lazy\r\nreason"); got != "100%25 lazy%0D%0Areason" {
		t.Errorf("ghData: %q", got)
	}
	if got := ghProperty("a:b,c%d\ne"); got != "a%3Ab%2Cc%25d%0Ae" {
		t.Errorf("ghProperty: %q", got)
	}
}
