// Command vfs shows the sandbox file system: the host seeds files, scripts
// build on each other's results across executions, and the host exports the
// workspace as a tar archive at the end.
//
//	go run ./examples/vfs
package main

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/cordonhq/cordon/engine"
)

func run(ctx context.Context, w io.Writer) error {
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		return err
	}
	defer eng.Close(ctx)
	sb, err := eng.NewSandbox(ctx, engine.SandboxConfig{})
	if err != nil {
		return err
	}
	defer sb.Close(ctx)

	// region seed
	// The host seeds read-only reference data and a writable input.
	if err := sb.WriteFile(ctx, "/data/prices.csv", []byte("sku,price\nA1,39.5\nC3,9.25\n")); err != nil {
		return err
	}
	if err := sb.WriteFile(ctx, "/workspace/orders.csv", []byte("sku,qty\nA1,2\nC3,10\nA1,1\n")); err != nil {
		return err
	}
	// endregion

	steps := []string{
		// Execution 1: parse and save an intermediate result.
		`const rows = fs.readFileSync('orders.csv', 'utf8').trim().split('\n').slice(1).map(l => l.split(','))
const qty = {}
for (const [sku, q] of rows) qty[sku] = (qty[sku] || 0) + Number(q)
fs.writeFileSync('qty.json', JSON.stringify(qty))
return qty`,
		// Execution 2: a later script builds on it (the VFS persists).
		`const qty = JSON.parse(await fs.readFile('qty.json'))
const prices = Object.fromEntries(fs.readFileSync('/data/prices.csv', 'utf8').trim().split('\n').slice(1).map(l => l.split(',')))
const total = Object.entries(qty).reduce((t, [sku, q]) => t + q * Number(prices[sku]), 0)
await fs.mkdir('out', {recursive: true})
await fs.writeFile('out/total.txt', total.toFixed(2) + '\n')
try { fs.writeFileSync('/data/prices.csv', 'tampered') } catch (e) { console.log('cannot change /data:', e.code) }
return total`,
	}
	for i, code := range steps {
		res, err := sb.Execute(ctx, engine.JavaScript, code)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "execution %d: %s%s", i+1, res.Stdout, res.Stderr)
	}

	// region export
	var archive bytes.Buffer
	if err := sb.ExportTar(ctx, &archive, "/workspace"); err != nil {
		return err
	}
	// endregion
	tr := tar.NewReader(&archive)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "exported %s (%d bytes)\n", h.Name, h.Size)
	}
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}
