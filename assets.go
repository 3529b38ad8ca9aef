// Package harness holds the protocol assets that both binaries embed: the
// guard rules (rules/), the JSON Schemas of every state file (schemas/), the
// text templates (templates/), the Generator/protocol texts (spec/) and the
// Hermes skill (skills/, installed by `harness skill install`).
//
// The folders are data, edited as files and compiled into each binary with
// go:embed, so an installed harness or harness-hook is self-contained.
package harness

import (
	"embed"
	"io/fs"
)

//go:embed rules schemas templates spec skills
var assets embed.FS

// Assets returns the embedded data folders as a read-only file system rooted
// at the repository root: paths look like "schemas/feature_list.schema.json".
func Assets() fs.FS { return assets }
