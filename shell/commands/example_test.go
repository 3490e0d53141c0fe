package commands_test

import (
	"context"
	"fmt"
	"os"

	"github.com/cordonhq/cordon/shell"
	"github.com/cordonhq/cordon/shell/commands"
	"github.com/cordonhq/cordon/vfs"
)

// The shell with the sandbox's whole command set, outside the sandbox.
func ExampleAll() {
	cfg := shell.Config{
		FS:       vfs.New(vfs.Limits{}),
		Commands: commands.All(),
		Stdout:   os.Stdout,
		Stderr:   os.Stdout,
	}
	script := `
printf 'b 2\na 1\nc 3\n' > data.txt
sort data.txt | awk '{ s += $2 } END { print "sum", s }'
echo '{"name": "cordon", "tags": ["wasm", "opa"]}' | jq -r '.tags | join(",")'
diff <(printf 'a\nb\n') <(printf 'a\nc\n')
echo "diff status $?"
`
	status, err := shell.Run(context.Background(), cfg, "script.sh", script)
	fmt.Println(status, err)
	// Output:
	// sum 6
	// wasm,opa
	// 2c2
	// < b
	// ---
	// > c
	// diff status 1
	// 0 <nil>
}
