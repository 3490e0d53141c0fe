// Command codemode is the program of the code-mode guide
// (docs/codemode.md): a sandbox offered as the run_javascript and
// run_shell tools an agent calls, one session per conversation, and a
// call the policy asks about, paused until a person answers.
//
//	go run ./examples/codemode
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/cordonhq/cordon/codemode"
	"github.com/cordonhq/cordon/dsl"
	"github.com/cordonhq/cordon/engine"
	"github.com/cordonhq/cordon/policy/authz"
)

func run(ctx context.Context, w io.Writer) error {
	eng, err := engine.New(ctx, engine.NewConfig())
	if err != nil {
		return err
	}
	defer eng.Close(ctx)
	tools := []engine.Tool{{
		Name:        "payments/refund",
		Description: "Refund a charge",
		InputSchema: []byte(`{"type":"object","properties":{"charge":{"type":"string"},"amount":{"type":"number"}},"required":["charge","amount"]}`),
		Handler: engine.Func(func(_ context.Context, p map[string]any) (map[string]any, error) {
			return map[string]any{"refunded": p["amount"]}, nil
		}),
	}}
	pol, err := authz.New([]*dsl.Capability{
		dsl.Method("payments/refund").Where(dsl.Param("amount").Le(100)),
		dsl.Method("payments/refund").Ask(), // larger refunds: a person approves
	})
	if err != nil {
		return err
	}

	// region tool
	run := codemode.New(eng, engine.SandboxConfig{Tools: tools, Policy: pol}, nil) // run_javascript {"code": string}
	sh := run.Shell()                                                              // run_shell {"script": string}, same sessions
	defer run.CloseAll(ctx)

	// What a model sends, in one conversation: the two calls share a sandbox.
	conv := codemode.WithSession(ctx, "conversation-1")
	text, err := run.Call(conv, `{"code": "await fs.writeFile('note.txt', 'refund ch_1'); return 'saved'"}`)
	// endregion
	if err != nil {
		return err
	}
	fmt.Fprint(w, text)
	text, err = sh.Call(conv, `{"script": "echo \"note: $(cat note.txt)\"; tool payments/refund --charge ch_1 --amount 40"}`)
	if err != nil {
		return err
	}
	fmt.Fprint(w, text)

	// region pause
	res, err := run.Start(conv, `{"code": "return await payments.refund({charge: 'ch_2', amount: 500})"}`)
	if err != nil {
		return err
	}
	for res.Pause != nil { // the script waits, holding its sandbox and no CPU
		for _, ask := range res.Pause.Asks {
			fmt.Fprintln(w, ask.Display.Text) // what the person reads before deciding
		}
		res, err = run.Resume(conv, res.Pause.ID, codemode.Approval{Approve: true, Reason: "ok by ops"})
		if err != nil {
			return err
		}
	}
	// endregion
	fmt.Fprint(w, res.Text())
	return nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}
