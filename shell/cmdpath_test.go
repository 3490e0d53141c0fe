package shell

import (
	"io/fs"
	"testing"
)

// TestPathScripts checks how scripts in $PATH are found and run: the
// executable ones in $PATH order (type -a -P lists them all); a file that
// is not executable is never run, and when it is the only one the command
// fails with "Permission denied", status 126, as in bash.
func TestPathScripts(t *testing.T) {
	files := func(c *Config) {
		for _, d := range []string{"a", "b", "c"} {
			if err := c.FS.MkdirAll("/workspace/"+d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		perms := map[string]fs.FileMode{"a/x": 0o644, "b/x": 0o755, "c/x": 0o755, "a/y": 0o644, "c/y": 0o644}
		for name, perm := range perms {
			// Each script prints its directory.
			if err := c.FS.WriteFile("/workspace/"+name, []byte("echo "+name[:1]+"\n"), perm); err != nil {
				t.Fatal(err)
			}
		}
	}
	const abc, ac = "PATH=/workspace/a:/workspace/b:/workspace/c; ", "PATH=/workspace/a:/workspace/c; "
	cases := []struct{ script, want string }{
		{abc + "x", "b\n"},
		{abc + "type -P x", "/workspace/b/x\n"},
		{abc + "type -a -P x", "/workspace/b/x\n/workspace/c/x\n"},
		{ac + "y; echo $?", "126\n"},
		// Nothing better: the file without execute permission, as bash
		// reports it.
		{ac + "type -P y", "/workspace/a/y\n"},
		{ac + "type -a -P y", "/workspace/a/y\n"},
	}
	for _, c := range cases {
		res := run(t, c.script, files)
		if res.stdout != c.want {
			t.Errorf("%q: got %q (status %d, stderr %q), want %q", c.script, res.stdout, res.status, res.stderr, c.want)
		}
	}
}
