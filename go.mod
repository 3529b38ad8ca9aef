module github.com/superagent-harness/harness

go 1.26.0

require (
	github.com/alecthomas/kong v1.17.0 // indirect
	github.com/bmatcuk/doublestar/v4 v4.10.4 // indirect
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/gofrs/flock v0.13.2 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/tdewolff/parse/v2 v2.25.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.14.0
	golang.org/x/tools v0.38.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
