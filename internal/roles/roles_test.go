package roles

import "testing"

func TestGeneratorMayRun(t *testing.T) {
	allowed := [][]string{
		nil, {"validate"}, {"validate", "--json"}, {"finalize", "--check"}, {"finalize", "--json", "--check"}, {"explain", "ls"}, {"status"}, {"next"},
		{"checkpoint", "render", "cp-f001-1"}, {"allow", "--list"}, {"allow", "--feature", "f001", "--list"},
		{"eval", "append", "--feature", "f001"}, {"phase", "complete", "f001"}, {"help"}, {"--version"},
		{"allow", "--help"}, {"task", "add", "-h"},
	}
	refused := [][]string{
		{"allow", "--feature", "f001", "--once", "rm -rf build"}, {"finalize"}, {"finalize", "DIR"}, {"finalize", "--check", "--close"}, {"finalize", "--sink=p"}, {"finalize", "--close"}, {"finalize", "--close=true", "--json"}, {"checkpoint", "reply", "cp-f001-1", "1a"},
		{"checkpoint"}, {"eval", "amend", "--line", "1"}, {"eval"}, {"phase", "advance", "f001"}, {"phase", "retry", "f001"},
		{"session", "start", "f001"}, {"reset", "hermes"}, {"yolo", "check"}, {"pipeline", "sink"}, {"task", "list"},
		{"init"}, {"init-feature", "f002"}, {"doctor"}, {"install"}, {"uninstall", "--user"}, {"demo"}, {"preflight"},
	}
	for _, s := range allowed {
		if !GeneratorMayRun(s) {
			t.Errorf("GeneratorMayRun(%q) = false, want true", s)
		}
	}
	for _, s := range refused {
		if GeneratorMayRun(s) {
			t.Errorf("GeneratorMayRun(%q) = true, want false", s)
		}
	}
}

func TestGeneratorSession(t *testing.T) {
	for _, c := range []struct {
		vars map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"FEATURE_ID": "f001"}, true},
		{map[string]string{"CLAUDECODE": "1"}, true},
		{map[string]string{"CLAUDECODE": "0"}, false},
		{map[string]string{"FEATURE_ID": ""}, false},
	} {
		if got, _ := GeneratorSession(c.vars); got != c.want {
			t.Errorf("GeneratorSession(%v) = %v, want %v", c.vars, got, c.want)
		}
	}
}
