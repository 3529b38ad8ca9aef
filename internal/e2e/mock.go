// Package e2e drives the real Claude Code CLI (claude, `-p` headless mode)
// offline against the scripted mock of the Anthropic Messages API in
// internal/mockapi, with harness-hook wired through the feature's
// .claude/settings.json or through `harness launch`, and checks what actually
// happens: whether a tool ran, and what text reached the model.
package e2e

import "github.com/superagent-harness/harness/internal/mockapi"

// The mock's types under the names the tests use (internal/mockapi).
type (
	Block      = mockapi.Block
	Script     = mockapi.Script
	APIError   = mockapi.APIError
	Usage      = mockapi.Usage
	Request    = mockapi.Request
	MockAPI    = mockapi.Server
	ToolResult = mockapi.ToolResult
	RoleText   = mockapi.RoleText
)

// Text is a text block of a scripted turn.
func Text(s string) Block { return mockapi.Text(s) }

// ToolUse is a tool_use block of a scripted turn (id "" is filled in).
func ToolUse(id, name string, input map[string]any) Block { return mockapi.ToolUse(id, name, input) }

// BashTurn is a scripted turn of one Bash tool_use block running cmd, with
// the Bash tool's timeout at 60 000 ms.
func BashTurn(id, cmd string) []Block {
	return []Block{ToolUse(id, "Bash", map[string]any{"command": cmd, "description": "work", "timeout": 60000})}
}

// NewMockAPI starts the mock (mockapi.Start); a failed loopback listen
// panics, which fails the test that called it.
func NewMockAPI(script Script, logPath string) *MockAPI {
	m, err := mockapi.Start(script, logPath)
	if err != nil {
		panic(err)
	}
	return m
}
