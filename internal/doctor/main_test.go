package doctor

import (
	"os"
	"testing"

	"github.com/superagent-harness/harness/internal/testutil"
)

// TestMain removes the binaries the integration test builds (testutil.Build).
func TestMain(m *testing.M) { os.Exit(testutil.Main(m)) }
