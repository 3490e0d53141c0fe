package engine

// Hostile scripts against Files and ExportTar: whatever a script creates,
// the host can still take /workspace out, and the archive holds only names
// that extract safely with stock tools on Linux, macOS and Windows.

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

var (
	exportOnce   sync.Once
	exportEngine *Engine
	exportErr    error
)

// exportSandbox returns a new sandbox of an engine shared by the tests of
// this file.
func exportSandbox(t *testing.T, limits Limits) *Sandbox {
	t.Helper()
	exportOnce.Do(func() {
		exportEngine, exportErr = New(context.Background(), NewConfig().WithPool(0).WithLogger(slog.New(slog.DiscardHandler)))
	})
	if exportErr != nil {
		t.Fatal(exportErr)
	}
	sb, err := exportEngine.NewSandbox(context.Background(), SandboxConfig{Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close(context.Background()) })
	return sb
}

// windowsDevice matches the names Windows takes for devices. The test
// spells the rules out on its own rather than calling vfs.CheckName, so
// that it fails if the VFS stops enforcing them.
var windowsDevice = regexp.MustCompile(`(?i)^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$) *(\..*)?$`)

// portableElem reports why elem, one element of an archive name, would not
// extract under the same name everywhere, or "" if it would.
func portableElem(elem string) string {
	switch {
	case elem == "" || elem == "." || elem == "..":
		return "empty, . or .."
	case len(elem) > 255:
		return "longer than 255 bytes"
	case !utf8.ValidString(elem):
		return "not UTF-8"
	case strings.ContainsAny(elem, `\:<>"|?*`):
		return "a character Windows refuses or reads as a separator or drive"
	case strings.IndexFunc(elem, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return "a control character"
	case strings.HasSuffix(elem, ".") || strings.HasSuffix(elem, " "):
		return "a trailing dot or space"
	case windowsDevice.MatchString(elem):
		return "a Windows device name"
	}
	return ""
}

// exportAndCheck runs Files and ExportTar on /workspace, fails the test
// unless both succeed and every name in the archive is portable, and
// returns the archive's entries (directories end with "/").
func exportAndCheck(t *testing.T, sb *Sandbox) map[string]string {
	t.Helper()
	ctx := context.Background()
	files, err := sb.Files(ctx, "/workspace")
	if err != nil {
		t.Fatalf("Files(/workspace) after the script: %v", err)
	}
	for _, f := range files {
		if len(f.Path) > 4096 {
			t.Errorf("Files returned a path of %d bytes", len(f.Path))
		}
	}
	var buf bytes.Buffer
	if err := sb.ExportTar(ctx, &buf, "/workspace"); err != nil {
		t.Fatalf("ExportTar(/workspace) after the script: %v", err)
	}
	entries := map[string]string{}
	tr := tar.NewReader(&buf)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading the export: %v", err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(hdr.Name, "/")
		if path.IsAbs(name) || len(name) > 4096 {
			t.Errorf("archive name %q is absolute or longer than 4096 bytes", shortName(name))
		}
		for _, elem := range strings.Split(name, "/") {
			if why := portableElem(elem); why != "" {
				t.Errorf("archive name %q is not portable: element %q is %s", shortName(name), shortName(elem), why)
			}
		}
		entries[hdr.Name] = string(data)
	}
	if len(entries) != len(files)-1 { // the archive leaves /workspace itself out
		t.Errorf("the archive holds %d entries, Files %d", len(entries), len(files))
	}
	return entries
}

func shortName(s string) string {
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-40:]
	}
	return s
}

// deepTree describes a tree whose deepest file's path is a few bytes short
// of 4096: /workspace/d, 15 directories named with 255 bytes, and a file
// named with 200. It returns the directory path below d and the file name.
func deepTree() (dirs, leaf string) {
	seg := strings.Repeat("x", 255)
	dirs = strings.TrimSuffix(strings.Repeat(seg+"/", 15), "/")
	return dirs, strings.Repeat("f", 200) // /workspace/d/<dirs>/<leaf>: 4053 bytes
}

// A JavaScript script tries to build paths longer than 4096 bytes and names
// that are not portable, through every operation that creates or
// lengthens a path. Each attempt fails with the right code, and the
// host's export of /workspace, its own file included, still works.
func TestExportAfterHostileJS(t *testing.T) {
	ctx := context.Background()
	sb := exportSandbox(t, Limits{})
	if err := sb.WriteFile(ctx, "/workspace/host.txt", []byte("mine")); err != nil {
		t.Fatal(err)
	}
	dirs, leaf := deepTree()
	script := fmt.Sprintf(`const out = {};
const attempt = (label, f) => { try { f(); out[label] = 'ok' } catch (e) { out[label] = e.code || String(e) } };
const dirs = %q, leaf = %q;
fs.mkdirSync('/workspace/d/' + dirs, {recursive: true});
fs.writeFileSync('/workspace/d/' + dirs + '/' + leaf, 'deep');
// Renaming an ancestor lengthens every path below it: the first rename
// keeps the deepest at 4093 bytes, the second would make it 4112.
attempt('rename dir within', () => fs.renameSync('/workspace/d', '/workspace/d' + 'e'.repeat(40)));
const top = '/workspace/d' + 'e'.repeat(40);
attempt('rename dir too long', () => fs.renameSync(top, '/workspace/' + 'g'.repeat(60)));
attempt('rename file too long', () => fs.renameSync(top + '/' + dirs + '/' + leaf, top + '/' + dirs + '/' + 'h'.repeat(250)));
attempt('mkdir too long', () => fs.mkdirSync(top + '/' + dirs + '/' + 'n'.repeat(210)));
attempt('mkdir long name', () => fs.mkdirSync('n'.repeat(256)));
attempt('write long name', () => fs.writeFileSync('w'.repeat(256), 'x'));
attempt('copy long name', () => fs.copyFileSync('host.txt', 'c'.repeat(256)));
attempt('copy too long', () => fs.copyFileSync('host.txt', top + '/' + dirs + '/' + 'c'.repeat(210)));
for (const name of ['..\\..\\evil.bat', 'a:b', 'CON', 'con.txt', 'Lpt\u00b9.log', 'COM0', 'aux .c', 'CONIN$',
                    'x.', 'x ', 'a*b', 'a?b', 'a<b', 'a>b', 'a"b', 'a|b', 'tab\there', 'del\x7f']) {
  attempt('write ' + name, () => fs.writeFileSync(name, 'evil'));
  attempt('mkdir ' + name, () => fs.mkdirSync(name));
}
attempt('mkdir C:', () => fs.mkdirSync('C:'));
attempt('mkdir -p C:/x', () => fs.mkdirSync('C:/x', {recursive: true}));
attempt('rename to NUL', () => fs.renameSync('host.txt', 'NUL'));
attempt('copy to a|b.txt', () => fs.copyFileSync('host.txt', 'a|b.txt'));
return out`, dirs, leaf)
	res, err := sb.Execute(ctx, JavaScript, script)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("script failed: %s", res.Stderr)
	}
	var got map[string]string
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatalf("script value %s: %v", res.Value, err)
	}
	want := map[string]string{
		"rename dir within":    "ok",
		"rename dir too long":  "ENAMETOOLONG",
		"rename file too long": "ENAMETOOLONG",
		"mkdir too long":       "ENAMETOOLONG",
		"mkdir long name":      "ENAMETOOLONG",
		"write long name":      "ENAMETOOLONG",
		"copy long name":       "ENAMETOOLONG",
		"copy too long":        "ENAMETOOLONG",
		"mkdir C:":             "EINVAL",
		"mkdir -p C:/x":        "EINVAL",
		"rename to NUL":        "EINVAL",
		"copy to a|b.txt":      "EINVAL",
	}
	for _, name := range []string{`..\..\evil.bat`, "a:b", "CON", "con.txt", "Lpt\u00b9.log", "COM0", "aux .c", "CONIN$",
		"x.", "x ", "a*b", "a?b", "a<b", "a>b", `a"b`, "a|b", "tab\there", "del\x7f"} {
		want["write "+name], want["mkdir "+name] = "EINVAL", "EINVAL"
	}
	for label, code := range want {
		if got[label] != code {
			t.Errorf("%s: %q, want %q", label, got[label], code)
		}
	}
	entries := exportAndCheck(t, sb)
	if entries["host.txt"] != "mine" {
		t.Errorf("the host's file is missing from the export")
	}
	if entries["d"+strings.Repeat("e", 40)+"/"+dirs+"/"+leaf] != "deep" {
		t.Errorf("the deep file is missing from the export")
	}
}

// The same attempts from the shell: mkdir -p, touch, redirections, mv and
// cp -r fail with the shell's usual messages, and the export still works.
func TestExportAfterHostileShell(t *testing.T) {
	ctx := context.Background()
	sb := exportSandbox(t, Limits{})
	if err := sb.WriteFile(ctx, "/workspace/host.txt", []byte("mine")); err != nil {
		t.Fatal(err)
	}
	dirs, leaf := deepTree()
	e40, g60 := "d"+strings.Repeat("e", 40), strings.Repeat("g", 60)
	script := fmt.Sprintf(`cd /workspace
mkdir -p d/%[1]s && echo deep > d/%[1]s/%[2]s
mv d %[3]s && echo renamed
mv %[3]s %[4]s
cp -r %[3]s %[4]s
mv %[3]s/%[1]s/%[2]s %[3]s/%[1]s/%[5]s
mkdir %[6]s
echo x > %[6]s
touch 'a\b' '..\..\evil.bat' 'a:b' 'star*' 'q?' CON nul.txt 'x.' 'x ' $'ctl\x01' $'bad\xff' 'p|q' 'lt<' 'gt>' 'dq"'
mkdir C:
echo hi > C:/x
mkdir -p C:/y
mv host.txt LPT3.txt
cp host.txt 'COM1'
echo done`, dirs, leaf, e40, g60, strings.Repeat("h", 250), strings.Repeat("n", 256))
	res, err := sb.Execute(ctx, Shell, script)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Stdout, "renamed\n") || !strings.HasSuffix(res.Stdout, "done\n") {
		t.Errorf("stdout %q", res.Stdout)
	}
	for _, msg := range []string{
		"touch: cannot touch 'a\\b': Invalid argument",
		"touch: cannot touch '..\\..\\evil.bat': Invalid argument",
		"touch: cannot touch 'star*': Invalid argument",
		"touch: cannot touch 'CON': Invalid argument",
		"touch: cannot touch 'x ': Invalid argument",
		"touch: cannot touch 'bad\xff': Invalid argument",
		"mkdir: cannot create directory ‘C:’: Invalid argument",
		"File name too long",
	} {
		if !strings.Contains(res.Stderr, msg) {
			t.Errorf("stderr lacks %q:\n%s", msg, res.Stderr)
		}
	}
	if n := strings.Count(res.Stderr, "File name too long"); n < 5 {
		t.Errorf("%d refusals for length, want at least 5 (mv dir, cp -r, mv file, mkdir, >):\n%s", n, res.Stderr)
	}
	entries := exportAndCheck(t, sb)
	if entries["host.txt"] != "mine" || entries[e40+"/"+dirs+"/"+leaf] != "deep\n" {
		t.Errorf("the host's file or the deep file is missing from the export")
	}
}

// The host cannot create unportable names either: WriteFile, PutFiles and
// ImportTar fail with EINVAL or ENAMETOOLONG.
func TestHostCannotCreateUnportableNames(t *testing.T) {
	ctx := context.Background()
	sb := exportSandbox(t, Limits{})
	tarOf := func(names ...string) io.Reader {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, name := range names {
			if strings.HasSuffix(name, "/") {
				tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeDir, Mode: 0o755})
				continue
			}
			tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Size: 1, Mode: 0o644})
			tw.Write([]byte("x"))
		}
		tw.Close()
		return &buf
	}
	deep := strings.TrimSuffix(strings.Repeat(strings.Repeat("y", 255)+"/", 16), "/")
	cases := []struct {
		name string
		do   func() error
		code string
	}{
		{"WriteFile backslash", func() error { return sb.WriteFile(ctx, `/workspace/..\..\evil.bat`, nil) }, "EINVAL"},
		{"WriteFile drive", func() error { return sb.WriteFile(ctx, "/workspace/C:/x", nil) }, "EINVAL"},
		{"WriteFile device", func() error { return sb.WriteFile(ctx, "/data/aux.json", nil) }, "EINVAL"},
		{"WriteFile long name", func() error { return sb.WriteFile(ctx, "/workspace/"+strings.Repeat("z", 256), nil) }, "ENAMETOOLONG"},
		{"PutFiles dir", func() error {
			return sb.PutFiles(ctx, []File{{Path: "/workspace/what?", Mode: fs.ModeDir | 0o755}})
		}, "EINVAL"},
		{"ImportTar backslash", func() error { return sb.ImportTar(ctx, tarOf(`..\..\evil.bat`), "/workspace") }, "EINVAL"},
		{"ImportTar drive dir", func() error { return sb.ImportTar(ctx, tarOf("C:/", "C:/x"), "/workspace") }, "EINVAL"},
		{"ImportTar trailing dot", func() error { return sb.ImportTar(ctx, tarOf("dir./x"), "/workspace") }, "EINVAL"},
		{"ImportTar too deep", func() error { return sb.ImportTar(ctx, tarOf(deep), "/tmp") }, "ENAMETOOLONG"},
	}
	for _, tc := range cases {
		err := tc.do()
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindFile || e.Code != tc.code {
			t.Errorf("%s: %v, want a file error %s", tc.name, err, tc.code)
		}
	}
	if err := sb.WriteFile(ctx, "/workspace/fine name (1).txt", []byte("ok")); err != nil {
		t.Fatal(err)
	}
	if entries := exportAndCheck(t, sb); len(entries) != 1 || entries["fine name (1).txt"] != "ok" {
		t.Errorf("export after the refusals: %v", entries)
	}
}

// ExportTar checks every name itself, whatever the guest answers: an entry
// outside the exported directory or with an unportable name fails the
// export with KindInvalid, names the entry, and writes nothing.
func TestWriteTarRefusesUnportableNames(t *testing.T) {
	good := []File{
		{Path: "/workspace", Mode: fs.ModeDir | 0o755},
		{Path: "/workspace/sub", Mode: fs.ModeDir | 0o755},
		{Path: "/workspace/sub/a.txt", Mode: 0o644, Data: []byte("a")},
	}
	var buf bytes.Buffer
	if err := writeTar(&buf, "/workspace", good); err != nil {
		t.Fatalf("portable names: %v", err)
	}
	if buf.Len() == 0 {
		t.Fatal("nothing written for portable names")
	}
	for _, bad := range []string{
		`/workspace/..\..\evil.bat`,
		"/workspace/C:/x",
		"/workspace/C:",
		"/workspace/sub/nul.txt",
		"/workspace/COM¹",
		"/workspace/trailing.",
		"/workspace/trailing ",
		"/workspace/a*b",
		"/workspace/ctl\x01",
		"/workspace/bad\xff",
		"/workspace/" + strings.Repeat("l", 256),
		"/workspace/../etc/passwd",
		"/workspace//x",
		"/workspace/./x",
		"/etc/passwd",
		"/workspacefoo/x",
		"workspace/x",
	} {
		files := append(append([]File(nil), good...), File{Path: bad, Mode: 0o644, Data: []byte("evil")})
		var buf bytes.Buffer
		err := writeTar(&buf, "/workspace", files)
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindInvalid || !strings.Contains(e.Message, fmt.Sprintf("%q", bad)) {
			t.Errorf("%q: %v, want a KindInvalid error naming the entry", bad, err)
		}
		if buf.Len() != 0 {
			t.Errorf("%q: %d bytes written before the refusal", bad, buf.Len())
		}
	}
	// A file exported by its own path is named by its base name; the root
	// "/" exports everything below it.
	buf.Reset()
	if err := writeTar(&buf, "/workspace/sub/a.txt", good[2:]); err != nil {
		t.Fatal(err)
	}
	if hdr, err := tar.NewReader(&buf).Next(); err != nil || hdr.Name != "a.txt" {
		t.Errorf("single file: %v %v", hdr, err)
	}
	buf.Reset()
	if err := writeTar(&buf, "/", append([]File{{Path: "/", Mode: fs.ModeDir | 0o755}}, good...)); err != nil {
		t.Fatal(err)
	}
	if hdr, err := tar.NewReader(&buf).Next(); err != nil || hdr.Name != "workspace/" {
		t.Errorf("root: %v %v", hdr, err)
	}
}
