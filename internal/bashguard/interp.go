package bashguard

import "fmt"

// Interpreter code effects (testdata/corpus/README.md §9.3): the inline
// code of an interpreter invocation, lexed once by internal/shell
// (Invocation.Code), is judged by what its calls do — a library call that
// deletes a whole tree is rm_rf, a chmod to a mode ending in 777 is perms,
// process creation in an endless loop is a fork bomb. Its shell strings
// and argv lists are separate invocations (judged by every rule).

func matchCodeTreeDelete(_ *evalCtx, c *call) (bool, string) {
	code := c.inv.Code
	if code == nil || len(code.TreeDeletes) == 0 {
		return false, ""
	}
	d := code.TreeDeletes[0]
	return true, fmt.Sprintf("%s code calls %s on %s: a recursive delete that cannot prompt", c.prog, d.Func, d.Path)
}

func matchCodeChmod(_ *evalCtx, c *call) (bool, string) {
	code := c.inv.Code
	if code == nil {
		return false, ""
	}
	for _, m := range code.Chmods {
		if m.ModeKnown && m.Mode&0o777 == 0o777 {
			return true, fmt.Sprintf("%s code calls %s(%s, 0o%o): read, write and execute for everyone", c.prog, m.Func, m.Path, m.Mode)
		}
	}
	return false, ""
}

func matchCodeForkLoop(_ *evalCtx, c *call) (bool, string) {
	code := c.inv.Code
	if code == nil || code.ForkLoop == "" {
		return false, ""
	}
	return true, fmt.Sprintf("%s code calls %s in an endless loop: unbounded process creation", c.prog, code.ForkLoop)
}
