package shell_test

import (
	"context"
	"fmt"
	"os"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/vfs"
)

func ExampleRun() {
	fsys := vfs.New(vfs.Limits{})
	cfg := shell.Config{
		FS: fsys,
		Commands: command.Registry{
			// A tiny external command; real ones come from the
			// coreutils, textutils, awk and jq packages.
			"upper": func(env *command.Env) int {
				fmt.Fprintln(env.Stdout, "UPPER", env.Args[1:])
				return 0
			},
		},
		Stdout: os.Stdout,
		Stderr: os.Stdout,
	}
	script := `
greet() { printf 'hello, %s\n' "$1"; }
for name in alice bob; do greet "$name"; done > greetings.txt
while read -r line; do echo "read: $line"; done < greetings.txt
upper a b
nosuch
echo "status=$?"
`
	status, err := shell.Run(context.Background(), cfg, "script.sh", script)
	fmt.Println(status, err)
	// Output:
	// read: hello, alice
	// read: hello, bob
	// UPPER [a b]
	// script.sh: line 6: nosuch: command not found
	// status=127
	// 0 <nil>
}
