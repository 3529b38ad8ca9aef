package pathguard

import "strings"

// isPHP reports whether prog is a PHP CLI (its inline code, `php -r` or a
// script on stdin, is judged by codeWrites).
func isPHP(prog string) bool {
	return prog == "php" || strings.HasPrefix(prog, "php7") || strings.HasPrefix(prog, "php8") || prog == "php-cli"
}
