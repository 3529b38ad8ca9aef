package validate

import "testing"

func TestPointerLine(t *testing.T) {
	doc := []byte(`{
  "sprint": "sprint_20260421_1",
  "features": [
    {"id": "f001", "depends_on": []},
    {
      "id": "f002",
      "depends_on": [
        "f001",
        "f003"
      ],
      "a/b": {"~x": 1}
    }
  ]
}
`)
	for ptr, want := range map[string]int{
		"":                         1,
		"/sprint":                  2,
		"/features":                3,
		"/features/0":              4,
		"/features/0/depends_on":   4,
		"/features/1":              5,
		"/features/1/id":           6,
		"/features/1/depends_on":   7,
		"/features/1/depends_on/1": 9,
		"/features/1/a~1b/~0x":     11,
		"/features/1/nothing":      5, // the deepest existing ancestor
		"/features/7":              3,
	} {
		got, ok := PointerLine(doc, ptr)
		if !ok || got != want {
			t.Errorf("%q: line %d (ok %v), want %d", ptr, got, ok, want)
		}
	}
	if _, ok := PointerLine([]byte("not json"), "/a"); ok {
		t.Errorf("a non-JSON document gave a line")
	}
	if _, ok := PointerLine(doc, "features"); ok {
		t.Errorf("a malformed pointer gave a line")
	}
}
