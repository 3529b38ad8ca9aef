package codelex

import (
	"reflect"
	"testing"
)

// TestAdjacentLiterals (round 13 db0133): Python and Ruby join string
// literals written next to each other into one ('r' 'm -rf build' is
// 'rm -rf build'; Python reference "String literal concatenation", Ruby
// "adjacent string literals are automatically concatenated"); a newline
// between them ends the statement, so they stay apart. Checked with
// python3 and ruby here.
func TestAdjacentLiterals(t *testing.T) {
	for _, c := range []lexCase{
		{Python, `import os; os.system('r' 'm -rf build')`, []string{"sh:rm -rf build"}},
		{Python, `import os; os.system("rm " "-rf " 'build')`, []string{"sh:rm -rf build"}},
		{Python, "import os\nos.system(('rm -rf '\n  'build'))", []string{"sh:rm -rf build"}},
		{Python, `import subprocess; subprocess.run(['r' 'm', '-rf', 'build'])`, []string{"argv:rm -rf build"}},
		{Ruby, `system('r' 'm -rf build')`, []string{"sh:rm -rf build"}},
		{Python, `print('r' 'm -rf build')`, nil},
		{Python, `import os; os.system('ls' ' -l')`, []string{"sh:ls -l"}},
		{Python, "x = 'rm -rf '\n'build'", nil},
	} {
		got := summary(Analyze(c.lang, c.code, Options{}))
		if !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s %q:\n got  %q\n want %q", c.lang, c.code, got, c.want)
		}
	}
}
