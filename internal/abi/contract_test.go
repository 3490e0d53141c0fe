package abi

import "testing"

// TestContractLists: each list names each of its values once, Valid
// accepts exactly the listed values, and the values keep the spelling
// both sides and the policy rely on.
func TestContractLists(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range HostFuncs() {
		if f.Name == "" || seen[f.Name] || f.Params < 0 || f.Results < 0 || f.Results > 1 {
			t.Errorf("HostFuncs: %+v is empty, repeated or of a bad shape", f)
		}
		seen[f.Name] = true
	}
	if len(seen) != 6 {
		t.Errorf("HostFuncs lists %d functions, want 6", len(seen))
	}
	for _, l := range Langs() {
		if !l.Valid() {
			t.Errorf("Lang %q is listed but not Valid", l)
		}
	}
	for _, l := range []Lang{"", "JS", "javascript", "bash", "sh "} {
		if l.Valid() {
			t.Errorf("Lang %q is Valid", l)
		}
	}
	if LangJS != "js" || LangShell != "sh" {
		t.Error("the languages are spelled js and sh (engine.Language, the policy's input.language)")
	}
	kinds := map[ToolErrorKind]bool{}
	for _, k := range ToolErrorKinds() {
		if !k.Valid() || kinds[k] {
			t.Errorf("ToolErrorKind %q is repeated or not Valid", k)
		}
		kinds[k] = true
	}
	for _, k := range []ToolErrorKind{"", ToolInvalidResult, "Denied"} {
		if k.Valid() {
			t.Errorf("ToolErrorKind %q is Valid, but the host never sends it", k)
		}
	}
	codes := map[ErrCode]bool{"": true}
	for _, c := range ErrCodes() {
		if codes[c] {
			t.Errorf("ErrCode %q is empty or repeated", c)
		}
		codes[c] = true
	}
}
