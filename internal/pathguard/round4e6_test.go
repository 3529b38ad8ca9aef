package pathguard

import "testing"

// TestTableOutputs: own spellings of the round-4 path gaps
// (testdata/redteam/round4) in programs whose outputs the program table
// names (shell.WriteSpec): media converters' last operand, install roots
// and target directories, submodule paths, checkout-index files, sqlite3's
// database and dot-command outputs, openssl/wget/curl output options.
func TestTableOutputs(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{"ffmpeg -loglevel error -i clip.mov -vf scale=320:-1 spec/clip.webm", "block"},
		{"sox in.wav -r 16000 templates/out.wav", "block"},
		{"cargo build --release --target-dir schemas/t", "block"},
		{"cargo install --path tools/x --root=templates", "block"},
		{"git submodule add -b main https://example.com/y.git spec/y", "block"},
		{"git checkout-index -f SKILL.md README.md", "block"},
		{"git checkout-index --prefix=spec/ -a", "block"},
		{"sqlite3 x.db '.once spec/dump.sql' 'select 1'", "block"},
		{"sqlite3 x.db <<< '.output templates/t.csv'", "block"},
		{"openssl req -new -key k.pem -out spec/req.csr", "block"},
		{"openssl genrsa -out schemas/k.pem 2048", "block"},

		{"psql -d app -o spec/out.txt -c 'select 1'", "block"},
		{"mysqldump app --result-file=templates/app.sql", "block"},
		{"psql -d app -o build/out.txt -c 'select 1'", "allow"},
		{"git merge-file SKILL.md base.md theirs.md", "block"},
		{"pdftotext -layout in.pdf spec/in.txt", "block"},
		{"kubectl cp web-0:/var/log/app.log templates/app.log", "block"},
		{"git merge-file -p SKILL.md base.md theirs.md", "allow"},
		{"pdftotext spec/doc.pdf build/doc.txt", "allow"},
		{"kubectl cp spec/index.md web-0:/tmp/index.md", "allow"},
		{"ffmpeg -i spec/clip.mov -f null -", "allow"},
		{"ffmpeg -i spec/in.mp4 build/out.gif", "allow"},
		{"sox spec/in.wav -n stat", "allow"},
		{"cargo install --root build/tools rg", "allow"},
		{"cargo build --release", "allow"},
		{"git submodule add https://example.com/y.git vendor/y", "allow"},
		{"git checkout-index -f src/main.go", "allow"},
		{"sqlite3 build/x.db '.once build/d.sql' 'select 1'", "allow"},
		{"openssl dgst -sha256 spec/index.md", "allow"},
		{"openssl x509 -in spec/cert.pem -noout -text", "allow"},
	})
}

// TestPythonLibraryWrites: Python standard-library calls that write the
// file or directory an argument names (fileinput in place, archives made
// and extracted, sqlite3/shelve databases) and a truncate through an
// append-mode file's descriptor.
func TestPythonLibraryWrites(t *testing.T) {
	root := newWorkspace(t)
	g := mustGuard(t, root, "f002")
	checkBashCases(t, g, root, []bashCase{
		{`python3 -c 'import fileinput as fi; [print(l.upper(), end="") for l in fi.input(files=["README.md"], inplace=1)]'`, "block"},
		{`python3 -c 'from shutil import make_archive; make_archive("templates/bundle", "gztar", ".")'`, "block"},
		{`python3 -c 'import shutil; shutil.unpack_archive("/tmp/x.zip", "schemas")'`, "block"},
		{`python3 -c 'import tarfile; t = tarfile.open("/tmp/a.tgz"); t.extractall(path="spec/v")'`, "block"},
		{`python3 -c 'import zipfile; zipfile.ZipFile("/tmp/a.zip").extract("x.md", "templates")'`, "block"},
		{`python3 -c 'import sqlite3; sqlite3.connect(database="schemas/s.db")'`, "block"},
		{`python3 -c 'import shelve; shelve.open("spec/cache")'`, "block"},
		{`python3 -c 'import os; h = open(".harness/features/f002/generator_log.md", "a"); h.write("x"); os.ftruncate(h.fileno(), 3)'`, "block"},

		{`python3 -c 'import fileinput; [print(l) for l in fileinput.input("README.md")]'`, "allow"},
		{`python3 -c 'import shutil; shutil.make_archive("/tmp/bundle", "zip", "spec")'`, "allow"},
		{`python3 -c 'import tarfile; tarfile.open("spec/a.tgz").extractall("build/x")'`, "allow"},
		{`python3 -c 'import sqlite3; sqlite3.connect(":memory:")'`, "allow"},
		{`python3 -c 'import sqlite3; sqlite3.connect("build/c.db")'`, "allow"},
		{`python3 -c 'import os; h = open("build/log.txt", "a"); os.ftruncate(h.fileno(), 0)'`, "allow"},
		{`python3 -c 'import os; h = open(".harness/features/f002/generator_log.md", "a"); h.write("x\n"); h.flush()'`, "allow"},
	})
}
