package shell

import "testing"

// TestSelectLiterals: outputs checked against sqlite3 3.40 in list mode.
func TestSelectLiterals(t *testing.T) {
	cases := []struct {
		sql, want string
		ok        bool
	}{
		{"select 'rm -rf build'", "rm -rf build\n", true},
		{"SELECT 'a b', 2; select 'it''s';", "a b|2\nit's\n", true},
		{"select 'x' as c", "x\n", true},
		{"select name from t", "", false},
		{"select 'a' || 'b'", "", false},
		{"delete from t; select 'x'", "", false},
		{"selectx 'a'", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := selectLiterals(c.sql)
		if got != c.want || ok != c.ok {
			t.Errorf("selectLiterals(%q) = %q, %v; want %q, %v", c.sql, got, ok, c.want, c.ok)
		}
	}
}
