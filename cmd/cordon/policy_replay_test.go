package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/trace"
)

const whatifDir = "../../examples/whatif/"

// The example: the recorded policy changes nothing (exit 0), the
// tightened one denies the second customer list and asks about the two
// large transfers, the loosened one allows the transfer of 2000 (exit 1).
func TestPolicyReplayExample(t *testing.T) {
	code, stdout, stderr := cli(t, "", "policy", "replay", "--config", whatifDir+"recorded.yaml", whatifDir+"audit.log")
	if code != 0 || !strings.Contains(stdout, "6 calls decided again") || !strings.Contains(stdout, ": 0 changed") {
		t.Errorf("recorded policy: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	code, stdout, stderr = cli(t, "", "policy", "replay", "--config", whatifDir+"tightened.yaml", whatifDir+"audit.log")
	if code != 1 {
		t.Fatalf("tightened: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"(recorded under 49935cf6a356): 3 changed (allow→deny 1, →ask 2)",
		"audit.log:3  payments/transfer  allow→ask",
		"audit.log:4  payments/transfer  deny→ask",
		"audit.log:6  crm/customers/list  allow→deny",
		`params: {"to":"acct_1","amount":500,"currency":"EUR"}`,
		`old: deny: capability #0 "payments/transfer": amount <= 1000 does not hold (amount is 2000)`,
		`new: deny: capability #2 "crm": max_calls 1 used up`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("tightened: stdout lacks %q:\n%s", want, stdout)
		}
	}

	code, stdout, stderr = cli(t, "", "policy", "replay", "--json", "--config", whatifDir+"loosened.yaml", whatifDir+"audit.log")
	if code != 1 {
		t.Fatalf("loosened: exit %d, stderr %q", code, stderr)
	}
	var rep struct {
		Total struct {
			Calls       int `json:"calls"`
			Changed     int `json:"changed"`
			DenyToAllow int `json:"deny_to_allow"`
		} `json:"total"`
		ByMethod map[string]struct {
			DenyToAllow int `json:"deny_to_allow"`
		} `json:"by_method"`
		Changes []struct {
			Source string `json:"source"`
			New    struct {
				Decision   string `json:"decision"`
				Capability string `json:"capability"`
			} `json:"new"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("loosened --json: %v\n%s", err, stdout)
	}
	if rep.Total.Calls != 6 || rep.Total.Changed != 1 || rep.Total.DenyToAllow != 1 || rep.ByMethod["payments/transfer"].DenyToAllow != 1 ||
		len(rep.Changes) != 1 || !strings.HasSuffix(rep.Changes[0].Source, "audit.log:4") || rep.Changes[0].New.Capability != "transfers" {
		t.Errorf("loosened: %+v", rep)
	}

	// --max-changes 0 lists none, but still counts them and exits 1.
	code, stdout, _ = cli(t, "", "policy", "replay", "--max-changes", "0", "--config", whatifDir+"tightened.yaml", whatifDir+"audit.log")
	if code != 1 || strings.Contains(stdout, "params:") || !strings.Contains(stdout, "and 3 more changes") {
		t.Errorf("--max-changes 0: exit %d, stdout %q", code, stdout)
	}
}

// Rego given with --policy is loaded as `cordon run --policy` loads it.
func TestPolicyReplayRego(t *testing.T) {
	rego := writeFile(t, "deny.rego", `package cordon.authz

deny contains "transfers are frozen" if input.method == "payments/transfer"
`)
	code, stdout, stderr := cli(t, "", "policy", "replay", "--config", whatifDir+"recorded.yaml", "--policy", rego, whatifDir+"audit.log")
	if code != 1 || !strings.Contains(stdout, "3 changed (allow→deny 3)") || !strings.Contains(stdout, "transfers are frozen") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestPolicyReplayUsage(t *testing.T) {
	bad := writeFile(t, "bad.log", "{\"msg\":\"cordon: tool call decision\",\"method\":\"m\",\"decision\":\"allow\"}\n{not json}\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"policy", "replay", "--config", whatifDir + "tightened.yaml"}, "give one or more FILEs"},
		{[]string{"policy", "replay", whatifDir + "audit.log"}, "give the candidate policy"},
		{[]string{"policy", "replay", "--config", whatifDir + "tightened.yaml", "--max-changes", "-1", whatifDir + "audit.log"}, "--max-changes"},
		{[]string{"policy", "replay", "--config", whatifDir + "tightened.yaml", bad}, bad + ":2: not an audit record"},
		{[]string{"policy", "replay", "--config", whatifDir + "tightened.yaml", whatifDir + "tightened.yaml"}, "is neither a trace nor an audit log"},
		{[]string{"policy", "replay", "--config", whatifDir + "tightened.yaml", "/nonexistent/trace.json"}, "/nonexistent/trace.json"},
		{[]string{"policy", "replay", "--frob"}, "flag provided but not defined"},
	} {
		code, _, stderr := cli(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// A trace, written by package trace, is read beside an audit log: each
// file is told by its content, and a refused ask gives its charge back.
func TestPolicyReplayTrace(t *testing.T) {
	tr := &trace.Trace{Version: trace.Version, Language: "js", Code: "…", Session: "mcp-1", PolicyRevision: "r1",
		Calls: []trace.Call{
			{ID: 1, Method: "crm/customers/list", Params: json.RawMessage(`{}`), Decision: "allow"},
			{ID: 2, Method: "crm/customers/list", Params: json.RawMessage(`{}`), Decision: "ask", Outcome: "refused"},
			{ID: 3, Method: "crm/customers/list", Params: json.RawMessage(`{}`), Decision: "allow"},
		}}
	var buf bytes.Buffer
	if err := tr.Write(&buf); err != nil {
		t.Fatal(err)
	}
	file := writeFile(t, "run.trace.json", buf.String())
	// The tightened policy allows one customer list per session: in the
	// trace, the 2nd call was refused (not charged) and the 3rd flips.
	code, stdout, stderr := cli(t, "", "policy", "replay", "--config", whatifDir+"tightened.yaml", file, whatifDir+"audit.log")
	if code != 1 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"9 calls decided again", "run.trace.json#call 2  crm/customers/list  ask→deny", "old: ask, refused", "run.trace.json#call 3  crm/customers/list  allow→deny", "audit.log:6  crm/customers/list  allow→deny"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}
