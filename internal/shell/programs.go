//go:build ignore

// This file is the program table as written: every row with its examples
// beside it. It is not compiled (the build constraint above); after an
// edit, `go generate ./internal/shell` writes
//   - programs_gen.go: these declarations without the example fields, the
//     table the binaries ship (every byte of static data costs each hook
//     process at start-up: docs/performance.md, "seventh pass"), and
//   - programs_examples_test.go: each row's examples (rowExamples) keyed by
//     its place ("programs[3]", "gitSubs[2].Subs[0]"), which the table
//     tests check;
// TestProgramTableInSync fails when either differs from this file.
//
// To add a row, write it here like the others, with its Examples ("ARGS =>
// PARSE"), WriteExamples ("ARGS -> FILES") and RunExamples ("ARGS -> CMDS")
// fields (their formats: rowExamples in programs_gen_test.go), then run go
// generate ./internal/shell. Examples may be written in the rows of any
// package-level variable of this file (gitSubs …), not inside a function.
// Every row needs Examples, and WriteExamples or RunExamples when it has
// Writes or Runs: TestProgramTableNames fails for a row without them.

package shell

// programs is the program table (Program): one row per program the guards
// know, with its option grammar, its subcommands and examples that
// TestProgramExamples checks. A program missing from the table is an
// unknown program (testdata/corpus/README.md §9.1): its arguments are searched for a
// command, and a protected path given to it is judged as written.
//
// Grammars follow the programs' own parsers: GNU getopt_long programs
// abbreviate long options (Abbrev) and permute (options after operands);
// programs that run a command stop at the first operand (Stop). A Partial
// spec lists only some long options (the value-taking ones, mostly).
var programs = []Program{
	// ---------------------------------------------------------------- files (coreutils and friends)
	{Name: "rm", Names: "grm", Kind: KindWrite,
		Opts: OptSpec{Long: "force interactive one-file-system no-preserve-root preserve-root recursive dir verbose help version", Abbrev: true, Posixly: true},
		Examples: []string{"-rf build => -r -f | build", "--recurs --forc x => --recursive --force | x", "build -fR => -f -R | build",
			"-- -rf => | -rf", "-r --interactive=never x => -r --interactive=never | x", "--v x => --v? | x"}},
	// secure deleters: rm's effect (they unlink what they overwrite), -r
	// recursive and -f force as in rm (srm: srm.sourceforge.net's and
	// THC's secure-delete; wipe 0.24: without -f it asks before each
	// file); testdata/corpus/README.md §2.4 rm_rf
	{Name: "srm", Kind: KindWrite, Opts: OptSpec{Long: "directory force interactive recursive simple openbsd dod doe gutmann rcmp verbose one-file-system help version", Abbrev: true},
		Examples: []string{"-rf d => -r -f | d", "--recurs --force d => --recursive --force | d"}},
	{Name: "wipe", Kind: KindWrite, Opts: OptSpec{Short: "QloSMTKx"}, Examples: []string{"-rf -Q 1 d => -r -f -Q=1 | d"}},
	{Name: "rmdir", Kind: KindWrite, Opts: OptSpec{Long: "ignore-fail-on-non-empty parents verbose help version", Abbrev: true, Posixly: true},
		Examples: []string{"-p a/b => -p | a/b", "--par a/b => --parents | a/b", "-pv a/b => -p -v | a/b", "-- -d => | -d"}},
	{Name: "unlink", Kind: KindWrite, Opts: OptSpec{Long: "help version", Abbrev: true, Posixly: true}, Examples: []string{"f => | f", "-- -f => | -f"}},
	{Name: "shred", Kind: KindWrite, Opts: OptSpec{Short: "ns", Long: "force iterations= random-source= size= remove verbose exact zero help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{All: true}, WriteExamples: []string{"-n 3 -u SKILL.md -> SKILL.md", "--random-source=r f -> f"},
		Examples: []string{"-n 3 -u f => -n=3 -u | f", "--iter=2 --remove=wipe f => --iterations=2 --remove=wipe | f"}},
	{Name: "truncate", Kind: KindWrite, Opts: OptSpec{Short: "sr", Long: "no-create io-blocks reference= size= help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{All: true}, WriteExamples: []string{"-s 0 SKILL.md -> SKILL.md", "-r ref f -> f"},
		Examples: []string{"-s 0 f => -s=0 | f", "--si 0 f => --size=0 | f"}},
	// touch creates its operands or changes their times: no data written
	// to a device (Meta)
	{Name: "touch", Kind: KindWrite, Opts: OptSpec{Short: "drt", Long: "no-create date= no-dereference reference= time= help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{All: true, Meta: true}, WriteExamples: []string{"SKILL.md -> SKILL.md", "-r ref -d now f -> f"},
		Examples: []string{"-d now f => -d=now | f", "-dnow f => -d=now | f", "--date=now f => --date=now | f", "--ref r f => --reference=r | f", "-- -f => | -f"}},
	{Name: "mkdir", Kind: KindWrite, Opts: OptSpec{Short: "m", Long: "mode= parents verbose context help version", Abbrev: true, Posixly: true},
		Examples: []string{"-pm 777 d => -p -m=777 | d", "--mod=777 d => --mode=777 | d", "--mod 777 d => --mode=777 | d"}},
	{Name: "mkfifo", Kind: KindWrite, Opts: OptSpec{Short: "m", Long: "mode= context help version", Abbrev: true, Posixly: true},
		Examples: []string{"-m 600 p => -m=600 | p", "-m600 p => -m=600 | p", "--mod=600 p => --mode=600 | p"}},
	{Name: "mknod", Kind: KindWrite, Opts: OptSpec{Short: "m", Long: "mode= context help version", Abbrev: true, Posixly: true},
		Examples: []string{"n p => | n p", "-m 600 n p => -m=600 | n p", "--mode 600 n c 1 3 => --mode=600 | n c 1 3"}},
	{Name: "chmod", Kind: KindTool, Opts: OptSpec{Long: "changes silent quiet verbose no-preserve-root preserve-root reference= recursive help version dereference no-dereference", Abbrev: true, Posixly: true, Modes: true},
		Writes:        WriteSpec{All: true, Skip: 1, NoSkip: "reference", Meta: true},
		WriteExamples: []string{"644 SKILL.md a -> SKILL.md a", "--reference=R f -> f", "-w,g+x f -> f"},
		Examples:      []string{"-R 777 d => -R | 777 d", "--ref=a b => --reference=a | b", "-w f => | -w f", "-Rv -x,g+w d => -R -v | -x,g+w d", "-- -rwx f => | -rwx f", "d -R a=rwx => -R | d a=rwx"}},
	{Name: "chown", Names: "chgrp", Kind: KindTool, Opts: OptSpec{Long: "changes silent quiet verbose no-preserve-root preserve-root reference= recursive help version dereference no-dereference from=", Abbrev: true, Posixly: true},
		Writes: WriteSpec{All: true, Skip: 1, NoSkip: "reference", Meta: true}, WriteExamples: []string{"me:staff f g -> f g", "--reference=R f -> f"}, Examples: []string{"-R me:staff d => -R | me:staff d", "--from=root:root u f => --from=root:root | u f", "--ref=a b => --reference=a | b", "-h u l => -h | u l", "-- -u f => | -u f", "-Rh u d => -R -h | u d"}},
	{Name: "install", Names: "ginstall", Kind: KindWrite,
		Opts:   OptSpec{Short: "gmoSt", Long: "backup compare directory group= mode= owner= preserve-timestamps strip strip-program= suffix= target-directory= no-target-directory verbose preserve-context context debug help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{Backup: coreutilsBackup}, WriteExamples: []string{"-b -S .md a SKILL -> SKILL.md (backup of SKILL)", "-S .md -m 644 a d/R -> d/R.md (backup of d/R)", "a b -> (backup of b)"},
		Examples: []string{"-m 777 a b => -m=777 | a b", "--mod 777 a b => --mode=777 | a b", "-Dm644 a b => -D -m=644 | a b", "-d d => -d | d"}},
	{Name: "ln", Names: "gln", Kind: KindWrite,
		Opts:   OptSpec{Short: "tS", Long: "backup directory force interactive logical no-dereference physical relative symbolic suffix= target-directory= no-target-directory verbose help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{Backup: coreutilsBackup}, WriteExamples: []string{"-sf -b -S .md a README -> README.md (backup of README)", "-sfb a b -> b~ (backup of b)", "-sf a b -> (backup of b)"},
		Examples: []string{"-sf a b => -s -f | a b", "-t d a => -t=d | a", "--sym a b => --symbolic | a b", "-tdir a => -t=dir | a", "-- -a b => | -a b"}},
	{Name: "link", Kind: KindWrite, Opts: OptSpec{Long: "help version", Abbrev: true, Posixly: true},
		// FILE2 becomes a hard link to FILE1: FILE1 is writable under the new name
		Writes: WriteSpec{All: true}, WriteExamples: []string{"SKILL.md x -> SKILL.md x"}, Examples: []string{"a b => | a b", "-- -a b => | -a b"}},
	{Name: "cp", Names: "gcp", Kind: KindWrite,
		Opts:   OptSpec{Short: "tS", Long: "archive attributes-only backup copy-contents debug dereference force interactive keep-directory-symlink link no-dereference no-clobber preserve no-preserve= parents recursive reflink remove-destination sparse strip-trailing-slashes suffix= symbolic-link target-directory= no-target-directory update verbose one-file-system context help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{Backup: coreutilsBackup}, WriteExamples: []string{"--backup=simple --suffix=.md a README -> README.md (backup of README)", "-S .md a README -> README.md (backup of README)",
			"--suf .md -b a README -> README.md (backup of README)", "SIMPLE_BACKUP_SUFFIX=.md -b a README -> README.md (backup of README)", "SIMPLE_BACKUP_SUFFIX=.md a README -> (backup of README)", "-b -S /x a R -> R~ (backup of R)", "a README -> (backup of README)",
			"--backup=none -S .md a R -> (backup of R)", "VERSION_CONTROL=none -b a R -> (backup of R)", "VERSION_CONTROL=off -S .X a R -> (backup of R)", "VERSION_CONTROL=none --backup=simple a R -> R~ (backup of R)"},
		Examples: []string{"-rf a b => -r -f | a b", "--target-dir d a => --target-directory=d | a", "-t d a b => -t=d | a b"}},
	{Name: "mv", Names: "gmv", Kind: KindWrite,
		Opts:   OptSpec{Short: "tS", Long: "backup exchange force interactive no-clobber no-copy strip-trailing-slashes suffix= target-directory= no-target-directory update verbose context debug help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{Backup: coreutilsBackup}, WriteExamples: []string{"-b -S .md n SKILL -> SKILL.md (backup of SKILL)", "--backup=numbered n SKILL -> SKILL~ (backup of SKILL)", "n SKILL -> (backup of SKILL)"},
		Examples: []string{"a b => | a b", "-t d a => -t=d | a", "--targ d a => --target-directory=d | a", "-fv a b => -f -v | a b", "-- -a b => | -a b"}},
	{Name: "tee", Kind: KindWrite, Opts: OptSpec{Long: "append ignore-interrupts output-error help version", Abbrev: true, Posixly: true},
		Examples: []string{"-a f => -a | f", "--app f => --append | f"}},
	{Name: "dd", Kind: KindWrite, Opts: OptSpec{Long: "help version"}, Examples: []string{"if=a of=b => | if=a of=b"}},
	{Name: "sort", Kind: KindWrite,
		Opts:   OptSpec{Short: "kotST", Long: "output= key= field-separator= buffer-size= temporary-directory= batch-size= compress-program= files0-from= parallel= random-source= sort= check ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort reverse version-sort merge stable unique zero-terminated debug help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{Opts: "o output"}, WriteExamples: []string{"-o SKILL.md x -> SKILL.md", "--out=f x -> f", "x -> "},
		Examples: []string{"-o f x => -o=f | x", "--out=f x => --output=f | x"}},
	// GNU shuf (coreutils 9 --help): -o/--output FILE is written, its
	// operands (and --random-source FILE) are read
	{Name: "shuf", Kind: KindWrite, Opts: OptSpec{Short: "ino", Long: "echo input-range= head-count= output= random-source= repeat zero-terminated help version", Abbrev: true, Posixly: true},
		Writes: WriteSpec{Opts: "o output"}, WriteExamples: []string{"-o build/x.md SKILL.md -> build/x.md", "--out=o a -> o", "-n 3 SKILL.md -> ", "-e a b -o t/x -> t/x"},
		Examples: []string{"-n3 -o f x => -n=3 -o=f | x", "--rand SKILL.md -i 1-5 => --random-source=SKILL.md -i=1-5 |"}},
	{Name: "uniq", Kind: KindWrite, Opts: OptSpec{Short: "fsw", Long: "skip-fields= skip-chars= check-chars= all-repeated group count repeated ignore-case unique zero-terminated help version", Abbrev: true},
		Writes: WriteSpec{OperandFile: 2}, WriteExamples: []string{"in SKILL.md -> SKILL.md", "-c in -> ", "in - -> "},
		Examples: []string{"-c a b => -c | a b", "-f1 -s 2 a => -f=1 -s=2 | a", "--skip-f=1 a => --skip-fields=1 | a"}},
	{Name: "split", Kind: KindWrite, Opts: splitOpts, Writes: WriteSpec{Grammar: "split"},
		WriteExamples: []string{"-l1 -d -a1 --additional-suffix=.md n.md P -> P0.md P1.md P2.md P3.md P4.md P5.md P6.md P7.md P8.md P9.md (names P*)", "-a 3 f -> (names x*)"},
		// split --filter=COMMAND pipes each chunk into COMMAND, run with the shell (split --help)
		Runs: RunSpec{Shell: "filter"}, RunExamples: []string{"-l 1 --filter='rm -rf b' in -> rm -rf b", "-n 2 --filt='rm -rf b' in -> rm -rf b", "-l 9 --filter='gzip > $FILE.gz' in -> gzip", "-l 9 in -> "},
		Examples: []string{"-b 10M -d big.log part. => -b=10M -d | big.log part.", "-l1000 f => -l=1000 | f", "--numb=3 f => --number=3 | f", "--lines 10 f => --lines=10 | f", "-- -f => | -f", "-a3 -C 1M f => -a=3 -C=1M | f"}},
	// csplit writes PREFIX (-f, "xx") + a printf format of the piece
	// number (-b, "%02d")
	{Name: "csplit", Kind: KindWrite, Opts: splitOpts, Writes: WriteSpec{Grammar: "csplit"},
		WriteExamples: []string{"-f README -b '%.0d.md' n.md 1 -> README.md README1.md README2.md README3.md README4.md README5.md README6.md README7.md README8.md README9.md README10.md README11.md README12.md README13.md README14.md README15.md README16.md README17.md README18.md README19.md README20.md README21.md README22.md README23.md README24.md README25.md README26.md README27.md README28.md README29.md README30.md README31.md README32.md README33.md README34.md README35.md README36.md README37.md README38.md README39.md README40.md README41.md README42.md README43.md README44.md README45.md README46.md README47.md README48.md README49.md README50.md README51.md README52.md README53.md README54.md README55.md README56.md README57.md README58.md README59.md README60.md README61.md README62.md README63.md README64.md README65.md README66.md README67.md README68.md README69.md README70.md README71.md README72.md README73.md README74.md README75.md README76.md README77.md README78.md README79.md README80.md README81.md README82.md README83.md README84.md README85.md README86.md README87.md README88.md README89.md README90.md README91.md README92.md README93.md README94.md README95.md README96.md README97.md README98.md README99.md (names README*)", "-b %s f 1 -> (names xx*)", "f 3 -> xx00 xx01 xx02 xx03 xx04 xx05 xx06 xx07 xx08 xx09 xx10 xx11 xx12 xx13 xx14 xx15 xx16 xx17 xx18 xx19 xx20 xx21 xx22 xx23 xx24 xx25 xx26 xx27 xx28 xx29 xx30 xx31 xx32 xx33 xx34 xx35 xx36 xx37 xx38 xx39 xx40 xx41 xx42 xx43 xx44 xx45 xx46 xx47 xx48 xx49 xx50 xx51 xx52 xx53 xx54 xx55 xx56 xx57 xx58 xx59 xx60 xx61 xx62 xx63 xx64 xx65 xx66 xx67 xx68 xx69 xx70 xx71 xx72 xx73 xx74 xx75 xx76 xx77 xx78 xx79 xx80 xx81 xx82 xx83 xx84 xx85 xx86 xx87 xx88 xx89 xx90 xx91 xx92 xx93 xx94 xx95 xx96 xx97 xx98 xx99 (names xx*)"},
		Examples:      []string{"-f p -b %02d.md f 1 => -f=p -b=%02d.md | f 1"}},
	{Name: "fallocate", Kind: KindWrite, Opts: OptSpec{Short: "lo", Long: "length= offset=", Partial: true, Abbrev: true}, Writes: WriteSpec{All: true}, WriteExamples: []string{"-l 1G SKILL.md -> SKILL.md"}, Examples: []string{"-l 1G f => -l=1G | f", "-o4096 -l 1M -p f => -o=4096 -l=1M -p | f", "--leng=10 f => --length=10 | f", "-- -f => | -f", "--offset 0 -l 1 f => --offset=0 -l=1 | f"}},
	// GNU mktemp (coreutils 9.1 --help): -p DIR, --suffix=SUFF (or in the
	// next word), --tmpdir[=DIR] (its value only attached: `--tmpdir X` is
	// --tmpdir and the template X); abbreviations (`--tmp=D`, `--suff=S`)
	// and options after the template (`mktemp x.XXX -p D`)
	// it makes the name it prints (Temp: $TMPDIR of its environment without
	// a template, with -t or a bare --tmpdir; checked: `TMPDIR=d mktemp`
	// made d/tmp.XXXXXXXXXX, with -u nothing)
	{Name: "mktemp", Kind: KindWrite, Opts: OptSpec{Short: "p", Long: "directory dry-run quiet suffix= tmpdir help version", Abbrev: true, Posixly: true},
		Writes:        WriteSpec{Temp: true},
		WriteExamples: []string{"TMPDIR=spec -> spec/tmp.XXXXXXXXXX", "TMPDIR=spec -u -> ", "TMPDIR=spec -d -> spec/tmp.XXXXXXXXXX", "TMPDIR=spec -t x.XXX -> spec/x.XXX", "TMPDIR=spec -p d -> d/tmp.XXXXXXXXXX", "TMPDIR=spec x.XXX -> x.XXX", " -> /tmp/tmp.XXXXXXXXXX"},
		Examples:      []string{"-d -p /tmp x.XXX => -d -p=/tmp | x.XXX", "--tmpdir=/tmp x.XXX => --tmpdir=/tmp | x.XXX", "--dir => --directory |", "--tmp=d x.XXX => --tmpdir=d | x.XXX", "--tmpdir x.XXX => --tmpdir | x.XXX", "--suff .sh -dt x => --suffix=.sh -d -t | x", "x.XXX -p d => -p=d | x.XXX"}},
	{Name: "sponge", Kind: KindWrite, Writes: WriteSpec{All: true, Append: "a"}, WriteExamples: []string{"SKILL.md -> SKILL.md", "-a f -> f (appends)"}, Examples: []string{"-a f => -a | f"}},
	{Name: "rename", Names: "prename file-rename", Kind: KindWrite, Opts: OptSpec{Short: "e", Long: "expr=", Partial: true, Abbrev: true},
		// perl rename EXPR FILE… (-e EXPR), util-linux rename FROM TO FILE…:
		// every FILE is renamed (Trees)
		Writes: WriteSpec{Grammar: "rename"}, WriteExamples: []string{"'s/a/b/' x.txt -> x.txt", "-e 's/a/b/' f g -> f g", "SKILL skill SKILL.md -> SKILL.md", "'s/x/y/' -> "}, Examples: []string{"'s/a/b/' x.txt => | s/a/b/ x.txt", "-n -e 's/a/b/' f => -n -e=s/a/b/ | f"}},
	{Name: "iconv", Kind: KindWrite, Opts: OptSpec{Short: "fto", Long: "from-code= to-code= output=", Partial: true, Abbrev: true},
		Writes: WriteSpec{Opts: "o output"}, WriteExamples: []string{"-f latin1 -t utf-8 -o SKILL.md in.txt -> SKILL.md", "--out=o in -> o", "in.txt -> "}, Examples: []string{"-f latin1 -t utf-8 -o out.txt in.txt => -f=latin1 -t=utf-8 -o=out.txt | in.txt", "--from-code=latin1 --to-c utf-8 f => --from-code=latin1 --to-code=utf-8 | f", "-c -futf-8 -tascii f => -c -f=utf-8 -t=ascii | f", "-o out -- -f => -o=out | -f"}},
	// BSD/macOS base64 -o FILE / --output FILE (-i FILE is the input)
	{Name: "base64", Names: "gbase64 base32 basenc", Kind: KindWrite, Opts: OptSpec{Short: "oibw", Long: "output= input= break= wrap= decode ignore-garbage", Partial: true, Abbrev: true},
		Writes: WriteSpec{Opts: "o output"}, WriteExamples: []string{"-d -i x -o SKILL.md -> SKILL.md", "-d x -> "},
		Examples: []string{"-d => -d |", "-o f x => -o=f | x"}},
	// compressors replace FILE by FILE.gz (.bz2 …) beside it and
	// decompressors FILE.gz by FILE: gzip 1.12 and xz 5.4.1 -S/--suffix SUF
	// (checked: `gunzip -f -S .bak README.md.bak` writes README.md, `gzip
	// -S .md a` a.md), bzip2 and zstd have none (--help); zstd -o FILE and
	// --output-dir-flat/--output-dir-mirror DIR (zstd -H); -c, -l and -t
	// write no file
	// (a sibling of unknown name may be written: the operand's directory
	// is written below, Beside) and remove the operand unless -k
	{Name: "gzip", Names: "bzip2 xz lzma compress gunzip bunzip2 unxz unlzma uncompress pigz", Kind: KindWrite,
		Opts: OptSpec{Short: "S", Long: "suffix= stdout to-stdout list test decompress uncompress keep", Partial: true, Abbrev: true},
		Writes: WriteSpec{Ext: ".gz bzip2=.bz2 bunzip2=.bz2 xz=.xz unxz=.xz lzma=.lzma unlzma=.lzma compress=.Z uncompress=.Z", ExtOpts: "S suffix", Undo: "d decompress uncompress",
			UndoNames: "gunzip bunzip2 unxz unlzma uncompress", Unless: "c l t stdout to-stdout list test", Beside: true, NoFind: "*", Remove: "*", Keep: "k keep"},
		WriteExamples: []string{"a -> a.gz . (removes a)", "-S .md SKILL -> SKILL.md . (removes SKILL)", "-d -S .bak README.md.bak -> README.md . (removes README.md.bak)", "-d --suffix=.bak d/a.gz -> d/a d (removes d/a.gz)",
			"-d a -> . (removes a)", "-dc a.gz -> ", "-k -t a.gz -> ", "-k spec/a -> spec/a.gz spec"},
		Examples: []string{"-dc f => -d -c | f"}},
	// lz4 (lz4(1) 1.9.4, checked under /tmp): lz4 [OPTS] IN [OUT] writes
	// OUT and keeps IN; with one operand IN.lz4 beside it (IN without .lz4
	// with -d), or stdout when stdout is no console (the Bash tool's pipe:
	// 'using stdout as default output'), the sibling judged all the same;
	// -m/--multiple: every operand its sibling; --rm removes the inputs;
	// -c, -t, -l write no file. -B# -b# -e# -i# take attached values,
	// -1..-12 are levels.
	{Name: "lz4", Names: "lz4c", Kind: KindWrite, Opts: OptSpec{ShortOpt: "Bbei", Numeric: true, Long: "decompress uncompress compress stdout to-stdout multiple rm keep force test list fast best sparse no-sparse content-size no-content-size frame-crc no-frame-crc favor-decSpeed verbose quiet", Partial: true},
		Writes: WriteSpec{Ext: ".lz4", Undo: "d decompress uncompress", Last: 2, Multi: "m multiple", Remove: "rm", Unless: "c t l stdout to-stdout test list"},
		WriteExamples: []string{"SKILL.md -> SKILL.md.lz4", "-d SKILL.md.lz4 build/SKILL.md -> build/SKILL.md", "-9 a b.lz4 -> b.lz4", "-m a b -> a.lz4 b.lz4", "-d -m a.lz4 b.lz4 -> a b",
			"-m --rm a -> a.lz4 (removes a)", "-c a -> ", "-l a.lz4 -> ", "-d a.lz4 -> a", "- out.lz4 -> out.lz4"},
		Examples: []string{"-9 -B4 a b => -#=9 -B=4 | a b", "-dm a.lz4 => -d -m | a.lz4"}},
	// zstd keeps the operand unless --rm; -o FILE writes FILE instead of
	// the sibling (zstd -H)
	{Name: "zstd", Names: "unzstd", Kind: KindWrite,
		Opts:          OptSpec{Short: "o", Long: "output-dir-flat= output-dir-mirror= stdout to-stdout list test decompress uncompress rm", Partial: true, Abbrev: true},
		Writes:        WriteSpec{Ext: ".zst", Undo: "d decompress uncompress", UndoNames: "unzstd", Opts: "o", Dirs: "output-dir-flat output-dir-mirror", Unless: "c l t stdout to-stdout list test", Beside: true, NoFind: "*", Remove: "rm"},
		WriteExamples: []string{"a -> a.zst .", "--rm a -> a.zst . (removes a)", "-o SKILL.md a -> SKILL.md .", "-d a.zst -> a .", "--output-dir-flat o a -> a.zst o .", "-c a -> "},
		Examples:      []string{"-d -o f a.zst => -d -o=f | a.zst"}},
	{Name: "zcat", Names: "bzcat xzcat zstdcat zless zmore zgrep", Kind: KindRead, Examples: []string{"-f a.gz => -f | a.gz", "a.gz b.gz => | a.gz b.gz"}},
	{Name: "tar", Names: "gtar bsdtar", Kind: KindWrite,
		Opts: OptSpec{Short: "fCTXbgHKNVLIF", Long: "file= directory= files-from= exclude-from= blocking-factor= listed-incremental= format= starting-file= newer= label= tape-length= exclude= transform= owner= group= mode= " +
			"use-compress-program= suffix= to-command= checkpoint-action= info-script= new-volume-script= rsh-command= rmt-command= checkpoint= " +
			"extract get create append update concatenate list to-stdout remove-files one-top-level xform= strip-components=", Partial: true, Abbrev: true, OldStyle: true},
		Examples: []string{"xzf a.tgz -C d => -x -z -f=a.tgz -C=d |", "-xf a.tar => -x -f=a.tar |", "--checkpoint-act=exec=x -cf a d => --checkpoint-action=exec=x -c -f=a | d",
			"-I zstd -cf a d => -I=zstd -c -f=a | d", "-xf a.tar --one-top-level=d m => -x -f=a.tar --one-top-level=d | m", "-xf a.tar --one-top m => -x -f=a.tar --one-top-level | m",
			"-xf a.tar --xform 's,^,d/,' => -x -f=a.tar --xform=s,^,d/, |"}},
	// Subversion: export and checkout URL… [PATH] write the tree at PATH
	{Name: "svn", Kind: KindTool, Opts: svnOpts, Subs: []Program{
		{Name: "export", Names: "checkout co", Kind: KindWrite, Opts: svnOpts, Writes: WriteSpec{Operand: 2}, Examples: []string{"-r 5 URL d => -r=5 | URL d", "--force URL d => --force | URL d"}, WriteExamples: []string{"URL spec/x -> spec/x", "-r 5 URL d -> d"}}},
		Examples:      []string{"export -r 5 URL spec/x => export: -r=5 | URL spec/x", "--username u co URL d => co: | URL d"},
		WriteExamples: []string{"export URL spec/x -> spec/x", "co -r 5 URL d -> d", "log URL -> "}},
	// Mercurial (hg help clone/init/archive; not installed here): clone
	// SOURCE [DEST], init [DEST] and archive DEST write DEST; revert,
	// update, remove, rename, copy, import change the working copy; log,
	// status, diff … only read. --cwd DIR moves the command (Chdir)
	{Name: "hg", Kind: KindTool, Chdir: "cwd", Opts: hgOpts, Subs: []Program{
		// without DEST the clone is the directory named after the source's
		// last component, in the directory hg runs in (hg help clone)
		{Name: "clone", Kind: KindWrite, Opts: hgOpts, Writes: WriteSpec{Operand: 2, Cwd: "#2:;:{url}/"}, Runs: RunSpec{Shell: "e ssh"},
			RunExamples: []string{"-e 'rm -rf b;:' URL d -> rm -rf b; :", "URL d -> "}, WriteExamples: []string{"URL spec/r -> spec/r", "-r 5 URL d -> d", "https://hg.example.org/theme -> theme", "ssh://h//srv/repo/ -> repo"}, Examples: []string{"-r 5 -U URL d => -r=5 -U | URL d"}},
		{Name: "init", Kind: KindWrite, Opts: hgOpts, Writes: WriteSpec{Operand: 1}, WriteExamples: []string{"spec/x -> spec/x"}, Examples: []string{"--ssh x d => --ssh=x | d"}},
		{Name: "archive", Kind: KindWrite, Opts: hgOpts, Writes: WriteSpec{Operand: 1}, WriteExamples: []string{"-r tip spec/a -> spec/a", "-t tgz a.tgz -> a.tgz"}, Examples: []string{"-r tip -t tgz a => -r=tip -t=tgz | a"}},
		{Name: "revert", Names: "update up checkout co remove rm rename mv move copy cp import patch add forget purge strip backout merge graft rebase shelve unshelve", Kind: KindWrite, Opts: hgOpts, Examples: []string{"-r 5 spec/x => -r=5 | spec/x"}},
		{Name: "log", Names: "status st diff annotate blame cat files grep heads id identify incoming in outgoing out paths summary sum tip parents branches tags bookmarks version help config showconfig", Kind: KindRead, Opts: hgOpts, Examples: []string{"-l 3 spec => -l=3 | spec"}}},
		Examples: []string{"--cwd d clone URL x => clone: | URL x", "-R r log -l 3 => log: -l=3 |"}},
	{Name: "unzip", Kind: KindWrite, Opts: OptSpec{Short: "dxP"}, Examples: []string{"-o a.zip -d d => -o -d=d | a.zip"}},
	{Name: "zip", Kind: KindWrite, Opts: OptSpec{Short: "bnPtO", Long: "temp-path= suffixes= password= from-date= before-date= output-file= unzip-command= move", Words: "TT=unzip-command", Partial: true, Abbrev: true},
		// zip [opts] ARCHIVE [FILE…] writes ARCHIVE (-O OUT instead: OUT),
		// -m (--move) removes the FILEs once archived
		Writes: WriteSpec{First: true, Opts: "O output-file", Remove: "m move"}, WriteExamples: []string{"-r o.zip d -> o.zip", "-m o.zip SKILL.md -> o.zip (removes SKILL.md)", "-O new.zip old.zip f -> new.zip old.zip", "-d a.zip x -> a.zip"},
		Runs: RunSpec{Shell: "unzip-command"}, RunExamples: []string{"-T --unzip-command 'rm -rf b' o.zip s -> rm -rf b", "-T -TT 'rm -rf b' o.zip s -> rm -rf b"}, Examples: []string{"-r -P pw o.zip d => -r -P=pw | o.zip d", "-O new.zip old.zip f => -O=new.zip | old.zip f", "-T -TT 'unzip -t' a.zip f => -T --unzip-command=unzip -t | a.zip f"}},
	// cpio -p DIR (pass-through) copies the files listed on stdin below DIR
	{Name: "cpio", Kind: KindWrite, Opts: OptSpec{Short: "CDEFHIMOR", Long: "directory= file= format= pattern-file= io-size= extract pass-through make-directories list", Partial: true, Abbrev: true},
		// -i (--extract) extracts into -D DIR, else the working directory
		Writes: WriteSpec{Operand: 1, If: "p pass-through", Extract: "i extract", ExtractDir: "D directory"}, WriteExamples: []string{"-pdm d -> d", "--pass-through d -> d", "-idmv -> (into .)", "-i -D out -> (into out)", "-o -> "}, Examples: []string{"-o -H newc -F a.cpio => -o -H=newc -F=a.cpio |", "-pdm --quiet d => -p -d -m --quiet | d", "--format=newc -o => --format=newc -o |", "-itv => -i -t -v |"}},
	// terraform and OpenTofu: Go-style flags (-chdir=DIR, fmt -check,
	// -write=false, -recursive), options at any level
	{Name: "terraform", Names: "tofu", Kind: KindTool, Opts: OptSpec{Long: "chdir= var= var-file= target= replace= lock-timeout= parallelism= state= out= backend-config=", Partial: true, GoFlags: true},
		// plan -out=FILE writes the plan, relative to -chdir=DIR (terraform
		// docs, "Switching working directory with -chdir"; not installed here)
		Chdir: "chdir", Writes: WriteSpec{Opts: "out"}, WriteExamples: []string{"plan -out=spec/p -> spec/p", "-chdir=b plan -out=p -> b/p", "-chdir=b plan -out=../s/p -> s/p", "plan -> "},
		Examples: []string{"fmt -check -recursive => --check --recursive | fmt", "fmt -write=false . => --write=false | fmt .", "-chdir=infra apply -auto-approve => --chdir=infra --auto-approve | apply"}},
	// exiftool: single-dash options (-o OUT, -ext EXT, -if EXPR …) and tag
	// assignments -TAG=VALUE, -TAG+=VALUE, -TAG<=FILE, -all= (Go-style:
	// the name and its value attached with "=")
	{Name: "exiftool", Kind: KindWrite, Opts: OptSpec{Long: "o= out= if= ext= extension= x= exclude= d= dateFormat= c= coordFormat= p= printFormat= " +
		"charset= api= config= w= textOut= W= tagOut= srcfile= tagsFromFile= userParam= fileOrder= lang= sep= i= ignore= @= geotag= globalTimeShift= csvDelim=", Partial: true, GoFlags: true},
		// a tag assignment (Assign) or -overwrite_original rewrites the
		// files (in place, or into -o OUT); without one exiftool only reads
		Writes:        WriteSpec{All: true, Opts: "o out", If: "overwrite_original overwrite_original_in_place", Assign: true},
		WriteExamples: []string{"-Artist=me SKILL.md -> SKILL.md", "-Artist=me -o out.jpg in.jpg -> out.jpg in.jpg", "-all= d -> d", "-ext jpg d -> ", "-overwrite_original f -> f"},
		Examples:      []string{"-Artist=me -o out.jpg in.jpg => --Artist=me --o=out.jpg | in.jpg", "-ext jpg -all= d => --ext=jpg --all= | d", "-overwrite_original -Title+=x f => --overwrite_original --Title+=x | f"}},
	// 7-Zip: COMMAND [-SWITCH…] ARCHIVE [FILE…]; every switch is one word,
	// its value attached (-oDIR, -tzip, -pSECRET, -sdel, -aoa); -y a flag
	// a (add), u (update), d (delete), rn (rename) change the archive (a
	// -sdel removes the files added); x and e extract into -oDIR (the
	// working directory without one); l, t, h, i only read
	{Name: "7z", Names: "7za 7zr 7zz", Kind: KindWrite, Opts: sevenZipOpts, Subs: []Program{
		{Name: "a", Kind: KindWrite, Opts: sevenZipOpts, Writes: WriteSpec{First: true, Remove: "s=del"}, WriteExamples: []string{"SKILL.7z d -> SKILL.7z", "-sdel o.7z SKILL.md -> o.7z (removes SKILL.md)"}, Examples: []string{"-tzip -mx=9 out.zip src => -t=zip -m=x=9 | out.zip src"}},
		{Name: "u", Names: "d rn", Kind: KindWrite, Opts: sevenZipOpts, Writes: WriteSpec{First: true}, WriteExamples: []string{"a.7z f -> a.7z"}, Examples: []string{"a.7z f => | a.7z f"}},
		{Name: "x", Names: "e", Kind: KindWrite, Opts: sevenZipOpts, Writes: WriteSpec{Extract: "*", ExtractDir: "o"}, WriteExamples: []string{"a.7z -obuild -> (into build)", "a.7z -> (into .)"}, Examples: []string{"a.7z -obuild -y => -o=build -y | a.7z"}}},
		Examples:      []string{"x a.7z -obuild -y => x: -o=build -y | a.7z", "a -tzip -mx=9 out.zip src => a: -t=zip -m=x=9 | out.zip src", "-y e a.7z => e: | a.7z", "l a.7z => l: | a.7z"},
		WriteExamples: []string{"e a.7z -> (into .)", "l a.7z -> "}},
	// Python standard-library modules run as programs (`python -m MODULE`):
	// json.tool [INFILE [OUTFILE]] writes only its second operand; the
	// others read or print their operands.
	// python -m compileall / py_compile write __pycache__ (-b: .pyc) beside
	// their sources, below PYTHONPYCACHEPREFIX instead when it is set
	// (checked with python 3.11: src/__pycache__ without it, nothing in src/
	// with it)
	// python -m venv / virtualenv DIR… create each DIR (checked: python
	// 3.11 -m venv vtest made vtest/bin, include, lib)
	{Name: "venv", Names: "virtualenv", Kind: KindWrite, Opts: OptSpec{Long: "prompt= upgrade-deps without-pip clear symlinks copies system-site-packages upgrade", Partial: true},
		Writes: WriteSpec{All: true}, WriteExamples: []string{"spec/.venv -> spec/.venv", "--prompt x .venv -> .venv"}, Examples: []string{"--prompt x .venv => --prompt=x | .venv"}},
	{Name: "compileall", Names: "py_compile", Kind: KindWrite, Opts: OptSpec{Short: "rdspxijoe", Long: "invalidation-mode= hardlink-dupes", Partial: true},
		Writes: WriteSpec{All: true, EnvDirs: "PYTHONPYCACHEPREFIX", EnvUnless: "PYTHONPYCACHEPREFIX"}, WriteExamples: []string{"-q spec -> spec", "PYTHONPYCACHEPREFIX=/tmp/pyc -q spec -> /tmp/pyc", "PYTHONPYCACHEPREFIX=templates/pyc src -> templates/pyc"},
		Examples: []string{"-q -j 0 src => -q -j=0 | src"}},
	// uudecode (sharutils; not installed here): without -o it writes the
	// file named on the input's `begin MODE NAME` line
	{Name: "uudecode", Kind: KindWrite, Opts: OptSpec{Short: "o", Long: "output-file=", Partial: true, Abbrev: true},
		Writes: WriteSpec{Opts: "o output-file", Cwd: "o output-file:;:{begin}"}, WriteExamples: []string{"<<< $'begin 644 SKILL.md\\n`\\nend' -> SKILL.md", "-o build/x <<< $'begin 644 SKILL.md\\nend' -> build/x", "in.uu -> \x01unknown", " -> \x01unknown"},
		Examples: []string{"-o x in.uu => -o=x | in.uu"}},
	{Name: "json.tool", Kind: KindWrite, Opts: OptSpec{Long: "sort-keys no-ensure-ascii json-lines indent= tab no-indent compact", Partial: true},
		Writes: WriteSpec{OperandFile: 2}, WriteExamples: []string{"in.json SKILL.md -> SKILL.md", "in.json -> "},
		Examples: []string{"--indent 2 in.json => --indent=2 | in.json"}},
	// zipfile and tarfile: -c OUT IN… writes OUT, -e ARCHIVE DIR extracts
	// into DIR (tarfile: the working directory without one), -l and -t
	// read (pathguard); http.server serves its directory read-only.
	{Name: "zipfile", Names: "tarfile", Kind: KindWrite, Opts: OptSpec{Long: "create= extract= list= test= metadata-encoding= verbose", Short: "celt"},
		Writes:        WriteSpec{Opts: "c create", Extract: "e extract", ExtractOperand: 1},
		WriteExamples: []string{"-c /tmp/s.zip spec -> /tmp/s.zip", "-e a.zip out -> (into out)", "-e a.tar -> (into .)", "-l a.zip -> "},
		Examples:      []string{"-c /tmp/s.zip spec a => -c=/tmp/s.zip | spec a", "-e a.zip out => -e=a.zip | out"}},
	{Name: "http.server", Kind: KindRead, Opts: OptSpec{Short: "bdp", Long: "bind= directory= protocol= cgi tls-cert= tls-key= tls-password-file=", Partial: true},
		Examples: []string{"-d spec 8000 => -d=spec | 8000"}},
	{Name: "tokenize", Names: "pydoc dis pyclbr tabnanny pickletools mimetypes py_compile.show", Kind: KindRead, Examples: []string{"-e x.py => -e | x.py"}},
	// xxd [-r] [INFILE [OUTFILE]] writes OUTFILE, the dump or (-r) the
	// patched binary
	{Name: "xxd", Kind: KindWrite, Opts: OptSpec{Short: "cglosnR", Long: "cols= groupsize= len= seek= name= autoskip bits capitalize decimal ebcdic include little-endian postscript plain revert uppercase", Partial: true},
		Writes: WriteSpec{OperandFile: 2}, WriteExamples: []string{"-r -p dump SKILL.md -> SKILL.md", "in SKILL.md -> SKILL.md", "-r dump -> "},
		Examples: []string{"-r -p dump out => -r -p | dump out", "-l 64 f => -l=64 | f"}},
	{Name: "patch", Names: "gpatch", Kind: KindWrite,
		Opts: OptSpec{Short: "pioDdBrFVzYg", Long: "strip= input= output= ifdef= directory= prefix= reject-file= fuzz= version-control= suffix= basename-prefix= get= quoting-style= reject-format= read-only= dry-run backup backup-if-mismatch no-backup-if-mismatch", Partial: true, Abbrev: true},
		// patch(1) 2.7.6: the backup of FILE is PREFIX (-B) + its directory
		// + BASEPREFIX (-Y) + its base name + SUFFIX (-z; .orig without
		// one of the three), made with -b and, by default, when a hunk
		// applies with fuzz (--backup-if-mismatch; checked: `patch -B t/
		// -p1` made t/d/f for d/f)
		Writes: WriteSpec{Backup: BackupSpec{On: "b backup", Always: true, Off: "no-backup-if-mismatch", Suffix: "z suffix", Prefix: "B prefix", BasePrefix: "Y basename-prefix", Default: ".orig", Env: "SIMPLE_BACKUP_SUFFIX"}},
		WriteExamples: []string{"-b -B templates/ -p1 -> templates/r/n.md (backup of r/n.md)", "-b -Y ../t/ -p1 -> r/../t/n.md (backup of r/n.md)", "-b -z .md -p1 -> README.md (backup of README)", "-p1 -> r/n.md.orig (backup of r/n.md)",
			"--no-backup-if-mismatch -B t/ -p1 -> (backup of f)", "-b --no-backup-if-mismatch -z .md -p1 -> f.md (backup of f)"},
		Examples: []string{"-p1 -i d.diff => -p=1 -i=d.diff |"}},
	// formatters that rewrite their operands in place (a file, or every
	// file below a directory: Tree) when told to write, or unless told to
	// check
	{Name: "shfmt", Names: "gofumpt", Kind: KindWrite, Opts: OptSpec{Short: "i", Partial: true, Abbrev: true}, Writes: WriteSpec{Tree: true, If: "w write"},
		WriteExamples: []string{"-w spec/a.sh -> spec/a.sh", "--write a -> a", "-l -d . -> "}, Examples: []string{"-i 2 -w f.sh => -i=2 -w | f.sh", "-l -d . => -l -d | ."}},
	{Name: "gofmt", Names: "goimports", Kind: KindWrite, Opts: OptSpec{Short: "r"}, Writes: WriteSpec{Tree: true, If: "w"},
		WriteExamples: []string{"-w -l . -> .", "-l spec -> "}, Examples: []string{"-w -l . => -w -l | ."}},
	{Name: "prettier", Kind: KindWrite, Opts: OptSpec{Long: "config= ignore-path= parser= plugin= stdin-filepath= log-level= cache-location= cache-strategy= write check", Partial: true, Abbrev: true},
		Writes: WriteSpec{Tree: true, If: "w write"}, WriteExamples: []string{"--write spec -> spec", "-w a.md -> a.md", "--check . -> "}, Examples: []string{"--write . => --write | ."}},
	{Name: "black", Kind: KindWrite, Opts: OptSpec{Short: "lctW", Long: formatterLong, Partial: true, Abbrev: true}, Writes: WriteSpec{Tree: true, Unless: "check diff"},
		WriteExamples: []string{"spec -> spec", "--check . -> ", "--diff a.py -> "}, Examples: []string{"--check . => --check | .", "-l 100 src => -l=100 | src"}},
	{Name: "isort", Kind: KindWrite, Opts: OptSpec{Short: "lmapobs", Long: formatterLong, Partial: true, Abbrev: true}, Writes: WriteSpec{Tree: true, Unless: "c check-only check diff"},
		WriteExamples: []string{"spec -> spec", "-c src -> ", "--check-only a.py -> "}, Examples: []string{"-c src => -c | src"}},
	// ruff format rewrites unless --check/--diff, ruff check only with
	// --fix (not --no-fix); without an operand the working directory
	// (ruff before 0.5 ran `ruff PATH…` as ruff check: Default)
	{Name: "ruff", Kind: KindWrite, Opts: ruffOpts, Writes: WriteSpec{Tree: true, Here: true, If: "fix"}, Default: "check", Subs: []Program{
		{Name: "format", Kind: KindWrite, Opts: ruffOpts, Writes: WriteSpec{Tree: true, Here: true, Unless: "check diff"}, WriteExamples: []string{"spec -> spec", " -> .", "--check . -> "}, Examples: []string{"--diff src => --diff | src"}},
		{Name: "check", Kind: KindWrite, Opts: ruffOpts, Writes: WriteSpec{Tree: true, Here: true, If: "fix unsafe-fixes", Unless: "no-fix"}, WriteExamples: []string{"--fix spec -> spec", "--fix -> .", "spec -> ", "--fix --no-fix a -> "}, Examples: []string{"--fix src => --fix | src"}}},
		WriteExamples: []string{"--fix -> .", "format src -> src", "check src -> ", "--fix spec -> spec", "spec -> "}, Examples: []string{"check --fix src => check: --fix | src", "--fix => --fix |", "src --fix => --fix | src"}},
	// eslint -o FILE writes its report; --fix rewrites the files
	// (TreeIf), every file below the working directory without one
	{Name: "eslint", Kind: KindWrite, Opts: OptSpec{Short: "cfo", Long: formatterLong, Partial: true, Abbrev: true}, Writes: WriteSpec{Opts: "o output-file", Tree: true, Here: true, TreeIf: "fix"},
		WriteExamples: []string{"-o SKILL.md . -> SKILL.md", "--fix spec -> spec", "--fix -> .", "--fix -o r.txt a.js -> r.txt a.js", "src -> "}, Examples: []string{"--fix -o r.txt . => --fix -o=r.txt | ."}},
	{Name: "clang-format", Kind: KindWrite, Opts: OptSpec{Long: formatterLong, Partial: true, Abbrev: true}, Writes: WriteSpec{Tree: true, If: "i"},
		WriteExamples: []string{"-i spec/a.c -> spec/a.c", "a.c -> "}, Examples: []string{"-i a.c => -i | a.c"}},
	{Name: "autopep8", Names: "yapf", Kind: KindWrite, Opts: OptSpec{Long: formatterLong, Partial: true, Abbrev: true}, Writes: WriteSpec{Tree: true, If: "i in-place"},
		WriteExamples: []string{"-i spec/a.py -> spec/a.py", "--in-place a.py -> a.py", "a.py -> "}, Examples: []string{"-i a.py => -i | a.py"}},
	{Name: "rustfmt", Kind: KindWrite, Opts: OptSpec{Long: formatterLong, Partial: true, Abbrev: true}, Writes: WriteSpec{Tree: true, Unless: "check emit"},
		WriteExamples: []string{"src/main.rs -> src/main.rs", "--check a.rs -> ", "--emit stdout a.rs -> "}, Examples: []string{"--check a.rs => --check | a.rs"}},
	// biome format|lint|check rewrite only with --write (--apply, --fix);
	// dprint fmt unless --check or --list
	{Name: "biome", Kind: KindWrite, Opts: OptSpec{Long: formatterLong, Partial: true, Abbrev: true}, Subs: []Program{
		{Name: "format", Names: "lint check", Kind: KindWrite, Opts: OptSpec{Long: formatterLong, Partial: true, Abbrev: true}, Writes: WriteSpec{Tree: true, Here: true, If: "write apply apply-unsafe fix"},
			WriteExamples: []string{"--write spec -> spec", "--apply -> .", "src -> "}, Examples: []string{"--write src => --write | src"}}},
		Examples: []string{"format --write src => format: --write | src"}},
	{Name: "dprint", Kind: KindWrite, Opts: OptSpec{Long: formatterLong, Partial: true, Abbrev: true}, Subs: []Program{
		{Name: "fmt", Kind: KindWrite, Opts: OptSpec{Long: formatterLong + " list", Partial: true, Abbrev: true}, Writes: WriteSpec{Tree: true, Here: true, Unless: "check list"},
			WriteExamples: []string{"spec/a.ts -> spec/a.ts", " -> .", "--list -> "}, Examples: []string{"--list => --list |"}}},
		Examples: []string{"fmt a.ts => fmt: | a.ts"}},
	// formatters and spelling checkers that rewrite their operands (a file,
	// or every file below a directory) unless told to check, or only when
	// told to write
	// taplo fmt rewrites TOML files (every one below the working
	// directory without one) unless --check; lint only reads
	{Name: "taplo", Kind: KindTool, Opts: OptSpec{Partial: true}, Subs: []Program{
		{Name: "fmt", Names: "format", Kind: KindWrite, Opts: OptSpec{Long: "check config= option= cache-path= diff stdin-filepath= colors=", Partial: true},
			Writes: WriteSpec{Tree: true, Here: true, Unless: "check diff"}, WriteExamples: []string{"spec/c.toml -> spec/c.toml", "--check a.toml -> "}, Examples: []string{"--check a.toml => --check | a.toml"}},
		{Name: "lint", Names: "check", Kind: KindRead, Examples: []string{"a.toml => | a.toml"}}}, Examples: []string{"fmt a.toml => fmt: | a.toml"}},
	{Name: "mdformat", Kind: KindWrite, Opts: OptSpec{Long: "check wrap= number end-of-line= exclude= extensions= codeformatters= version help", Partial: true, Abbrev: true},
		Writes: WriteSpec{Tree: true, Unless: "check"}, WriteExamples: []string{"README.md spec -> README.md spec", "--check README.md -> ", "- -> "},
		Examples: []string{"--wrap 80 --check a.md => --wrap=80 --check | a.md"}},
	{Name: "stylua", Kind: KindWrite, Opts: OptSpec{Short: "fg", Long: "check config-path= glob= output-format= num-threads= search-parent-directories verify verbose color= stdin-filepath= column-width= line-endings= indent-type= indent-width= quote-style= call-parentheses= syntax= range-start= range-end=", Partial: true},
		Writes: WriteSpec{Tree: true, Unless: "c check"}, WriteExamples: []string{"src -> src", "--check templates -> ", "-c a.lua -> "},
		Examples: []string{"-c -f s.toml src => -c -f=s.toml | src"}},
	{Name: "codespell", Kind: KindWrite, Opts: OptSpec{Short: "DILrSxiqABC", Long: "write-changes dictionary= ignore-words= ignore-words-list= ignore-regex= uri-ignore-words-list= regex= skip= exclude-file= interactive= quiet-level= after-context= before-context= context= config= toml= builtin= count summary check-filenames check-hidden", Partial: true, Abbrev: true},
		Writes: WriteSpec{Tree: true, Here: true, If: "w write-changes"}, WriteExamples: []string{"-w spec -> spec", "--write-changes -> .", "spec -> ", "-i 3 spec -> "},
		Examples: []string{"-S '*.json' -w spec => -S=*.json -w | spec"}},
	{Name: "typos", Kind: KindWrite, Opts: OptSpec{Short: "cj", Long: "write-changes config= exclude= type= type-add= format= color= locale= threads= file-list= diff isolated hidden no-ignore", Partial: true},
		Writes: WriteSpec{Tree: true, Here: true, If: "w write-changes"}, WriteExamples: []string{"-w templates -> templates", "-w -> .", "templates -> "},
		Examples: []string{"--format brief -w . => --format=brief -w | ."}},
	// dos2unix and friends convert each operand in place; after -n
	// (--newfile) the operands are INFILE OUTFILE pairs, -o (--oldfile)
	// switches back; -i (--info) and -O (--to-stdout) write no file
	{Name: "dos2unix", Names: "unix2dos mac2unix unix2mac", Kind: KindWrite,
		Opts:          OptSpec{Short: "cD", ShortOpt: "i", Long: "convmode= display-enc= info newfile oldfile to-stdout keep-date force safe quiet add-bom remove-bom keep-bom keep-utf16 allow-chown no-allow-chown add-eol no-add-eol follow-symlink replace-symlink skip-symlink iso ascii gb1 ul ub verbose help version license", Partial: true, Abbrev: true, Words: "iso=iso ascii=ascii gb=gb1 ul=ul ub=ub"},
		Writes:        WriteSpec{All: true, Pairs: "n newfile", Singles: "o oldfile", Unless: "i info O to-stdout"},
		Examples:      []string{"-iso -n a b => --iso -n | a b", "-ic f => -i=c | f"},
		WriteExamples: []string{"a b -> a b", "-n spec/i.md /tmp/o.txt -> /tmp/o.txt", "a -n b c -o d -> a c d", "-n a b c -> b c", "-n a b c -o d -> b c d", "-i a -> ", "-O a -> "}},
	// pax: -r extracts (into the working directory), -w archives (to
	// stdout, or -f FILE), both copy into the last operand; neither lists
	// GNU ar [-]OP[MODS] [--output DIR] [RELPOS] [COUNT] ARCHIVE [MEMBER…]:
	// the operation letters decide (Grammar "ar", arWrites)
	{Name: "ar", Names: "gcc-ar llvm-ar", Kind: KindWrite, Opts: OptSpec{Long: "output= plugin= target= record-libdeps= thin help version", Partial: true, Abbrev: true},
		Writes: WriteSpec{Grammar: "ar"}, WriteExamples: []string{"t lib.a -> ", "rcs lib.a a.o -> lib.a", "x lib.a README.md -> README.md", "x --output=o lib.a -> o", "mb a.o lib.a b.o -> lib.a", "z lib.a m -> lib.a m"},
		Examples: []string{"t lib.a => | t lib.a", "rcs lib.a a.o => | rcs lib.a a.o", "x --output=d lib.a => --output=d | x lib.a", "--output d x lib.a => --output=d | x lib.a"}},
	{Name: "pax", Kind: KindWrite, Opts: OptSpec{Short: "bBEfGopsTUx"},
		Writes: WriteSpec{Grammar: "pax"}, WriteExamples: []string{"-rw src /tmp/d -> /tmp/d /tmp/d", "-wf /tmp/a.pax spec -> /tmp/a.pax", "-r -> (into .)", "-f a.pax -> "},
		Examples: []string{"-rw -s ,a,b, src /tmp/d => -r -w -s=,a,b, | src /tmp/d", "-wf /tmp/a.pax spec => -w -f=/tmp/a.pax | spec"}},
	{Name: "less", Kind: KindRead, Examples: []string{"-R f => -R | f", "+G f => | +G f"}},
	{Name: "man", Kind: KindRead, Opts: OptSpec{Short: "CMPrSseLmpRE", ShortOpt: "THX", Long: "config-file= manpath= pager= prompt= sections= extension= locale= systems= preprocessor= recode= encoding= troff-device html gxditview", Partial: true, Abbrev: true},
		Runs: RunSpec{Shell: "P pager H html"}, RunExamples: []string{"-P 'rm -rf ~' ls -> rm -rf ~", "--pag='less -R' ls -> less -R", "-Hfirefox ls -> firefox", "-k printf -> "}, Examples: []string{"-s 3 printf => -s=3 | printf", "-k printf => -k | printf", "--sect=3 printf => --sections=3 | printf", "-Tutf8 ls => -T=utf8 | ls"}},
	{Name: "cat", Names: "tac nl more most bat batcat head tail wc cut paste join fold fmt pr expand unexpand column od hexdump strings " +
		"diff diff3 cmp comm sdiff file stat du df tree lsattr getfacl basename dirname " +
		"md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum shasum " +
		"jq gojq jless xmllint yamllint shellcheck hadolint cloc tokei look namei", Kind: KindRead,
		Opts:     OptSpec{Short: "nckC", Long: "lines= bytes= number squeeze-blank show-all", Partial: true, Abbrev: true},
		Examples: []string{"-n 5 f => -n=5 | f"}},
	// GNU realpath and readlink (coreutils 9.1 --help): getopt_long
	// (abbreviations, options after operands); realpath always prints the
	// canonical name, readlink only with -f/-e/-m (else a link's text);
	// --relative-to/--relative-base print names relative to a directory
	// (`realpath F --relative-to D` takes D; `--can` is ambiguous)
	{Name: "realpath", Names: "grealpath", Kind: KindRead,
		Opts:     OptSpec{Long: "canonicalize-existing canonicalize-missing logical physical quiet relative-to= relative-base= strip no-symlinks zero help version", Abbrev: true, Posixly: true},
		Examples: []string{"-m a b => -m | a b", "a --relative-to d => --relative-to=d | a", "--relative-t=d a => --relative-to=d | a", "--can a => --can? | a"}},
	{Name: "readlink", Names: "greadlink", Kind: KindRead,
		Opts:     OptSpec{Long: "canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero help version", Abbrev: true, Posixly: true},
		Examples: []string{"a -f => -f | a", "--canonicalize-e a => --canonicalize-existing | a", "-n -- -f => -n | -f"}},
	// GNU ls: its operands are the paths it lists (a listing producer)
	{Name: "ls", Names: "dir vdir gls", Kind: KindRead,
		Opts:     OptSpec{Short: "ITw", Long: "block-size= color= format= hide= ignore= indicator-style= quoting-style= sort= time= time-style= tabsize= width= hyperlink=", Partial: true, Abbrev: true},
		Examples: []string{"-la -I '*.o' src => -l -a -I=*.o | src", "-C d => -C | d", "--hide '*.o' d => --hide=*.o | d", "-w80 => -w=80 |", "-- -d => | -d"}},
	// rg --pre CMD runs CMD FILE for each file it searches (its output is
	// searched)
	{Name: "grep", Names: "egrep fgrep rg ag ack ggrep", Kind: KindRead,
		Opts:        OptSpec{Short: "efmABCdD", Long: "regexp= file= max-count= context= after-context= before-context= pre= pre-glob= files-with-matches files-without-match recursive", Partial: true, Abbrev: true},
		Runs:        RunSpec{PerFile: "pre"},
		RunExamples: []string{"--pre rm TODO spec -> rm spec", "--pre=rm -e x a b -> rm a b", "--pre rm TODO -> rm .", "--pre-glob '*.pdf' TODO spec -> "},
		Examples:    []string{"-rl TODO . => -r -l | TODO .", "-e x f => -e=x | f", "--pre-glob '*.pdf' --pre p x d => --pre-glob=*.pdf --pre=p | x d"}},
	{Name: "find", Names: "gfind", Kind: KindRun, Opts: OptSpec{Short: "D", ShortOpt: "O", Stop: true}, Examples: []string{"-L src -name '*.go' => -L | src -name *.go", ". -type f -delete => | . -type f -delete", "-O3 -D exec . => -O=3 -D=exec | ."}},
	{Name: "fd", Names: "fdfind", Kind: KindRun,
		Opts:     OptSpec{Short: "etEdScjo", Long: "extension= type= exclude= max-depth= min-depth= exact-depth= size= color= threads= changed-within= changed-before= owner= base-directory= path-separator= search-path= max-results= ignore-file= format= batch-size=", Partial: true},
		Examples: []string{"-e go x src => -e=go | x src"}},
	{Name: "sed", Names: "gsed", Kind: KindWrite,
		Opts:   OptSpec{Short: "efl", ShortOpt: "i", Long: "expression= file= in-place line-length= null-data zero-terminated quiet silent regexp-extended posix separate sandbox unbuffered debug follow-symlinks binary help version", Abbrev: true},
		Writes: WriteSpec{Backup: BackupSpec{Suffix: "i in-place", Star: true}}, WriteExamples: []string{"-i.md s/a/b/ SKILL -> SKILL.md (backup of SKILL)", "-i'../spec/*.bak' s/a/b/ n.md -> ../spec/n.md.bak (backup of n.md)",
			"-i'bk/*' s/a/b/ d/f -> bk/d/f (backup of d/f)", "--in-place='X*Y*' s/a/b/ f -> XfYf (backup of f)", "-i s/a/b/ f -> (backup of f)"},
		Examples: []string{"-i.bak s/a/b/ f => -i=.bak | s/a/b/ f", "-ne p f => -n -e=p | f", "--in-pl s/a/b/ f => --in-place | s/a/b/ f"}},
	{Name: "awk", Names: "gawk mawk nawk original-awk goawk onetrue-awk bwk-awk busybox-awk", Kind: KindWrite,
		Opts:     OptSpec{Short: "fvFieElW", Long: "file= assign= field-separator= include= source= load= exec=", Partial: true, Abbrev: true},
		Examples: []string{"-F: '{print}' f => -F=: | {print} f", "-i inplace x f => -i=inplace | x f"}},
	{Name: "yq", Kind: KindWrite, Opts: OptSpec{Short: "IopsL", Long: "indent= output-format= input-format= expression= from-file= split-exp= lua-prefix= properties-separator= xml-attribute-prefix= xml-content-name= inplace", Partial: true, Abbrev: true},
		Examples: []string{"-i .a=1 f => -i | .a=1 f"}},

	// ---------------------------------------------------------------- data: arguments are text
	{Name: "echo", Names: "printf true false : test [ [[ sleep date whoami id groups hostname uname uptime seq yes expr bc nproc free " +
		"lsblk blkid lscpu lsusb lspci locale tty stty clear tput reset getent apt-cache dpkg-query rpm-query ldd nm objdump readelf " +
		"ping ping6 dig nslookup host traceroute ss netstat ifconfig arp ps pgrep top htop vmstat iostat " +
		"type which whereis info help apropos whatis logger notify-send say tldr cowsay figlet lolcat banner " +
		"ssh-add ssh-keyscan gpg-agent export unset alias unalias declare typeset local readonly shift set " +
		"getopts wait umask ulimit enable caller let pwd dirs shopt printenv tr", Kind: KindData, Examples: []string{"-n hi => -n | hi"}},
	// bash builtins that run a command (testdata/corpus/README.md §9.2): `jobs -x CMD ARGS…` runs CMD (runString),
	// `compgen -C CMD` runs CMD for the completions and `complete -C CMD` registers it (judged as run, like a function
	// body), `bind -x 'KEYSEQ: CMD'` binds CMD to a key (runString); `fc -s`/`fc -e -` re-runs a history entry that
	// `history -s` stored (run.go), and `fc -e EDITOR` runs EDITOR as a shell command
	{Name: "jobs", Kind: KindRun, Opts: OptSpec{Stop: true}, Examples: []string{"-x rm -rf b => -x | rm -rf b", "-lp => -l -p |"}},
	{Name: "compgen", Names: "complete", Kind: KindRun, Opts: OptSpec{Short: "oAGWFCXPSV", Stop: true},
		Runs: RunSpec{Shell: "C"}, RunExamples: []string{"-C 'rm -rf b' x -> rm -rf b", "-o default -C'ls -a' git -> ls -a", "-W 'a b' x -> "}, Examples: []string{"-W 'a b' -- a => -W=a b | a", "-o default -C 'ls -a' git => -o=default -C=ls -a | git", "-A file -X '*.o' => -A=file -X=*.o |"}},
	{Name: "bind", Kind: KindRun, Opts: OptSpec{Short: "mqurfx", Stop: true}, Examples: []string{`-x '"\C-t": ls' => -x="\C-t": ls |`}},
	// history -w/-a [FILE] write the history list to FILE, else to $HISTFILE
	// (bash(1); checked with bash 5.2: `bash -c 'history -w h1'` wrote h1,
	// `HISTFILE=h3 bash -c 'history -w'` wrote h3, -r only read)
	{Name: "history", Kind: KindData, Opts: OptSpec{Short: "d", Stop: true}, Writes: WriteSpec{If: "w a", First: true, Cwd: "#1:;:$HISTFILE"},
		WriteExamples: []string{"-w schemas/h -> schemas/h", "HISTFILE=.harness/logs/h -w -> .harness/logs/h", "-a -> ", "-r h -> ", "-s rm -rf b -> "},
		Examples:      []string{"-s rm -rf b => -s | rm -rf b"}},
	{Name: "fc", Kind: KindRun, Opts: OptSpec{Short: "e", Stop: true, Numeric: true}, Examples: []string{"-s a=b ls => -s | a=b ls", "-e - -1 => -e=- -#=1 |", "-s -- -i=-f => -s | -i=-f"}},
	{Name: "hash", Kind: KindData, Opts: OptSpec{Short: "p"}, Examples: []string{"-p /bin/rm ls => -p=/bin/rm | ls"}},
	{Name: "ssh-keygen", Kind: KindData, Opts: OptSpec{Short: "abCDEFfIJjMmNnOPRrSstVWwYZz"},
		Examples: []string{"-q -t ed25519 -N x -f k => -q -t=ed25519 -N=x -f=k |", "-s ca -I id host.pub => -s=ca -I=id | host.pub"}},
	{Name: "read", Kind: KindData, Opts: OptSpec{Short: "adinNptu"}, Examples: []string{"-ra arr => -r -a=arr |", "-d , -r x y => -d=, -r | x y"}},
	{Name: "mapfile", Names: "readarray", Kind: KindData, Opts: OptSpec{Short: "dnOsuCc"}, Examples: []string{"-t -d , arr => -t -d=, | arr"}},
	// dpkg(1): --pre-invoke, --post-invoke and --status-logger COMMAND are
	// "run via sh -c"
	// apt-get/apt -o KEY=VALUE: apt.conf(5)'s hook keys are lists of shell
	// commands run with /bin/sh (Pre-Invoke made a marker here at update)
	{Name: "apt-get", Names: "apt", Kind: KindTool, Opts: OptSpec{Short: "octa", Long: "option= config-file= target-release= host-architecture=", Partial: true},
		Runs:        RunSpec{Keys: "o option:APT::Update::Pre-Invoke APT::Update::Post-Invoke APT::Update::Post-Invoke-Success DPkg::Pre-Invoke DPkg::Post-Invoke DPkg::Pre-Install-Pkgs"},
		RunExamples: []string{"-o 'APT::Update::Pre-Invoke::=rm -rf b' update -> rm -rf b", "-o dpkg::post-invoke=ls install x -> ls", "-o Acquire::Retries=3 update -> "},
		Examples:    []string{"-o Acquire::Retries=3 update => -o=Acquire::Retries=3 | update", "install -y jq => -y | install jq"}},
	{Name: "dpkg", Kind: KindData, Opts: OptSpec{Short: "D", Long: "admindir= root= instdir= debug= pre-invoke= post-invoke= path-include= path-exclude= log= status-fd= status-logger=", Partial: true},
		Runs: RunSpec{Shell: "pre-invoke post-invoke status-logger"}, RunExamples: []string{"--pre-invoke='rm -rf b' -i x.deb -> rm -rf b", "--status-logger 'tee s.log' -r p -> tee s.log", "-L dpkg -> "}, Examples: []string{"-L dpkg => -L | dpkg", "-l 'lib*' => -l | lib*", "--admindir=/tmp/a -S /bin/ls => --admindir=/tmp/a -S | /bin/ls", "-i x.deb => -i | x.deb"}},
	{Name: "sudoku", Kind: KindData, Examples: []string{"-v => -v |"}},

	// ---------------------------------------------------------------- shells and interpreters
	// bash 5.2 (bash(1), checked here): -o and -O take the next word (`-co
	// pipefail CMD` is -c -o pipefail, CMD the command string), options
	// stop at the first operand (the -c string or the script; options after
	// -c still count: `bash -c -x CMD`), "-" ends them as "--" does; long
	// options are not abbreviated (`--rcf` is an invalid option) and bash
	// accepts them only before the short ones and never with "=" (`bash -x
	// --norc`, `--rcfile=F` are invalid options: read here as given, which
	// is cautious)
	{Name: "bash", Names: "sh zsh dash ksh mksh ash yash posh rbash fish csh tcsh lksh pdksh oksh loksh osh ysh rc", Kind: KindShell,
		Opts: OptSpec{Short: "oO", Long: "rcfile= init-file= norc noprofile noediting login posix restricted verbose version help debug debugger dump-strings dump-po-strings pretty-print", Stop: true, Plus: true, Dash: true},
		Examples: []string{"-xc 'x' a => -x -c | x a", "-o pipefail -c x => -o=pipefail -c | x", "--norc script => --norc | script", "+x -c y => -x -c | y",
			"-O extglob -c x => -O=extglob -c | x", "--rcfile f -i => --rcfile=f -i |", "-co pipefail x a => -c -o=pipefail | x a", "-c -x x => -c -x | x", "- s.sh a => | s.sh a", "-s a -c => -s | a -c"}},
	// a run that imports or compiles writes its .pyc files below
	// PYTHONPYCACHEPREFIX when it is set, -B none (checked with python 3.11:
	// `PYTHONPYCACHEPREFIX=pfx python3 src/main.py` wrote pfx/…/src/m.cpython-311.pyc)
	{Name: "python", Names: "python2 python3 pypy pypy3 py", Kind: KindInterp,
		Opts:   OptSpec{Short: "cmWXQ", Long: "help version check-hash-based-pycs= help-env help-xoptions help-all", Stop: true, EndAfter: "c m"},
		Writes: WriteSpec{EnvDirs: "PYTHONPYCACHEPREFIX", Unless: "B"}, WriteExamples: []string{"PYTHONPYCACHEPREFIX=spec/pyc x.py -> spec/pyc", "PYTHONPYCACHEPREFIX=spec/pyc -B x.py -> ", "x.py -> "},
		Examples: []string{"-c 'x' a b => -c=x | a b", "-m black --check . => -m=black | --check .", "-u - a => -u | - a", "-Wignore x.py => -W=ignore | x.py",
			"-X dev -c x => -X=dev -c=x |", "-Wd -IsEc x a => -W=d -I -s -E -c=x | a", "-c x -- a => -c=x | -- a", "x.py -c y => | x.py -c y"}},
	{Name: "node", Names: "nodejs", Kind: KindInterp,
		// node 20 (`node --help`): the options shown with "=..." take a
		// value, attached or in the next word (`--title T`, `--input-type
		// module`); -p/--print is a flag whose code is the next word that is
		// no option (`node -p CODE`, `node -p -e CODE`); options stop at the
		// script; no abbreviations (`--eva` is a bad option)
		Opts: OptSpec{Short: "erC", Long: "eval= print require= import= loader= experimental-loader= conditions= input-type= env-file= env-file-if-exists= title= " +
			"allow-fs-read= allow-fs-write= build-snapshot-config= cpu-prof-dir= cpu-prof-interval= cpu-prof-name= diagnostic-dir= disable-proto= disable-warning= dns-result-order= " +
			"experimental-default-type= experimental-policy= experimental-sea-config= heap-prof-dir= heap-prof-interval= heap-prof-name= heapsnapshot-near-heap-limit= heapsnapshot-signal= " +
			"icu-data-dir= inspect-port= debug-port= inspect-publish-uid= max-http-header-size= openssl-config= policy-integrity= redirect-warnings= report-filename= report-signal= " +
			"secure-heap= secure-heap-min= snapshot-blob= test-concurrency= test-name-pattern= test-reporter= test-reporter-destination= test-shard= test-timeout= tls-cipher-list= tls-keylog= " +
			"trace-event-categories= trace-event-file-pattern= trace-require-module= unhandled-rejections= use-largepages= v8-pool-size= watch-path= inspect check interactive", Partial: true, Stop: true},
		Examples: []string{"-e 'x' => -e=x |", "--eval='x' => --eval=x |", "app.js a => | app.js a", "--title t -e x a => --title=t -e=x | a", "-p -e x => -p -e=x |", "-p x a => -p | x a",
			"-e x -e y => -e=x -e=y |", "--input-type module -e x => --input-type=module -e=x |", "-r ./r.js app.js -e x => -r=./r.js | app.js -e x"}},
	{Name: "deno", Kind: KindInterp, Opts: OptSpec{Partial: true, Stop: true},
		Subs: []Program{{Name: "eval", Kind: KindInterp, Examples: []string{"'console.log(1)' => | console.log(1)"}}, {Name: "publish", Kind: KindTool, Examples: []string{"--dry-run => --dry-run? |"}}, {Name: "run", Names: "task test lint compile bundle install serve", Kind: KindTool, Opts: OptSpec{Partial: true}, Examples: []string{"-A --watch main.ts => -A --watch | main.ts"}},
			// deno fmt rewrites its files, every one below the working directory without one, unless --check
			{Name: "fmt", Kind: KindWrite, Opts: OptSpec{Long: "check config= ext= ignore= indent-width= line-width= prose-wrap= watch quiet", Partial: true},
				Writes: WriteSpec{Tree: true, Here: true, Unless: "check"}, WriteExamples: []string{" -> .", "--check -> ", "src a.ts -> src a.ts"}, Examples: []string{"--check src => --check | src", "--line-width=100 a.ts => --line-width=100 | a.ts", "--indent-width 4 a.ts => --indent-width=4 | a.ts"}}}, Examples: []string{"--version => --version |", "eval 'console.log(1)' => eval: | console.log(1)"}},
	{Name: "bun", Kind: KindInterp, Opts: OptSpec{Short: "ep", Long: "eval= print=", Partial: true, Stop: true},
		Subs: []Program{{Name: "x", Kind: KindExec, Opts: OptSpec{Partial: true, Stop: true}, Examples: []string{"cowsay hi => | cowsay hi", "--bun vite build => --bun | vite build"}}, {Name: "publish", Kind: KindTool, Examples: []string{"--dry-run => --dry-run? |"}}}, Examples: []string{"-e 'console.log(1)' => -e=console.log(1) |", "--print 1+1 => --print=1+1 |"}},
	{Name: "tsx", Names: "ts-node zx", Kind: KindInterp, Opts: OptSpec{Short: "ep", Long: "eval= print=", Partial: true, Stop: true}, Examples: []string{"-e 'console.log(1)' => -e=console.log(1) |", "s.ts a => | s.ts a"}},
	// perl 5.36 (perlrun): -I takes the next word or the rest of its
	// cluster, -M and -m only the rest (`perl -M strict` is "Missing
	// argument to -M"); every -e/-E is a line of the program
	{Name: "perl", Kind: KindInterp, Opts: OptSpec{Short: "eEI", ShortOpt: "iFdDxCVMm", Digits: "0l", Stop: true},
		// -i[EXT]: FILE+EXT, or EXT with each "*" replaced by FILE (perlrun)
		Writes: WriteSpec{Backup: BackupSpec{Suffix: "i", Star: true}}, WriteExamples: []string{"-i.md -pe x SKILL -> SKILL.md (backup of SKILL)", "-pi'spec/*' -e x d/f -> spec/d/f (backup of d/f)", "-pi -e x f -> (backup of f)"},
		Examples: []string{"-pi -e s/a/b/ f => -p -i -e=s/a/b/ | f", "-i.bak -pe x f => -i=.bak -p -e=x | f", "-lne x f => -l -n -e=x | f",
			"-0777 -pi -e x f => -0=777 -p -i -e=x | f", "-l015ne x => -l=015 -n -e=x |", "-0x1FFn -e x => -0=x1FF -n -e=x |", "-C -e x => -C -e=x |", "-Ilib -Mstrict -e x => -I=lib -M=strict -e=x |", "-I lib -MFoo=a,b -e x a => -I=lib -M=Foo=a,b -e=x | a", "-e x -E y => -e=x -E=y |"}},
	{Name: "ruby", Names: "jruby", Kind: KindInterp, Opts: OptSpec{Short: "eIrCEF", ShortOpt: "iKTWx", Digits: "0", Stop: true},
		// -i[EXT]: "the extension, if specified, is added to old file name
		// to make a backup copy" (ruby(1)); not checked (ruby is not installed)
		Writes: WriteSpec{Backup: BackupSpec{Suffix: "i"}}, WriteExamples: []string{"-i.md -pe x SKILL -> SKILL.md (backup of SKILL)", "-pi -e x f -> (backup of f)"},
		Examples: []string{"-e x => -e=x |", "-W -pi -e x f => -W -p -i -e=x | f", "-W0 -ne x => -W=0 -n -e=x |", "-Ua -ne x => -U -a -n -e=x |", "-rjson -e x => -r=json -e=x |"}},
	{Name: "php", Names: "php-cli", Kind: KindInterp, Opts: OptSpec{Short: "rdcz", Long: "run=", Partial: true, Stop: true}, Examples: []string{"-r 'x' => -r=x |"}},
	{Name: "lua", Names: "luajit", Kind: KindInterp, Opts: OptSpec{Short: "el", Stop: true}, Examples: []string{"-e x => -e=x |"}},
	{Name: "rscript", Names: "r", Kind: KindInterp, Opts: OptSpec{Short: "e", Partial: true, Stop: true}, Examples: []string{"-e 'print(1)' => -e=print(1) |", "s.R a b => | s.R a b"}},
	// julia (docs.julialang.org, command-line options): -e/--eval and
	// -E/--print take the code, -L, -J, -H, -t, -p, -C and --machine-file a
	// value in the next word
	{Name: "julia", Kind: KindInterp, Opts: OptSpec{Short: "eELJHtpC", Long: "eval= print= load= sysimage= home= threads= procs= cpu-target= machine-file=", Partial: true, Stop: true},
		Examples: []string{"-t 4 -E x a => -t=4 -E=x | a", "--project=. -e x => --project=. -e=x |", "s.jl -e x => | s.jl -e x"}},
	{Name: "osascript", Kind: KindInterp, Opts: OptSpec{Short: "el", Stop: true}, Examples: []string{"-e 'beep' => -e=beep |", "-l JavaScript s.js => -l=JavaScript | s.js"}},

	// ---------------------------------------------------------------- exec-style wrappers (testdata/corpus/README.md §2.3)
	{Name: "command", Kind: KindExec, Opts: OptSpec{Stop: true}, Lookup: "v V help", Examples: []string{"-v rm => -v | rm", "-p rm -rf x => -p | rm -rf x"}},
	{Name: "builtin", Kind: KindExec, Opts: OptSpec{Stop: true}, Examples: []string{"echo hi => | echo hi", "cd /tmp => | cd /tmp"}},
	{Name: "exec", Kind: KindExec, Opts: OptSpec{Short: "a", Stop: true}, Examples: []string{"-a x rm f => -a=x | rm f"}},
	{Name: "nohup", Names: "setsid catchsegv valgrind firejail torsocks torify fakeroot chronic dbus-run-session eatmydata distrobox-host-exec winpty unbuffer nq", Kind: KindExec,
		Opts: OptSpec{Long: "ctty fork wait help version", Partial: true, Stop: true}, Examples: []string{"rm -rf x => | rm -rf x"}},
	{Name: "caffeinate", Kind: KindExec, Opts: OptSpec{Short: "tw", Stop: true}, Examples: []string{"-i make => -i | make", "-t 60 -w 123 => -t=60 -w=123 |", "-dims make test => -d -i -m -s | make test"}},
	{Name: "time", Kind: KindExec, Opts: OptSpec{Short: "fo", Long: "format= output= append verbose portability quiet help version", Abbrev: true, Stop: true},
		Examples: []string{"-p rm x => -p | rm x", "-f %e rm x => -f=%e | rm x"}},
	{Name: "nice", Kind: KindExec, Opts: OptSpec{Short: "n", Long: "adjustment= help version", Abbrev: true, Numeric: true, Stop: true},
		Examples: []string{"-n 5 rm x => -n=5 | rm x", "--adj 5 rm x => --adjustment=5 | rm x", "-5 rm x => -#=5 | rm x", "rm -n 1 => | rm -n 1"}},
	{Name: "timeout", Names: "gtimeout", Kind: KindExec, Pos: 1,
		Opts:     OptSpec{Short: "sk", Long: "foreground kill-after= preserve-status signal= verbose help version", Abbrev: true, Stop: true},
		Examples: []string{"-s KILL 5 rm x => -s=KILL | 5 rm x", "--sig KILL 5 rm x => --signal=KILL | 5 rm x", "-k5 10 rm => -k=5 | 10 rm"}},
	{Name: "stdbuf", Kind: KindExec, Opts: OptSpec{Short: "ioe", Long: "input= output= error= help version", Abbrev: true, Stop: true}, Examples: []string{"-oL rm x => -o=L | rm x", "--output=L rm x => --output=L | rm x", "-o0 -e 0 cmd => -o=0 -e=0 | cmd"}},
	{Name: "ionice", Kind: KindExec, Lookup: "p P u pid pgid uid", Opts: OptSpec{Short: "cn", Long: "class= classdata= pid pgid uid ignore help version", Abbrev: true, Stop: true},
		Examples: []string{"-c 3 rm x => -c=3 | rm x"}},
	{Name: "chrt", Kind: KindExec, Pos: 1, Lookup: "p m pid max",
		Opts: OptSpec{Short: "TPD", Long: "sched-runtime= sched-period= sched-deadline= all-tasks batch deadline fifo idle other rr reset-on-fork max pid verbose help version", Abbrev: true, Stop: true}, Examples: []string{"-f 10 make => -f | 10 make", "--rr 5 make => --rr | 5 make", "-d -T 1000 -P 2000 0 make => -d -T=1000 -P=2000 | 0 make"}},
	{Name: "taskset", Kind: KindExec, Pos: 1, Lookup: "p pid", Opts: OptSpec{Long: "all-tasks pid cpu-list help version", Abbrev: true, Stop: true}, Examples: []string{"-c 0-3 make => -c | 0-3 make", "--cpu-list 0,1 make => --cpu-list | 0,1 make", "0x3 make => | 0x3 make"}},
	{Name: "strace", Kind: KindExec, Opts: OptSpec{Short: "oepsuEIbXPOSaU", Long: "output= trace= signal= attach= user= env= string-limit= expr=", Partial: true, Stop: true}, Examples: []string{"-f -o log make => -f -o=log | make", "-e trace=file ls => -e=trace=file | ls", "-A -o log rm x => -A -o=log | rm x", "-p 123 => -p=123 |", "-o/tmp/l ls => -o=/tmp/l | ls", "--output=/tmp/l ls => --output=/tmp/l | ls"}},
	{Name: "ltrace", Kind: KindExec, Opts: OptSpec{Short: "oepsuanADlFwx", Long: "output= library=", Partial: true, Stop: true}, Examples: []string{"-o log -f ls => -o=log -f | ls", "-e malloc ./app => -e=malloc | ./app", "-S -L ./app => -S -L | ./app"}},
	{Name: "systemd-run", Kind: KindExec, Opts: OptSpec{Short: "upEHM", Long: "unit= property= description= slice= setenv= uid= gid= working-directory= host= machine= on-active= on-boot= on-startup= on-unit-active= on-unit-inactive= on-calendar= timer-property= path-property= socket-property= nice= service-type= expand-environment=", Partial: true, Abbrev: true, Stop: true}, Examples: []string{"--user -t make => --user -t | make", "-p MemoryMax=1G --unit u make => -p=MemoryMax=1G --unit=u | make", "-d -P rm x => -d -P | rm x", "-E A=1 -q env => -E=A=1 -q | env", "--desc=x make => --description=x | make"}},
	{Name: "sudo", Kind: KindExec, Lookup: "l V K k",
		Opts:     OptSpec{Short: "uUgCDhprtTR", Long: "user= group= close-from= chdir= host= prompt= role= type= command-timeout= other-user= chroot= askpass background bell edit help list login non-interactive preserve-env preserve-groups remove-timestamp reset-timestamp shell stdin validate version", Abbrev: true, Stop: true},
		Examples: []string{"-u root rm x => -u=root | rm x", "--vers => --version |", "-E rm x => -E | rm x"}},
	{Name: "sudo-rs", Kind: KindExec, Opts: OptSpec{Short: "uUgCDhprtT", Long: "user= group= chdir= prompt=", Partial: true, Stop: true}, Examples: []string{"-u root rm x => -u=root | rm x", "--user=app -E make => --user=app -E | make"}},
	{Name: "sudoedit", Kind: KindTool, Opts: OptSpec{Short: "uUgCDhprtTR", Long: "user= group= close-from= chdir= host= prompt= role= type= command-timeout= other-user= chroot= askpass non-interactive preserve-groups stdin help version", Abbrev: true},
		Examples: []string{"/etc/hosts => | /etc/hosts", "-u root f => -u=root | f", "--us=www f g => --user=www | f g"}},
	// please (a sudo replacement) and ksu (Kerberos su: -e CMD ARGS… runs CMD)
	{Name: "please", Names: "pleaseedit", Kind: KindExec, Opts: OptSpec{Short: "acdgrtu", Stop: true}, Examples: []string{"-u root systemctl x => -u=root | systemctl x"}},
	{Name: "ksu", Kind: KindTool, Examples: []string{"root => | root"}},
	{Name: "doas", Kind: KindExec, Opts: OptSpec{Short: "uCa", Stop: true}, Examples: []string{"-u root rm x => -u=root | rm x", "-n make => -n | make", "-C doas.conf ls => -C=doas.conf | ls"}},
	{Name: "pkexec", Kind: KindExec, Opts: OptSpec{Long: "user= disable-internal-agent help version", Stop: true}, Examples: []string{"--user root rm x => --user=root | rm x", "rm x => | rm x"}},
	{Name: "run0", Kind: KindExec, Opts: OptSpec{Short: "uDg", Long: "user= group= unit= property= description= slice= setenv= chdir= machine= nice= background=", Partial: true, Abbrev: true, Stop: true}, Examples: []string{"-u app rm x => -u=app | rm x", "--unit=u --setenv A=1 make => --unit=u --setenv=A=1 | make", "--desc=x make => --description=x | make"}},
	{Name: "proxychains", Names: "proxychains4", Kind: KindExec, Opts: OptSpec{Short: "f", Stop: true}, Examples: []string{"curl x => | curl x", "-f p.conf -q curl x => -f=p.conf -q | curl x"}},
	{Name: "xvfb-run", Kind: KindExec, Opts: OptSpec{Short: "nsfe", Long: "server-num= server-args= auth-file= error-file=", Partial: true, Stop: true}, Examples: []string{"-a make test => -a | make test", "-s '-screen 0 1024x768x24' app => -s=-screen 0 1024x768x24 | app", "--server-args='-ac' app => --server-args=-ac | app"}},
	{Name: "unshare", Kind: KindExec, Chdir: "w wd", Opts: OptSpec{Short: "SGRwl", Long: "setuid= setgid= root= wd= map-user= map-group= map-users= map-groups= propagation= setgroups=", Partial: true, Abbrev: true, Stop: true}, Examples: []string{"-r -n sh => -r -n | sh", "--map-user=0 -R /srv ls => --map-user=0 -R=/srv | ls", "-mUfp --mount-proc sh => -m -U -f -p --mount-proc | sh", "-r -- ls -l => -r | ls -l", "--prop=private sh => --propagation=private | sh"}},
	{Name: "chroot", Kind: KindExec, Pos: 1, Opts: OptSpec{Long: "userspec= groups= skip-chdir help version", Abbrev: true, Stop: true}, Examples: []string{"/srv/root sh -c x => | /srv/root sh -c x", "--userspec=u:g /r id => --userspec=u:g | /r id", "--skip-chdir / ls => --skip-chdir | / ls"}},
	{Name: "nsenter", Kind: KindExec, Opts: OptSpec{Short: "tSGW", ShortOpt: "muinpCUTrw", Long: "target= setuid= setgid= wdns= root wd mount uts ipc net pid cgroup user time all env", Partial: true, Abbrev: true, Stop: true}, Examples: []string{"-t 1 -m -u -n sh => -t=1 -m -u -n | sh", "-t 1 -r -w make => -t=1 -r -w | make", "--target 1 --mount=/proc/1/ns/mnt ls => --target=1 --mount=/proc/1/ns/mnt | ls", "-t1 -r/srv ls => -t=1 -r=/srv | ls", "-t 1 -- ls -l => -t=1 | ls -l", "--targ 1 sh => --target=1 | sh"}},
	// bubblewrap: every option is long and exact, most take one word and
	// the mount, file and setenv options two (--overlay three); the command
	// starts at the first other word. A read-write bind (--bind,
	// --dev-bind and their -try forms) hands SRC to the command, which may
	// write below it, as a container's read-write mount does
	// (testdata/corpus/README.md §9.1); --ro-bind, --tmpfs, --dev, --proc
	// and --symlink change only the sandbox's view; --chdir DIR is the command's directory
	{Name: "bwrap", Kind: KindExec,
		Opts: OptSpec{Long: "help version level-prefix unshare-all share-net unshare-user unshare-user-try unshare-ipc unshare-pid unshare-net unshare-uts unshare-cgroup unshare-cgroup-try " +
			"disable-userns assert-userns-disabled clearenv new-session die-with-parent as-pid-1 " +
			"args= argv0= userns= userns2= pidns= uid= gid= hostname= chdir= unsetenv= lock-file= sync-fd= remount-ro= exec-label= file-label= proc= dev= tmpfs= mqueue= dir= " +
			"seccomp= add-seccomp-fd= block-fd= userns-block-fd= info-fd= json-status-fd= cap-add= cap-drop= perms= size= overlay-src= tmp-overlay= ro-overlay= " +
			"setenv= bind= bind-try= dev-bind= dev-bind-try= ro-bind= ro-bind-try= bind-fd= ro-bind-fd= file= bind-data= ro-bind-data= symlink= chmod= overlay=",
			Extra: "setenv=1 bind=1 bind-try=1 dev-bind=1 dev-bind-try=1 ro-bind=1 ro-bind-try=1 bind-fd=1 ro-bind-fd=1 file=1 bind-data=1 ro-bind-data=1 symlink=1 chmod=1 overlay=2", Stop: true},
		Chdir: "chdir", Writes: WriteSpec{Dirs: "bind bind-try dev-bind dev-bind-try"},
		Examples: []string{"--ro-bind / / --dev /dev --tmpfs /tmp ls / => --ro-bind=/ --dev=/dev --tmpfs=/tmp | ls /", "--bind / / --setenv A 1 make => --bind=/ --setenv=A | make",
			"--overlay rw wk /x --unshare-net sh => --overlay=rw --unshare-net | sh"},
		WriteExamples: []string{"--bind ./spec /s ls -> ./spec", "--ro-bind ./spec /s ls -> ", "--dev-bind / / ls -> /", "--tmpfs /tmp ls -> "}},
	{Name: "gosu", Names: "su-exec setuidgid with-lock-ex", Kind: KindExec, Pos: 1, Opts: OptSpec{Stop: true}, Examples: []string{"nobody make => | nobody make", "app:app rm x => | app:app rm x"}},
	{Name: "setpriv", Kind: KindExec, Opts: OptSpec{Long: "reuid= regid= groups= inh-caps= ambient-caps= bounding-set= securebits= selinux-label= apparmor-profile= pdeathsig= ruid= rgid= euid= egid=", Partial: true, Abbrev: true, Stop: true}, Examples: []string{"--reuid=1000 --regid 1000 --clear-groups make => --reuid=1000 --regid=1000 --clear-groups | make", "--nnp sh => --nnp | sh", "--reui=0 sh => --reuid=0 | sh"}},
	{Name: "chpst", Kind: KindExec, Opts: OptSpec{Short: "uUbeglmdostfcrpn", Stop: true}, Examples: []string{"-u nobody -e ./env rm x => -u=nobody -e=./env | rm x", "-P -o 64 make => -P -o=64 | make"}},
	{Name: "cgexec", Kind: KindExec, Opts: OptSpec{Short: "g", Long: "sticky", Stop: true}, Examples: []string{"-g cpu:grp make => -g=cpu:grp | make", "-gcpu,memory:grp --sticky make => -g=cpu,memory:grp --sticky | make"}},
	{Name: "prlimit", Kind: KindExec, Opts: OptSpec{Short: "po", ShortOpt: "cdefilmnqrstuvxy", Long: "pid= output= noheadings raw verbose core data fsize sigpending memlock rss nofile msgqueue rtprio stack cpu nproc as nice rttime locks help version", Abbrev: true, Stop: true}, Examples: []string{"--nofile=1024 make => --nofile=1024 | make", "-n1024 make => -n=1024 | make", "-p 123 -n => -p=123 -n |", "--nofi=100 make => --nofile=100 | make"}},
	{Name: "systemd-inhibit", Kind: KindExec, Opts: OptSpec{Long: "what= who= why= mode=", Partial: true, Abbrev: true, Stop: true}, Examples: []string{"--what=sleep --why=build make => --what=sleep --why=build | make", "--mode block make => --mode=block | make"}},
	{Name: "faketime", Kind: KindExec, Pos: 1, Opts: OptSpec{Long: "exclude-monotonic disable-shm date-prog= help version", Stop: true},
		Examples: []string{"'2020-01-01' date => | 2020-01-01 date", "-f '+2d' date => -f | +2d date", "-m -f @2020-01-01 make => -m -f | @2020-01-01 make"}},
	{Name: "numactl", Kind: KindExec, Opts: OptSpec{Short: "CNmipPb", Long: "physcpubind= cpunodebind= membind= interleave= preferred= preferred-many=", Partial: true, Stop: true}, Examples: []string{"--cpunodebind=0 --membind 0 make => --cpunodebind=0 --membind=0 | make", "-N 0 -m 0 make => -N=0 -m=0 | make"}},
	{Name: "rlwrap", Kind: KindExec, Opts: OptSpec{Short: "CfHlOPqsSt", ShortOpt: "ap", Stop: true}, Examples: []string{"-a -H h.txt sqlite3 => -a -H=h.txt | sqlite3", "-aPassword: -pRed ftp => -a=Password: -p=Red | ftp", "-c lua => -c | lua"}},
	{Name: "tsp", Kind: KindExec, Opts: OptSpec{Short: "LDWNEK", Stop: true}, Examples: []string{"-L build make => -L=build | make", "-N 2 make => -N=2 | make"}},
	{Name: "flatpak-spawn", Kind: KindExec, Opts: OptSpec{Long: "env= forward-fd= directory= unset-env=", Partial: true, Stop: true}, Examples: []string{"--host ls -l => --host | ls -l", "--env=A=1 --directory /tmp ls => --env=A=1 --directory=/tmp | ls"}},
	{Name: "proot", Kind: KindExec, Opts: OptSpec{Short: "rbwvq", Stop: true}, Examples: []string{"-r /srv/r -b /dev ls => -r=/srv/r -b=/dev | ls", "-0 -w / sh => -0 -w=/ | sh"}},
	{Name: "dotenv", Kind: KindExec, Opts: OptSpec{Short: "ecvfq", Stop: true}, Examples: []string{"-e .env.local -- make => -e=.env.local | make", "-c development -- make => -c=development | make", "-f .env.prod -q never list => -f=.env.prod -q=never | list"}},
	{Name: "sshpass", Kind: KindExec, Opts: OptSpec{Short: "pfdP", Stop: true}, Examples: []string{"-p pw ssh h ls => -p=pw | ssh h ls", "-e ssh h => -e | ssh h"}},
	{Name: "npx", Names: "bunx pnpx", Kind: KindRun, Opts: OptSpec{Short: "pc", Long: "package= call= yes no quiet", Abbrev: true, Stop: true},
		Examples: []string{"-c 'rm -rf x' => -c=rm -rf x |", "-p a b c => -p=a | b c"}},
	{Name: "env", Kind: KindRun, Chdir: "C chdir", Opts: OptSpec{Short: "uCS", ShortOpt: "", Long: "ignore-environment null unset= chdir= split-string= block-signal default-signal ignore-signal list-signal-handling argv0= debug help version", Abbrev: true, Stop: true},
		Examples: []string{"-iS 'rm -rf x' => -i -S=rm -rf x |", "-u X A=1 rm x => -u=X | A=1 rm x", "--split-s='a b' => --split-string=a b |"}},

	// ---------------------------------------------------------------- runners of commands and shell strings
	{Name: "xargs", Kind: KindRun, Opts: OptSpec{Short: "adEILnPs", ShortOpt: "ie", Long: "arg-file= delimiter= eof= replace max-lines max-args= max-procs= max-chars= process-slot-var= null no-run-if-empty interactive open-tty verbose exit show-limits help version", Abbrev: true, Stop: true},
		Examples: []string{"-0 rm => -0 | rm", "-I{} rm {} => -I={} | rm {}", "--max-p 4 rm => --max-procs=4 | rm", "-n1 -P4 bash -c x => -n=1 -P=4 | bash -c x"}},
	{Name: "parallel", Names: "sem", Kind: KindRun, Opts: OptSpec{Short: "jPSadEInNLlsC", Long: "jobs= sshlogin= arg-file= delimiter= eof= joblog= results= tmpdir= timeout= retries= load= memfree= delay= workdir= wd= colsep= max-args= max-replace-args= max-lines= tagstring= basefile= env= transfer-file= return=", Partial: true, Stop: true}, Examples: []string{"-j 4 gzip ::: a b => -j=4 | gzip ::: a b", "--jobs 2 -a list.txt echo => --jobs=2 -a=list.txt | echo"}},
	{Name: "watch", Kind: KindRun, Opts: OptSpec{Short: "nq", Long: "interval= differences= beep chgexit errexit exec no-title precise color no-color no-wrap help version", Abbrev: true, Stop: true},
		Runs: RunSpec{Operands: OperandsLine}, RunExamples: []string{"-n 2 rm -rf x -> rm -rf x", "-n1 'rm a; rm b' -> rm a; rm b"},
		Examples: []string{"-n 2 rm -rf x => -n=2 | rm -rf x"}},
	{Name: "script", Kind: KindRun, Opts: OptSpec{Short: "cTIOBEm", Long: "command= timing= log-in= log-out= log-io= log-timing= echo= logging-format= output-limit= append flush force quiet return help version", Abbrev: true},
		Runs: RunSpec{Shell: "c command"}, RunExamples: []string{"-qc 'rm x' /dev/null -> rm x", "--comm 'rm y' -> rm y"},
		Examples: []string{"-qc 'rm x' /dev/null => -q -c=rm x | /dev/null", "--comm=x f => --command=x | f"}},
	{Name: "flock", Kind: KindRun, Opts: OptSpec{Short: "wEc", Long: "timeout= wait= conflict-exit-code= command= shared exclusive unlock nonblock nb close no-fork verbose help version", Abbrev: true, Stop: true},
		Runs:        RunSpec{Shell: "c command", Operands: OperandsArgv, Skip: 1},
		RunExamples: []string{"-x /tmp/l rm f -> rm f", "/tmp/l -c 'rm x' -> rm x", "-n /tmp/l -w 5 rm g -> rm g", "--command='rm z' /tmp/l -> rm z"},
		Examples:    []string{"-x /tmp/l rm f => -x | /tmp/l rm f", "/tmp/l -c 'rm x' => | /tmp/l -c rm x", "--nonb /tmp/l rm f => --nonblock | /tmp/l rm f"}},
	// at [-V] [-q QUEUE] [-f FILE] [-mMlv] TIME: -M (never mail) is a flag
	{Name: "at", Names: "batch", Kind: KindRun, Opts: OptSpec{Short: "fqt", Stop: true}, Examples: []string{"-M -f job now => -M -f=job | now", "-q b -l => -q=b -l |"}},
	{Name: "su", Kind: KindRun, Opts: OptSpec{Short: "cCgGsw", Long: "command= session-command= group= supp-group= login preserve-environment pty shell= whitelist-environment= fast help version", Abbrev: true},
		Runs: RunSpec{Shell: "c command session-command"}, RunExamples: []string{"-c 'rm x' root -> rm x", "root -lc 'rm y' -> rm y", "--session-comm='rm z' -> rm z"},
		Examples: []string{"-c 'rm x' root => -c=rm x | root", "- postgres => | - postgres", "--comm=x => --command=x |"}},
	{Name: "runuser", Kind: KindRun, Opts: OptSpec{Short: "cgGsuw", Long: "command= session-command= group= supp-group= login preserve-environment pty shell= user= whitelist-environment= help version", Abbrev: true},
		Runs: RunSpec{Shell: "c command session-command", Operands: OperandsLine}, RunExamples: []string{"-u x -- rm y -> rm y", "root -c 'rm z' -> rm z; root"},
		Examples: []string{"-u x -- rm y => -u=x | rm y"}},
	// sg [-] GROUP [-c] CMD (shadow-utils sg(1), run here): CMD, one word,
	// runs with /bin/sh -c; "-" (a login environment) comes only first and
	// no option follows it but -c after GROUP (Dash, Skip: the row is read
	// again after GROUP); words after CMD are ignored (judged: cautious)
	{Name: "sg", Names: "newgrp", Kind: KindRun, Opts: OptSpec{Short: "c", Stop: true, Dash: true},
		Runs:        RunSpec{Shell: "c", Operands: OperandsShell, Skip: 1},
		RunExamples: []string{"root -c 'rm -rf b' -> rm -rf b", "root 'rm -rf b' -> rm -rf b", "- root -c 'rm -rf b' -> rm -rf b", "- root 'ls' -> ls", "docker -> "},
		Examples:    []string{"- root -c x => | root -c x", "root -c x => | root -c x", "staff make => | staff make", "- staff => | staff"}},
	{Name: "ssh", Names: "slogin autossh", Kind: KindRun, Runs: RunSpec{Remote: true}, Opts: OptSpec{Short: "BbcDEeFIiJLlmOopQRSWwM", Stop: true, Reopt: true},
		Examples: []string{"-p 22 h ls => -p=22 | h ls", "-J a,b h => -J=a,b | h", "box -l deploy rm -rf /srv => -l=deploy | box rm -rf /srv", "h -- ls -l => | h ls -l"}, RunExamples: []string{"h rm -rf x -> rm -rf x"}},
	// ssh-copy-id [-i [FILE]] [-p PORT] [-o OPT] … [USER@]HOST logs in to
	// HOST over ssh and appends to its authorized_keys
	{Name: "ssh-copy-id", Kind: KindTool, Opts: OptSpec{Short: "iopFtJ"}, Examples: []string{"-i k.pub -p 2 u@h => -i=k.pub -p=2 | u@h"}},
	{Name: "scp", Kind: KindWrite, Opts: OptSpec{Short: "cFiJloPSXD"},
		Writes: WriteSpec{Last: 2, Remote: RemoteHost}, WriteExamples: []string{"a h:b -> ", "u@h:a SKILL.md -> SKILL.md", "h:a ./x:y -> ./x:y", "a scp://h/b -> "}, Examples: []string{"-P 22 a h:b => -P=22 | a h:b"}},
	// sftp's batch lines starting with ! run a local shell command
	{Name: "sftp", Kind: KindWrite, Opts: OptSpec{Short: "BbcDFiJlloPRSsX"}, Runs: RunSpec{Stdin: true, Prefix: "!"},
		RunExamples: []string{"-b - h <<< '!rm -rf b' -> rm -rf b", "-b - h <<< 'get x' -> "}, Examples: []string{"-b batch.txt h => -b=batch.txt | h", "-P 2222 -i k u@h => -P=2222 -i=k | u@h", "-oPort=22 h => -o=Port=22 | h"}},
	{Name: "sshfs", Kind: KindTool, Opts: OptSpec{Short: "op"}, Examples: []string{"h:/srv /mnt -o ro => -o=ro | h:/srv /mnt", "-p 2222 h: /mnt => -p=2222 | h: /mnt"}},
	{Name: "mosh", Kind: KindRun, Opts: OptSpec{Short: "p", Long: "ssh= port= server= client= predict= family= bind-server= experimental-remote-ip= predict-overwrite no-init local help version", Abbrev: true, Stop: true},
		Runs: RunSpec{Operands: OperandsArgv, Skip: 1, Remote: true}, RunExamples: []string{"box -- rm -rf /srv -> rm -rf /srv", "--ssh='ssh -p 2' box rm x -> rm x"},
		Examples: []string{"--ssh 'ssh -p 2' box -- ls => --ssh=ssh -p 2 | box -- ls"}},
	// rsync(1): --log-file, --write-batch and --only-write-batch write
	// FILE; -T/--temp-dir, --backup-dir and --partial-dir name directories
	// it writes into, a relative one below the destination (judged below
	// the cwd too, pathguard's rsync); --compare-dest and --copy-dest are
	// only read. Not checked (rsync is not installed here)
	{Name: "rsync", Kind: KindWrite, Opts: OptSpec{Short: "efBTM@", Long: rsyncLong, Abbrev: true},
		Writes:        WriteSpec{Opts: "log-file write-batch only-write-batch", Dirs: "T temp-dir backup-dir partial-dir"},
		WriteExamples: []string{"-a --log-file=l src/ b/ -> l", "--only-write=x src/ b/ -> x", "-a -b --backup-dir=/t/old src/ b/ -> /t/old", "--backup --temp-dir=t src/ b/ -> t", "-Tspec/t --partial-dir p src/ b/ -> spec/t p", "--compare-dest=/s --copy-dest=c src/ b/ -> "},
		Runs:          RunSpec{Shell: "e rsh rsync-path"}, RunExamples: []string{"-a --rsync-path='rm -rf ~ && rsync' s/ h:d/ -> rm -rf ~; rsync", "-e 'ssh -p 2' a h:b -> ssh -p 2"},
		Examples: []string{"-av -e 'ssh -p 2' a h:b => -a -v -e=ssh -p 2 | a h:b", "--rsh=ssh a b => --rsh=ssh | a b", "--del a/ b => --del? | a/ b"}},
	{Name: "tmux", Names: "byobu byobu-tmux", Kind: KindRun, Opts: OptSpec{Short: "cfLSTC", Stop: true},
		Subs: []Program{
			// value-taking letters of new-session/new-window/split-window; the
			// others (-d -h -v -b -f -P -A -D -E -X -Z -k -a -I) are flags
			{Name: "new", Names: "new-session new-window neww split-window splitw respawn-pane respawnp respawn-window respawnw display-popup popup run-shell run pipe-pane pipep", Kind: KindRun, Opts: OptSpec{Short: "ceFflnpstxy", Stop: true},
				Examples: []string{"-d -c /tmp -n w 'rm x' => -d -c=/tmp -n=w | rm x"}},
			// if-shell [-bF] [-t PANE] SHELL-CMD TMUX-CMD [TMUX-CMD]: -F is a flag here
			{Name: "if-shell", Names: "if", Kind: KindRun, Opts: OptSpec{Short: "t", Stop: true}, Examples: []string{"-F -t 1 c 'kill-server' => -F -t=1 | c kill-server"}},
			{Name: "send-keys", Names: "send", Kind: KindRun, Opts: OptSpec{Short: "tN", Stop: true}, Examples: []string{"-t 0 rm Enter => -t=0 | rm Enter"}},
		},
		Examples: []string{"new -d 'rm x' => new: -d | rm x"}},
	{Name: "screen", Kind: KindRun, Opts: OptSpec{Short: "SctTephs", Long: "Logfile=", Partial: true, Stop: true}, Examples: []string{"-S work -dm make => -S=work -d -m | make", "-c rc -t t => -c=rc -t=t |"}},
	// ssh-agent [opts] [CMD ARGS…] runs CMD with the agent's environment
	{Name: "ssh-agent", Kind: KindExec, Lookup: "k", Opts: OptSpec{Short: "aEPt", Stop: true}, Examples: []string{"-t 60 rm -rf b => -t=60 | rm -rf b", "-k => -k |"}},
	// ip: `ip netns exec NAME CMD…` runs CMD in the namespace; the rest is data
	{Name: "ip", Kind: KindData, Opts: OptSpec{Short: "nbfl", Long: "netns= batch= family= loops= force", Partial: true, Stop: true},
		Subs:     []Program{{Name: "netns", Names: "net", Kind: KindData, Opts: OptSpec{Stop: true}, Subs: []Program{{Name: "exec", Names: "e", Kind: KindExec, Pos: 1, Opts: OptSpec{Stop: true}, Examples: []string{"blue ls -l => | blue ls -l"}}}, Examples: []string{"exec blue ls => exec: | blue ls"}}},
		Examples: []string{"netns exec blue rm x => netns exec: | blue rm x"}},
	{Name: "dbus-launch", Kind: KindExec, Opts: OptSpec{Long: "config-file= autolaunch= sh-syntax csh-syntax auto-syntax binary-syntax close-stderr exit-with-session exit-with-x11 help version", Stop: true}, Examples: []string{"--exit-with-session make => --exit-with-session | make", "--sh-syntax => --sh-syntax |"}},
	// gdb's `python CODE` runs Python, `pipe CMD | SHELL` (also `| CMD |
	// SHELL`) a shell command; lldb's `platform shell CMD` and `script CODE`
	// gdb 13 reads its options with getopt_long_only: one or two dashes,
	// unique prefixes (`gdb -q -batch -ex run -arg touch m` wrote m, run
	// here), options after the program; --args PROG ARGS… stops them and
	// debugs PROG with ARGS (the option list of gdb's main.c)
	{Name: "gdb", Names: "cgdb gdb-multiarch", Kind: KindRun,
		Opts: OptSpec{Long: "ex= eval-command= iex= init-eval-command= x= command= ix= init-command= p= pid= c= core= e= exec= s= se= symbols= d= directory= D= data-directory= " +
			"cd= tty= b= baud= l= i= interpreter= ui= annotate= batch batch-silent q quiet silent n nx nh readnow r readnever tui dbx epoch help version w write nw nowindows windows " +
			"statistics return-child-result configuration fullname f args=", GoFlags: true, Abbrev: true, EndAfter: "args"},
		Runs: RunSpec{Shell: "ex eval-command iex init-eval-command", Prefix: "shell !", Langs: "python=python3 -c, python-interactive=python3 -c, pi=python3 -c, py=python3 -c", Pipe: "pipe |", Argv: "args"},
		RunExamples: []string{"-batch -ex 'shell rm -rf b' -> rm -rf b", "-q -ex run -ex bt ./app -> ", "-batch -ex 'pipe info version | rm -rf b' -> rm -rf b",
			`-batch -ex 'python import os; os.system("rm x")' -> python3 -c import os; os.system("rm x"); rm x`, "-q --args rm -rf b -> rm -rf b", "-arg rm -rf b -> rm -rf b"},
		Examples: []string{"-q -batch -ex 'shell ls' ./app => --q --batch --ex=shell ls | ./app", "-q --args rm -rf b => --q --args=rm | -rf b", "-arg rm x => --args=rm | x",
			"./app -ex run => --ex=run | ./app", "-qui -bat -ex bt core => --quiet --bat? --ex=bt | core"}},
	{Name: "lldb", Kind: KindRun, Opts: OptSpec{Short: "oOkKsSpnaLcfe", Long: "one-line= one-line-before-file= one-line-on-crash= source= source-before-file= source-on-crash= attach-pid= attach-name= arch= core= file= batch no-lldbinit", Partial: true},
		// lldb -- PROG ARGS… debugs PROG (the operands after "--")
		Runs:        RunSpec{Shell: "o one-line O one-line-before-file k one-line-on-crash", Prefix: "platform_shell", Langs: "script=python3 -c", Operands: OperandsArgv, DashDash: true},
		RunExamples: []string{"-b -o 'platform shell rm -rf b' -> rm -rf b", `--batch -o 'script import os; os.system("rm y")' -> python3 -c import os; os.system("rm y"); rm y`, "-o run ./app -> ", "-b -- rm -rf b -> rm -rf b"},
		Examples:    []string{"-b -o run ./app => -b -o=run | ./app"}},
	// Tcl shells: their code (expect -c, jimsh -e, or a script on stdin)
	// is Tcl, read command by command by codelex (tcl.go)
	{Name: "tclsh", Names: "wish jimsh expect tclsh8.6 tclsh9.0 wish8.6 wish9.0", Kind: KindInterp, Opts: OptSpec{Short: "cfeD", Words: "encoding=encoding", Long: "encoding=", Partial: true, Stop: true},
		Examples: []string{"-c 'spawn x' a => -c=spawn x | a", "-encoding utf-8 s.tcl a => --encoding=utf-8 | s.tcl a"}},
	{Name: "socat", Kind: KindRun, Opts: OptSpec{Short: "T", Partial: true},
		Runs: RunSpec{Operands: OperandsShell, Prefix: "SYSTEM: EXEC:"}, RunExamples: []string{"- SYSTEM:'rm -rf b' -> rm -rf b", "-u EXEC:'git status' STDOUT -> git status", "TCP-LISTEN:8080 STDOUT -> "},
		Examples: []string{"-u EXEC:x STDOUT => -u | EXEC:x STDOUT"}},
	// meson setup [--reconfigure] BUILDDIR [SOURCEDIR] generates BUILDDIR
	// (also the old `meson BUILDDIR`); compile/install/test -C BUILDDIR
	// build below it (meson(1); not installed here)
	{Name: "meson", Kind: KindTool, Opts: OptSpec{Short: "C", Partial: true}, Subs: []Program{
		{Name: "setup", Names: "configure", Kind: KindTool, Opts: OptSpec{Short: "CD", Long: "prefix= libdir= bindir= buildtype= backend= native-file= cross-file= wrap-mode=", Partial: true}, Writes: WriteSpec{Operand: 1}, WriteExamples: []string{"spec/b -> spec/b", "--reconfigure b . -> b"}, Examples: []string{"--reconfigure b => --reconfigure | b"}},
		{Name: "compile", Names: "install test dist", Kind: KindTool, Opts: OptSpec{Short: "Cj", Partial: true}, Writes: WriteSpec{Dirs: "C"}, WriteExamples: []string{"-C spec/b -> spec/b", "-Cb -> b", "-j4 -> "}, Examples: []string{"-C b => -C=b |"}}},
		Examples: []string{"setup b => setup: | b", "compile -C b => compile: -C=b |"}},
	// bazel's startup options before the command: --output_base and
	// --output_user_root are directories it writes below (bazel docs,
	// "Command-line reference"; not installed here)
	{Name: "bazel", Names: "bazelisk", Kind: KindTool, Opts: OptSpec{Long: "output_base= output_user_root= install_base= bazelrc=", Partial: true},
		Writes: WriteSpec{Dirs: "output_base output_user_root install_base"}, WriteExamples: []string{"--output_base=spec/o build //... -> spec/o", "--output_user_root=o test //x -> o", "build //spec/... -> "},
		Examples: []string{"--output_base=o build //... => --output_base=o | build //..."}},
	{Name: "cmake", Kind: KindTool, Opts: OptSpec{Short: "SBCDUGTAEj", Partial: true},
		Runs: RunSpec{Argv: "E", Verbs: "remove_directory=rm -r -f, remove=rm -f", Stdin: true, Calls: "REMOVE_RECURSE=rm -r -f, REMOVE=rm -f, COMMAND="},
		RunExamples: []string{"-E rm -rf b -> rm -rf b", "-E remove_directory b c -> rm -r -f b c", "-S . -B build -> ",
			"-P /dev/stdin <<< 'file(REMOVE_RECURSE b c)' -> rm -r -f b c", "-P /dev/stdin <<< 'execute_process(COMMAND git push -f)' -> git push -f"},
		// -B DIR is the build tree cmake generates (cmake(1)); -S is only read
		// without -B the build tree is the directory cmake runs in (`cmake
		// ../src`, `cmake -S ../src`: CMakeCache.txt, CMakeFiles/; cmake(1)
		// "Generate a Project Buildsystem"; cmake is not installed here);
		// --build, --install, -E, -P, --help, --version, -N write none there
		Writes:        WriteSpec{Dirs: "B", Cwd: "B build install open E P N help version list-presets:;#1 S preset:CMakeCache.txt CMakeFiles/"},
		WriteExamples: []string{"-S . -B build -> build", "-Bout -S src -> out", "-S . -> CMakeCache.txt CMakeFiles", "../src -> CMakeCache.txt CMakeFiles", "--build b -> ", "-E echo hi -> ", "-P x.cmake -> ", " -> "},
		Examples:      []string{"-S . -B b => -S=. -B=b |", "-E rm -rf b => -E=rm -r -f | b"}},
	{Name: "coreutils", Kind: KindRun, Opts: OptSpec{Long: "coreutils-prog= coreutils-prog-shebang= help version", Stop: true},
		Runs: RunSpec{Argv: "coreutils-prog"}, RunExamples: []string{"--coreutils-prog=rm -rf b -> rm -rf b"}, Examples: []string{"--coreutils-prog=rm x => --coreutils-prog=rm | x"}},
	{Name: "nix-shell", Kind: KindRun, Opts: OptSpec{Long: "run= command=", Partial: true}, Runs: RunSpec{Shell: "run command"}, RunExamples: []string{"-p jq --run 'rm x' -> rm x"}, Examples: []string{"-p jq --run 'jq .' => -p --run=jq . | jq", "--command make shell.nix => --command=make | shell.nix"}},
	{Name: "vagrant", Kind: KindRun, Opts: OptSpec{Short: "c", Long: "command=", Partial: true}, Runs: RunSpec{Shell: "c command"}, RunExamples: []string{"ssh -c 'rm x' -> rm x"}, Examples: []string{"ssh -c 'uptime' => -c=uptime | ssh", "ssh web --command 'ls' => --command=ls | ssh web"}},
	// file watchers and process runners whose options or operands are
	// shell command strings (each runs them through sh -c)
	{Name: "nodemon", Kind: KindRun, Opts: OptSpec{Short: "xwediVq", Long: "exec= watch= ext= ignore= delay= signal= config= verbose quiet legacy-watch polling-interval= no-colors no-update-notifier on-change-only spawn cwd= help version", Abbrev: true, Stop: true},
		Runs: RunSpec{Shell: "x exec"}, RunExamples: []string{"--exec 'rm -rf d && tsc' -> rm -rf d; tsc", "-w src -x 'rm y' -> rm y", "--exe='rm z' -e ts -> rm z"},
		Examples: []string{"-w src --exec 'make' => -w=src --exec=make |", "-x make app.js => -x=make | app.js"}},
	{Name: "concurrently", Kind: KindRun,
		Opts:        OptSpec{Short: "npclts", Long: "names= name-separator= prefix= prefix-colors= prefix-length= timestamp-format= kill-others kill-others-on-fail kill-signal= success= raw no-color hide= group handle-input default-input-target= restart-tries= restart-after= max-processes= passthrough-arguments teardown= pad-prefix timings help version", Abbrev: true},
		Runs:        RunSpec{Shell: "teardown", Operands: OperandsShell},
		RunExamples: []string{"'rm -rf d' 'tsc -w' -> rm -rf d; tsc -w", "-k -n a,b 'rm x' -> rm x", "--teardown 'rm t' 'make' -> rm t; make"},
		Examples:    []string{"-n a,b 'x' 'y' => -n=a,b | x y", "--kill-others 'x' => --kill-others | x"}},
	{Name: "watchexec", Kind: KindRun, Opts: OptSpec{Short: "ewfdpsW", Long: "exts= watch= filter= filter-file= ignore= ignore-file= shell= delay= debounce= signal= stop-signal= stop-timeout= on-busy-update= project-origin= env= workdir= emit-events-to= restart clear postpone no-vcs-ignore no-default-ignore notify help version", Partial: true, Abbrev: true, Stop: true},
		Runs: RunSpec{Operands: OperandsLine}, RunExamples: []string{"-e go -- rm -rf x -> rm -rf x", "-r 'rm y; make' -> rm y; make"},
		Examples: []string{"-e go -- make test => -e=go | make test", "-w src make => -w=src | make"}},
	{Name: "tsc-watch", Kind: KindRun, Opts: OptSpec{Long: "onSuccess= onFailure= onFirstSuccess= onCompilationStarted= onCompilationComplete= onEmit= onEmitDebounceMs= compiler= maxNodeMem= noClear silent signalEmittedFiles", Partial: true},
		Runs: RunSpec{Shell: "onSuccess onFailure onFirstSuccess onCompilationStarted onCompilationComplete onEmit"}, RunExamples: []string{"--onSuccess 'rm -rf dist' -p . -> rm -rf dist"},
		Examples: []string{"--onSuccess 'node x' -p . => --onSuccess=node x -p | ."}},
	{Name: "chokidar", Kind: KindRun, Opts: OptSpec{Short: "cdpt", Long: "command= debounce= throttle= ignore= polling initial silent verbose follow-symlinks", Partial: true},
		Runs: RunSpec{Shell: "c command"}, RunExamples: []string{"'src/**' -c 'rm -rf b' -> rm -rf b"},
		Examples: []string{"'**/*.js' -c 'make' => -c=make | **/*.js"}},
	{Name: "onchange", Names: "reflex", Kind: KindRun, Opts: OptSpec{Short: "kijdaregGRc", Long: "kill initial jobs= delay= await-write-finish= add exclude= regex= glob= inverse-regex= inverse-glob= config= start-service decoration= sequential", Partial: true},
		Runs: RunSpec{Operands: OperandsArgv, DashDash: true}, RunExamples: []string{"'src/**' -- rm -rf b -> rm -rf b", "-r '\\.go$' -- go test -> go test"},
		Examples: []string{"'src/**' -- make => | src/** make"}},
	{Name: "start-server-and-test", Names: "server-test start-test", Kind: KindRun, Opts: OptSpec{Long: "expect=", Partial: true},
		Runs: RunSpec{Operands: OperandsShell}, RunExamples: []string{"'rm -rf b' 3000 'jest' -> rm -rf b; 3000; jest"}, Examples: []string{"'npm start' http://localhost:3000 test => | npm start http://localhost:3000 test", "--expect 200 start 3000 test => --expect=200 | start 3000 test"}},
	// pee CMD…: each operand is a shell command fed the input (moreutils)
	{Name: "pee", Kind: KindRun, Opts: OptSpec{Long: "ignore-sigpipe no-ignore-sigpipe ignore-write-errors no-ignore-write-errors", Partial: true},
		Runs: RunSpec{Operands: OperandsShell}, RunExamples: []string{"'rm -rf b' cat -> rm -rf b; cat"}, Examples: []string{"'wc -l' sort => | wc -l sort", "--ignore-sigpipe cat cat => --ignore-sigpipe | cat cat"}},
	{Name: "watchman-make", Kind: KindRun, Opts: OptSpec{Short: "prt", Long: "pattern= make= target= run= root= settle= connect-timeout=", Partial: true, Abbrev: true},
		Runs: RunSpec{Shell: "r run make"}, RunExamples: []string{"-p '**/*.go' --run 'rm -rf b' -> rm -rf b", "-p '*.c' -t all -> "}, Examples: []string{"-p '**/*.go' -t test => -p=**/*.go -t=test |", "--run 'make x' -p '*.c' => --run=make x -p=*.c |"}},
	// pueue add [opts] [--] CMD…: the words joined are one shell command
	{Name: "pueue", Kind: KindTool, Opts: OptSpec{Short: "c", Long: "config= profile= color=", Partial: true, Stop: true},
		Subs: []Program{{Name: "add", Kind: KindRun, Opts: OptSpec{Short: "wdgpa", Long: "working-directory= delay= group= priority= after= label= escape stashed immediate follow print-task-id", Partial: true, Stop: true},
			Runs: RunSpec{Operands: OperandsLine}, Examples: []string{"-w /tmp -d 1h make => -w=/tmp -d=1h | make", "--after 3 -- npm test => --after=3 | npm test"}, RunExamples: []string{"'rm -rf b' -> rm -rf b", "-- npm test -> npm test"}}},
		RunExamples: []string{"add 'rm -rf b' -> rm -rf b", "add -- npm test -> npm test"}, Examples: []string{"add -- make => add: | make"}},
	{Name: "entr", Kind: KindRun, Opts: OptSpec{Stop: true}, Examples: []string{"-r rm -rf x => -r | rm -rf x", "-s 'make test' => -s | make test"}},
	{Name: "lerna", Kind: KindTool, Opts: OptSpec{Stop: true},
		Subs: []Program{{Name: "exec", Kind: KindExec, Opts: OptSpec{Long: "scope= ignore= concurrency= since= stream parallel no-bail no-prefix", Partial: true, Stop: true}, Examples: []string{"--scope a -- ls => --scope=a | ls"}}, {Name: "publish", Kind: KindTool, Examples: []string{"from-git => | from-git"}}}, Examples: []string{"exec -- rm -rf dist => exec: | rm -rf dist"}},
	{Name: "gcloud", Kind: KindRun, Opts: OptSpec{Long: "command=", Partial: true}, Runs: RunSpec{Shell: "command"}, RunExamples: []string{"compute ssh vm --command='rm x' -> rm x"}, Examples: []string{"compute ssh vm --command='uptime' => --command=uptime | compute ssh vm", "compute ssh vm --command uptime => --command=uptime | compute ssh vm"}},
	{Name: "hyperfine", Kind: KindRun, Opts: OptSpec{Short: "wrmMpcsnLPuS", Long: "warmup= runs= min-runs= max-runs= prepare= conclude= cleanup= setup= command-name= parameter-scan= parameter-step-size= parameter-list= shell= style= sort= time-unit= export-asciidoc= export-csv= export-json= export-markdown= export-orgmode= output= input= reference=", Partial: true},
		Runs: RunSpec{Shell: "p c s prepare cleanup setup conclude reference", Operands: OperandsShell}, RunExamples: []string{"-p 'rm a' 'rm b' 'rm c' -> rm a; rm b; rm c", "-N 'rm -rf b' -> rm -rf b"}, Examples: []string{"-w 3 -r 10 'sleep 0.1' => -w=3 -r=10 | sleep 0.1", "-N --prepare 'make clean' make => -N --prepare=make clean | make", "--export-json r.json ls => --export-json=r.json | ls"}},
	{Name: "busybox", Names: "toybox", Kind: KindExec, Opts: OptSpec{Long: "list list-full install help", Stop: true}, Examples: []string{"rm -rf x => | rm -rf x", "sh -c x => | sh -c x"}},
	{Name: "wsl", Kind: KindRun, Opts: OptSpec{Short: "du", Long: "distribution= user= cd= exec", Partial: true, Stop: true},
		Runs: RunSpec{Operands: OperandsLine}, RunExamples: []string{"-e rm -rf x -> rm -rf x", "-d u -- rm y -> rm y", "rm 'a b' -> rm a b"}, Examples: []string{"-d Ubuntu -- ls -l => -d=Ubuntu | ls -l", "-e make => -e | make", "--cd /tmp ls => --cd=/tmp | ls"}},
	{Name: "crontab", Kind: KindRun, Opts: OptSpec{Short: "un", Stop: true}, Examples: []string{"-l => -l |", "-u root -e => -u=root -e |", "jobs.txt => | jobs.txt"}},
	{Name: "make", Names: "gmake", Kind: KindTool, Opts: OptSpec{Short: "fCIjloWE", Long: "file= makefile= directory= include-dir= jobs= load-average= old-file= what-if= eval= just-print dry-run recon", Partial: true, Abbrev: true},
		// -C DIR runs the makefile of DIR with DIR as the working directory:
		// its recipes write there (make(1)), whatever the makefile says
		Writes: WriteSpec{Dirs: "C directory"}, WriteExamples: []string{"-C templates -> templates", "--directory=out all -> out", "all -> "},
		Examples: []string{"-f - all => -f=- | all", "-C d => -C=d |", "--eval 'x:' x => --eval=x: | x", "-E 'a: ; b' a => -E=a: ; b | a"}},
	// script languages that run shell commands (scriptlangs.go): ninja rules, justfile recipes, Taskfile cmds,
	// dc's !, m4's syscmd/esyscmd, TeX's \write18 under -shell-escape
	{Name: "ninja", Kind: KindTool, Opts: OptSpec{Short: "Cfjkldtw", Long: "version verbose quiet"},
		Examples: []string{"-C b -f x.ninja all => -C=b -f=x.ninja | all"}},
	{Name: "just", Kind: KindTool, Opts: OptSpec{Short: "fd", Long: "justfile= working-directory= show= color= shell= shell-arg= dotenv-filename= dotenv-path= chooser= completions= list summary dump evaluate variables dry-run", Partial: true},
		Examples: []string{"--justfile - -d . wipe => --justfile=- -d=. | wipe"}},
	{Name: "task", Names: "go-task", Kind: KindTool, Opts: OptSpec{Short: "tdoC", Long: "taskfile= dir= output= concurrency= interval= sort= list list-all summary dry init help version", Partial: true},
		Examples: []string{"-t /dev/stdin nuke => -t=/dev/stdin | nuke"}},
	{Name: "dc", Kind: KindTool, Opts: OptSpec{Short: "ef", Long: "expression= file= version help"},
		Examples: []string{"-e '2 p' f => -e=2 p | f"}},
	{Name: "m4", Names: "gm4", Kind: KindTool, Opts: OptSpec{Short: "DUIoltFRHLBST", ShortOpt: "d", Long: "define= undefine= include= error-output= arglength= trace= debugfile= freeze-state= reload-state= hashsize= nesting-limit= word-regexp= synclines prefix-builtins traditional quiet silent fatal-warnings gnu interactive", Partial: true},
		Examples: []string{"-DX=1 -P f.m4 => -D=X=1 -P | f.m4"}},
	{Name: "pdflatex", Names: "tex etex pdftex latex xetex xelatex luatex lualatex", Kind: KindTool, Opts: OptSpec{Long: "output-directory= jobname= interaction= fmt= output-format= aux-directory= progname= translate-file= synctex= cnf-line= output-comment= kpathsea-debug= shell-escape no-shell-escape enable-write18 disable-write18 shell-restricted halt-on-error file-line-error draftmode recorder ini", Partial: true, GoFlags: true},
		Examples: []string{"-shell-escape -jobname x doc => --shell-escape --jobname=x | doc"}},

	// ---------------------------------------------------------------- subcommand runners (uv run CMD, npm exec CMD …)
	{Name: "uv", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true},
		Subs: []Program{
			{Name: "run", Kind: KindExec, Opts: OptSpec{Short: "pw", Long: "with= python= project= directory= env-file= extra= group= package= index= index-url= from=", Partial: true, Stop: true}, Examples: []string{"--with rich python x.py => --with=rich | python x.py", "-p 3.12 pytest -x => -p=3.12 | pytest -x", "--directory d make => --directory=d | make"}},
			{Name: "pip", Kind: KindWrite, Opts: pipSpec, Examples: []string{"install -r req.txt => -r=req.txt | install", "install --target d x => --target=d | install x"}},
			{Name: "publish", Kind: KindTool, Examples: []string{"dist/x.whl => | dist/x.whl"}},
		}, Examples: []string{"run pytest => run: | pytest", "--quiet pip list => pip: | list"}},
	{Name: "uvx", Kind: KindExec, Opts: OptSpec{Long: "from= with= python=", Partial: true, Stop: true}, Examples: []string{"--from httpie http GET x => --from=httpie | http GET x", "ruff check . => | ruff check .", "--python 3.12 black . => --python=3.12 | black ."}},
	{Name: "poetry", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "run", Kind: KindExec, Opts: OptSpec{Short: "CP", Long: "directory= project=", Partial: true, Stop: true}, Examples: []string{"pytest -x => | pytest -x", "-P d pytest => -P=d | pytest"}}, {Name: "publish", Kind: KindTool, Examples: []string{"--build => --build? |"}}}, Examples: []string{"run pytest => run: | pytest", "-C d run pytest => run: | pytest"}},
	{Name: "pipenv", Names: "hatch rye devbox", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "run", Kind: KindExec, Opts: OptSpec{Stop: true}, Examples: []string{"python x.py => | python x.py"}}}, Examples: []string{"run python x.py => run: | python x.py"}},
	{Name: "pipx", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "run", Kind: KindExec, Opts: OptSpec{Long: "spec= python= index-url= pip-args=", Partial: true, Stop: true}, Examples: []string{"--spec black==23 black . => --spec=black==23 | black .", "pycowsay hi => | pycowsay hi"}}}, Examples: []string{"run black . => run: | black ."}},
	{Name: "pdm", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "run", Kind: KindExec, Opts: OptSpec{Short: "pg", Stop: true}, Examples: []string{"-p d pytest => -p=d | pytest", "pytest -x => | pytest -x"}}}, Examples: []string{"run pytest => run: | pytest"}},
	{Name: "pixi", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "run", Names: "exec", Kind: KindExec, Opts: OptSpec{Short: "e", Long: "environment= manifest-path=", Partial: true, Stop: true}, Examples: []string{"-e dev pytest => -e=dev | pytest", "--manifest-path p.toml test => --manifest-path=p.toml | test"}}}, Examples: []string{"run test => run: | test"}},
	{Name: "conda", Names: "mamba micromamba", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "run", Kind: KindExec, Opts: OptSpec{Short: "np", Long: "name= prefix= cwd=", Partial: true, Stop: true}, Examples: []string{"-n env python x.py => -n=env | python x.py", "--prefix /opt/e make => --prefix=/opt/e | make"}}}, Examples: []string{"run -n env python x.py => run: -n=env | python x.py"}},
	{Name: "npm", Kind: KindTool, Opts: OptSpec{Short: "Cw", Long: "workspace= prefix= userconfig= registry= loglevel= workspaces include-workspace-root", Partial: true, Stop: true},
		Subs: []Program{
			{Name: "exec", Names: "x", Kind: KindRun, Opts: OptSpec{Short: "pwc", Long: "package= workspace= call=", Partial: true, Stop: true}, Examples: []string{"--package=cowsay -- cowsay hi => --package=cowsay | cowsay hi", "-w a -c 'ls' => -w=a -c=ls |"}},
			// npm explore PKG -- CMD… runs CMD in the package's directory
			// (without "--" an interactive shell)
			{Name: "explore", Kind: KindExec, Opts: OptSpec{Short: "w", Long: "workspace= shell=", Partial: true}, Pos: 1, DashDash: true, Examples: []string{"pkg -- ls => | pkg ls"}},
			{Name: "publish", Names: "unpublish", Kind: KindTool, Examples: []string{"--dry-run => --dry-run? |"}},
			// the subcommands that write PREFIX/node_modules and PREFIX/package*.json
			// --cache DIR (npm_config_cache, npm reads its environment
			// case-insensitively: npm-config(7)) is written below
			// npm init [-y] writes package.json into the directory it runs in, or
			// into --prefix's (checked with npm 11 under /tmp: ./package.json,
			// pre/package.json for an existing pre)
			{Name: "init", Names: "create innit", Kind: KindTool,
				Opts:   OptSpec{Short: "Cw", Long: "workspace= prefix= userconfig= registry= loglevel= cache= scope= init-author-name= init-license= init-version= workspaces include-workspace-root yes force", Partial: true},
				Writes: WriteSpec{Dirs: "cache", EnvDirs: "npm_config_cache NPM_CONFIG_CACHE", Cwd: ":package.json", CwdIn: "C prefix"}, WriteExamples: []string{"-y -> package.json", "-y --prefix d -> d/package.json", "vite@latest x -> package.json"},
				Examples: []string{"-y --prefix d => -y --prefix=d |", "--scope=@me -y => --scope=@me -y |"}},
			{Name: "install", Names: "i ci add update up upgrade uninstall un rm remove link ln dedupe prune", Kind: KindTool,
				Opts: OptSpec{Short: "Cw", Long: "workspace= prefix= userconfig= registry= loglevel= cache= workspaces include-workspace-root", Partial: true},
				// -C/--prefix DIR (before the subcommand or after it): DIR/node_modules, DIR/package*.json;
				// npm_config_prefix is the global prefix of -g (checked with npm 11:
				// `npm_config_prefix=P npm prefix -g` is P, `npm prefix` the cwd)
				Writes: WriteSpec{Dirs: "cache C prefix", Levels: true, EnvDirs: "npm_config_cache NPM_CONFIG_CACHE npm_config_prefix@g,global NPM_CONFIG_PREFIX@g,global"}, WriteExamples: []string{"--cache spec/.npm x -> spec/.npm", "npm_config_cache=spec/.npm -> spec/.npm", "NPM_CONFIG_CACHE=c ci -> c", "lodash -> ",
					"npm_config_prefix=spec -g x -> spec", "npm_config_prefix=spec x -> ", "NPM_CONFIG_PREFIX=d --global x -> d", "--prefix spec x -> spec", "-C d -> d"},
				Examples: []string{"--prefix d x => --prefix=d | x", "-D typescript => -D | typescript", "-w a lodash => -w=a | lodash"}},
			// npm pack [PKG…] writes NAME-VERSION.tgz into the directory it runs
			// in or --pack-destination's; --dry-run writes none (checked with
			// npm 11 under /tmp: `npm pack ../p` wrote ./p-1.0.0.tgz)
			{Name: "pack", Kind: KindTool, Opts: OptSpec{Short: "Cw", Long: "pack-destination= workspace= prefix= userconfig= registry= loglevel= workspaces include-workspace-root dry-run json", Partial: true},
				Writes: WriteSpec{Cwd: "dry-run:;:*", CwdIn: "pack-destination"}, WriteExamples: []string{"../p -> \x01unknown", "--pack-destination d -> d/\x01unknown", "--dry-run -> "},
				Examples: []string{"--pack-destination d => --pack-destination=d |"}},
		},
		Examples: []string{"exec -c 'rm x' => exec: -c=rm x |", "x -- rm -rf y => x: | rm -rf y", "--workspace a publish => publish: |",
			"install --prefix d x => install: --prefix=d | x", "i -C d => i: -C=d |", "pack --pack-destination=d => pack: --pack-destination=d |"}},
	{Name: "pnpm", Kind: KindTool, Opts: OptSpec{Short: "CF", Long: "filter= filter-prod= dir= test-pattern= changed-files-ignore-pattern= workspace-root recursive", Partial: true, Stop: true},
		Subs: []Program{
			{Name: "exec", Kind: KindRun, Opts: OptSpec{Short: "F", Long: "filter= dir= resume-from= report-summary shell-mode recursive parallel", Partial: true, Stop: true}, Examples: []string{"-r -- rm -rf dist => -r | rm -rf dist", "--filter a tsc => --filter=a | tsc"}},
			{Name: "dlx", Kind: KindRun, Opts: OptSpec{Short: "p", Long: "package= shell-mode silent", Partial: true, Stop: true}, Examples: []string{"create-vite my-app => | create-vite my-app", "--package=typescript tsc -v => --package=typescript | tsc -v"}},
			{Name: "publish", Kind: KindTool, Examples: []string{"--no-git-checks => --no-git-checks? |"}},
			// npm init [-y] writes package.json into the directory it runs in, or
			// into --prefix's (checked with npm 11 under /tmp: ./package.json,
			// pre/package.json for an existing pre)
			{Name: "init", Names: "create innit", Kind: KindTool,
				Opts:   OptSpec{Short: "Cw", Long: "workspace= prefix= userconfig= registry= loglevel= cache= scope= init-author-name= init-license= init-version= workspaces include-workspace-root yes force", Partial: true},
				Writes: WriteSpec{Dirs: "cache", EnvDirs: "npm_config_cache NPM_CONFIG_CACHE", Cwd: ":package.json", CwdIn: "C prefix"}, WriteExamples: []string{"-y -> package.json", "-y --prefix d -> d/package.json", "vite@latest x -> package.json"},
				Examples: []string{"-y --prefix d => -y --prefix=d |", "--scope=@me -y => --scope=@me -y |"}},
			{Name: "install", Names: "i ci add update up upgrade uninstall un rm remove link ln dedupe prune init", Kind: KindTool,
				Opts: OptSpec{Short: "CF", Long: "dir= filter= filter-prod= workspace-root recursive", Partial: true}, Writes: WriteSpec{Dirs: "C dir", Levels: true}, WriteExamples: []string{"--dir spec -> spec", "-C d x -> d", "x -> "}, Examples: []string{"--dir d => --dir=d |", "-C d lodash => -C=d | lodash"}},
			{Name: "pack", Kind: KindTool, Opts: OptSpec{Short: "C", Long: "pack-destination= dir=", Partial: true}, Writes: WriteSpec{Dirs: "pack-destination", Levels: true}, WriteExamples: []string{"--pack-destination spec -> spec"}, Examples: []string{"--pack-destination d => --pack-destination=d |"}}},
		Examples: []string{"add --dir d x => add: --dir=d | x", "exec -c rm -rf x => exec: -c | rm -rf x", "dlx -p a b c => dlx: -p=a | b c", "--filter ./pkgs/** publish => publish: |", "-r -F a publish => publish: |"}},
	{Name: "yarn", Kind: KindTool, Opts: OptSpec{Short: "C", Long: "cwd=", Stop: true}, Examples: []string{"--cwd d add x => add: | x"},
		Subs: []Program{
			{Name: "exec", Kind: KindRun, Opts: OptSpec{Stop: true}, Examples: []string{"tsc -p . => | tsc -p ."}},
			{Name: "dlx", Kind: KindExec, Opts: OptSpec{Short: "p", Long: "package= quiet", Partial: true, Stop: true}, Examples: []string{"-p typescript tsc => -p=typescript | tsc", "create-react-app x => | create-react-app x"}},
			{Name: "publish", Names: "npm", Kind: KindTool, Examples: []string{"dist => | dist"}},
			{Name: "add", Names: "install i ci remove rm un uninstall init upgrade up update link ln dedupe prune", Kind: KindTool, Opts: OptSpec{Long: "cwd=", Partial: true, Abbrev: true},
				// --cwd DIR (before the subcommand or after it): DIR/node_modules, DIR/package.json
				Writes: WriteSpec{Dirs: "C cwd", Levels: true}, WriteExamples: []string{"--cwd spec x -> spec", "x -> "}, Examples: []string{"--cwd d lodash => --cwd=d | lodash"}},
			{Name: "run", Names: "info why upgrade-interactive audit cache config global unlink pack version versions workspaces workspace bin create test start build plugin set constraints outdated list licenses login logout owner tag team import generate-lock-entry policies autoclean check help node", Kind: KindTool, Opts: OptSpec{Long: "cwd=", Partial: true, Abbrev: true}, Examples: []string{"--cwd d lodash => --cwd=d | lodash", "-D typescript => -D | typescript"}}}},
	{Name: "bundle", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "exec", Kind: KindExec, Opts: OptSpec{Stop: true}, Examples: []string{"rake test => | rake test", "rspec -f d => | rspec -f d"}}}, Examples: []string{"exec rake => exec: | rake"}},
	{Name: "toolbox", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "run", Kind: KindExec, Opts: OptSpec{Short: "cdr", Long: "container= distro= release=", Partial: true, Stop: true}, Examples: []string{"--container dev make => --container=dev | make", "-d fedora -r 39 ls => -d=fedora -r=39 | ls"}}}, Examples: []string{"run -c dev make => run: -c=dev | make"}},
	{Name: "op", Names: "doppler", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "run", Kind: KindExec, DashDash: true, Examples: []string{"-- make => | make"}}}, Examples: []string{"run -- make => run: | make"}},
	{Name: "aws-vault", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true},
		Subs: []Program{{Name: "exec", Kind: KindExec, Pos: 1, Opts: OptSpec{Short: "dtj", Long: "duration= mfa-token= region= backend= prompt=", Partial: true, Stop: true}, Examples: []string{"prof aws s3 ls => | prof aws s3 ls", "-d 1h prof make => -d=1h | prof make"}}}, Examples: []string{"exec prof aws s3 ls => exec: | prof aws s3 ls"}},
	{Name: "direnv", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "exec", Kind: KindExec, Pos: 1, Opts: OptSpec{Stop: true}, Examples: []string{"/srv make => | /srv make"}}}, Examples: []string{"exec . make => exec: | . make"}},
	{Name: "lxc", Names: "incus multipass", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "exec", Kind: KindExec, DashDash: true, Examples: []string{"c1 -- ls -l => | c1 ls -l"}}}, Examples: []string{"exec c1 -- ls => exec: | c1 ls"}},
	{Name: "limactl", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "shell", Kind: KindExec, Pos: 1, Opts: OptSpec{Long: "workdir= shell=", Partial: true, Stop: true}, Examples: []string{"--workdir /tmp default ls => --workdir=/tmp | default ls"}}}, Examples: []string{"shell default ls => shell: | default ls"}},
	{Name: "perf", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true},
		Subs: []Program{{Name: "stat", Names: "record trace", Kind: KindExec, Opts: OptSpec{Short: "eoCpGtIrcFj", Long: "event= output= cpu= pid= cgroup= tid= repeat= count= freq=", Partial: true, Stop: true}, Examples: []string{"-e cycles -r 3 make => -e=cycles -r=3 | make", "-o perf.data ./app => -o=perf.data | ./app"}}}, Examples: []string{"stat -e cycles make => stat: -e=cycles | make"}},
	{Name: "nix", Kind: KindTool, Opts: OptSpec{Short: "C", Stop: true}, Subs: []Program{{Name: "develop", Names: "shell", Kind: KindRun, Opts: OptSpec{Short: "c", Long: "command=", Partial: true},
		Runs: RunSpec{Argv: "c command"}, RunExamples: []string{"-c rm -rf x -> rm -rf x", "--command rm y -> rm y"}, Examples: []string{"-c make test => -c=make | test", "--command rm y => --command=rm | y"}}}, Examples: []string{"develop -c make => develop: -c=make |"}},
	{Name: "cargo", Kind: KindTool, Opts: OptSpec{Short: "CZ", Long: "config= color= explain= list locked offline frozen quiet verbose version help", Partial: true, Stop: true, Plus: true},
		Subs: []Program{{Name: "watch", Kind: KindRun, Opts: OptSpec{Short: "xs", Long: "exec= shell=", Partial: true}, Runs: RunSpec{Shell: "s shell"}, RunExamples: []string{"-s 'rm x' -> rm x"}, Examples: []string{"-x test => -x=test |", "-s 'make' => -s=make |"}},
			// cargo fmt rewrites the crate unless it or rustfmt (the words
			// after "--", Through) only checks
			{Name: "fmt", Kind: KindWrite, Opts: OptSpec{Short: "pvq", Long: "check all package= manifest-path= message-format= verbose quiet help version"},
				Writes: WriteSpec{Tree: true, Here: true, Unless: "check", Through: "rustfmt"}, WriteExamples: []string{" -> .", "--check -> ", "-p a -- --check -> ", "-- --edition 2021 -> ."},
				Examples: []string{"--check => --check |", "-p a -- --check => -p=a | --check"}},
			{Name: "publish", Kind: KindTool, Examples: []string{"--dry-run => --dry-run? |"}},
			// cargo new PATH creates the package directory PATH, cargo init
			// [PATH] makes a package in PATH or the directory it runs in:
			// Cargo.toml, src/, and (outside a repository, unless --vcs none)
			// .gitignore and .git/ (checked with cargo 1.95 under /tmp)
			{Name: "new", Kind: KindWrite, Opts: OptSpec{Long: "vcs= edition= name= registry= bin lib quiet verbose", Partial: true},
				Writes: WriteSpec{Operand: 1}, WriteExamples: []string{"spec/cli -> spec/cli", "--lib --name x d -> d"}, Examples: []string{"--vcs none d => --vcs=none | d"}},
			{Name: "init", Kind: KindWrite, Opts: OptSpec{Long: "vcs= edition= name= registry= bin lib quiet verbose", Partial: true},
				Writes: WriteSpec{Cwd: ":Cargo.toml .gitignore src/ .git/", CwdIn: "#1"}, WriteExamples: []string{"--lib -> Cargo.toml .gitignore src .git", "templates/x -> templates/x/Cargo.toml templates/x/.gitignore templates/x/src templates/x/.git"},
				Examples: []string{"--vcs none d => --vcs=none | d"}},
			// cargo vendor [DIR]: the crates are written into DIR
			{Name: "vendor", Kind: KindWrite, Opts: OptSpec{Short: "s", Long: "sync= manifest-path= versioned-dirs no-delete respect-source-config quiet verbose", Partial: true},
				Writes: WriteSpec{Operand: 1}, WriteExamples: []string{"templates/vendor -> templates/vendor", "-s b/Cargo.toml /tmp/v -> /tmp/v"}, Examples: []string{"-s b/Cargo.toml vendor => -s=b/Cargo.toml | vendor"}},
			{Name: "install", Names: "build b check c test t run r doc d bench clippy", Kind: KindWrite, Opts: OptSpec{Short: "jpF", Long: "root= target-dir= path= git= branch= tag= rev= version= index= registry= features= bin= example= jobs= package= profile= target= manifest-path= config=", Partial: true},
				// CARGO_TARGET_DIR and CARGO_BUILD_TARGET_DIR (build.target-dir)
				// are --target-dir's environment forms (The Cargo Book,
				// "Environment variables", "Configuration"; not checked)
				Writes: WriteSpec{Dirs: "root target-dir", EnvDirs: "CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR"}, Examples: []string{"--root d rg => --root=d | rg"}, WriteExamples: []string{"--root d rg -> d", "--target-dir t rg -> t", "CARGO_TARGET_DIR=sub-skills/t -> sub-skills/t", "CARGO_BUILD_TARGET_DIR=t --release -> t"}}},
		Examples: []string{"+nightly publish => publish: |", "-Z x publish -n => publish: -n |", "--config 'build.jobs=2' build => build: |"}},
	{Name: "go", Kind: KindTool, Subs: []Program{
		// go fmt PACKAGES runs gofmt -l -w on them (the package in the
		// working directory without one; ./... every one below it); -n prints only
		{Name: "fmt", Kind: KindWrite, Opts: OptSpec{Long: "mod= n x", GoFlags: true},
			Writes: WriteSpec{Tree: true, Here: true, Unless: "n"}, WriteExamples: []string{"./... -> .", " -> .", "-n ./... -> ", "./pkg/... -> ./pkg"}, Examples: []string{"./... => | ./...", "-n ./... => --n | ./..."}},
		// go run [build flags] PACKAGE [ARGS…]: Go-style flags (-exec
		// XPROG, -C DIR, -o FILE), the arguments after the package are the
		// program's
		{Name: "run", Kind: KindRun, Opts: OptSpec{Long: "C= o= p= exec= tags= ldflags= gcflags= asmflags= mod= modfile= overlay= pgo= toolexec= race cover v x n a work trimpath", Partial: true, GoFlags: true, Stop: true},
			// -exec XPROG runs the built binary as XPROG BINARY ARGS…, -toolexec
			// CMD every tool as CMD TOOL ARGS… (go help build)
			Runs: RunSpec{Shell: "exec toolexec"}, RunExamples: []string{"-exec 'rm -rf b' . -> rm -rf b", "-toolexec='rm -rf' . -> rm -rf", "-race . -> "},
			Examples: []string{"main.go -v => | main.go -v", "-exec echo main.go a => --exec=echo | main.go a", "-race -tags=dev . => --race --tags=dev | .", "-C d . -x => --C=d | . -x"}},
		// go help build, go help environment (go 1.26 here): -o FILE is
		// written; GOCACHE (build outputs), GOTMPDIR (the work directory,
		// created inside it) and GOMODCACHE (downloaded modules) are
		// directories the go command writes below, and GOBIN the one
		// `go install` installs into (checked: GOCACHE=D go build fills D,
		// GOBIN=D go build leaves D absent, go install writes D/x)
		// go test's profiles are written (-outputdir DIR: below DIR; go
		// help testflag; checked: -cpuprofile c.out -coverprofile=cov.out
		// -outputdir od puts both in od/); go test -c writes PKG.test into
		// the directory it runs in, go build (a main package, or .go files)
		// its BINARY there, both unless -o names the output (go help build,
		// go help testflag; checked with go 1.26 under /tmp: `cd t && go
		// test -c ../render` wrote t/render.test, `go build ../cmd/x`
		// t/x, `go build ./...` and `go test ../render` nothing there)
		{Name: "build", Kind: KindWrite, Opts: goBuildOpts,
			Writes:        WriteSpec{Opts: "o", EnvDirs: "GOCACHE GOTMPDIR GOMODCACHE", Cwd: "o:;:{base}"},
			WriteExamples: []string{"-o templates/x ./cmd/x -> templates/x", "GOCACHE=spec/c ./... -> \x01unknown spec/c", "-v ./cmd/x -> x", "main.go -> main", "-o b/ ./cmd/x -> b/"},
			Runs:          RunSpec{Shell: "exec toolexec"}, RunExamples: []string{"-exec 'rm -rf b' ./... -> rm -rf b", "-toolexec='rm -rf' ./... -> rm -rf", "-exec sudo ./... -> sudo", "-exec 'xvfb-run -a' ./... -> xvfb-run -a", "-race ./... -> "},
			Examples: []string{"-o bin/x ./cmd/x => --o=bin/x | ./cmd/x", "-o=x -v . => --o=x --v | ."}},
		{Name: "test", Names: "tool vet", Kind: KindWrite, Opts: goBuildOpts,
			Writes: WriteSpec{Opts: "o coverprofile cpuprofile memprofile blockprofile mutexprofile trace", Dirs: "outputdir", EnvDirs: "GOCACHE GOTMPDIR GOMODCACHE", Cwd: "o:;c:{base}.test"},
			WriteExamples: []string{"-o templates/x ./cmd/x -> templates/x", "GOCACHE=spec/c ./... -> spec/c", "GOBIN=spec/b ./... -> ", "-v . -> ",
				"-coverprofile=spec/c.out ./... -> spec/c.out", "-cpuprofile c.out -outputdir d . -> c.out d", "-race ./... -> ", "-c ../internal/render -> render.test", "-c -o b/r.test ./r -> b/r.test"},
			Runs: RunSpec{Shell: "exec toolexec"}, RunExamples: []string{"-exec 'rm -rf b' ./... -> rm -rf b", "-toolexec='rm -rf' ./... -> rm -rf", "-exec sudo ./... -> sudo", "-exec 'xvfb-run -a' ./... -> xvfb-run -a", "-race ./... -> "},
			Examples: []string{"-o bin/x ./cmd/x => --o=bin/x | ./cmd/x", "-o=x -v . => --o=x --v | ."}},
		{Name: "install", Kind: KindWrite, Opts: goBuildOpts,
			Writes: WriteSpec{EnvDirs: "GOBIN GOCACHE GOTMPDIR GOMODCACHE"}, WriteExamples: []string{"GOBIN=templates ./cmd/x -> templates", "./cmd/x -> "},
			Runs: RunSpec{Shell: "exec toolexec"}, RunExamples: []string{"-toolexec='rm -rf' ./... -> rm -rf", "./... -> "},
			Examples: []string{"-v ./cmd/x => --v | ./cmd/x"}},
		// go mod init, tidy and go get write go.mod (and go.sum) where they
		// run; go mod vendor -o DIR writes DIR (go help mod vendor)
		{Name: "mod", Kind: KindTool, Subs: []Program{
			{Name: "init", Kind: KindWrite, Writes: WriteSpec{Fixed: "go.mod"}, WriteExamples: []string{"example.com/t -> go.mod"}, Examples: []string{"example.com/t => | example.com/t"}},
			{Name: "tidy", Kind: KindWrite, Opts: OptSpec{Long: "e v x go= compat=", GoFlags: true}, Writes: WriteSpec{Fixed: "go.mod go.sum"}, WriteExamples: []string{"-v -> go.mod go.sum"}, Examples: []string{"-go=1.22 => --go=1.22 |"}},
			{Name: "vendor", Kind: KindWrite, Opts: OptSpec{Long: "e v o=", GoFlags: true}, Writes: WriteSpec{Dirs: "o"}, WriteExamples: []string{"-o sub-skills/vendor -> sub-skills/vendor", "-v -> "}, Examples: []string{"-o d => --o=d |"}}},
			Examples: []string{"vendor -o d => vendor: --o=d |"}},
		{Name: "get", Kind: KindWrite, Opts: OptSpec{Long: "d t u x v insecure tool", GoFlags: true}, Writes: WriteSpec{Fixed: "go.mod go.sum"}, WriteExamples: []string{"example.com/x@v1 -> go.mod go.sum"}, Examples: []string{"-u ./... => --u | ./..."}},
	}, Examples: []string{"run . => run: | .", "mod init x => mod init: | x"}},

	// Claude Code's CLI (`claude`, the npm package's `claude-code`): the
	// subcommands that write its execution channels (testdata/corpus/README.md
	// §9.4 claude_config): MCP servers go to ~/.claude.json (scopes local
	// and user) or the project's .mcp.json, plugins and marketplaces below
	// ~/.claude/plugins/ and into the settings file of their scope
	{Name: "claude", Names: "claude-code", Kind: KindTool, Opts: claudeGlobal, Subs: []Program{
		{Name: "mcp", Kind: KindTool, Opts: OptSpec{Partial: true}, Subs: []Program{
			{Name: "add", Names: "add-json add-from-claude-desktop", Kind: KindWrite, Opts: claudeMCP,
				Writes:        WriteSpec{Scope: "s scope", Fixed: ":~/.claude.json;local:~/.claude.json;user:~/.claude.json;project:.mcp.json"},
				WriteExamples: []string{"-s project x -- npx srv -> .mcp.json", "x -- node s.js -> ~/.claude.json", "--scope=user x https://h/mcp -> ~/.claude.json", "--scope \"$S\" x y -> ~/.claude.json .mcp.json"}, Examples: []string{"-s project -e K=V x -- npx srv => -s=project -e=K=V | x npx srv", "--transport http x https://h/mcp => --transport=http | x https://h/mcp"}},
			// remove without --scope removes the server from whichever scope holds it
			{Name: "remove", Kind: KindWrite, Opts: claudeMCP,
				Writes:        WriteSpec{Scope: "s scope", Fixed: "local:~/.claude.json;user:~/.claude.json;project:.mcp.json"},
				WriteExamples: []string{"x -> ~/.claude.json .mcp.json", "-s project x -> .mcp.json"}, Examples: []string{"-s user x => -s=user | x"}},
			{Name: "reset-project-choices", Kind: KindWrite, Writes: WriteSpec{Fixed: "~/.claude.json"}, Examples: []string{" => |"}, WriteExamples: []string{" -> ~/.claude.json"}},
			{Name: "list", Names: "get serve", Kind: KindRead, Opts: OptSpec{Partial: true}, Examples: []string{" => |"}}}, Examples: []string{"add x -- npx srv => add: | x npx srv"}},
		{Name: "plugin", Names: "plugins", Kind: KindTool, Opts: OptSpec{Partial: true}, Subs: []Program{
			{Name: "install", Names: "i uninstall remove enable disable update", Kind: KindWrite, Opts: claudeMCP,
				Writes:        WriteSpec{Scope: "s scope", Fixed: ":~/.claude/plugins/ ~/.claude/settings.json;user:~/.claude/plugins/ ~/.claude/settings.json;project:~/.claude/plugins/ .claude/settings.json;local:~/.claude/plugins/ .claude/settings.local.json"},
				WriteExamples: []string{"p@m -> ~/.claude/settings.json ~/.claude/plugins", "p@m --scope project -> .claude/settings.json ~/.claude/plugins"}, Examples: []string{"p@m --scope project => --scope=project | p@m", "-s user p@m => -s=user | p@m"}},
			{Name: "marketplace", Kind: KindTool, Opts: OptSpec{Partial: true}, Subs: []Program{
				{Name: "add", Names: "remove rm update", Kind: KindWrite, Opts: OptSpec{Partial: true}, Writes: WriteSpec{Fixed: "~/.claude/plugins/"},
					WriteExamples: []string{"owner/repo -> ~/.claude/plugins"}, Examples: []string{"owner/repo => | owner/repo"}},
				{Name: "list", Kind: KindRead, Examples: []string{" => |"}}}, Examples: []string{"add owner/repo => add: | owner/repo"}},
			{Name: "list", Names: "validate", Kind: KindRead, Opts: OptSpec{Partial: true}, Examples: []string{" => |"}}}, Examples: []string{"install p@m => install: | p@m"}},
		// the older `claude config set|add|remove [-g] KEY VALUE` writes its global config
		{Name: "config", Kind: KindTool, Opts: OptSpec{Partial: true}, Subs: []Program{
			{Name: "set", Names: "add remove", Kind: KindWrite, Opts: OptSpec{Partial: true}, Writes: WriteSpec{Fixed: "~/.claude.json"}, Examples: []string{"-g theme dark => -g | theme dark"}, WriteExamples: []string{"-g theme dark -> ~/.claude.json"}},
			{Name: "get", Names: "list", Kind: KindRead, Opts: OptSpec{Partial: true}, Examples: []string{"theme => | theme"}}}, Examples: []string{"set -g theme dark => set: -g | theme dark"}}},
		Examples: []string{"-p 'mcp add x' => mcp add x: |", "--model sonnet mcp list => mcp list: |"}},

	// ---------------------------------------------------------------- git, containers, clusters, clouds, registries
	{Name: "git", Names: "hub", Kind: KindTool, Opts: gitGlobal, Subs: gitSubs,
		Examples: []string{"-C d -c a=b push -f => push: -f |", "--git-dir=x reset --har => reset: --hard |", "push --forc origin => push: --forc? | origin",
			"push --force-w => push: --force-with-lease |", "branch --del --forc b => branch: --delete --force | b", "commit --amen -m x => commit: --amend -m=x |",
			"-P clean -fdx => clean: -f -d -x |", "checkout -- . => checkout: | .", "ls-files -x '*.o' src => ls-files: -x=*.o | src"}},
	{Name: "docker", Names: "podman nerdctl", Kind: KindRun, Runs: RunSpec{Remote: true}, Opts: dockerGlobal,
		Subs: []Program{
			{Name: "exec", Kind: KindRun, Opts: dockerExec, Examples: []string{"-it -u 0 c sh => -i -t -u=0 | c sh", "-e A=1 -w /app c env => -e=A=1 -w=/app | c env", "--user=root c id => --user=root | c id"}},
			{Name: "run", Names: "create", Kind: KindRun, Opts: dockerRun, Writes: dockerMounts,
				WriteExamples: []string{"-v ./spec:/s img -> ./spec", "-v ./spec:/s:ro img -> ", "-v data:/d img -> ", "--mount type=bind,src=/x,dst=/y img -> /x", "--mount type=bind,src=/x,dst=/y,readonly img -> "}, Examples: []string{"--rm -it -v ./d:/d img sh => --rm -i -t -v=./d:/d | img sh", "-d -p 8080:80 --name web nginx => -d -p=8080:80 --name=web | nginx", "img ls -l => | img ls -l"}},
			{Name: "container", Kind: KindRun, Opts: OptSpec{Stop: true}, Subs: []Program{
				{Name: "exec", Kind: KindRun, Opts: dockerExec, Examples: []string{"-it c sh => -i -t | c sh"}},
				{Name: "run", Names: "create", Kind: KindRun, Opts: dockerRun, Writes: dockerMounts, Examples: []string{"--rm -e A=1 img env => --rm -e=A=1 | img env"}, WriteExamples: []string{"-v ./spec:/s img -> ./spec", "-v ./spec:/s:ro img -> "}},
			}, Examples: []string{"exec -it c sh => exec: -i -t | c sh"}},
			{Name: "compose", Kind: KindRun, Opts: composeGlobal, Subs: composeSubs, Examples: []string{"-f a.yml -p p exec web sh => exec: | web sh"}},
			{Name: "image", Kind: KindTool, Opts: OptSpec{Stop: true}, Subs: []Program{{Name: "push", Kind: KindTool, Examples: []string{"r/x:1 => | r/x:1"}}}, Examples: []string{"push r/x:1 => push: | r/x:1"}},
			{Name: "buildx", Kind: KindTool, Opts: OptSpec{Stop: true}, Subs: []Program{{Name: "build", Names: "b", Kind: KindTool, Opts: dockerBuild, Writes: dockerExport, WriteExamples: []string{"-o type=local,dest=spec . -> spec", "--output=out . -> out", "-o - . -> ", "-o type=registry . -> "}, Examples: []string{"-t r/x:1 --push . => -t=r/x:1 --push | .", "-f Dockerfile.dev -o type=local,dest=out . => -f=Dockerfile.dev -o=type=local,dest=out | ."}}}, Examples: []string{"build -t x . => build: -t=x | ."}},
			{Name: "build", Names: "builder", Kind: KindTool, Opts: dockerBuild, Writes: dockerExport, WriteExamples: []string{"-o type=local,dest=spec . -> spec", "--output=out . -> out", "-o type=tar,dest=o.tar . -> o.tar", "-t x . -> "}, Examples: []string{"-t x:1 -f Dockerfile . => -t=x:1 -f=Dockerfile | .", "--build-arg A=1 --target dev . => --build-arg=A=1 --target=dev | ."}},
			{Name: "push", Kind: KindTool, Examples: []string{"r/x:1 => | r/x:1"}},
			{Name: "cp", Kind: KindWrite, Writes: WriteSpec{Last: 2, Remote: RemoteColon}, WriteExamples: []string{"c:/etc/hosts SKILL.md -> SKILL.md", "f c:/tmp -> "},
				Examples: []string{"c:/etc/hosts ./h => | c:/etc/hosts ./h", "-a f c:/tmp => -a | f c:/tmp"}},
		},
		Examples: []string{"-H h exec -it -u 0 c sh => exec: -i -t -u=0 | c sh", "run --rm -v /:/h img rm => run: --rm -v=/:/h | img rm",
			"compose -f x.yml exec web sh => compose exec: | web sh", "--context prod ps => ps: |"}, RunExamples: []string{"run img rm -rf x -> rm -rf x"}},
	{Name: "docker-compose", Names: "podman-compose", Kind: KindRun, Runs: RunSpec{Remote: true}, Opts: composeGlobal, Subs: composeSubs, Examples: []string{"-f x.yml exec web sh => exec: | web sh", "-p proj push => push: |"}, RunExamples: []string{"exec web rm -rf x -> rm -rf x"}},
	// kubecolor runs kubectl with its own arguments (colouring the output)
	{Name: "kubectl", Names: "oc kubecolor", Kind: KindRun, Runs: RunSpec{Remote: true},
		Opts: OptSpec{Short: "cnfs", Long: "container= namespace= context= kubeconfig= filename= pod-running-timeout= cluster= user= as= as-group= server= token=", Partial: true},
		Subs: []Program{{Name: "exec", Kind: KindRun, Opts: OptSpec{Short: "cnf", Long: "container= namespace= context= kubeconfig= filename= pod-running-timeout= cluster= user= as= as-group= server= token= stdin tty quiet", Partial: true, Stop: true}, Examples: []string{"-c app p -- env => -c=app | p -- env", "-n ns -it p -- sh => -n=ns -i -t | p -- sh"}},
			// cp SRC DEST: a local DEST is written (POD:PATH is the pod's)
			{Name: "cp", Kind: KindWrite, Opts: OptSpec{Short: "cn", Long: "container= namespace= context= kubeconfig= retries= no-preserve", Partial: true}, Writes: WriteSpec{Last: 2, Remote: RemoteColon}, Examples: []string{"-c app ns/p:/tmp/x ./x => -c=app | ns/p:/tmp/x ./x", "--retries 3 a p:/b => --retries=3 | a p:/b"}, WriteExamples: []string{"ns/p:/tmp/x ./x -> ./x", "a ns/p:/b -> "}}},
		Examples: []string{"--context prod get pods => get: | pods", "get pods --context=prod => get: --context=prod | pods", "-n x exec -it p -- ls => exec: -i -t | p -- ls"}, RunExamples: []string{"exec p -- rm -rf x -> rm -rf x"}},
	// database clients: psql's \! and mysql's system / \! run a shell
	// command from a -c/-e value or a line of a known stdin script
	{Name: "psql", Kind: KindTool, Opts: OptSpec{Short: "cdfhLopPTUvFRS", Long: "command= dbname= file= host= log-file= output= port= pset= set= variable= username= field-separator= record-separator= table-attr=", Partial: true, Abbrev: true},
		Runs:   RunSpec{Shell: "c command", Prefix: `\!`, Stdin: true, Pipe: `\o \out \g \gx \w \write`, PipeOpts: "o output", Inline: `\`, Backquotes: true, Calls: "program PROGRAM", Source: "f file"},
		Writes: WriteSpec{Opts: "o output L log-file"},
		RunExamples: []string{`-c '\! rm -rf b' -> rm -rf b`, "-h db -U app <<< 'select 1' -> ", `-c '\o |rm -rf b' -> rm -rf b`, `<<< 'select 1 \g |rm b' -> rm b`,
			`<<< "\o '|git push -f'" -> git push -f`, `<<< 'select 1; \! rm b' -> rm b`, `<<< "\copy t to program 'rm b'" -> rm b`, `-o '|rm b' -c 'select 1' -> rm b`,
			`-c '\o out.txt' -> `, `<<< 'select 1 \g out.txt' -> `, `-o out.txt -c 'select 1' -> `, `-c "select '\o |rm b'" -> `, `<<< "select 'a|b' \g" -> `,
			"-c '\\set x `rm b`' -> rm b"},
		Examples: []string{"-h prod-db -U app => -h=prod-db -U=app |", "postgres://u@h/db => | postgres://u@h/db"}, WriteExamples: []string{"-o out.txt -c 'select 1' -> out.txt", "-L q.log -> q.log", "-c 'select 1' -> "}},
	{Name: "pg_dump", Names: "pg_dumpall pg_restore", Kind: KindTool, Opts: OptSpec{Short: "dfhLopPTUvFRS", Long: "dbname= file= host= port= username= format= jobs= schema= table=", Partial: true, Abbrev: true},
		Examples: []string{"-h prod-db -U app => -h=prod-db -U=app |", "postgres://u@h/db => | postgres://u@h/db"}},
	{Name: "mysql", Names: "mariadb", Kind: KindTool, Opts: OptSpec{Short: "hPuDeS", ShortOpt: "p", Long: "host= port= user= database= execute= socket= password", Partial: true, Abbrev: true},
		Runs: RunSpec{Shell: "e execute", Prefix: `system \!`, Stdin: true}, RunExamples: []string{"-e 'system rm -rf b' -> rm -rf b", "-e 'select SYSTEM_USER()' -> ", `-u r <<< '\! git push -f' -> git push -f`}, Examples: []string{"-h db -u app -e 'select 1' => -h=db -u=app -e=select 1 |", "--host=db -D app => --host=db -D=app |", "-pSECRET app => -p=SECRET | app", "-p app => -p | app"}},
	{Name: "mysqldump", Kind: KindTool, Opts: OptSpec{Short: "hPuDSr", ShortOpt: "p", Long: "host= port= user= socket= password result-file=", Partial: true, Abbrev: true}, Writes: WriteSpec{Opts: "r result-file"},
		WriteExamples: []string{"-u root -r out.sql app -> out.sql", "--result-file=d.sql --all-databases -> d.sql", "-p app -> "}, Examples: []string{"-u root -r out.sql app => -u=root -r=out.sql | app", "--result-file=d.sql --all-databases => --result-file=d.sql --all-databases |", "-p app t1 => -p | app t1"}},
	// the Redis-protocol clients share redis-cli's options (-h HOST, -u URI)
	{Name: "redis-cli", Names: "valkey-cli keydb-cli", Kind: KindTool, Opts: OptSpec{Short: "hpanu", Partial: true}, Examples: []string{"-h h -p 6379 ping => -h=h -p=6379 | ping", "-n 2 --scan => -n=2 --scan |", "-u redis://h:6379 get k => -u=redis://h:6379 | get k"}},
	// PostgreSQL's client programs dropdb and createdb: -h/--host HOST
	// (their -f, -e, -i are flags, unlike pg_dump's -f FILE)
	{Name: "dropdb", Names: "createdb", Kind: KindTool, Opts: OptSpec{Short: "hpUDElOST", Long: "host= port= username= maintenance-db= tablespace= encoding= locale= owner= strategy= template= echo force if-exists interactive no-password password", Abbrev: true},
		Examples: []string{"-f -h prod-pg app => -f -h=prod-pg | app", "--host=h app => --host=h | app"}},
	{Name: "clickhouse-client", Kind: KindTool, Opts: OptSpec{Short: "hudqfC", Long: "host= port= user= database= query= format= config-file= queries-file=", Partial: true},
		Examples: []string{"--host h -q 'select 1' => --host=h -q=select 1 |"}},
	// cqlsh [OPTIONS] [HOST [PORT]]: the first operand is the host
	{Name: "cqlsh", Kind: KindTool, Opts: OptSpec{Short: "upkfe", Long: "username= password= keyspace= file= execute= cqlversion= protocol-version= connect-timeout= request-timeout= encoding= cqlshrc= browser=", Partial: true},
		Examples: []string{"-u app h 9042 => -u=app | h 9042"}},
	{Name: "mongosh", Names: "mongo", Kind: KindTool, Opts: OptSpec{Long: "host= port= username= password= eval= file=", Partial: true}, Examples: []string{"--eval 'db.x()' => --eval=db.x() |", "--host h --port 27017 db => --host=h --port=27017 | db"}},
	// fstrim discards the unused blocks of a mounted file system: its
	// operand is a mount point, no file of it is written
	{Name: "fstrim", Kind: KindRead, Opts: OptSpec{Short: "olmI", Long: "offset= length= minimum= listed-in= all fstab dry-run quiet-unsupported verbose help version", Abbrev: true},
		Examples: []string{"-v / => -v | /", "-o 0 -l 1G /home => -o=0 -l=1G | /home"}},
	{Name: "wipefs", Kind: KindTool, Opts: OptSpec{Short: "otO", Long: "all offset= types= backup force noheadings json no-act output= parsable quiet lock", Abbrev: true},
		Examples: []string{"-a /dev/sdb => -a | /dev/sdb", "--all -n d => --all -n | d"}},
	{Name: "sgdisk", Names: "blkdiscard parted fdisk gdisk cfdisk mkswap mke2fs mkdosfs mkntfs mkfs badblocks", Kind: KindTool, Opts: OptSpec{Long: "zap-all zap clear print", Partial: true, Abbrev: true}, Examples: []string{"--zap-all /dev/sdb => --zap-all | /dev/sdb", "-Z /dev/sdb => -Z | /dev/sdb"}},
	{Name: "sfdisk", Kind: KindTool, Opts: OptSpec{Short: "NXYoOu", Long: "delete force no-act list list-free dump json show-size verify label= label-nested= wipe= wipe-partitions= part-type= part-label= part-uuid= part-attrs= disk-id= backup-file= lock= color= sector-size=", Partial: true, Abbrev: true},
		Examples: []string{"--delete /dev/sda 2 => --delete | /dev/sda 2", "-N 2 /dev/sdb => -N=2 | /dev/sdb"}},
	{Name: "cryptsetup", Kind: KindTool, Opts: OptSpec{Short: "chsdSiltT", Long: "type= cipher= key-size= hash= key-file= keyfile-size= keyfile-offset= key-slot= iter-time= pbkdf= header= label= subsystem= sector-size= batch-mode verbose debug", Partial: true, Abbrev: true},
		Examples: []string{"-q luksFormat /dev/sdb => -q | luksFormat /dev/sdb", "--type luks2 luksFormat d => --type=luks2 | luksFormat d"}},
	{Name: "nvme", Kind: KindTool, Opts: OptSpec{Partial: true, Abbrev: true}, Examples: []string{"list => | list", "format /dev/nvme0n1 --ses=1 => --ses=1 | format /dev/nvme0n1"}},
	{Name: "hdparm", Kind: KindTool, Opts: OptSpec{Long: "security-erase= security-erase-enhanced= security-set-pass= security-unlock= security-disable= user-master= trim-sector-ranges= trim-sector-ranges-stdin please-destroy-my-drive", Partial: true, Abbrev: true},
		Examples: []string{"--security-erase pw /dev/sdb => --security-erase=pw | /dev/sdb"}},
	{Name: "setfacl", Kind: KindTool, Opts: OptSpec{Short: "mMxX", Long: "modify= modify-file= remove= remove-file= set= set-file= remove-all remove-default default recursive logical physical mask no-mask restore= test", Abbrev: true},
		Examples:      []string{"-Rm o::rwx d => -R -m=o::rwx | d", "--set=u::rw f => --set=u::rw | f"},
		Writes:        WriteSpec{All: true, Unless: "test", Meta: true},
		WriteExamples: []string{"-m u:x:rw SKILL.md -> SKILL.md", "-M acl.txt f -> f", "--test -m u:x:r f -> "}},
	{Name: "machinectl", Kind: KindTool, Opts: OptSpec{Short: "HMpE", Long: "host= machine= property= uid= setenv= quiet", Partial: true, Abbrev: true}, Examples: []string{"--setenv A=1 shell app => --setenv=A=1 | shell app", "-q shell app => -q | shell app", "-M c -p P=1 start x => -M=c -p=P=1 | start x"}},
	{Name: "granted", Names: "assume", Kind: KindTool, Examples: []string{"prod => | prod"}},
	// helm package -d/--destination DIR writes the chart archive below DIR
	// (helm_package(1); not installed here)
	{Name: "helm", Kind: KindTool, Opts: OptSpec{Short: "n", Long: "kube-context= kubeconfig= namespace=", Partial: true},
		Subs: []Program{{Name: "package", Kind: KindTool, Opts: OptSpec{Short: "nd", Long: "kube-context= kubeconfig= namespace= destination= version= app-version= key= keyring= passphrase-file=", Partial: true},
			Writes: WriteSpec{Dirs: "d destination"}, WriteExamples: []string{"c --destination=spec -> spec", "c -d out -> out", "c -> "}, Examples: []string{"c -d out => -d=out | c"}}},
		Examples: []string{"--kube-context c upgrade x ./chart => upgrade: | x ./chart", "-n ns install x ./c => install: | x ./c"}},
	// helmfile hands --kube-context to every helm it runs
	{Name: "helmfile", Kind: KindTool, Opts: OptSpec{Short: "efnlb", Long: "kube-context= environment= file= namespace= selector= state-values-set= state-values-file= helm-binary= log-level=", Partial: true},
		Examples: []string{"-e staging --kube-context=c sync => -e=staging --kube-context=c | sync"}},
	{Name: "aws", Kind: KindTool, Opts: awsGlobal, Subs: []Program{{Name: "s3", Kind: KindTool, Opts: awsGlobal, Subs: []Program{
		// aws s3 cp|sync SRC DST: DST (a local path unless s3://…) is written;
		// mv also removes a local SRC
		{Name: "cp", Names: "sync", Kind: KindWrite, Opts: awsS3Transfer, Writes: WriteSpec{Last: 2},
			WriteExamples: []string{"s3://b/k out/k -> out/k", "--recursive s3://b/p data/ --exclude '*.tmp' -> data/", "a.txt s3://b/a.txt -> ", "s3://b/k - -> "}, Examples: []string{"--recursive s3://b/p d/ => --recursive | s3://b/p d/", "a.txt s3://b/a.txt --acl private => --acl=private | a.txt s3://b/a.txt"}},
		{Name: "mv", Kind: KindWrite, Opts: awsS3Transfer, Writes: WriteSpec{All: true},
			WriteExamples: []string{"s3://b/k out/k -> out/k", "notes.md s3://b/n.md --sse AES256 -> notes.md"}, Examples: []string{"s3://b/k out/k --dryrun => --dryrun | s3://b/k out/k"}}}, Examples: []string{"cp a s3://b/a => cp: | a s3://b/a"}}}, Examples: []string{"s3 ls s3://b => s3 ls: | s3://b"}},
	{Name: "curl", Kind: KindWrite,
		Opts: OptSpec{Short: "AbcCdDeEFHKmoPQrtTuUwxXyYz", Long: "output= output-dir= dump-header= cookie-jar= trace= trace-ascii= stderr= libcurl= url= " +
			"data= data-raw= data-binary= data-urlencode= data-ascii= header= user-agent= request= upload-file= " +
			"config= cookie= user= proxy= referer= form= form-string= max-time= connect-timeout= range= " +
			"write-out= continue-at= cert= key= cacert= capath= resolve= connect-to= retry= retry-delay= " +
			"retry-max-time= max-filesize= limit-rate= proxy-user= oauth2-bearer= json= etag-save= etag-compare= " +
			"hsts= alt-svc= aws-sigv4= interface= local-port= dns-servers= preproxy= time-cond= quote= mail-from= mail-rcpt= " +
			"remote-name remote-name-all remote-header-name", Partial: true, Abbrev: true},
		// -K/--config FILE is a file of curl's own options (curl(1) -K:
		// "long option names without dashes", '=', ':' or blanks, quotes)
		Runs: RunSpec{Config: "K config"}, RunExamples: []string{"-K /dev/stdin https://e.com/x <<< 'output = \"README.md\"' -> curl --output=README.md https://e.com/x", "-K - u <<< '-O' -> curl -O u", "-K /tmp/c u -> "},
		Writes:   WriteSpec{Opts: "o output D dump-header c cookie-jar trace trace-ascii", Dirs: "output-dir"},
		Examples: []string{"-XDELETE u => -X=DELETE | u", "-sSL -o f u => -s -S -L -o=f | u", "--request PUT u => --request=PUT | u"}, WriteExamples: []string{"-o f u -> f", "--output-dir d -O u -> d", "-D h.txt u -> h.txt", "-c jar u -> jar", "-sS u -> "}},
	{Name: "wget", Kind: KindWrite,
		Opts: OptSpec{Short: "eoaiBtOTwQPUlARDIX", Long: "execute= output-file= append-output= input-file= base= tries= output-document= timeout= " +
			"wait= quota= directory-prefix= user-agent= level= accept= reject= domains= include-directories= " +
			"exclude-directories= header= post-data= post-file= method= body-data= body-file= user= password= " +
			"http-user= http-password= load-cookies= save-cookies= referer= limit-rate= config= ca-certificate= " +
			"certificate= private-key= bind-address= dns-timeout= connect-timeout= read-timeout= waitretry= use-askpass= recursive mirror page-requisites", Partial: true, Abbrev: true},
		// --use-askpass=COMMAND runs COMMAND to ask for credentials (wget(1))
		// -e/--execute COMMAND is a wgetrc command, --config FILE a file
		// of them (wget(1), "Wgetrc Commands": names without case, '_'
		// and '-'; dir_prefix is -P, logfile -o)
		Runs: RunSpec{Shell: "use-askpass", Config: "config", ConfigText: "e execute", ConfigNames: "dir_prefix=directory-prefix logfile=output-file"},
		RunExamples: []string{"--use-askpass='rm -rf b' u -> rm -rf b", "--use-askpass=/usr/bin/ssh-askpass u -> ssh-askpass", "-q -e dir_prefix=spec u -> wget --directory-prefix=spec -q u",
			"-e 'output_document = F' u -> wget --output-document=F u", "-e robots=off u -> wget --robots=off u"},
		Writes:   WriteSpec{Opts: "O output-document a o append-output output-file", Dirs: "P directory-prefix"},
		Examples: []string{"--meth=DELETE u => --method=DELETE | u", "-O f u => -O=f | u", "-qO f u => -q -O=f | u"}, WriteExamples: []string{"-O f u -> f", "-P d u -> d", "-o log u -> log"}},
	{Name: "http", Names: "https xh xhs", Kind: KindTool, Opts: OptSpec{Short: "aApo", Long: "auth= auth-type= session= session-read-only= output= print= verify= cert= cert-key= proxy= timeout= pretty= style= format-options= default-scheme= ssl= ciphers= download verbose check-status follow json form multipart offline", Partial: true, Abbrev: true},
		Examples: []string{"--auth u:p DELETE x => --auth=u:p | DELETE x"}},
	{Name: "gh", Kind: KindTool, Opts: OptSpec{Short: "R", Long: "repo=", Partial: true, Stop: true},
		Subs: []Program{
			{Name: "api", Kind: KindTool, Opts: OptSpec{Short: "XHfFq", Long: "method= header= field= raw-field= jq= input= hostname= preview= template= cache=", Partial: true}, Examples: []string{"-X DELETE repos/o/r => -X=DELETE | repos/o/r", "--method POST -f a=1 /x => --method=POST -f=a=1 | /x"}},
			{Name: "release", Kind: KindTool, Opts: OptSpec{Short: "R", Long: "repo=", Partial: true, Stop: true}, Examples: []string{"-R o/r create v1 => -R=o/r | create v1"}},
			{Name: "repo", Kind: KindTool, Opts: OptSpec{Short: "R", Long: "repo=", Partial: true, Stop: true}, Examples: []string{"clone o/r => | clone o/r"}},
		}, Examples: []string{"-R o/r pr list => pr: | list"}},
	{Name: "twine", Names: "gem helm-push", Kind: KindTool, Examples: []string{"upload dist/x.whl => | upload dist/x.whl"}},
	// pip reads PIP_<OPTION> from the environment for every long option
	// (pip user guide, "Environment Variables"): PIP_TARGET is --target
	// pip download and pip wheel save into the directory they run in unless
	// -d/--dest, -w/--wheel-dir name another (pip download --help, pip wheel
	// --help: "default is the current working directory"; not run here: no
	// network)
	{Name: "pip", Names: "pip2 pip3", Kind: KindWrite, Opts: pipSpec, Writes: WriteSpec{EnvDirs: "PIP_TARGET PIP_PREFIX PIP_ROOT", Dirs: "d dest w wheel-dir", Cwd: "d dest w wheel-dir:;@download @wheel:*"},
		WriteExamples: []string{"PIP_TARGET=schemas/lib install requests -> schemas/lib", "install requests -> ", "download requests -> \x01unknown", "download -d spec x -> spec", "wheel -w w . -> w"},
		Examples:      []string{"install --target d x => --target=d | install x", "install -t d x => -t=d | install x"}},
	{Name: "openssl", Kind: KindWrite, Opts: OptSpec{Long: "out= in= pass= passin= passout= key= keyout= signkey= config= subj= days= certfile= inkey= CAkey= CA= extfile= extensions= name= cipher= md= engine=", Partial: true, GoFlags: true},
		Writes: WriteSpec{Opts: "out keyout"}, Examples: []string{"enc -in a -out b => --in=a --out=b | enc"}, WriteExamples: []string{"enc -in a -out b -> b", "req -new -keyout k.pem -out c.csr -> k.pem c.csr"}},
	// GnuPG (gpg(1); gpg 2.2.40 here accepts unique prefixes, `--out F`
	// included): its operands are read; -o/--output FILE is written. The
	// list is partial, so prefixes shorter than 4 letters are not resolved
	// (Partial): "out" is listed as the spelling gpg resolves it to.
	{Name: "gpg", Names: "gpg2", Kind: KindWrite, Opts: OptSpec{Short: "oruRzTk", Long: "output= out= recipient= hidden-recipient= local-user= homedir= default-key= keyring= secret-keyring= trustdb-name= trust-model= passphrase= passphrase-file= passphrase-fd= status-fd= logger-fd= compress-level= cipher-algo= digest-algo= keyserver= set-filename= comment= armor batch yes detach-sign sign encrypt decrypt symmetric verify clearsign", Partial: true, Abbrev: true},
		Writes: WriteSpec{Opts: "o output out"}, WriteExamples: []string{"--out y -e f -> y", "--batch --output /tmp/s.sig --detach-sign README.md -> /tmp/s.sig", "-o out.gpg -r a@b -e f -> out.gpg", "--outp x --enarmor f -> x", "--verify f.sig f -> "},
		Examples: []string{"-o x -r a@b -e f => -o=x -r=a@b -e | f", "--recip a@b --outp=x f => --recipient=a@b --output=x | f", "-- -f => | -f"}},
	// media converters: the last operand is the output file
	// ImageMagick: single-dash options (-resize 50%, +repage), the last
	// operand is the output image, -write FILE writes another; mogrify
	// rewrites its images in place, or into -path DIR
	{Name: "convert", Names: "magick", Kind: KindWrite, Opts: imageMagickOpts, Writes: WriteSpec{Last: 2, Opts: "write"},
		WriteExamples: []string{"in.png -resize 50% SKILL.md -> SKILL.md", "SKILL.md out.png -> out.png", "a.png -write spec/b.png c.png -> spec/b.png c.png", "a.png -> "},
		Examples:      []string{"in.png -resize 50% out.png => --resize | in.png 50% out.png", "a.png -write b.png c.png => --write=b.png | a.png c.png"}},
	{Name: "mogrify", Kind: KindWrite, Opts: imageMagickOpts, Writes: WriteSpec{All: true, Dirs: "path"},
		WriteExamples: []string{"-strip SKILL.md -> SKILL.md", "-path out -format png a.jpg -> a.jpg out"},
		Examples:      []string{"-path out a.jpg => --path=out | a.jpg"}},
	{Name: "pdftotext", Kind: KindWrite, Opts: OptSpec{Long: "f= l= r= x= y= W= H= enc= eol= opw= upw= layout raw htmlmeta bbox nopgbrk q", Partial: true, GoFlags: true},
		Writes: WriteSpec{Last: 2}, Examples: []string{"-f 1 -l 2 a.pdf b.txt => --f=1 --l=2 | a.pdf b.txt"}, WriteExamples: []string{"a.pdf b.txt -> b.txt", "-f 1 a.pdf - -> "}},
	{Name: "ffmpeg", Kind: KindWrite, Opts: OptSpec{Long: "i= f= c= codec= vcodec= acodec= ss= t= to= r= s= b= vf= af= filter_complex= map= metadata= preset= crf= pix_fmt= loglevel= threads= frames= aspect= ar= ac= q= qscale= y n", Partial: true, GoFlags: true},
		Writes: WriteSpec{Last: 1}, Examples: []string{"-y -i a.mp4 -vf fps=1 b.gif => --y --i=a.mp4 --vf=fps=1 | b.gif"}, WriteExamples: []string{"-i a.mp4 b.gif -> b.gif"}},
	{Name: "sox", Kind: KindWrite, Opts: OptSpec{Short: "tcrbeCvVGDSq", Long: "type= channels= rate= bits= encoding= compression= volume= buffer= comment= combine=", Partial: true},
		Writes: WriteSpec{Last: 2}, Examples: []string{"a.wav -r 8000 b.wav => -r=8000 | a.wav b.wav"}, WriteExamples: []string{"a.wav b.wav -> b.wav"}},
	// javac (javac 17 --help; checked with javac 17.0.15 under /tmp): the
	// sources are read; a NAME.class for every class they declare goes
	// below -d DIR (package directories created), else beside each source,
	// and with the sources it compiles implicitly (those a source names,
	// found on -sourcepath, else the class path: -cp, CLASSPATH, ".")
	// beside them, unless -implicit:none (`javac -sourcepath src
	// src/p/A.java` wrote src/p/A.class and src/p/B.class); -h DIR native
	// headers, -s DIR generated sources, -Xstdout FILE its messages. One-
	// dash long options, -J/-A/-g:/-Xlint: attached.
	{Name: "javac", Kind: KindWrite, Opts: OptSpec{Long: "d= h= s= cp= classpath= class-path= sourcepath= source-path= bootclasspath= boot-class-path= extdirs= endorseddirs= " +
		"encoding= source= target= release= processor= processorpath= processor-path= processor-module-path= module-path= p= module-source-path= upgrade-module-path= system= " +
		"add-modules= limit-modules= module= m= module-version= add-exports= add-reads= patch-module= profile= default-module-for-created-files= Xstdout= Xmaxerrs= Xmaxwarns= Xplugin= implicit:none implicit:class",
		Partial: true, GoFlags: true},
		Writes: WriteSpec{Dirs: "d h s", Opts: "Xstdout", Beside: true, Finds: "sourcepath source-path; cp classpath class-path", FindsEnv: "CLASSPATH", Instead: "d", NoFind: "implicit:none"},
		WriteExamples: []string{"-d build/classes schemas/Gen.java -> build/classes", "schemas/Gen.java -> schemas .", "-sourcepath src:lib/x.jar src/p/A.java spec/B.java -> src/p spec src",
			"-cp build/lib src/A.java -> src build/lib", "-implicit:none -cp spec src/A.java -> src", "CLASSPATH=spec:/opt/*  A.java -> . spec", "-d c -h h -s s -Xstdout log.txt A.java -> log.txt c h s", "-version -> "},
		Examples: []string{"-d build/classes -cp a.jar:b schemas/Gen.java => --d=build/classes --cp=a.jar:b | schemas/Gen.java", "-g:none -Xlint:all -J-Xmx1g A.java => --g:none --Xlint:all --J-Xmx1g | A.java"}},
	// C compilers (gcc(1) "Options Controlling the Kind of Output"): without
	// -o the output is a.out in the directory the compiler runs in, BASE.o
	// with -c and BASE.s with -S for each source; -E, -fsyntax-only and -M
	// /-MM (which imply -E) write none there; -MF FILE is the dependency
	// file of -M/-MD, and -MD/-MMD without -MF write BASE.d beside the
	// output (in the cwd without -o, beside -o's file with it). Words: -M…,
	// -f…, -W…, -m… and -no… are single options, not letter clusters
	// (`-fno-omit-frame-pointer` has no -o). Checked with gcc 12 under /tmp:
	// a.out, x.o, x.s and x.d appeared in the cwd, -E, -fsyntax-only and -M
	// wrote nothing, -MF d/x.d wrote d/x.d.
	{Name: "gcc", Names: "g++ cc c++ clang clang++ tcc", Kind: KindWrite,
		Opts:   OptSpec{Short: "oIL", Long: "output= MF= MT= MQ= MD MMD MM f= W= m= no=", Words: "MF*=MF MT*=MT MQ*=MQ MD=MD MMD=MMD MM=MM MF=MF MT=MT MQ=MQ f*=f W*=W m*=m no*=no", Partial: true},
		Writes: WriteSpec{Opts: "o output MF", Cwd: "o output E M MM f=syntax-only:;c:{base}.o;S:{base}.s;:a.out | MF o output:;MD MMD:{base}.d"},
		WriteExamples: []string{"x.c -> a.out", "-c src/x.c src/y.c -> x.o y.o", "-S x.c -> x.s", "-o app x.c -> app", "-c -o b/x.o x.c -> b/x.o", "-E x.c -> ", "-fsyntax-only x.c -> ", "-M x.c -> ",
			"-c x.c -MD -MF t/x.d -> t/x.d x.o", "-c x.c -MMD -MFt/x.d -> t/x.d x.o", "-c -MD x.c -> x.o x.d", "-fno-omit-frame-pointer x.c -> a.out"},
		Examples: []string{"-c -o main.o main.c => -c -o=main.o | main.c", "-Iinclude -L lib -o app a.c => -I=include -L=lib -o=app | a.c", "-MD -MF d.d -fPIC x.c => --MD --MF=d.d --f=PIC | x.c"}},
	// rustc SRC writes the crate's binary (a library: libNAME.rlib …) into
	// the directory it runs in, or --out-dir's, unless -o names it (checked
	// with rustc 1.95 under /tmp: ./x, ./libl.rlib, o/x)
	{Name: "rustc", Kind: KindWrite, Opts: OptSpec{Short: "oLC", Long: "out-dir= crate-type= crate-name= edition= emit= target= cfg= cap-lints= explain= print=", Partial: true, Abbrev: true},
		Writes: WriteSpec{Opts: "o", Cwd: "o print explain:;:{base} *", CwdIn: "out-dir"}, WriteExamples: []string{"src/x.rs -> x \x01unknown", "--out-dir o src/x.rs -> o/x o/\x01unknown", "-o b/x src/x.rs -> b/x", "--print sysroot -> "},
		Examples: []string{"-o app main.rs => -o=app | main.rs", "--crate-type lib l.rs => --crate-type=lib | l.rs"}},
	{Name: "zig", Names: "ld as nasm pandoc protoc", Kind: KindWrite, Opts: OptSpec{Short: "oIL", Long: "output= out-dir= outdir=", Partial: true, Abbrev: true},
		// -o FILE, --out-dir DIR, protoc --LANG_out=[OPTS:]DIR
		Writes: WriteSpec{Opts: "o output", Dirs: "out-dir outdir", OutSuffix: "_out"}, WriteExamples: []string{"-o SKILL.md a.c -> SKILL.md", "--out-dir d a.rs -> d", "--go_out=paths=source_relative:gen a.proto -> gen", "--cpp_out=gen a.proto -> gen", "a.proto -> "}, Examples: []string{"-Iinclude -L lib -o app a.c => -I=include -L=lib -o=app | a.c"}},
	// tsc SRC… writes SRC.js (and .d.ts, .map) beside each source and the
	// sources it imports (Beside: their directories, and "."), unless
	// --outDir/--outFile name the output, --noEmit writes none, or -p/-b
	// hand the choice to a tsconfig (TypeScript handbook, "tsc CLI
	// Options"; not installed here)
	{Name: "tsc", Kind: KindWrite, Opts: OptSpec{Short: "ptm", Long: "outDir= outFile= outdir= outfile= project= build target= module= lib= rootDir= declarationDir= jsx= noEmit declaration watch", Partial: true},
		Writes:        WriteSpec{Dirs: "outDir outdir declarationDir", Opts: "outFile outfile", Beside: true, Instead: "outDir outdir outFile outfile noEmit p project b build"},
		WriteExamples: []string{"spec/x.ts -> spec .", "--outDir build spec/x.ts -> build", "--noEmit spec/x.ts -> ", "-p . -> "},
		Examples:      []string{"--outDir dist a.ts => --outDir=dist | a.ts", "-p tsconfig.json => -p=tsconfig.json |"}},
	{Name: "esbuild", Names: "swc babel rollup webpack", Kind: KindWrite, Opts: OptSpec{Short: "od", Long: "outfile= outdir= outDir= outFile= out-file= out-dir= file= dir=", Partial: true, Abbrev: true},
		Writes: WriteSpec{Opts: "o outfile outFile out-file file", Dirs: "d outdir outDir out-dir dir"}, WriteExamples: []string{"app.ts --outfile=SKILL.md -> SKILL.md", "--outDir spec a.ts -> spec", "-d dist a.ts -> dist", "a.ts -> "}, Examples: []string{"app.ts --outfile=out.js => --outfile=out.js | app.ts", "--outdir=dist a.ts b.ts => --outdir=dist | a.ts b.ts"}},
	// editors: ed/ex run `!CMD` lines of their command script (stdin, -c)
	// through the shell, vi/vim an `-c '!CMD'`
	{Name: "ed", Names: "red", Kind: KindWrite, Opts: OptSpec{Short: "p", Long: "extended-regexp traditional loose-exit-status prompt= quiet silent restricted script verbose strip-trailing-cr help version", Abbrev: true},
		Writes: WriteSpec{Ed: true}, WriteExamples: []string{"-s SKILL.md <<< 'w build/SKILL.copy' -> build/SKILL.copy", "-s f <<< $',s/a/b/\\nw\\nq' -> f", "-s f <<< $'1,2w p\\nwq' -> p f",
			"-s f <<< $'f g\\nw' -> g", "-s f <<< $'a\\nw x\\n.\\nw !cat\\nq\\nw y' -> ", "-s f <<< $'r SKILL.md\\n/x/W o' -> o", "-s f <<< ',p' -> ", "-s f -> f", "'!ls' <<< 'w' -> "},
		Runs:        RunSpec{Prefix: "!", Stdin: true, Pipe: "w! W! r! e!", Address: true},
		RunExamples: []string{"-s f <<< '!rm -rf b' -> rm -rf b", "-p '*' f <<< '!rm x' -> rm x", "-s f <<< ',p' -> ", "-s f <<< '1,$w !rm b' -> rm b", "-s <<< 'e !ls' -> ls", "-s f <<< 'w o.txt' -> "}, Examples: []string{"-s f => -s | f", "-c q f => -c | q f", "-p '*' f => -p=* | f", "f -s => -s | f", "--prom=: f => --prompt=: | f", "-rs f => -r -s | f", "-p: f => -p=: | f", "-- -f => | -f"}},
	// ex is vim in Ex mode (its +CMD and -c CMD are vim's, and so is a
	// script on stdin); :py3, :python, :lua, :perl and :ruby run code of
	// those languages (RunSpec.Langs)
	// Ex commands that name a file write it (vimWrites.Lines: `:w! F`,
	// `:w >> F`, `:sav F`, `:wq F`); the edited files are written by a
	// bare write or an Ex command the guard does not follow, and by an
	// interactive session (vimWrites.Edits); in Ex mode (-e, -E, ex) a
	// known stdin is the rest of the script, which ends at its end
	{Name: "vi", Names: "vim nvim gvim vimdiff rvim", Kind: KindWrite, Opts: OptSpec{Short: "cSuiTtwW", Digits: "poO", Long: "cmd=", Partial: true, Abbrev: true},
		Writes: vimWrites("e E"),
		WriteExamples: []string{"-es -c 'w! templates/x.html' -c q n.md -> templates/x.html", "-es -c 'w! b/c.md' -c q SKILL.md -> b/c.md", "-es -c '%w >> a' -c q n -> a", "-es -c 'w b | q' f -> b",
			"-es -c 'sil sav! s/n' -c qa! f -> s/n", "-es -c 'w !cat' -c q! f -> ", "'+wq o.md' f -> o.md", "-c 'redir! > r.txt' -c q f -> r.txt",
			"SKILL.md +10 -> SKILL.md", "-R SKILL.md -> ", "-M f -> ", "-es -c 'w' -c q f -> f"},
		Runs: RunSpec{Shell: "c cmd", Operands: OperandsShell, Prefix: "! +! +:!", Mods: vimMods, Pipe: "w[rite]! r[ead]!", Address: true, Stdin: true, Calls: "system systemlist job_start jobstart termopen", Langs: vimLangs, Source: "S"},
		RunExamples: []string{"-es -c '1,$w !rm b' f -> rm b", "-es -c '%!rm b' f -> rm b", "-es -c 'sil r !ls' f -> ls", "-es -c 'w! o.txt' f -> ", "-es -u NONE -c '!rm -rf b' -c q -> rm -rf b", "-c 'wq' f -> ", `-es -c 'call system("rm -rf b")' -> rm -rf b`,
			`-c "call systemlist('git push -f')" -> git push -f`, `-c 'call setline(1, "system(\"rm x\")")' -> `, "+'!rm -rf b' f -> rm -rf b", "f.txt -> ", "-Es +'silent !rm -rf b' +qa -> rm -rf b", "-es -c 'sil! keepalt !rm x' -> rm x", "-es -c 'silent write' f -> ",
			`-es -c 'py3 import os; os.system("rm -rf b")' -> rm -rf b; python3 -c import os; os.system("rm -rf b"); rm -rf b`, `'+lua os.execute("rm x")' +qa -> lua -e os.execute("rm x"); rm x`,
			"-s '+!rm -rf d' '+q!' -> rm -rf d", "-Es -S <(echo '!rm -rf b') +qa -> echo !rm -rf b; rm -rf b"},
		Examples: []string{"-c '!ls' f => -c=!ls | f"}},
	{Name: "ex", Kind: KindWrite, Opts: OptSpec{Short: "cSuiTtwW", Digits: "poO", Long: "cmd=", Partial: true, Abbrev: true},
		Writes: vimWrites("*"), WriteExamples: []string{"-s n.md <<< $'w! .harness/h.md\\nq' -> .harness/h.md", "-s f <<< '%p' -> "},
		Runs:        RunSpec{Shell: "c cmd", Operands: OperandsShell, Prefix: "! +! +:!", Mods: vimMods, Pipe: "w[rite]! r[ead]!", Address: true, Stdin: true, Calls: "system systemlist job_start jobstart termopen", Langs: vimLangs, Source: "S"},
		RunExamples: []string{"-s f <<< '!rm -rf b' -> rm -rf b", "-c 'sil !rm x' f -> rm x", "-s f <<< '%w !rm b' -> rm b"}, Examples: []string{"-s -c wq f => -s -c=wq | f"}},
	{Name: "view", Names: "rview", Kind: KindRead, Opts: OptSpec{Short: "cSuiTtwW", Digits: "poO", Long: "cmd=", Partial: true, Abbrev: true},
		Runs:        RunSpec{Shell: "c cmd", Operands: OperandsShell, Prefix: "! +! +:!", Mods: vimMods, Pipe: "w[rite]! r[ead]!", Address: true, Calls: "system systemlist job_start jobstart termopen", Langs: vimLangs, Source: "S"},
		RunExamples: []string{"-es +'!rm -rf b' +q -> rm -rf b", "notes.txt -> "}, Examples: []string{"-R f => -R | f", "-p a b => -p | a b", "-p2 -u NONE a b => -p=2 -u=NONE | a b", "-r f => -r | f", "-c 'set nu' f => -c=set nu | f", "+10 f => | +10 f"}},
	// GNU nano 7 (nano --help): -C -J -Q -T -X -Y -f -o -r -s take a value,
	// every other letter is a flag (-i autoindent, -w nowrap, -c, -S, -t …)
	{Name: "nano", Names: "pico", Kind: KindWrite, Opts: OptSpec{Short: "CJQTXYfors", Long: "backupdir= guidestripe= quotestr= tabsize= wordchars= syntax= rcfile= operatingdir= fill= speller= view", Partial: true, Abbrev: true},
		Writes: WriteSpec{Edited: true}, WriteExamples: []string{"+10 SKILL.md -> SKILL.md"},
		Examples: []string{"f.txt => | f.txt", "-T 4 f => -T=4 | f", "-i SKILL.md => -i | SKILL.md", "-wcS -r72 f => -w -c -S -r=72 | f", "--tabsi=2 f => --tabsize=2 | f", "+10 f => | +10 f"}},
	{Name: "micro", Names: "kak hx", Kind: KindWrite, Opts: OptSpec{Short: "cSuiTtprwW", Long: "cmd= eval= load= funcall= insert=", Partial: true, Abbrev: true},
		Writes: WriteSpec{Edited: true}, WriteExamples: []string{"SKILL.md -> SKILL.md"}, Examples: []string{"f.txt => | f.txt", "-c cfg f => -c=cfg | f"}},
	// REPLs and editors whose own language runs shell commands: a line
	// (or -c/-e/--eval value) that starts with the program's shell escape
	// (RunSpec.Prefix) is a shell command, and so is the string handed to
	// one of the language's shell-running functions (RunSpec.Calls)
	{Name: "emacs", Names: "emacsclient", Kind: KindWrite, Opts: OptSpec{Long: "eval= execute= load= funcall= insert= directory= chdir= script= file= visit= l= L= f= e= batch quick", Partial: true, GoFlags: true},
		Writes: WriteSpec{Edited: true}, WriteExamples: []string{"-nw SKILL.md -> SKILL.md", "+10 f -> f"},
		Runs: RunSpec{Shell: "eval execute e", Calls: "shell-command shell-command-to-string async-shell-command call-process-shell-command start-process-shell-command process-lines, delete-directory+=rm -r -f"},
		RunExamples: []string{`--batch --eval '(shell-command "rm -rf b")' -> rm -rf b`, `-Q --batch --eval '(delete-directory "b" t)' -> rm -r -f b`,
			`--batch --eval '(delete-directory "b")' -> `, `--batch --eval '(message "shell-command")' -> `}, Examples: []string{"--batch -l init.el f => --batch --l=init.el | f", "-Q -L lisp -f main => --Q --L=lisp --f=main |", `-batch --eval '(message "x")' => --batch --eval=(message "x") |`}},
	{Name: "sqlite3", Names: "sqlite duckdb", Kind: KindWrite, Opts: OptSpec{Long: "cmd= c= init= separator= nullvalue= newline= vfs= mmap= maxsize= pagecache= lookaside= heap= escape= A= append ascii bail batch box column csv deserialize echo header noheader html interactive json line list markdown memtrace nofollow readonly safe table stats version zip", Partial: true, GoFlags: true},
		Runs: RunSpec{Shell: "cmd c", Operands: OperandsShell, Skip: 1, Prefix: ".sh[ell] .sy[stem]", Stdin: true, Pipe: ".o[utput] .on[ce] .i[mport] .rea[d]", Source: "init", Calls: "edit@2"},
		Writes: WriteSpec{First: true, Lines: ".o[utput] .on[ce] .sav[e] .bac[kup] .cl[one] .log .t[race]", ReadOnly: "readonly deserialize", URI: true,
			Strings: "writefile(, vacuum into, attach database, attach"},
		WriteExamples: []string{"app.db 'select 1' -> app.db", "-readonly app.db 'select 1' -> ", "-deserialize app.db .tables -> ",
			"'file:app.db?mode=ro' .tables -> ", "file:///srv/a%20b.db .tables -> /srv/a b.db", ":memory: 'select 1' -> ",
			"-readonly app.db '.output out.txt' -> out.txt", "app.db \"select writefile('o.bin', x'00')\" -> app.db o.bin",
			"x.db \"VACUUM  INTO 'copy.db'\" -> x.db copy.db", "x.db <<< \"attach 'file:y.db?mode=ro' as y; attach database 'z.db' as z\" -> x.db z.db",
			"x.db \"select 'vacuum into' from t\" -> x.db",
			"-readonly x.db '.o o.txt' 'select 1' -> o.txt", "-readonly x.db '.on --bom o.csv' 'select 1' -> o.csv", "-readonly x.db '.sav s.db' -> s.db",
			"-readonly x.db '.bac main b.db' -> b.db", "-readonly x.db '.cl c.db' -> c.db", "-readonly x.db '.log q.log' -> q.log", "-readonly x.db '.t t.log' -> t.log",
			"-readonly x.db '.output |cat a README.md' 'select 1' -> ", "-readonly x.db \".once '|tee o.txt'\" 'select 1' -> ",
			"-readonly x.db '.output stdout' '.log stderr' '.trace off' -> ", "-readonly x.db '.ONCE o.txt' -> "},
		RunExamples: []string{"x.db '.shell rm -rf b' -> rm -rf b", "-cmd '.system rm y' x.db .quit -> rm y", "x.db 'select 1' -> ", "x.db <<< '.tables' -> ",
			"x.db '.sh rm b' -> rm b", "x.db \".once '|rm -rf b'\" 'select 1' -> rm -rf b", "x.db '.o |git push -f o m' 'select 1' -> git push -f o m",
			"x.db \".import '|curl -s u' t\" -> curl -s u", "x.db <<< '.read \"|rm b\"' -> rm b", "-init <(echo '.once |rm b') x.db .quit -> echo .once |rm b; rm b",
			"x.db '.once --bom o.csv' 'select 1' -> ", "x.db '.once -x' 'select 1' -> ", "x.db '.import d.csv t' -> ", "x.db \"select '.once |rm b'\" -> ",
			"x.db \"select edit('x', 'rm b;')\" -> rm b", "x.db \"select edit(t, 'vi') from n\" -> vi"},
		Examples: []string{"-cmd .tables x.db => --cmd=.tables | x.db"}},
	{Name: "ipython", Names: "ipython3", Kind: KindRun, Opts: OptSpec{Short: "cm", Partial: true, Stop: true},
		Runs: RunSpec{Shell: "c", Prefix: "!", Stdin: true}, RunExamples: []string{"-c '!rm -rf b' -> rm -rf b", "-c 'print(1)' -> "}, Examples: []string{"-c 'print(1)' => -c=print(1) |", "-m mod => -m=mod |"}},
	{Name: "ghci", Names: "ghc", Kind: KindRun, Opts: OptSpec{Short: "e", Partial: true},
		Runs: RunSpec{Shell: "e", Prefix: "!", Stdin: true}, RunExamples: []string{"-e ':! rm -rf b' -> rm -rf b", "-e ':type map' -> "}, Examples: []string{"-e ':type map' => -e=:type map |", "-e main M.hs => -e=main | M.hs"}},
	// gnuplot 5.4: a file name starting with '<' is read from a command,
	// an output or print file starting with '|' pipes into one (checked
	// with markers: plot, splot, stats, load, call and set output/print in
	// the abbreviations below; `set table '|CMD'` writes a file)
	{Name: "gnuplot", Kind: KindRun, Opts: OptSpec{Short: "ec", Long: "default-settings persist slow", Partial: true},
		Runs: RunSpec{Shell: "e", Prefix: "!", Stdin: true, Calls: "system, p[lot]< sp[lot]< sta[ts]< l[oad]< ca[ll]< o[utput]| pr[int]|"},
		RunExamples: []string{`-e 'system "rm -rf b"' -> rm -rf b`, "-e '!rm x' -> rm x", "-e 'plot sin(x)' -> ", `-e "p '< rm b'" -> rm b`,
			`-e "se o '|lpr -P x'; plot x" -> lpr -P x`, `-e "l '<cat a.gp'" -> cat a.gp`, `-e "set title 'a|b'; plot 'd' title '<b>'" -> `}, Examples: []string{"-e 'plot 1' -p => -e=plot 1 -p |", "-c s.gp a b => -c=s.gp | a b", "--persist s.gp => --persist | s.gp"}},
	{Name: "octave", Names: "octave-cli matlab scilab scilab-cli", Kind: KindRun, Opts: OptSpec{Short: "er", Long: "eval= batch= path= exec-path= image-path= info-file= info-program= texi-macros-file= quiet no-gui", Partial: true, GoFlags: true},
		Runs:        RunSpec{Shell: "eval batch r e", Prefix: "!", Stdin: true, Calls: "system unix dos shell_cmd"},
		RunExamples: []string{`--eval 'system("rm -rf b")' -> rm -rf b`, `--eval "unix('rm x')" -> rm x`, `--eval 'disp(1)' -> `}, Examples: []string{"--eval 'disp(1)' => --eval=disp(1) |", "--no-gui s.m => --no-gui | s.m"}},
	{Name: "ftp", Names: "tnftp", Kind: KindTool, Runs: RunSpec{Stdin: true, Prefix: "!", Pipe: "get recv put send append dir ls nlist mdir mls"},
		RunExamples: []string{"-n h <<< '!rm -rf b' -> rm -rf b", `-n h <<< 'get a "|rm -rf b"' -> rm -rf b`, "-n h <<< 'dir . |less' -> less", "-n h <<< 'get a b' -> "}, Examples: []string{"-n h => -n | h", "-p -v h 21 => -p -v | h 21"}},
	// lftp(1): -c/-e and a script on stdin are lftp commands; `!CMD` runs a
	// local shell, `rm [-r] [-f]` deletes on the server without a prompt
	{Name: "lftp", Kind: KindTool, Opts: OptSpec{Short: "fceup", Long: "rcfile= norc help version", Partial: true},
		Runs: RunSpec{Shell: "c e", Stdin: true, Prefix: "!", Split: true, Verbs: "rm=rm -f, mrm=rm -f", VerbsRemote: true,
			Pipe: "cat zcat bzcat xzcat more zmore bzmore ls cls nlist rels recls renlist find du echo pwd jobs help"},
		RunExamples: []string{"-c 'open h; !rm -rf b' -> rm -rf b", "-e 'rm -r www/old; bye' ftp://h -> rm -f -r www/old", "h <<< 'cd pub\nmrm *.tmp' -> rm -f *.tmp",
			"-c 'open h; ls; get a.txt' -> ", "-c 'open h; cat a | gzip > a.gz' -> gzip", "-c 'open h; ls || echo no' -> "}, Examples: []string{"-c 'open h; ls' => -c=open h; ls |", "-u user,pw -p 21 h => -u=user,pw -p=21 | h", "-e 'set x' h => -e=set x | h", "-f s.lftp => -f=s.lftp |"}},
	// shells with a language of their own whose -c command line reads
	// a simple command the way a POSIX shell does (`nu -c 'rm -rf b'`)
	{Name: "nu", Names: "nushell xonsh elvish murex ion", Kind: KindRun, Opts: OptSpec{Short: "c", Long: "commands= config= env-config= login interactive no-config-file", Partial: true, Stop: true},
		Runs: RunSpec{Shell: "c commands"}, RunExamples: []string{"-c 'rm -rf b' -> rm -rf b", "--commands 'ls' -> ls"}, Examples: []string{"-c 'ls' => -c=ls |", "--commands 'ls' => --commands=ls |", "s.nu a => | s.nu a"}},
	// PowerShell: -Command/-c is PowerShell code (RunSpec.Code); its
	// Remove-Item -Recurse -Force (rm -r -fo) deletes a tree as rm -r -f does
	// Windows' cmd: `cmd /c LINE` and `/k LINE` run the rest of the line
	// (Git Bash spells them //c, //k: MSYS would turn /c into a path);
	// /s /q /d before them change quoting, echo and AutoRun only
	{Name: "cmd", Kind: KindRun, Opts: OptSpec{Stop: true}, Runs: RunSpec{Operands: OperandsLine, Prefix: "/c //c /k //k", Mods: "/s //s /q //q /d //d /S //S /Q //Q /D //D"},
		RunExamples: []string{"/c \"git push -f\" -> git push -f", "//c rm -rf b -> rm -rf b", "/S /C \"rm -rf b\" -> rm -rf b", "/c echo rm -rf b -> echo rm -rf b", "dir /b -> "}, Examples: []string{"/c dir => | /c dir"}},
	{Name: "pwsh", Names: "powershell pwsh-preview", Kind: KindInterp, Opts: OptSpec{Long: "c= command= Command= C= f= file= File= ep= executionpolicy= ExecutionPolicy= wd= workingdirectory= WorkingDirectory= nop noprofile NoProfile noni noninteractive NonInteractive nologo NoLogo", Partial: true, GoFlags: true},
		Writes: WriteSpec{All: true}, Runs: RunSpec{Code: "c command Command C"}, RunExamples: []string{"-c 'Remove-Item -Recurse -Force b' -> rm -r -f b", `-NoProfile -Command "rm -r -fo d" -> rm -r -fo d`,
			`-c 'Write-Output "Remove-Item -Recurse -Force b"' -> `, "-c 'Get-ChildItem' -> "}, Examples: []string{"-NoProfile -Command 'x' => --NoProfile --Command=x |", "-File s.ps1 a => --File=s.ps1 | a"}, WriteExamples: []string{"-c x -> "}},
	// interpreters of languages the guard does not lex (RunSpec.Code): the
	// code's command lines, shell escapes, string literals not printed and
	// argv runs of literals are judged as run (unknowncode.go), and the
	// library calls that delete a tree do what rm -r -f does (Calls)
	{Name: "guile", Kind: KindInterp, Opts: OptSpec{Short: "cselLxC", Long: "language= listen= debug no-debug no-auto-compile auto-compile fresh-auto-compile use-srfi=", Partial: true, Stop: true, EndAfter: "c s"},
		Writes: WriteSpec{All: true}, Runs: RunSpec{Code: "c", Calls: "delete-file-recursively=rm -r -f"}, RunExamples: []string{`-c '(system "rm -rf b")' -> rm -rf b`, `-c '(display "rm -rf b")' -> `}, Examples: []string{"-c '(display 1)' => -c=(display 1) |", "-L . -s s.scm a => -L=. -s=s.scm | a"}, WriteExamples: []string{"-c '(x)' -> "}},
	{Name: "racket", Kind: KindInterp, Opts: OptSpec{Short: "efrtlpkSIWXNJABy", Long: "eval= load= require= lib= name= collects= config= search=", Partial: true},
		Writes: WriteSpec{All: true}, Runs: RunSpec{Code: "e eval"}, RunExamples: []string{`-e '(system "rm -rf b")' -> rm -rf b`, `-e '(displayln "rm -rf b")' -> `}, Examples: []string{"-e '(x)' => -e=(x) |", "-l racket/base -e x => -l=racket/base -e=x |"}, WriteExamples: []string{"-e '(x)' -> "}},
	{Name: "elixir", Names: "iex", Kind: KindInterp, Opts: OptSpec{Short: "erS", Long: "eval= require= pa= pz= erl= sname= name= cookie= logger-otp-reports= logger-sasl-reports= no-halt werl hidden", Partial: true, Stop: true},
		Writes: WriteSpec{All: true}, Runs: RunSpec{Code: "e eval", Calls: "rm_rf=rm -r -f"}, RunExamples: []string{`-e 'System.cmd("rm", ["-rf", "b"])' -> rm -rf b`, `-e 'File.rm_rf!("b")' -> rm -r -f b`, `-e 'IO.puts("rm -rf b")' -> `}, Examples: []string{"-e 'IO.puts 1' => -e=IO.puts 1 |", "-r a.exs b.exs => -r=a.exs | b.exs", "--no-halt s.exs a => --no-halt | s.exs a"}, WriteExamples: []string{"-e 'IO.puts 1' -> "}},
	{Name: "erl", Names: "escript", Kind: KindInterp, Opts: OptSpec{Long: "eval= s= run= pa= pz= sname= name= setcookie= config= boot= noshell noinput detached", Partial: true, GoFlags: true},
		Writes: WriteSpec{All: true}, Runs: RunSpec{Code: "eval"}, RunExamples: []string{`-noshell -eval 'os:cmd("rm -rf b"), halt().' -> rm -rf b`, `-noshell -eval 'io:format("rm -rf b~n").' -> `}, Examples: []string{"-noshell -eval 'halt().' => --noshell --eval=halt(). |", "-sname n -noshell => --sname=n --noshell |"}, WriteExamples: []string{"-noshell -eval 'halt().' -> "}},
	{Name: "crystal", Kind: KindTool, Opts: OptSpec{Stop: true}, Writes: WriteSpec{All: true}, Subs: []Program{{Name: "eval", Names: "e", Kind: KindInterp, Opts: OptSpec{Partial: true}, Runs: RunSpec{Operands: OperandsCode, Calls: "rm_rf=rm -r -f"}, Examples: []string{"'puts 1' => | puts 1"}, RunExamples: []string{`'system "rm -rf b"' -> rm -rf b`}}},
		RunExamples: []string{`eval 'system "rm -rf b"' -> rm -rf b`, `eval 'FileUtils.rm_rf("b")' -> rm -r -f b`, `eval 'puts "rm -rf b"' -> `}, Examples: []string{"eval 'puts 1' => eval: | puts 1"}, WriteExamples: []string{"eval 'puts 1' -> "}},
	{Name: "groovy", Names: "kotlin scala jshell", Kind: KindInterp, Opts: OptSpec{Short: "ecDpi", Words: "cp=cp classpath=classpath", Long: "encoding= classpath= cp= define= indy", Partial: true, Stop: true, EndAfter: "e"},
		Writes: WriteSpec{All: true}, Runs: RunSpec{Code: "e"}, RunExamples: []string{`-e '"rm -rf b".execute().waitFor()' -> rm -rf b`, `-e 'println "rm -rf b"' -> `}, Examples: []string{"-e 'println 1' => -e=println 1 |", "-cp lib s.groovy a => --cp=lib | s.groovy a", "-c UTF-8 s.groovy => -c=UTF-8 | s.groovy"}, WriteExamples: []string{"-e 'println 1' -> "}},
	{Name: "raku", Names: "perl6 rakudo", Kind: KindInterp, Opts: OptSpec{Short: "eIM", Long: "doc= target= optimize= encoding=", Partial: true, Stop: true, EndAfter: "e"},
		Writes: WriteSpec{All: true}, Runs: RunSpec{Code: "e"}, RunExamples: []string{`-e 'shell "rm -rf b"' -> rm -rf b`, `-e 'run "rm", "-rf", "b"' -> rm -rf b`, `-e 'say "rm -rf b"' -> `}, Examples: []string{"-e 'say 1' => -e=say 1 |", "-I lib s.raku a => -I=lib | s.raku a"}, WriteExamples: []string{"-e 'say 1' -> "}},
	// rclone purge PATH deletes PATH and everything below it without a
	// prompt (rclone(1)): a local PATH is rm -r -f PATH; a remote's
	// (NAME:PATH) is a cloud delete, which no family covers (§2.4)
	{Name: "rclone", Kind: KindWrite, Opts: OptSpec{Long: "config= transfers= checkers= log-file= log-level= filter= include= exclude= dry-run interactive", Partial: true},
		Writes: WriteSpec{All: true}, Subs: []Program{{Name: "purge", Kind: KindWrite, Opts: OptSpec{Long: "dry-run interactive", Partial: true}, Runs: RunSpec{As: "rm -r -f"}, Examples: []string{"--dry-run ./b => --dry-run | ./b"}, RunExamples: []string{"./build -> rm -r -f ./build", "s3:bucket/old -> "}},
			{Name: "copy", Names: "sync move copyto moveto bisync copyurl", Kind: KindWrite, Opts: OptSpec{Partial: true}, Writes: WriteSpec{Last: 2}, Examples: []string{"-P src remote:dst => -P | src remote:dst"}, WriteExamples: []string{"remote:spec spec -> spec"}},
			{Name: "delete", Names: "deletefile rmdir rmdirs mkdir touch dedupe", Kind: KindWrite, Opts: OptSpec{Partial: true}, Writes: WriteSpec{All: true}, Examples: []string{"remote:old => | remote:old"}, WriteExamples: []string{"x/y -> x/y"}}},
		RunExamples:   []string{"purge ./build -> rm -r -f ./build", "purge s3:bucket/old -> ", "purge --dry-run ./b -> ", "sync a remote:b -> "},
		WriteExamples: []string{"copy remote:spec spec -> spec", "sync --dry-run a b -> b", "deletefile x/y -> x/y"}, Examples: []string{"--config c.conf ls remote: => ls: | remote:", "copy --dry-run a remote:b => copy: --dry-run | a remote:b"}},
	// LVM's removers destroy the volume's data (§9.3: /dev/<vg>/<lv> as an operand of a disk tool)
	{Name: "lvremove", Names: "vgremove pvremove", Kind: KindTool, Opts: OptSpec{Short: "S", Long: "force yes select= autobackup= config= debug verbose quiet test noudevsync nohints", Partial: true, Abbrev: true},
		Examples: []string{"-y /dev/vg0/data => -y | /dev/vg0/data"}},
	// runners that start a program named by an option (RunSpec.Prog) or
	// run a command on other machines
	{Name: "start-stop-daemon", Kind: KindRun, Opts: OptSpec{Short: "xapnucrNPIdkRgsO", Long: "exec= startas= pidfile= name= user= group= chuid= chroot= chdir= nicelevel= procsched= iosched= umask= retry= signal= output= pid= ppid= notify-timeout= start stop status background make-pidfile remove-pidfile no-close notify-await oknodo quiet verbose test help version", Abbrev: true},
		Runs: RunSpec{Prog: "x exec a startas"}, RunExamples: []string{"--start --exec /bin/rm -- -rf b -> rm -rf b", "-S -x /usr/bin/app -b -> app", "-S -g staff -x /bin/rm -- -rf b -> rm -rf b"}, Examples: []string{"--start --exec /usr/bin/app -- --port 8 => --start --exec=/usr/bin/app | --port 8", "-S -b -m -p /run/a.pid -x /usr/bin/a => -S -b -m -p=/run/a.pid -x=/usr/bin/a |", "-K -s HUP -n app => -K -s=HUP -n=app |", "--stat -p /run/a.pid => --status -p=/run/a.pid |", "-S -b -O /tmp/o -g staff -x a => -S -b -O=/tmp/o -g=staff -x=a |", "--exe=/usr/bin/a --sto => --exec=/usr/bin/a --stop |"}},
	{Name: "ansible", Kind: KindRun, Opts: OptSpec{Short: "amiuefltMTBPc", Long: "args= module-name= inventory= user= extra-vars= forks= limit= tree= module-path= timeout= background= poll= connection= become-user= become-method= private-key= vault-password-file= become ask-become-pass check diff one-line", Partial: true, Abbrev: true},
		Runs: RunSpec{Shell: "a args", Remote: true}, RunExamples: []string{"web -m shell -a 'rm -rf /srv' -> rm -rf /srv", "all -C -a 'rm -rf /srv' -> rm -rf /srv", "all -m ping -> ", "all -m copy -a 'src=a dest=b' -> "}, Examples: []string{"web -m shell -a 'uptime' -i hosts => -m=shell -a=uptime -i=hosts | web", "all -C -b -u deploy -a 'df -h' => -C -b -u=deploy -a=df -h | all", "all --extra-v x=1 -mping => --extra-vars=x=1 -m=ping | all"}},
	{Name: "az", Kind: KindRun, Opts: OptSpec{Long: "scripts= command-id= resource-group= name= subscription= output= query=", Partial: true},
		Runs: RunSpec{Shell: "scripts", Remote: true}, RunExamples: []string{"vm run-command invoke -g g -n v --command-id RunShellScript --scripts 'rm -rf /srv' -> rm -rf /srv", "vm list -> "}, Examples: []string{"vm list --resource-group g --output table => --resource-group=g --output=table | vm list", "vm run-command invoke --scripts=ls --name v => --scripts=ls --name=v | vm run-command invoke"}},
	{Name: "ctr", Kind: KindRun, Runs: RunSpec{Remote: true}, Opts: OptSpec{Short: "an", Long: "address= namespace= timeout= connect-timeout= debug", Partial: true, Stop: true},
		Subs: []Program{
			{Name: "task", Names: "t tasks", Kind: KindRun, Opts: OptSpec{Stop: true}, Subs: []Program{{Name: "exec", Kind: KindRun, Opts: OptSpec{Long: "exec-id= cwd= user= fifo-dir= tty detach", Partial: true, Stop: true},
				Runs: RunSpec{Operands: OperandsArgv, Skip: 1, Remote: true}, Examples: []string{"--exec-id 1 -t c1 sh => --exec-id=1 -t | c1 sh"}, RunExamples: []string{"--exec-id 1 c1 rm -rf /data -> rm -rf /data"}}}, Examples: []string{"ls => ls: |"}},
			{Name: "run", Kind: KindRun, Opts: OptSpec{Long: "mount= env= env-file= label= cwd= user= net-host rm tty detach privileged", Partial: true, Stop: true},
				Runs: RunSpec{Operands: OperandsArgv, Skip: 2, Remote: true}, Examples: []string{"--rm -t docker.io/x:1 c1 sh => --rm -t | docker.io/x:1 c1 sh"}, RunExamples: []string{"--rm docker.io/x:1 c1 rm -rf /y -> rm -rf /y"}}},
		RunExamples: []string{"t exec --exec-id 1 c1 rm -rf /data -> rm -rf /data", "run --rm docker.io/x:1 c1 rm -rf /y -> rm -rf /y", "task ls -> "}, Examples: []string{"-n k8s.io images ls => images: | ls", "--address /run/c.sock t exec --exec-id 1 c1 sh => t exec: --exec-id=1 | c1 sh"}},
	// fleet runners: the rest of the line runs on every host
	{Name: "pssh", Names: "parallel-ssh pdsh clush", Kind: KindRun, Opts: OptSpec{Short: "hHlpoetOxXwgRfuN", Partial: true, Stop: true},
		Runs: RunSpec{Operands: OperandsLine, Remote: true}, RunExamples: []string{"-h hosts -i 'rm -rf /srv' -> rm -rf /srv", "-w web[1-3] uptime -> uptime"}, Examples: []string{"-h hosts.txt -i uptime => -h=hosts.txt -i | uptime", "-H web1 -l root -p 4 uptime => -H=web1 -l=root -p=4 | uptime"}},
	{Name: "salt", Names: "salt-ssh", Kind: KindRun, Opts: OptSpec{Short: "tlcba", Long: "timeout= out= batch-size= subset= log-level= config-dir= auth= eauth= list pcre grain grain-pcre nodegroup compound ipcidr", Partial: true},
		Runs: RunSpec{Operands: OperandsShell, Skip: 2, Remote: true}, RunExamples: []string{"'*' cmd.run 'rm -rf /srv' -> rm -rf /srv", "-L web1,web2 cmd.run 'rm -rf /srv' -> rm -rf /srv", "-G os:Debian cmd.run 'rm -rf /srv' -> rm -rf /srv", "'*' test.ping -> "}, Examples: []string{"'*' cmd.run 'ls' => | * cmd.run ls", "-L web1,web2 test.ping => -L | web1,web2 test.ping", "-G os:Debian -t 30 test.ping => -G -t=30 | os:Debian test.ping"}},
	{Name: "salt-call", Kind: KindRun, Opts: OptSpec{Long: "local out= log-level=", Partial: true},
		Runs: RunSpec{Operands: OperandsShell, Skip: 1}, RunExamples: []string{"cmd.run 'git push -f' -> git push -f"}, Examples: []string{"--local cmd.run 'ls' => --local | cmd.run ls", "--out json test.ping => --out=json | test.ping"}},
	{Name: "crictl", Kind: KindRun, Runs: RunSpec{Remote: true}, Opts: OptSpec{Short: "irt", Long: "image-endpoint= runtime-endpoint= timeout= config= debug", Partial: true, Stop: true},
		Subs: []Program{{Name: "exec", Kind: KindRun, Opts: OptSpec{Short: "e", Long: "env= timeout= interactive tty sync transport=", Partial: true, Stop: true},
			Runs: RunSpec{Operands: OperandsArgv, Skip: 1, Remote: true}, Examples: []string{"-it c1 sh => -i -t | c1 sh", "-e A=1 c1 env => -e=A=1 | c1 env"}, RunExamples: []string{"-it c1 rm -rf /data -> rm -rf /data"}}},
		RunExamples: []string{"exec -it c1 rm -rf /data -> rm -rf /data", "ps -a -> "}, Examples: []string{"--runtime-endpoint unix:///run/c.sock ps -a => ps: -a |", "-r unix:///run/c.sock exec -it c1 sh => exec: -i -t | c1 sh"}},

	// ---------------------------------------------------------------- harness's own binaries
	// the CLI's own grammar (kong: no abbreviations, the global flags at
	// any level, internal/cli): the subcommands a Generator may run and
	// the Hermes-only ones bashguard's harness_admin rules name
	{Name: "harness", Kind: KindTool, Opts: OptSpec{Long: harnessGlobal, Stop: true}, Subs: []Program{
		{Name: "eval", Kind: KindTool, Opts: OptSpec{Long: harnessGlobal, Stop: true}, Subs: []Program{
			{Name: "append", Kind: KindWrite, Opts: OptSpec{Long: harnessGlobal + " phase= event= result= reason= commit= checkpoint-id= decision= acceptance-results= entry=", Partial: true},
				Examples: []string{"--feature f001 --event=retry --reason 'a b' => --feature=f001 --event=retry --reason=a b |", "--decision=x --task-id t => --decision=x --task-id | t"}},
			{Name: "amend", Kind: KindWrite, Opts: OptSpec{Long: harnessGlobal + " line= reason= event=", Partial: true}, Examples: []string{"--line 3 --reason x => --line=3 --reason=x |"}}}, Examples: []string{"append --event x => append: --event=x |"}},
		{Name: "phase", Kind: KindTool, Opts: OptSpec{Long: harnessGlobal, Stop: true}, Subs: []Program{
			{Name: "complete", Kind: KindWrite, Opts: OptSpec{Long: harnessGlobal, Partial: true}, Examples: []string{"f001 --json => --json | f001", "--root /r f002 => --root=/r | f002"}}}, Examples: []string{"complete f001 => complete: | f001"}},
		{Name: "finalize", Kind: KindTool, Opts: OptSpec{Long: harnessGlobal + " check close sink= archive", Partial: true}, Examples: []string{"--close --sink p => --close --sink=p |"}},
		{Name: "allow", Kind: KindTool, Opts: OptSpec{Long: harnessGlobal + " list once reason= rule=", Partial: true}, Examples: []string{"--list => --list |"}},
		{Name: "validate", Names: "explain status next help", Kind: KindRead, Opts: OptSpec{Long: harnessGlobal + " preset=", Partial: true}, Examples: []string{"--json => --json |"}},
	},
		Examples: []string{"--root /r --feature=f002 eval append --event x => eval append: --event=x |", "eval --feature f append => eval append: |", "phase complete f001 => phase complete: | f001"}},
	{Name: "harness-hook", Kind: KindTool, Opts: HookSpec,
		Examples: []string{"--event PreToolUse --root=/r => --event=PreToolUse --root=/r |", "-event Stop -feature f => --event=Stop --feature=f |"}},

	// ---------------------------------------------------------------- other known tools (their operands are not files they write)
	{Name: "kill", Names: "pkill killall systemctl service journalctl launchctl open xdg-open nc ncat telnet " +
		"ansible-playbook vault consul nomad packer pulumi gsutil eksctl kind minikube k3d skaffold tilt kustomize " +
		"buck gradle mvn ant sbt lein mix rebar3 stack cabal dotnet swift swiftc xcodebuild " +
		"rustup cargo-binstall brew yum dnf zypper pacman apk snap flatpak port pkg pkg_add emerge nix-env " +
		"pytest tox nox jest vitest mocha ava karma playwright cypress mypy pyright pylint flake8 bandit golangci-lint staticcheck govulncheck " +
		"node-gyp nx turbo rush vite next nuxt astro gatsby ng vue svelte-kit expo react-native " +
		"terraform-docs pre-commit lefthook husky commitlint semantic-release changeset " +
		"docker-machine virsh qemu-img qemu-system-x86_64 lxd " +
		"gm " +
		"dmesg lsof fuser gdbserver " +
		"reboot shutdown poweroff halt systemd-analyze " +
		"cd pushd popd source . eval trap exit return break continue", Kind: KindTool, Examples: []string{"-9 123 => -9 | 123"}},
}

// harnessGlobal are the harness CLI's global flags (internal/cli), valid
// at every level of its command tree.
const harnessGlobal = "root= feature= json quiet verbose help version"

// vimMods are vim's Ex command modifiers (vim's `:help :command-modifiers`),
// in its abbreviation notation: `:silent !CMD` still runs CMD.
const vimMods = "sil[ent] uns[ilent] noa[utocmd] keepa[lt] keepj[umps] keepm[arks] keepp[atterns] loc[kmarks] nos[wapfile] san[dbox] verb[ose] hid[e] conf[irm] bro[wse] tab lefta[bove] abo[veleft] rightb[elow] bel[owright] to[pleft] bo[tright] vert[ical] hor[izontal] leg[acy] vim9[cmd]"

// splitOpts is the grammar of split and csplit (coreutils 9 --help).
var splitOpts = OptSpec{Short: "abflnCtf", Long: "suffix-length= bytes= line-bytes= lines= number= additional-suffix= separator= filter= prefix= digits= suffix-format=", Partial: true, Abbrev: true}

// imageMagickOpts: ImageMagick's options are single-dash words; -write
// and mogrify's -path take a file or directory.
var imageMagickOpts = OptSpec{Long: "write= path= format=", Partial: true, GoFlags: true}

// ruffOpts is the grammar of ruff and its subcommands.
var ruffOpts = OptSpec{Short: "o", Long: formatterLong, Partial: true, Abbrev: true}

// sevenZipOpts: 7-Zip's switches are one word each, the value attached
// (-oDIR, -tzip, -pSECRET, -sdel, -aoa); -y a flag.
var sevenZipOpts = OptSpec{ShortOpt: "abimoprstuvwx"}

// vimWrites is what vim and ex write by their Ex commands (WriteSpec
// Lines, Edits, Ends), with script the options of Ex mode.
func vimWrites(script string) WriteSpec {
	return WriteSpec{Lines: "w[rite] sav[eas] wq x[it] exi[t] up[date] mk[exrc] mkv[imrc] mks[ession] mkvie[w] redi[r] wv[iminfo]",
		Edits: "w[rite] wq x[it] exi[t] up[date] wa[ll] wqa[ll] xa[ll] wn[ext] wN[ext] wp[revious] norm[al] exe[cute] so[urce] ru[ntime] cal[l] argdo bufdo windo tabdo cdo cfdo ldo lfdo g[lobal] v[global] au[tocmd] doau[tocmd] doautoa[ll] let",
		Ends:  "q[uit] qa[ll] quita[ll] cq[uit] wq x[it] exi[t] xa[ll] wqa[ll]", Script: script, Edited: true, ReadOnly: "R M"}
}

// vimLangs are vim's commands that run code of another language (a line
// of a -c value, a +CMD operand or a sourced script): `:py3 CODE`, `:lua
// CODE` … (RunSpec.Langs).
const vimLangs = "py3=python3 -c, python3=python3 -c, py=python3 -c, python=python3 -c, pyx=python3 -c, pythonx=python3 -c, lua=lua -e, perl=perl -e, ruby=ruby -e, rub=ruby -e"

// rsyncLong is rsync's long options ("=": takes a value).
const rsyncLong = "archive verbose quiet recursive compress delete dry-run progress partial human-readable checksum update links perms times group owner devices specials hard-links acls xattrs sparse inplace append whole-file one-file-system existing ignore-existing remove-source-files delete-before delete-during delete-after delete-delay delete-excluded force numeric-ids stats itemize-changes list-only mkpath " +
	// flags rsync(1) lists; without them `--backup X` read as --backup-dir=X
	"backup cvs-exclude copy-links copy-dirlinks keep-dirlinks safe-links munge-links copy-unsafe-links executability fake-super super omit-dir-times omit-link-times no-implied-dirs prune-empty-dirs ignore-times size-only fuzzy delay-updates append-verify preallocate relative ignore-errors ignore-missing-args delete-missing-args blocking-io protect-args secluded-args ipv4 ipv6 version help no-motd atimes crtimes open-noatime fsync write-devices copy-devices old-dirs old-args dirs " +
	"rsh= exclude= include= filter= port= password-file= log-file= temp-dir= partial-dir= backup-dir= suffix= chmod= chown= block-size= max-size= min-size= timeout= contimeout= compare-dest= copy-dest= link-dest= files-from= exclude-from= include-from= bwlimit= remote-option= usermap= groupmap= info= debug= out-format= log-file-format= iconv= checksum-choice= compress-choice= compress-level= skip-compress= rsync-path= sockopts= stop-after= stop-at= max-delete= modify-window= outbuf= address= protocol= checksum-seed= write-batch= only-write-batch= read-batch= early-input= copy-as="

// HookSpec is harness-hook's own grammar (the arguments harness
// init-feature and harness install write into settings.json: docs/protocol.md
// §4.6): the hook parses its command line with it and `harness doctor` reads
// the settings' handlers with it.
var HookSpec = OptSpec{Long: "event= root= feature= sprint= preset= help h", GoFlags: true}

// formatterLong is the long options of the in-place formatters and
// fixers whose operands the path guard judges as written.
const formatterLong = "config= line-length= target-version= exclude= extend-exclude= force-exclude= include= select= ignore= extend-select= extend-ignore= fixable= unfixable= per-file-ignores= output-format= output-file= ext= rule= parser= format= ignore-pattern= " +
	"resolve-plugins-relative-to= settings-path= settings-file= profile= multi-line= indent= language-dialect= stdin-filename= cache-dir= src= plugin= rulesdir= max-warnings= env= global= parser-options= cache-location= fix check diff"

// pipSpec is pip's grammar (also `uv pip`, `python -m pip`).
var pipSpec = OptSpec{Short: "trcebiCfdw", Long: "target= prefix= root= requirement= constraint= editable= build= index-url= extra-index-url= find-links= src= python= report= log= cache-dir= config-settings= platform= python-version= implementation= abi= dest= wheel-dir=", Partial: true, Abbrev: true}

// goBuildOpts is the build flags of go build, test, vet, tool and install
// (go help build, go help testflag).
var goBuildOpts = OptSpec{Long: "o= C= p= tags= ldflags= gcflags= asmflags= mod= modfile= overlay= pgo= toolexec= exec= run= bench= count= coverprofile= cpuprofile= memprofile= blockprofile= mutexprofile= trace= outputdir= coverpkg= covermode= benchtime= cpu= parallel= shuffle= skip= fuzz= fuzztime= list= timeout= cover json v x n a race trimpath work short failfast benchmem", GoFlags: true}

// coreutilsBackup is the backup of cp, mv, ln and install (coreutils 9.1
// --help, "Backup options"): DEST+SUFFIX with -b/--backup[=CONTROL] or
// -S/--suffix, SUFFIX being -S's value, else SIMPLE_BACKUP_SUFFIX, else
// "~" (checked: `cp -S .X a b` makes b.X, SIMPLE_BACKUP_SUFFIX=.E cp -b
// makes b.E, and without -b no backup). A numbered backup (b.~1~) is
// beside DEST and not a name of its own.
var coreutilsBackup = BackupSpec{On: "b backup", Suffix: "S suffix", Default: "~", Env: "SIMPLE_BACKUP_SUFFIX", Control: "VERSION_CONTROL"}

// gitGlobal is git's options before the subcommand (git(1) OPTIONS); git
// matches them exactly.
// awsGlobal are the aws CLI's global options that take a value (they may
// follow the subcommands too).
var awsGlobal = OptSpec{Long: "profile= region= output= endpoint-url= query= color= ca-bundle= cli-read-timeout= cli-connect-timeout= cli-binary-format= debug no-verify-ssl no-paginate no-sign-request no-cli-pager", Partial: true}

// awsS3Transfer are the options of aws s3 cp|mv|sync.
// svnOpts are Subversion's value-taking options (global and of the
// subcommands; svn reads them before or after the subcommand).
var hgOpts = OptSpec{Short: "RrublteIXmd", Long: "repository= cwd= config= rev= updaterev= branch= limit= template= type= include= exclude= prefix= message= date= user= ssh= remotecmd= encoding= style=", Partial: true, Abbrev: true}

var svnOpts = OptSpec{Short: "rmFxcl", Long: "username= password= config-dir= config-option= revision= depth= set-depth= native-eol= message= file= targets= encoding= changelist= cl= accept= diff-cmd= extensions= editor-cmd= limit= search=", Partial: true}

var awsS3Transfer = OptSpec{Long: awsGlobal.Long + " include= exclude= acl= grants= sse= sse-c= sse-c-key= sse-kms-key-id= sse-c-copy-source= sse-c-copy-source-key= storage-class= website-redirect= content-type= cache-control= content-disposition= content-encoding= content-language= expires= metadata= metadata-directive= expected-size= page-size= source-region= request-payer= checksum-mode= checksum-algorithm= copy-props= recursive dryrun quiet delete exact-timestamps size-only follow-symlinks no-follow-symlinks only-show-errors no-progress force-glacier-transfer ignore-glacier-warnings no-guess-mime-type", Partial: true}

var gitGlobal = OptSpec{Short: "Cc", Long: "git-dir= work-tree= namespace= super-prefix= config-env= attr-source= exec-path no-pager paginate bare literal-pathspecs glob-pathspecs noglob-pathspecs icase-pathspecs no-replace-objects no-lazy-fetch no-optional-locks no-advice html-path man-path info-path version help list-cmds", Stop: true}

// gitSubs are git's subcommands the guards look into; parse-options
// accepts unique abbreviations of their long options.
var gitSubs = []Program{
	{Name: "push", Synonyms: "send-pack", Kind: KindTool, Opts: OptSpec{Short: "o", Long: "all branches mirror tags follow-tags no-follow-tags atomic no-atomic dry-run porcelain delete prune force no-force force-with-lease no-force-with-lease force-if-includes no-force-if-includes repo= set-upstream thin no-thin quiet verbose progress no-progress no-verify verify receive-pack= exec= recurse-submodules= no-recurse-submodules signed no-signed push-option= ipv4 ipv6", Abbrev: true},
		Runs: RunSpec{Shell: "receive-pack exec"}, RunExamples: []string{"--receive-pack='rm -rf b;:' . HEAD -> rm -rf b; :"},
		Examples: []string{"-fu origin main => -f -u | origin main", "--force-if origin => --force-if-includes | origin"}},
	{Name: "reset", Kind: KindTool, Opts: OptSpec{Long: "hard soft mixed merge keep quiet no-quiet recurse-submodules no-recurse-submodules pathspec-from-file= pathspec-file-nul patch intent-to-add no-refresh refresh", Abbrev: true}, Examples: []string{"--hard HEAD~1 => --hard | HEAD~1", "-q -- a.txt => -q | a.txt", "--soft HEAD^ => --soft | HEAD^"}},
	{Name: "clean", Kind: KindTool, Opts: OptSpec{Short: "e", Long: "force dry-run quiet exclude= interactive", Abbrev: true}, Examples: []string{"-e x -fd => -e=x -f -d |", "--dry -x => --dry-run -x |", "-fdx -- build => -f -d -x | build"}},
	{Name: "config", Kind: KindTool, Opts: OptSpec{Short: "f", Long: "global system local worktree file= blob= list get get-all get-regexp get-urlmatch replace-all add unset unset-all rename-section remove-section edit type= bool int bool-or-int path expiry-date null name-only includes no-includes show-origin show-scope default= comment= value= fixed-value all regexp url=", Abbrev: true},
		Examples: []string{"--global alias.x '!rm' => --global | alias.x !rm", "--file f k v => --file=f | k v"}},
	{Name: "checkout", Kind: KindWrite, Opts: OptSpec{Short: "bBU", Long: "force quiet ours theirs track no-track detach merge conflict= patch orphan= ignore-skip-worktree-bits ignore-other-worktrees overwrite-ignore no-overwrite-ignore recurse-submodules no-recurse-submodules pathspec-from-file= pathspec-file-nul progress no-progress guess no-guess overlay no-overlay inter-hunk-context= unified=", Abbrev: true}, Examples: []string{"-b feat origin/main => -b=feat | origin/main", "-- a.txt => | a.txt", "--det HEAD~1 => --detach | HEAD~1", "-fq main => -f -q | main", "-bfeat => -b=feat |", "--track origin/x => --track | origin/x"}},
	{Name: "restore", Kind: KindWrite, Opts: OptSpec{Short: "sU", Long: "source= staged worktree patch ours theirs merge conflict= ignore-unmerged ignore-skip-worktree-bits recurse-submodules no-recurse-submodules overlay no-overlay quiet progress no-progress pathspec-from-file= pathspec-file-nul inter-hunk-context= unified=", Abbrev: true}, Examples: []string{"-s HEAD~1 a.txt => -s=HEAD~1 | a.txt", "--staged --worktree f => --staged --worktree | f", "--sou=main f => --source=main | f", "-- . => | .", "-sHEAD f => -s=HEAD | f", "--source HEAD -- f => --source=HEAD | f"}},
	{Name: "switch", Kind: KindTool, Opts: OptSpec{Short: "cC", Long: "create= force-create= detach guess no-guess discard-changes force merge conflict= quiet progress no-progress track no-track orphan= ignore-other-worktrees recurse-submodules no-recurse-submodules", Abbrev: true}, Examples: []string{"-c feat => -c=feat |", "--detach v1 => --detach | v1", "--crea=feat main => --create=feat | main", "-cfeat main => -c=feat | main", "--create feat => --create=feat |"}},
	{Name: "branch", Kind: KindTool, Opts: OptSpec{Short: "u", Long: "delete force move copy list all remotes verbose quiet track no-track set-upstream-to= unset-upstream contains= no-contains= merged= no-merged= sort= points-at= format= column no-column color no-color abbrev no-abbrev edit-description create-reflog show-current ignore-case omit-empty recurse-submodules", Abbrev: true}, Examples: []string{"-D old => -D | old", "-u origin/main => -u=origin/main |", "--set-upstream-to origin/main b => --set-upstream-to=origin/main | b", "-m old new => -m | old new", "-uorigin/main => -u=origin/main |", "-- -x => | -x"}},
	{Name: "commit", Kind: KindTool, Opts: OptSpec{Short: "mFCct", Long: "amend all author= allow-empty allow-empty-message branch cleanup= date= dry-run edit no-edit file= fixup= gpg-sign no-gpg-sign include interactive long message= no-verify verify only patch porcelain quiet reedit-message= reuse-message= reset-author short signoff no-signoff squash= status no-status template= trailer= untracked-files verbose null pathspec-from-file= pathspec-file-nul no-post-rewrite ahead-behind no-ahead-behind", Abbrev: true}, Examples: []string{"-am x => -a -m=x |", "--amend --no-edit => --amend --no-edit |", "-F msg.txt => -F=msg.txt |", "--fixup=HEAD~1 => --fixup=HEAD~1 |", "-m x -- a.go => -m=x | a.go", "--mess x => --message=x |", "-C HEAD --reset-author => -C=HEAD --reset-author |", "-mfix -- a.go => -m=fix | a.go"}},
	{Name: "add", Synonyms: "stage", Kind: KindTool, Opts: OptSpec{Long: "all no-all ignore-removal no-ignore-removal update dry-run verbose force interactive patch edit intent-to-add refresh ignore-errors ignore-missing renormalize chmod= sparse pathspec-from-file= pathspec-file-nul no-warn-embedded-repo", Abbrev: true}, Examples: []string{"-A . => -A | .", "--dry -v x => --dry-run -v | x", "--chmod=+x f => --chmod=+x | f", "-- -f => | -f", "-pN f => -p -N | f"}},
	// read-tree [-m|--reset] [-u] TREE…: with -u it writes the worktree
	{Name: "read-tree", Kind: KindTool, Opts: OptSpec{Long: "reset prefix= index-output= exclude-per-directory= trivial aggressive dry-run no-sparse-checkout recurse-submodules empty quiet", Abbrev: true},
		Writes: WriteSpec{Dirs: "prefix", If: "u"}, WriteExamples: []string{"--prefix=d/ -u T -> d/", "--prefix=d/ T -> "},
		Examples: []string{"-u --reset HEAD => -u --reset | HEAD"}},
	// for-each-ref --format=FORMAT [PATTERN…]: prints a line per ref (forEachRefOutput)
	{Name: "for-each-ref", Kind: KindRead, Opts: OptSpec{Long: "format= count= sort= points-at= merged= no-merged= contains= no-contains= exclude= shell perl python tcl color ignore-case omit-empty stdin", Partial: true, Abbrev: true},
		Examples: []string{"--sort -refname --count 2 => --sort=-refname --count=2 |"}},
	{Name: "update-ref", Kind: KindTool, Opts: OptSpec{Short: "m", Long: "delete no-deref stdin create-reflog", Abbrev: true}, Examples: []string{"-d refs/heads/x => -d | refs/heads/x", "-m msg refs/heads/x HEAD => -m=msg | refs/heads/x HEAD", "--stdin => --stdin |", "-mmsg refs/x HEAD => -m=msg | refs/x HEAD"}},
	{Name: "ls-files", Kind: KindRead, Opts: OptSpec{Short: "xX", Long: "exclude= exclude-from= exclude-per-directory= with-tree= format= abbrev", Partial: true, Abbrev: true}, Examples: []string{"-X .gitignore -o => -X=.gitignore -o |", "--exclude='*.o' -i => --exclude=*.o -i |"}},
	{Name: "rm", Kind: KindWrite, Opts: OptSpec{Long: "pathspec-from-file= cached force dry-run quiet ignore-unmatch sparse pathspec-file-nul", Abbrev: true}, Examples: []string{"-r --cached d => -r --cached | d", "-rf d => -r -f | d", "--dry d => --dry-run | d", "-- -f => | -f"}},
	{Name: "mv", Kind: KindWrite, Opts: OptSpec{Long: "force dry-run verbose sparse", Abbrev: true}, Examples: []string{"-f a b => -f | a b", "--dry a b => --dry-run | a b", "-k a b => -k | a b"}},
	{Name: "apply", Kind: KindWrite, Opts: OptSpec{Short: "pC", Long: "directory= include= exclude= whitespace= build-fake-ancestor= cached check stat numstat summary apply", Partial: true, Abbrev: true}, Examples: []string{"-p1 --check d.patch => -p=1 --check | d.patch", "--directory=sub d.patch => --directory=sub | d.patch", "-C 3 d.patch => -C=3 | d.patch", "-p 2 d.patch => -p=2 | d.patch", "--direc sub d.patch => --directory=sub | d.patch"}},
	{Name: "clone", Kind: KindWrite, Opts: OptSpec{Short: "obuc", Long: "origin= branch= upload-pack= reference= reference-if-able= separate-git-dir= depth= shallow-since= shallow-exclude= config= server-option= jobs= filter= template= bundle-uri= ref-format= mirror bare", Partial: true, Abbrev: true},
		// --separate-git-dir=DIR puts the repository in DIR (git-clone(1))
		Writes: WriteSpec{Dirs: "separate-git-dir"}, WriteExamples: []string{"--separate-git-dir=spec/g URL d -> spec/g", "--separate-git-dir spec/g URL -> spec/g", "URL d -> "},
		Runs: RunSpec{Shell: "u upload-pack"}, Examples: []string{"--depth 1 -b main URL d => --depth=1 -b=main | URL d", "--bare URL => --bare | URL", "-c core.x=1 -o up URL => -c=core.x=1 -o=up | URL", "--branch=main URL => --branch=main | URL", "-bmain URL => -b=main | URL", "--depth=1 -- URL d => --depth=1 | URL d"}, RunExamples: []string{"-u 'rm -rf b;:' URL -> rm -rf b; :", "URL d -> "}},
	// programs whose option runs git's other end through the shell
	{Name: "ls-remote", Names: "fetch-pack", Kind: KindRead, Opts: OptSpec{Long: "upload-pack= exec=", Partial: true, Abbrev: true}, Runs: RunSpec{Shell: "upload-pack exec"}, Examples: []string{"--upload-pack=x origin => --upload-pack=x | origin", "origin => | origin"}, RunExamples: []string{"--upload-pack='rm -rf b;:' origin -> rm -rf b; :"}},
	{Name: "grep", Kind: KindRead, Opts: OptSpec{Short: "efABCm", ShortOpt: "O", Long: "open-files-in-pager max-depth= threads= context= after-context= before-context= max-count=", Partial: true, Abbrev: true}, Runs: RunSpec{Shell: "O open-files-in-pager"},
		RunExamples: []string{"--open-files-in-pager='rm -rf b;:' x -> rm -rf b; :", "-n TODO -> "}, Examples: []string{"-n TODO => -n | TODO", "-e x -e y -- src => -e=x -e=y | src", "-C 2 -m 1 TODO => -C=2 -m=1 | TODO", "-Ovim TODO => -O=vim | TODO", "-eTODO => -e=TODO |", "--max-depth 1 TODO => --max-depth=1 | TODO"}},
	{Name: "worktree", Kind: KindWrite, Opts: OptSpec{Stop: true}, Subs: []Program{{Name: "add", Kind: KindWrite, Opts: OptSpec{Short: "bB", Long: "reason= orphan detach checkout no-checkout lock force", Partial: true, Abbrev: true}, Examples: []string{"-b feat ../wt main => -b=feat | ../wt main", "--orphan -b new ../wt => --orphan -b=new | ../wt", "--detach ../wt v1 => --detach | ../wt v1", "-bfeat ../wt => -b=feat | ../wt", "--reason x --lock ../wt => --reason=x --lock | ../wt"}},
		// remove [-f [-f]] WORKTREE: --force deletes a dirty (twice: a locked) worktree
		{Name: "remove", Kind: KindWrite, Opts: OptSpec{Long: "force", Abbrev: true}, Examples: []string{"../wt --forc => --force | ../wt", "-ff wt => -f -f | wt"}}}, Examples: []string{"list => list: |", "add ../wt main => add: | ../wt main"}},
	{Name: "init", Kind: KindWrite, Opts: OptSpec{Short: "b", Long: "template= separate-git-dir= object-format= ref-format= initial-branch= shared bare quiet", Partial: true, Abbrev: true},
		Writes: WriteSpec{Dirs: "separate-git-dir"}, WriteExamples: []string{"--separate-git-dir=spec/g d -> spec/g", "d -> "}, Examples: []string{"--bare repo.git => --bare | repo.git", "-b main d => -b=main | d", "--initial-branch=main -q d => --initial-branch=main -q | d"}},
	{Name: "difftool", Names: "mergetool", Kind: KindTool, Opts: OptSpec{Short: "xt", Long: "extcmd= tool= gui no-gui prompt no-prompt dir-diff trust-exit-code symlinks tool-help", Partial: true, Abbrev: true},
		Runs: RunSpec{Shell: "x extcmd"}, RunExamples: []string{"-y -x 'rm -rf b' -> rm -rf b", "--extcmd='rm x' HEAD -> rm x"}, Examples: []string{"-y -x meld => -y -x=meld |", "--tool=vimdiff HEAD => --tool=vimdiff | HEAD", "-t meld --no-prompt => -t=meld --no-prompt |"}},
	// send-email runs the mail transport and the address commands through the shell
	{Name: "send-email", Kind: KindTool, Opts: OptSpec{Long: "sendmail-cmd= to-cmd= cc-cmd= header-cmd= smtp-server= from= to= cc= bcc= subject= in-reply-to= annotate compose", Partial: true, Abbrev: true},
		Runs: RunSpec{Shell: "sendmail-cmd to-cmd cc-cmd header-cmd"}, RunExamples: []string{"--sendmail-cmd='rm -rf b' a.patch -> rm -rf b", "--to-cmd=./who.sh --cc-cm 'rm x' a.patch -> who.sh; rm x", "--to=a@b a.patch -> "}, Examples: []string{"--to=a@b --annotate a.patch => --to=a@b --annotate | a.patch", "--smtp-server /usr/sbin/sendmail a.patch => --smtp-server=/usr/sbin/sendmail | a.patch"}},
	{Name: "rebase", Kind: KindTool, Opts: OptSpec{Short: "xsX", ShortOpt: "S", Long: "exec= onto= strategy= strategy-option= gpg-sign", Partial: true, Abbrev: true}, Examples: []string{"-x 'make' main => -x=make | main"}},
	{Name: "submodule", Kind: KindTool, Opts: OptSpec{Long: "quiet", Partial: true, Stop: true}, Subs: []Program{{Name: "foreach", Kind: KindRun, Opts: OptSpec{Long: "recursive quiet", Partial: true, Stop: true}, Examples: []string{"--recursive 'git pull' => --recursive | git pull", "git status => | git status"}},
		// submodule add [opts] [--] URL [PATH]: clones URL into PATH
		{Name: "add", Kind: KindWrite, Opts: OptSpec{Short: "b", Long: "branch= name= reference= depth= force quiet", Abbrev: true}, Writes: WriteSpec{Operand: 2}, Examples: []string{"-b main URL libs/x => -b=main | URL libs/x", "--name x --depth 1 URL => --name=x --depth=1 | URL"}, WriteExamples: []string{"URL libs/x -> libs/x", "-b main URL libs/x -> libs/x"}}}, Examples: []string{"status => status: |", "add URL libs/x => add: | URL libs/x"}},
	// merge-file [opts] CURRENT BASE OTHER: the merge is written over CURRENT
	{Name: "merge-file", Kind: KindWrite, Opts: OptSpec{Short: "L", Long: "stdout diff3 zdiff3 ours theirs union marker-size= diff-algorithm= object-id quiet", Abbrev: true},
		Writes: WriteSpec{First: true, Unless: "p stdout"}, Examples: []string{"-L a -L b -L c x y z => -L=a -L=b -L=c | x y z", "--std a b c => --stdout | a b c", "-p a b c => -p | a b c"}, WriteExamples: []string{"a base b -> a", "-p a base b -> "}},
	// checkout-index [opts] [--] FILE…: writes each FILE from the index
	// (over a changed one with -f), -a every tracked file, --prefix=DIR/ below DIR
	{Name: "checkout-index", Kind: KindWrite, Opts: OptSpec{Long: "all force prefix= stage= temp index no-create quiet stdin ignore-skip-worktree-bits", Abbrev: true},
		Writes: WriteSpec{All: true, Dirs: "prefix"}, Examples: []string{"-a -f => -a -f |", "-f -- a b => -f | a b"}, WriteExamples: []string{"-f -- a b -> a b", "--prefix=out/ -a -> out/"}},
	{Name: "bisect", Kind: KindTool, Opts: OptSpec{Stop: true}, Subs: []Program{{Name: "run", Kind: KindExec, Opts: OptSpec{Stop: true}, Examples: []string{"make test => | make test", "sh -c 'x' => | sh -c x"}}}, Examples: []string{"start HEAD v1 => start: | HEAD v1", "run make => run: | make"}},
	{Name: "reflog", Kind: KindTool, Opts: OptSpec{Stop: true}, Subs: []Program{{Name: "expire", Names: "delete", Kind: KindTool, Opts: OptSpec{Long: "expire= expire-unreachable= rewrite updateref stale-fix dry-run verbose all single-worktree", Abbrev: true}, Examples: []string{"--expire now --all => --expire=now --all |", "--expire-u=now --dry HEAD => --expire-unreachable=now --dry-run | HEAD", "--exp=now --all => --exp?=now --all |"}}, {Name: "show", Names: "exists list", Kind: KindRead, Examples: []string{"HEAD => | HEAD"}}}, Examples: []string{"expire --expire=now --all => expire: --expire=now --all |", "show HEAD => show: | HEAD"}},
	{Name: "filter-branch", Names: "filter-repo", Kind: KindTool, Examples: []string{"-f HEAD => -f | HEAD"}},
	// the diff family takes the diff option --output=FILE: the diff goes
	// to FILE (overwritten) instead of stdout
	{Name: "diff", Names: "log show whatchanged diff-files diff-index diff-tree range-diff", Kind: KindRead, Opts: OptSpec{Long: "output=", Partial: true, Abbrev: true},
		Writes: WriteSpec{Opts: "output"}, WriteExamples: []string{"--output=protocols/c.diff -> protocols/c.diff", "-1 --output SKILL.md -> SKILL.md", "HEAD~1 -> "}, Examples: []string{"--output=d.patch HEAD => --output=d.patch | HEAD", "--output d.patch HEAD => --output=d.patch | HEAD"}},
	{Name: "status", Names: "blame describe rev-parse symbolic-ref name-rev ls-tree cat-file shortlog reflog-show", Kind: KindRead, Opts: OptSpec{Partial: true, Abbrev: true}, Examples: []string{"-sb => -s -b |", "--short --branch => --short --branch |"}},
	{Name: "fetch", Names: "pull", Kind: KindTool, Opts: OptSpec{Long: "upload-pack=", Partial: true, Abbrev: true}, Runs: RunSpec{Shell: "upload-pack"}, Examples: []string{"--upload-pack=x origin => --upload-pack=x | origin", "origin main => | origin main"}, RunExamples: []string{"--upload-pack='rm x;:' origin -> rm x; :"}},
	// stash [push] [-p] [-S] [-k] [-u|-a] [-m MSG] [--pathspec-from-file=F] [--] [PATHSPEC…]
	{Name: "stash", Kind: KindTool, Opts: stashPush, Subs: []Program{{Name: "push", Kind: KindWrite, Opts: stashPush, Examples: []string{"-m wip -- a.txt => -m=wip | a.txt", "-u => -u |", "--keep -m x => --keep-index -m=x |"}},
		{Name: "save", Names: "list show pop apply drop clear branch create store", Kind: KindTool, Opts: OptSpec{Partial: true, Abbrev: true}, Examples: []string{"-q => -q |"}}},
		Examples: []string{"-- spec/ => | spec/", "push -m spec/x => push: -m=spec/x |"}},
	{Name: "merge", Names: "tag remote gc cherry-pick revert am notes lfs sparse-checkout maintenance help fsck prune repack", Kind: KindTool, Opts: OptSpec{Short: "m", Partial: true, Abbrev: true}, Examples: []string{"--no-ff feat => --no-ff | feat", "-m msg feat => -m=msg | feat", "--abort => --abort |"}},
	// writers of files named by an option or operand (git-archive(1),
	// git-format-patch(1), git-bundle(1))
	{Name: "archive", Kind: KindWrite, Opts: OptSpec{Short: "o", Long: "output= format= prefix= remote= exec= add-file= add-virtual-file= mtime= list verbose worktree-attributes", Partial: true, Abbrev: true},
		Runs: RunSpec{Shell: "exec"}, Examples: []string{"HEAD -o t/a.tar => -o=t/a.tar | HEAD", "--output x.zip HEAD => --output=x.zip | HEAD"}, RunExamples: []string{"--remote=URL --exec='rm -rf b;:' HEAD -> rm -rf b; :"}},
	// format-patch writes NNNN-SUBJECT.patch files into the directory it
	// runs in, or -o DIR's; --stdout and --output=FILE write none there
	// (checked: `cd sub && git format-patch -1` wrote sub/0001-….patch)
	{Name: "format-patch", Kind: KindWrite, Opts: OptSpec{Short: "ov", Long: "output-directory= output= reroll-count= subject-prefix= in-reply-to= to= cc= from= suffix= start-number= base= signature-file= cover-letter stdout numbered no-numbered", Partial: true, Abbrev: true},
		Writes: WriteSpec{Opts: "output", Cwd: "stdout output:;:*", CwdIn: "o output-directory"}, WriteExamples: []string{"-1 -> \x01unknown", "-o p -1 -> p/\x01unknown", "--stdout -1 -> ", "--output=x.patch -1 -> x.patch"},
		Examples: []string{"-o p/ HEAD~1 => -o=p/ | HEAD~1", "--output-directory=d -1 => --output-directory=d -1 |"}},
	{Name: "bundle", Kind: KindTool, Opts: OptSpec{Stop: true}, Subs: []Program{{Name: "create", Kind: KindWrite, Opts: OptSpec{Partial: true}, Examples: []string{"b.bundle main => | b.bundle main"}}, {Name: "verify", Names: "list-heads unbundle", Kind: KindRead, Examples: []string{"b.bundle => | b.bundle"}}}, Examples: []string{"create b.bundle main => create: | b.bundle main"}},
}

// claudeGlobal is the claude CLI's own options before a subcommand (those
// that take a value; `claude -p PROMPT`: the prompt is an operand).
var claudeGlobal = OptSpec{Long: "model= fallback-model= settings= setting-sources= mcp-config= add-dir= output-format= input-format= allowed-tools= allowedTools= disallowed-tools= disallowedTools= permission-mode= permission-prompt-tool= session-id= append-system-prompt= system-prompt= agents= plugin-dir= max-turns= debug=", Partial: true}

// claudeMCP is the grammar of claude mcp add|remove and plugin install:
// -s/--scope, -t/--transport, -e/--env, -H/--header take values.
var claudeMCP = OptSpec{Short: "steH", Long: "scope= transport= env= header= client-id= client-secret= callback-port=", Partial: true}

// stashPush is the grammar of git stash push (also of a bare `git stash
// [opts] -- PATHSPEC…`, git-stash(1)).
var stashPush = OptSpec{Short: "m", Long: "patch staged keep-index no-keep-index include-untracked all quiet message= pathspec-from-file= pathspec-file-nul", Abbrev: true}

// Docker's grammars (docker(1), docker-run(1), docker-compose(1)).
var (
	dockerGlobal  = OptSpec{Short: "Hcl", Long: "host= config= context= log-level= tlscacert= tlscert= tlskey= tls tlsverify debug", Partial: true, Stop: true}
	dockerExec    = OptSpec{Short: "euw", Long: "env= env-file= user= workdir= detach-keys= detach interactive tty privileged", Partial: true, Stop: true}
	dockerRun     = OptSpec{Short: "acepuvwlhm", Long: "add-host= annotation= attach= blkio-weight= blkio-weight-device= cap-add= cap-drop= cgroup-parent= cgroupns= cidfile= cpu-count= cpu-percent= cpu-period= cpu-quota= cpu-rt-period= cpu-rt-runtime= cpu-shares= cpus= cpuset-cpus= cpuset-mems= detach-keys= device= device-cgroup-rule= device-read-bps= device-read-iops= device-write-bps= device-write-iops= dns= dns-option= dns-search= domainname= entrypoint= env= env-file= expose= gpus= group-add= health-cmd= health-interval= health-retries= health-start-period= health-timeout= hostname= ip= ip6= ipc= isolation= kernel-memory= label= label-file= link= link-local-ip= log-driver= log-opt= mac-address= memory= memory-reservation= memory-swap= memory-swappiness= mount= name= network= network-alias= oom-score-adj= pid= pids-limit= platform= publish= pull= restart= runtime= security-opt= shm-size= stop-signal= stop-timeout= storage-opt= sysctl= tmpfs= ulimit= user= userns= uts= volume= volume-driver= volumes-from= workdir= net= publish-all= arch= os= variant= secret= pod= hooks-dir= rm detach interactive tty privileged init read-only", Partial: true, Stop: true}
	dockerMounts  = WriteSpec{Mounts: "v volume mount"}
	dockerExport  = WriteSpec{Exports: "o output"}
	dockerBuild   = OptSpec{Short: "tfo", Long: "tag= file= output= platform= build-arg= target= push load", Partial: true}
	composeGlobal = OptSpec{Short: "fp", Long: "file= project-name= project-directory= profile= env-file= ansi= parallel= progress=", Partial: true, Stop: true}
	composeRun    = OptSpec{Short: "euwlpv", Long: "env= user= workdir= label= publish= volume= name= entrypoint= index= cap-add= cap-drop= env-from-file= pull= rm detach no-deps service-ports", Partial: true, Stop: true}
	composeSubs   = []Program{{Name: "exec", Names: "run", Kind: KindRun, Opts: composeRun, Examples: []string{"-u root web sh => -u=root | web sh", "-T web ls => -T | web ls", "--rm -v ./d:/d web ls => --rm -v=./d:/d | web ls"}}, {Name: "push", Kind: KindTool, Examples: []string{"web => | web"}}}
)
