//go:build windows

package reliability

import "testing"

func mkfifo(t *testing.T, path string) { t.Skip("no FIFOs on Windows") }
