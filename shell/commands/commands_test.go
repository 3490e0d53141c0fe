package commands

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/cordonhq/cordon/shell/command"
	"github.com/cordonhq/cordon/shell/command/commandtest"
)

func TestFamiliesDisjoint(t *testing.T) {
	owner := map[string]string{}
	for fam, reg := range Families() {
		if len(reg) == 0 {
			t.Errorf("family %s has no command", fam)
		}
		for name := range reg {
			if other, ok := owner[name]; ok {
				t.Errorf("command %s is in both %s and %s", name, other, fam)
			}
			owner[name] = fam
		}
	}
	if all := All(); len(all) != len(owner) {
		t.Errorf("All has %d commands, the families %d", len(all), len(owner))
	}
}

func TestAllIsNew(t *testing.T) {
	a := All()
	delete(a, "cat")
	if _, ok := All()["cat"]; !ok {
		t.Error("a change to one registry from All shows in the next")
	}
}

// longRunning lists, for every command of All, arguments that make it run
// for a long time (or forever) on the endless input, and whether it must
// then report the cancellation with a non-zero status (quick commands may
// finish first).
var longRunning = map[string]struct {
	args []string
	long bool
}{
	"cat":       {[]string{"cat"}, true},
	"curl":      {[]string{"curl", "http://example.com/"}, false},
	"wget":      {[]string{"wget", "-qO-", "http://example.com/"}, false},
	"head":      {[]string{"head", "-n", "1000000000000"}, true},
	"tail":      {[]string{"tail"}, true},
	"wc":        {[]string{"wc"}, true},
	"tee":       {[]string{"tee", "out"}, true},
	"ls":        {[]string{"ls", "-lR", "/"}, true},
	"mkdir":     {[]string{"mkdir", "-p", "a/b/c"}, true},
	"rm":        {[]string{"rm", "-r", "d"}, true},
	"rmdir":     {[]string{"rmdir", "e"}, true},
	"cp":        {[]string{"cp", "-r", "d", "d2"}, true},
	"mv":        {[]string{"mv", "d", "d2"}, true},
	"touch":     {[]string{"touch", "new"}, true},
	"chmod":     {[]string{"chmod", "-R", "644", "f"}, true},
	"find":      {[]string{"find", "/"}, true},
	"basename":  {[]string{"basename", "a/b"}, false},
	"dirname":   {[]string{"dirname", "a/b"}, false},
	"date":      {[]string{"date"}, false},
	"base64":    {[]string{"base64"}, true},
	"sha256sum": {[]string{"sha256sum"}, true},
	"sha1sum":   {[]string{"sha1sum"}, true},
	"md5sum":    {[]string{"md5sum"}, true},
	"seq":       {[]string{"seq", "1", "1000000000000"}, true},
	"printenv":  {[]string{"printenv"}, false},
	"env":       {[]string{"env"}, false},
	"sleep":     {[]string{"sleep", "1000"}, true},
	"yes":       {[]string{"yes"}, true},
	"xargs":     {[]string{"xargs", "echo"}, true},
	"mktemp":    {[]string{"mktemp"}, false},
	"realpath":  {[]string{"realpath", "f"}, false},
	"readlink":  {[]string{"readlink", "-f", "f"}, false},
	"stat":      {[]string{"stat", "f"}, false},
	"du":        {[]string{"du", "-a", "/"}, true},
	"rev":       {[]string{"rev"}, true},
	"nl":        {[]string{"nl"}, true},
	"paste":     {[]string{"paste", "-", "f"}, true},
	"comm":      {[]string{"comm", "-", "-"}, true},
	"fold":      {[]string{"fold", "-w", "1"}, true},
	"expand":    {[]string{"expand"}, true},
	"grep":      {[]string{"grep", "y"}, true},
	"egrep":     {[]string{"egrep", "y+"}, true},
	"fgrep":     {[]string{"fgrep", "y"}, true},
	"sed":       {[]string{"sed", "p"}, true},
	"sort":      {[]string{"sort"}, true},
	"uniq":      {[]string{"uniq", "-c"}, true},
	"cut":       {[]string{"cut", "-c1"}, true},
	"tr":        {[]string{"tr", "y", "n"}, true},
	"column":    {[]string{"column", "-t"}, true},
	"awk":       {[]string{"awk", "{ print $1 }"}, true},
	"jq":        {[]string{"jq", "-n", "range(1e18)"}, true},
	"yq":        {[]string{"yq", "-n", "range(1e18)"}, true},
	"diff":      {[]string{"diff", "-", "f"}, true},
	"tar":       {[]string{"tar", "-cf", "out.tar", "d"}, true},
	"gzip":      {[]string{"gzip"}, true},
	"gunzip":    {[]string{"gunzip"}, true},
	"zcat":      {[]string{"zcat"}, true},
	"tac":       {[]string{"tac"}, true},
	"shuf":      {[]string{"shuf"}, true},
	"join":      {[]string{"join", "-", "f"}, true},
	"expr":      {[]string{"expr", "1", "+", "1"}, false},
	"timeout":   {[]string{"timeout", "1000", "spin"}, true},
	"which":     {[]string{"which", "cat"}, false},
	"split":     {[]string{"split", "-l", "1"}, true},
	"tree":      {[]string{"tree", "/"}, true},
	"truncate":  {[]string{"truncate", "-s", "1M", "f"}, false},
	"od":        {[]string{"od"}, true},
	"xxd":       {[]string{"xxd"}, true},
	"hexdump":   {[]string{"hexdump", "-C"}, true},
	"base32":    {[]string{"base32"}, true},
}

// TestCanceledContext runs every command of All on a canceled context and
// the endless input: each must return within the limit, and a long one
// with a non-zero status. A command without a case in longRunning fails.
func TestCanceledContext(t *testing.T) {
	reg := All()
	names := make([]string, 0, len(reg))
	for name := range reg {
		names = append(names, name)
	}
	sort.Strings(names)
	for name := range longRunning {
		if _, ok := reg[name]; !ok {
			t.Errorf("longRunning has a case for %q, which is not a command", name)
		}
	}
	files := map[string]string{"f": "a\nb\nc\n", "d/x": "x\n", "d/y/z": "z\n", "e/": ""}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			c, ok := longRunning[name]
			if !ok {
				t.Fatalf("command %q has no cancellation test case (longRunning)", name)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			r := commandtest.RunWithin(ctx, t, 10*time.Second, reg, commandtest.NewFS(t, files), commandtest.Endless{}, c.args...)
			if c.long && (r.Status != command.StatusCanceled || r.Err != "") {
				t.Errorf("%q on a canceled context: status %d, stderr %q; want %d and no message", c.args, r.Status, r.Err, command.StatusCanceled)
			}
		})
	}
}
