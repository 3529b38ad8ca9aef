package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRealClaudeListsTheInstalledHarnessSkill: `harness skill install
// --claude` puts the shipped skill where Claude Code loads user skills, and
// the real client offers it to the model: the request the mock API gets
// names the skill harness-sprint with its description (so a Claude Code
// orchestrator can load it on demand), and the client's init event lists it.
func TestRealClaudeListsTheInstalledHarnessSkill(t *testing.T) {
	claude, bins := setup(t)
	if bins.Harness == "" {
		t.Fatalf("cmd/harness does not build: %s", bins.HarnessErr)
	}
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	install := exec.Command(bins.Harness, "skill", "install", "--claude", "--json")
	install.Env = []string{"HOME=" + home, "PATH=" + pathFrom(nil)}
	out, err := install.CombinedOutput()
	if err != nil {
		t.Fatalf("harness skill install --claude: %v\n%s", err, out)
	}
	skillMD := filepath.Join(home, ".claude", "skills", "harness-sprint", "SKILL.md")
	if !exists(skillMD) {
		t.Fatalf("%s not written:\n%s", skillMD, out)
	}
	dir := t.TempDir()
	mock := NewMockAPI(Script{FinalText: "ok"}, filepath.Join(t.TempDir(), "mock-requests.jsonl"))
	t.Cleanup(mock.Close)
	run, err := Run(context.Background(), RunOptions{
		Claude: claude, Dir: dir, Home: home, BaseURL: mock.URL(),
		Prompt: "Which skills can you use?", Path: pathFrom(nil), Lang: "C.UTF-8", Timeout: 120 * time.Second,
	})
	if err != nil {
		t.Fatalf("start claude: %v", err)
	}
	if run.TimedOut {
		t.Fatalf("claude timed out\nstderr: %.1000s", run.Stderr)
	}
	const desc = "Run a Hermes + Claude Code sprint with the harness CLI"
	seen := false
	for _, r := range mock.Messages() {
		b := string(r.Body)
		if strings.Contains(b, "harness-sprint") && strings.Contains(b, desc) {
			seen = true
			break
		}
	}
	if !seen {
		t.Fatalf("no request to the model names the skill harness-sprint with its description (%d messages requests)\nstderr: %.1000s",
			len(mock.Messages()), run.Stderr)
	}
	listed := false
	for _, ev := range run.Events {
		if ev["type"] != "system" || ev["subtype"] != "init" {
			continue
		}
		if skills, ok := ev["skills"].([]any); ok {
			for _, s := range skills {
				if s == "harness-sprint" {
					listed = true
				}
			}
		}
	}
	if !listed {
		t.Errorf("the client's init event does not list harness-sprint among its skills")
	}
}
