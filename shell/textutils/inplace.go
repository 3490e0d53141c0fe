package textutils

import (
	"path"
	"strconv"

	"github.com/cordonhq/cordon/shell/command"
)

// replaceFile gives the file name the contents data the way sed -i does:
// it writes a new file beside it and renames it over the old one, so that
// a read-only file in a writable directory is replaced too, and the new
// file keeps the old one's permission bits.
func replaceFile(env *command.Env, name string, data []byte) error {
	fi, err := env.FS.Stat(name)
	if err != nil {
		return env.FS.WriteFile(name, data, 0)
	}
	dir := path.Dir(name)
	var tmp string
	for i := 0; ; i++ {
		tmp = path.Join(dir, ".sed"+strconv.Itoa(i)+".tmp")
		if _, err := env.FS.Stat(tmp); err != nil || i > 1000 {
			break
		}
	}
	if err := env.FS.WriteFile(tmp, data, 0); err != nil {
		// Not a writable directory: write the file in place if it is.
		return env.FS.WriteFile(name, data, 0)
	}
	if err := env.FS.Chmod(tmp, fi.Mode()); err != nil {
		env.FS.Remove(tmp)
		return err
	}
	if err := env.FS.Rename(tmp, name); err != nil {
		env.FS.Remove(tmp)
		return err
	}
	return nil
}
