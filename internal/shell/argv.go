package shell

import "strings"

// SubstituteArgv returns interpreter code with its references to its own
// literal command-line arguments (sys.argv[N], process.argv[N], $ARGV[N],
// ARGV[N], $argv[N]) replaced by those arguments as string literals, so
// `python3 -c "open(sys.argv[1],'w')" .harness/eval_log.jsonl` is judged as
// a write of .harness/eval_log.jsonl (testdata/corpus/README.md §3.3 interpreter
// writes). args are the invocation's words after the program; the code must
// be one of them (the -c/-e/-r value). Unchanged when the arguments are not
// all known or the code names none of them.
func SubstituteArgv(args []Word, code, lang string) string {
	if argv, ok := codeArgv(args, code); ok {
		return substArgv(code, lang, argv)
	}
	if lang == "python" {
		// `python3 - ARGS <<EOF … EOF`: the script reads stdin, sys.argv[0]
		// is "-" and the words after it are sys.argv[1:]
		for k, a := range args {
			if a.Value != "-" {
				if strings.HasPrefix(a.Value, "-") {
					continue
				}
				break
			}
			rest := args[k+1:]
			argv := make([]string, len(rest))
			for i, w := range rest {
				if !w.Known {
					return code
				}
				argv[i] = w.Value
			}
			return substArgv(code, lang, argv)
		}
	}
	return code
}
