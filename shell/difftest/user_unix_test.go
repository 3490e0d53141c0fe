//go:build unix

package difftest

import (
	"os"
	"os/exec"
	"syscall"
)

// nobody is the user the reference runs as when the test runs as root:
// the sandbox's scripts are a normal user's, whose permission bits (chmod,
// test -w, a read-only file) are enforced, and root's are not.
const nobody = 65534

// asNormalUser makes cmd run as nobody, owning dir, when the test runs as
// root; otherwise it leaves cmd alone.
func asNormalUser(cmd *exec.Cmd, dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	if err := os.Chown(dir, nobody, nobody); err != nil {
		return err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return nil
}
