package validate

// Validate runs every rule of testdata/sprints/README.md §5 on the workspace at root.
// Problems are findings; the error is only for internal failures (root has
// no .harness/, an embedded schema does not compile).
func Validate(root string) (*Report, error) {
	return run(root, false)
}

// FinalizeCheck runs every rule of §5 and §6 (the finalizer checklist).
func FinalizeCheck(root string) (*Report, error) {
	return run(root, true)
}
