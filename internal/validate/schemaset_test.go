package validate

import (
	"io/fs"
	"testing"

	harness "github.com/superagent-harness/harness"
)

// TestSchemasCompiledOncePerProcess: sprint copies identical to the
// embedded schemas (what harness init writes) share the one compiled
// embedded set; a differing copy gets its own set.
func TestSchemasCompiledOncePerProcess(t *testing.T) {
	emb, err := fs.ReadFile(harness.Assets(), "schemas/feature_list.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if schemasFor(nil) != embeddedSchemas() || schemasFor(map[string][]byte{}) != embeddedSchemas() {
		t.Fatal("no sprint copies: the shared embedded set must be used")
	}
	if s := schemasFor(map[string][]byte{"feature_list.schema.json": emb}); s != embeddedSchemas() {
		t.Fatal("an identical sprint copy must share the embedded set")
	}
	changed := append([]byte(nil), emb...)
	changed = append(changed, '\n')
	if s := schemasFor(map[string][]byte{"feature_list.schema.json": changed}); s == embeddedSchemas() {
		t.Fatal("a differing sprint copy must get its own set")
	}
}
