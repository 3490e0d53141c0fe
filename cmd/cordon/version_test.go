package main

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/cordonhq/cordon/engine"
)

// cordon version prints the module version that go install or go build
// stamped, and else what the build's VCS settings say.
func TestMainVersion(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "86e8f3e78e362c3da94d75b8efeaf18b0bba4982"
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "unknown"},
		{"a release", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"go install @latest before any tag", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261206205216-86e8f3e78e36"}}, "v0.0.0-20261206205216-86e8f3e78e36"},
		{"go build in a checkout with changes", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261206205216-86e8f3e78e36+dirty"},
			Settings: vcs("vcs.revision", rev, "vcs.modified", "true")}, "v0.0.0-20261206205216-86e8f3e78e36+dirty"},
		{"devel with VCS settings", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-12-06T20:52:16Z", "vcs.modified", "false")}, "devel+86e8f3e78e36 (2026-12-06)"},
		{"devel, modified", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", rev, "vcs.time", "2026-12-06T23:59:59-02:00", "vcs.modified", "true")}, "devel+86e8f3e78e36 (2026-12-07, modified)"},
		{"devel, revision only", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "abc1234")}, "devel+abc1234"},
		{"devel, modified without a time", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.modified", "true")}, "devel+86e8f3e78e36 (modified)"},
		{"devel without VCS settings (go run, -buildvcs=false)", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("-trimpath", "true")}, "devel"},
		{"an empty version", &debug.BuildInfo{}, "devel"},
	} {
		if got := mainVersion(c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// versionText's first line is that version.
	bi := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2026-12-06T20:52:16Z", "vcs.modified", "true")}
	if text := versionText(bi, engine.GuestInfo{}); !strings.HasPrefix(text, "cordon  devel+86e8f3e78e36 (2026-12-06, modified)\n") {
		t.Errorf("versionText: %q", text)
	}
}
