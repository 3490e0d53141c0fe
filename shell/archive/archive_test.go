package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
	"github.com/cordonhq/cordon/vfs"
)

var files = map[string]string{
	"d/a.txt":     "hello\n",
	"d/s/b.txt":   "bee\n",
	"d/empty/":    "",
	"top.txt":     "top\n",
	"d/s/big.bin": strings.Repeat("0123456789", 5000),
}

// makeTar builds an archive of the given headers (and contents).
func makeTar(t *testing.T, entries []tar.Header, contents []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for i, h := range entries {
		h := h
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if i < len(contents) && contents[i] != "" {
			tw.Write([]byte(contents[i]))
		}
	}
	tw.Close()
	return buf.Bytes()
}

func readFile(t *testing.T, fsys *vfs.FS, name string) string {
	t.Helper()
	data, err := fsys.ReadFile("/workspace/" + name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(data)
}

func TestTarRoundTrip(t *testing.T) {
	cases := []struct {
		name   string
		create []string
		list   []string
		out    string
	}{
		{"plain", []string{"tar", "-cf", "x.tar", "d", "top.txt"}, []string{"tar", "-tf", "x.tar"},
			"d/\nd/a.txt\nd/empty/\nd/s/\nd/s/b.txt\nd/s/big.bin\ntop.txt\n"},
		{"gzip", []string{"tar", "-czf", "x.tgz", "d/s"}, []string{"tar", "-tzf", "x.tgz"}, "d/s/\nd/s/b.txt\nd/s/big.bin\n"},
		{"gzip autodetect", []string{"tar", "czf", "x.tgz", "top.txt"}, []string{"tar", "tf", "x.tgz"}, "top.txt\n"},
		{"old style", []string{"tar", "cf", "x.tar", "top.txt"}, []string{"tar", "tf", "x.tar"}, "top.txt\n"},
		{"directory option", []string{"tar", "-C", "d", "-cf", "x.tar", "s"}, []string{"tar", "-tf", "x.tar"}, "s/\ns/b.txt\ns/big.bin\n"},
		{"dot", []string{"tar", "-C", "d/s", "-cf", "x.tar", "."}, []string{"tar", "-tf", "x.tar"}, "./\n./b.txt\n./big.bin\n"},
		{"select", []string{"tar", "-cf", "x.tar", "d"}, []string{"tar", "-tf", "x.tar", "d/s"}, "d/s/\nd/s/b.txt\nd/s/big.bin\n"},
		{"exclude", []string{"tar", "--exclude=*.bin", "-cf", "x.tar", "d/s"}, []string{"tar", "-tf", "x.tar"}, "d/s/\nd/s/b.txt\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := commandtest.NewFS(t, files)
			r := commandtest.Run(t, Commands(), fsys, "", c.create...)
			if r.Status != 0 || r.Err != "" {
				t.Fatalf("%q: status %d, stderr %q", c.create, r.Status, r.Err)
			}
			r = commandtest.Run(t, Commands(), fsys, "", c.list...)
			if r.Out != c.out || r.Status != 0 {
				t.Fatalf("%q: got %q status %d (%s), want %q", c.list, r.Out, r.Status, r.Err, c.out)
			}
		})
	}
}

func TestTarExtract(t *testing.T) {
	fsys := commandtest.NewFS(t, files)
	if r := commandtest.Run(t, Commands(), fsys, "", "tar", "-czf", "x.tgz", "d", "top.txt"); r.Status != 0 {
		t.Fatal(r.Err)
	}
	fsys.MkdirAll("/workspace/out", 0o755)
	r := commandtest.Run(t, Commands(), fsys, "", "tar", "-xzvf", "x.tgz", "-C", "out")
	if r.Status != 0 || r.Err != "" {
		t.Fatalf("status %d: %s", r.Status, r.Err)
	}
	if r.Out != "d/\nd/a.txt\nd/empty/\nd/s/\nd/s/b.txt\nd/s/big.bin\ntop.txt\n" {
		t.Errorf("verbose output %q", r.Out)
	}
	for name, want := range files {
		if strings.HasSuffix(name, "/") {
			fi, err := fsys.Stat("/workspace/out/" + name)
			if err != nil || !fi.IsDir() {
				t.Errorf("%s: not a directory (%v)", name, err)
			}
			continue
		}
		if got := readFile(t, fsys, "out/"+name); got != want {
			t.Errorf("%s: got %d bytes, want %d", name, len(got), len(want))
		}
	}
	// -O writes the members to standard output; --strip-components drops
	// leading elements.
	r = commandtest.Run(t, Commands(), fsys, "", "tar", "-xOzf", "x.tgz", "d/a.txt", "top.txt")
	if r.Out != "hello\ntop\n" || r.Status != 0 {
		t.Errorf("-O: %q status %d %s", r.Out, r.Status, r.Err)
	}
	fsys.MkdirAll("/workspace/strip", 0o755)
	r = commandtest.Run(t, Commands(), fsys, "", "tar", "-xzf", "x.tgz", "-C", "strip", "--strip-components=1")
	if r.Status != 0 || readFile(t, fsys, "strip/s/b.txt") != "bee\n" {
		t.Errorf("--strip-components: status %d %s", r.Status, r.Err)
	}
	r = commandtest.Run(t, Commands(), fsys, "", "tar", "-tf", "x.tgz", "nope")
	if r.Status != 2 || r.Err != "tar: nope: Not found in archive\ntar: Exiting with failure status due to previous errors\n" {
		t.Errorf("missing member: status %d %q", r.Status, r.Err)
	}
}

func TestTarUsage(t *testing.T) {
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"tar", "-f", "x.tar"}, "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\n"},
		{[]string{"tar", "-cf", "x.tar"}, "tar: Cowardly refusing to create an empty archive\n"},
		{[]string{"tar", "-ctf", "x.tar", "d"}, "tar: You may not specify more than one"},
		{[]string{"tar", "-xf", "nope.tar"}, "tar: nope.tar: Cannot open: No such file or directory\n"},
		{[]string{"tar", "-xjf", "x.tar"}, "tar: only gzip compression"},
		{[]string{"tar", "-Q"}, "tar: invalid option -- 'Q'\n"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := commandtest.Run(t, Commands(), commandtest.NewFS(t, files), "", c.args...)
			if r.Status != 2 || !strings.HasPrefix(r.Err, c.err) {
				t.Errorf("status %d, stderr %q; want 2, %q", r.Status, r.Err, c.err)
			}
		})
	}
}

func TestTarCreateNames(t *testing.T) {
	fsys := commandtest.NewFS(t, files)
	r := commandtest.Run(t, Commands(), fsys, "", "tar", "-cf", "x.tar", "/workspace/top.txt", "../workspace/d/a.txt")
	if r.Status != 0 {
		t.Fatalf("status %d %s", r.Status, r.Err)
	}
	if r.Err != "tar: Removing leading `/' from member names\ntar: Removing leading `../' from member names\n" {
		t.Errorf("stderr %q", r.Err)
	}
	r = commandtest.Run(t, Commands(), fsys, "", "tar", "-tf", "x.tar")
	if r.Out != "workspace/top.txt\nworkspace/d/a.txt\n" {
		t.Errorf("names %q", r.Out)
	}
	// The archive is never archived into itself.
	r = commandtest.Run(t, Commands(), fsys, "", "tar", "-cf", "self.tar", ".")
	if !strings.Contains(r.Err, "tar: ./self.tar: file is the archive; not dumped\n") {
		t.Errorf("self: %q", r.Err)
	}
}

// TestTarHostile extracts archives built to escape or exhaust the
// sandbox: each bad entry is refused with a message, the status is 2, and
// nothing lands outside the target directory.
func TestTarHostile(t *testing.T) {
	now := time.Unix(1700000000, 0)
	reg := func(name string) tar.Header {
		return tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: 4, ModTime: now}
	}
	cases := []struct {
		name    string
		entries []tar.Header
		data    []string
		err     string
	}{
		{"dotdot", []tar.Header{reg("../evil")}, []string{"evil"}, "tar: ../evil: refusing to extract: name contains '..'\n"},
		{"inner dotdot", []tar.Header{reg("a/../../evil")}, []string{"evil"}, "tar: a/../../evil: refusing to extract: name contains '..'\n"},
		{"absolute", []tar.Header{reg("/etc/evil")}, []string{"evil"}, "tar: /etc/evil: refusing to extract: absolute name\n"},
		{"symlink", []tar.Header{{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd", ModTime: now}}, nil, "tar: link: refusing to extract: links are not allowed (link to /etc/passwd)\n"},
		{"hardlink", []tar.Header{{Name: "hard", Typeflag: tar.TypeLink, Linkname: "../x", ModTime: now}}, nil, "tar: hard: refusing to extract: links are not allowed (link to ../x)\n"},
		{"device", []tar.Header{{Name: "dev", Typeflag: tar.TypeChar, ModTime: now}}, nil, "tar: dev: refusing to extract: entry type '3' is not a file or directory\n"},
		{"backslash", []tar.Header{reg(`a\b`)}, []string{"evil"}, `tar: a\b: refusing to extract: invalid file name "a\\b": contains '\' which is not portable` + "\n"},
		{"control", []tar.Header{reg("a\x01")}, []string{"evil"}, `tar: "a\x01": refusing to extract: invalid file name "a\x01": contains the control character 0x01, which is not portable` + "\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			entries := append(c.entries, reg("ok.txt"))
			data := append(append([]string{}, c.data...), "good")
			for len(data) < len(entries) {
				data = append([]string{""}, data...)
			}
			fsys := commandtest.NewFS(t, map[string]string{"in/": ""})
			fsys.WriteFile("/workspace/x.tar", makeTar(t, entries, data), 0o644)
			before, _ := fsys.Usage()
			r := commandtest.Run(t, Commands(), fsys, "", "tar", "-xf", "x.tar", "-C", "in")
			if r.Status != 2 || r.Err != c.err+"tar: Exiting with failure status due to previous errors\n" {
				t.Errorf("status %d, stderr %q; want 2, %q", r.Status, r.Err, c.err)
			}
			// The good entry is extracted; nothing else appeared anywhere.
			if got := readFile(t, fsys, "in/ok.txt"); got != "good" {
				t.Errorf("ok.txt: %q", got)
			}
			after, _ := fsys.Usage()
			if after-before != 4 {
				t.Errorf("the file system grew by %d bytes, want 4", after-before)
			}
			for _, p := range []string{"/evil", "/workspace/evil", "/etc/evil", "/workspace/in/link", "/workspace/in/hard", "/workspace/in/dev"} {
				if _, err := fsys.Stat(p); err == nil {
					t.Errorf("%s exists", p)
				}
			}
		})
	}
}

func TestTarTruncatedAndHuge(t *testing.T) {
	full := makeTar(t, []tar.Header{{Name: "f", Typeflag: tar.TypeReg, Mode: 0o644, Size: 100000}}, []string{strings.Repeat("x", 100000)})
	huge := makeTar(t, []tar.Header{{Name: "f", Typeflag: tar.TypeReg, Mode: 0o644, Size: 1 << 40}}, nil)
	for name, data := range map[string][]byte{"truncated": full[:5000], "header only": full[:512], "huge declared size": append(huge, bytes.Repeat([]byte("x"), 600)...), "garbage": []byte(strings.Repeat("garbage!", 200))} {
		t.Run(name, func(t *testing.T) {
			fsys := commandtest.NewFS(t, nil)
			fsys.WriteFile("/workspace/x.tar", data, 0o644)
			r := commandtest.Run(t, Commands(), fsys, "", "tar", "-xf", "x.tar")
			if r.Status != 2 || !strings.Contains(r.Err, "tar: ") || !strings.HasSuffix(r.Err, "tar: Error is not recoverable: exiting now\n") {
				t.Errorf("status %d, stderr %q", r.Status, r.Err)
			}
		})
	}
}

// TestGzipBomb checks that decompression streams into the file system and
// stops at its quota: the data never sits in memory whole.
func TestGzipBomb(t *testing.T) {
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range 64 {
		zw.Write(zero)
	}
	zw.Close()
	var tbomb bytes.Buffer
	tw := tar.NewWriter(&tbomb)
	tw.WriteHeader(&tar.Header{Name: "z", Typeflag: tar.TypeReg, Mode: 0o644, Size: 64 << 20})
	for range 64 {
		tw.Write(zero)
	}
	tw.Close()
	var tgz bytes.Buffer
	zw, _ = gzip.NewWriterLevel(&tgz, gzip.BestCompression)
	zw.Write(tbomb.Bytes())
	zw.Close()

	const quota = 4 << 20
	cases := []struct {
		name string
		data []byte
		args []string
		err  string
	}{
		{"gunzip", bomb.Bytes(), []string{"gunzip", "bomb.gz"}, "gunzip: bomb.gz: No space left on device\n"},
		{"tar", tgz.Bytes(), []string{"tar", "-xzf", "bomb.gz"}, "tar: z: Cannot write: No space left on device\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := vfs.New(vfs.Limits{MaxBytes: quota}, vfs.WithClock(commandtest.Now))
			fsys.MkdirAll("/workspace", 0o755)
			if err := fsys.WriteFile("/workspace/bomb.gz", c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			r := commandtest.Run(t, Commands(), fsys, "", c.args...)
			if r.Status == 0 || !strings.HasPrefix(r.Err, c.err) {
				t.Errorf("status %d, stderr %q; want %q", r.Status, r.Err, c.err)
			}
			if used, _ := fsys.Usage(); used > quota {
				t.Errorf("usage %d over the quota", used)
			}
			if c.name == "gunzip" {
				if _, err := fsys.Stat("/workspace/bomb"); err == nil {
					t.Error("the partial output was left behind")
				}
			}
		})
	}
	// Streaming to standard output is bounded by the context, not memory.
	fsys := commandtest.NewFS(t, nil)
	fsys.WriteFile("/workspace/bomb.gz", bomb.Bytes(), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := commandtest.RunCtx(ctx, t, Commands(), fsys, strings.NewReader(""), "zcat", "bomb.gz")
	if r.Status != command.StatusCanceled {
		t.Errorf("zcat canceled: status %d", r.Status)
	}
}

func TestGzip(t *testing.T) {
	fsys := commandtest.NewFS(t, map[string]string{"f": "some text\nsome text\n", "g.gz": "not gzip"})
	r := commandtest.Run(t, Commands(), fsys, "", "gzip", "f")
	if r.Status != 0 {
		t.Fatalf("gzip: %d %s", r.Status, r.Err)
	}
	if _, err := fsys.Stat("/workspace/f"); err == nil {
		t.Error("gzip kept f without -k")
	}
	r = commandtest.Run(t, Commands(), fsys, "", "zcat", "f.gz")
	if r.Out != "some text\nsome text\n" {
		t.Errorf("zcat: %q", r.Out)
	}
	r = commandtest.Run(t, Commands(), fsys, "", "gunzip", "-k", "f.gz")
	if r.Status != 0 || readFile(t, fsys, "f") != "some text\nsome text\n" {
		t.Errorf("gunzip -k: %d %s", r.Status, r.Err)
	}
	r = commandtest.Run(t, Commands(), fsys, "", "gunzip", "f.gz")
	if r.Status != 2 || r.Err != "gunzip: f already exists;\tnot overwritten\n" {
		t.Errorf("exists: %d %q", r.Status, r.Err)
	}
	r = commandtest.Run(t, Commands(), fsys, "", "gzip", "-d", "g.gz")
	if r.Status != 1 || r.Err != "gzip: g.gz: not in gzip format\n" {
		t.Errorf("bad data: %d %q", r.Status, r.Err)
	}
	if _, err := fsys.Stat("/workspace/g"); err == nil {
		t.Error("partial output of bad data left behind")
	}
	r = commandtest.Run(t, Commands(), fsys, "", "gzip", "-d", "f")
	if r.Status != 2 || r.Err != "gzip: f: unknown suffix -- ignored\n" {
		t.Errorf("suffix: %d %q", r.Status, r.Err)
	}
	r = commandtest.Run(t, Commands(), fsys, "", "gzip", "-c", "nope")
	if r.Status != 1 || r.Err != "gzip: nope: No such file or directory\n" {
		t.Errorf("missing: %d %q", r.Status, r.Err)
	}
	r = commandtest.Run(t, Commands(), fsys, "abc", "gzip")
	r2 := commandtest.Run(t, Commands(), fsys, r.Out, "gzip", "-d")
	if r2.Out != "abc" {
		t.Errorf("stdin round trip: %q", r2.Out)
	}
	// A truncated stream is an error.
	r2 = commandtest.Run(t, Commands(), fsys, r.Out[:len(r.Out)-6], "gzip", "-d")
	if r2.Status != 1 || r2.Err != "gzip: stdin: unexpected end of file\n" {
		t.Errorf("truncated: %d %q", r2.Status, r2.Err)
	}
}

// TestArchivesWithGNU checks that GNU tar and gzip read what these
// commands write, and the other way around, and that listings match.
func TestArchivesWithGNU(t *testing.T) {
	tarTool := commandtest.Tool(t, "tar")
	gzipTool := commandtest.Tool(t, "gzip")
	fsys := commandtest.NewFS(t, files)
	host := commandtest.Mirror(t, fsys, files)
	compared := 0

	// Ours → GNU.
	if r := commandtest.Run(t, Commands(), fsys, "", "tar", "-czf", "ours.tgz", "d", "top.txt"); r.Status != 0 {
		t.Fatal(r.Err)
	}
	data, _ := fsys.ReadFile("/workspace/ours.tgz")
	os.WriteFile(filepath.Join(host.Dir, "ours.tgz"), data, 0o644)
	for _, args := range [][]string{{"-tzf", "ours.tgz"}, {"-tvzf", "ours.tgz"}} {
		want := host.Run(t, "", tarTool, args...)
		got := commandtest.Run(t, Commands(), fsys, "", append([]string{"tar"}, args...)...)
		compared++
		if got.Out != want.Out || got.Status != want.Status {
			t.Errorf("tar %q: got %q (%d), GNU %q (%d) %s", args, got.Out, got.Status, want.Out, want.Status, want.Err)
		}
	}
	os.MkdirAll(filepath.Join(host.Dir, "x"), 0o755)
	if r := host.Run(t, "", tarTool, "-xzf", "ours.tgz", "-C", "x"); r.Status != 0 {
		t.Fatalf("GNU tar cannot extract ours: %s", r.Err)
	}
	for name, want := range files {
		if strings.HasSuffix(name, "/") {
			continue
		}
		got, err := os.ReadFile(filepath.Join(host.Dir, "x", name))
		compared++
		if err != nil || string(got) != want {
			t.Errorf("GNU-extracted %s: %v", name, err)
		}
	}
	// GNU → ours.
	if r := host.Run(t, "", tarTool, "--owner=user:1000", "--group=user:1000", "-czf", "gnu.tgz", "d", "top.txt"); r.Status != 0 {
		t.Fatal(r.Err)
	}
	data, _ = os.ReadFile(filepath.Join(host.Dir, "gnu.tgz"))
	fsys.WriteFile("/workspace/gnu.tgz", data, 0o644)
	for _, args := range [][]string{{"-tvzf", "gnu.tgz", "d/s/b.txt", "top.txt"}} {
		want := host.Run(t, "", tarTool, args...)
		got := commandtest.Run(t, Commands(), fsys, "", append([]string{"tar"}, args...)...)
		compared++
		if got.Out != want.Out || got.Status != want.Status {
			t.Errorf("tar %q: got %q (%d), GNU %q (%d)", args, got.Out, got.Status, want.Out, want.Status)
		}
	}
	fsys.MkdirAll("/workspace/y", 0o755)
	if r := commandtest.Run(t, Commands(), fsys, "", "tar", "-xzf", "gnu.tgz", "-C", "y"); r.Status != 0 {
		t.Fatalf("cannot extract GNU's: %s", r.Err)
	}
	for name, want := range files {
		if !strings.HasSuffix(name, "/") {
			compared++
			if got := readFile(t, fsys, "y/"+name); got != want {
				t.Errorf("extracted %s differs", name)
			}
		}
	}
	// gzip both ways, and gzip -l.
	if r := commandtest.Run(t, Commands(), fsys, "", "gzip", "-k", "top.txt"); r.Status != 0 {
		t.Fatal(r.Err)
	}
	data, _ = fsys.ReadFile("/workspace/top.txt.gz")
	os.WriteFile(filepath.Join(host.Dir, "ours.gz"), data, 0o644)
	if r := host.Run(t, "", gzipTool, "-dc", "ours.gz"); r.Out != "top\n" {
		t.Errorf("GNU gzip reads ours: %q %s", r.Out, r.Err)
	}
	host.Run(t, "", gzipTool, "-k", "d/s/big.bin")
	data, _ = os.ReadFile(filepath.Join(host.Dir, "d/s/big.bin.gz"))
	fsys.WriteFile("/workspace/big.bin.gz", data, 0o644)
	os.Rename(filepath.Join(host.Dir, "d/s/big.bin.gz"), filepath.Join(host.Dir, "big.bin.gz"))
	if r := commandtest.Run(t, Commands(), fsys, "", "zcat", "big.bin.gz"); r.Out != files["d/s/big.bin"] {
		t.Errorf("zcat of GNU's gzip: %d bytes", len(r.Out))
	}
	want := host.Run(t, "", gzipTool, "-l", "big.bin.gz", "ours.gz")
	fsys.WriteFile("/workspace/ours.gz", data0(t, host, "ours.gz"), 0o644)
	got := commandtest.Run(t, Commands(), fsys, "", "gzip", "-l", "big.bin.gz", "ours.gz")
	compared += 3
	if got.Out != want.Out {
		t.Errorf("gzip -l: got\n%s\nGNU\n%s", got.Out, want.Out)
	}
	t.Logf("%d comparisons with GNU tar and gzip matched", compared)
}

func data0(t *testing.T, h commandtest.Host, name string) []byte {
	data, err := os.ReadFile(filepath.Join(h.Dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
