package pathguard

import "testing"

// TestSQLiteDatabaseAccess: sqlite3's first operand is the database it
// opens read-write (a write to a protected path), unless it is opened
// read-only (-readonly, -deserialize, a file: URI with mode=ro or
// immutable=1) or is no file (:memory:); a file: URI names its path; the
// dot commands .output/.once/.save and the SQL writefile(), VACUUM INTO
// and ATTACH write the file they name; a database outside the protected
// sets, reads and SQL text that only mentions a path stay allowed.
func TestSQLiteDatabaseAccess(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"sqlite3 spec/cache.db 'select count(*) from t'", "block"},
		{"sqlite3 file:spec/cache.db .tables", "block"},
		{"sqlite3 'file:///" + root[1:] + "/schemas/s.db?cache=shared' .tables", "block"},
		{"sqlite3 -readonly notes.db '.once SKILL.md' 'select 1'", "block"},
		{"sqlite3 build/app.db \"SELECT writefile('README.md', data) FROM blobs\"", "block"},
		{"sqlite3 build/app.db \"vacuum\n  INTO 'templates/copy.db'\"", "block"},
		{"sqlite3 build/app.db <<< \"attach database 'file:.harness/feature_list.json' as s;\"", "block"},
		{"sqlite3 build/app.db 'select 1'", "allow"},
		{"sqlite3 /tmp/scratch.db 'create table t(x)'", "allow"},
		{"sqlite3 -readonly spec/cache.db 'select count(*) from t'", "allow"},
		{"sqlite3 --readonly .harness/feature_list.json .schema", "allow"},
		{"sqlite3 -deserialize schemas/s.db .tables", "allow"},
		{"sqlite3 'file:spec/cache.db?mode=ro' .dump > build/dump.sql", "allow"},
		{"sqlite3 'file:spec/cache.db?immutable=1' .tables", "allow"},
		{"cd spec && sqlite3 :memory: 'select 1'", "allow"},
		{"sqlite3 build/app.db \"select 'vacuum into spec/x.db' as hint\"", "allow"},
		{"sqlite3 build/app.db \"select readfile('SKILL.md')\"", "allow"},
	})
}

// TestCloudCopyDestinations: aws s3 cp|sync write their local
// destination and mv also removes its local source; an s3:// URL is not a
// workspace path, and lftp's remote rm acts on the server, while its
// `!CMD` writes here.
func TestCloudCopyDestinations(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"aws s3 cp s3://bucket/skill.md SKILL.md", "block"},
		{"aws s3 sync --delete s3://bucket/site spec/", "block"},
		{"aws --region eu-west-1 s3 cp --recursive s3://b/t templates/ --exclude '*.bak'", "block"},
		{"aws s3 mv schemas/a.json s3://bucket/a.json", "block"},
		{"lftp -c 'open h; !cp /tmp/x README.md'", "block"},
		{"aws s3 cp s3://bucket/k build/k", "allow"},
		{"aws s3 cp SKILL.md s3://bucket/SKILL.md", "allow"},
		{"aws s3 sync spec/ s3://bucket/spec/ --exclude '*.tmp'", "allow"},
		{"aws s3 cp s3://bucket/report.json -", "allow"},
		{"lftp -c 'open h; rm spec/index.md'", "allow"},
	})
}
