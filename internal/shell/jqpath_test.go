package shell

import "testing"

// TestJqSelect: outputs checked against jq 1.6 (`jq -r FILTER`).
func TestJqSelect(t *testing.T) {
	cases := []struct {
		filter, in, want string
		ok               bool
	}{
		{".cmd", `{"cmd":"rm -rf build"}`, "rm -rf build\n", true},
		{".a.b", `{"a":{"b":"x y"}}`, "x y\n", true},
		{".a[1]", `{"a":["p","q"]}`, "q\n", true},
		{".[-1]", `["p","q"]`, "q\n", true},
		{`.["k k"]`, `{"k k":"v"}`, "v\n", true},
		{`."k"?`, `{"k":1}`, "1\n", true},
		{".", `{"a":1}`, `{"a":1}` + "\n", true},
		{".missing", `{"a":1}`, "null\n", true},
		{".a", `{"a":"x"} {"a":"y"}`, "x\ny\n", true},
		{".a", `["x"]`, "", false},
		{".a", `not json`, "", false},
		{".a | .b", `{}`, "", false},
		{".[]", `[]`, "", false},
		{"length", `[]`, "", false},
	}
	for _, c := range cases {
		steps, ok := jqPath(c.filter)
		got := ""
		if ok {
			got, ok = jqSelect(steps, c.in)
		}
		if got != c.want || ok != c.ok {
			t.Errorf("jq -r %q <<< %q = %q, %v; want %q, %v", c.filter, c.in, got, ok, c.want, c.ok)
		}
	}
}
