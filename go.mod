module github.com/superagent-harness/harness

go 1.26.0

require (
	github.com/alecthomas/kong v1.17.0
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/goccy/go-yaml v1.19.2
	github.com/gofrs/flock v0.13.2
	github.com/pmezard/go-difflib v1.0.0
	github.com/posener/complete v1.2.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/tdewolff/parse/v2 v2.25.0
	github.com/willabides/kongplete v0.4.0
	golang.org/x/text v0.14.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/hashicorp/errwrap v1.1.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
	github.com/riywo/loginshell v0.0.0-20200815045211-7d26008be1ab // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
