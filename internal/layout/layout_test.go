package layout_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/cordonhq/cordon"

// root is the repository's root, two levels up from this package.
var root = filepath.Join("..", "..")

// section returns the lines of ARCHITECTURE.md under the heading that
// starts with title, up to the next heading of the same level.
func section(t *testing.T, title string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(line, "## "+title)
			continue
		}
		if in {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("ARCHITECTURE.md has no section %q", title)
	}
	return lines
}

// goList runs go list in dir with env added and returns its lines.
func goList(t *testing.T, dir string, env []string, args ...string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(gobin, append([]string{"list"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, stderr.String())
	}
	return strings.Fields(string(out))
}

// rel returns a package's folder relative to the repository, with a
// trailing slash, as ARCHITECTURE.md writes it.
func rel(pkg string) string {
	return strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/") + "/"
}

var listed = regexp.MustCompile(`^    (\S+/)\s+\S`)

// Every package of the module and of the nested modules has its line in
// the map, and every line names a package or a module that exists.
func TestEveryPackageIsOnTheMap(t *testing.T) {
	onMap := map[string]bool{}
	for _, line := range section(t, "Every package") {
		if m := listed.FindStringSubmatch(line); m != nil {
			onMap[m[1]] = true
		}
	}
	var pkgs []string
	for _, p := range goList(t, root, nil, "./...") {
		pkgs = append(pkgs, rel(p))
	}
	// Each nested module (integrations/*) has one line of its own.
	mods, err := filepath.Glob(filepath.Join(root, "integrations", "*", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		r, _ := filepath.Rel(root, filepath.Dir(m))
		pkgs = append(pkgs, filepath.ToSlash(r)+"/")
	}
	for _, p := range pkgs {
		if p == "/" {
			continue
		}
		if !onMap[p] {
			t.Errorf("ARCHITECTURE.md, \"Every package, in one line\": %s is missing", p)
		}
	}
	for p := range onMap {
		if !slices.Contains(pkgs, p) {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("ARCHITECTURE.md lists %s, which does not exist", p)
			}
		}
	}
}

var folder = regexp.MustCompile("`([a-z0-9_./-]+/)`")

// The rule for rebuilding the guest names a folder that holds every package
// the guest is built from, and every package the guest build runs.
func TestRebuildRuleNamesEveryGuestFolder(t *testing.T) {
	var named []string
	for _, line := range section(t, "When the guest must be rebuilt") {
		for _, m := range folder.FindAllStringSubmatch(line, -1) {
			named = append(named, m[1])
		}
	}
	deps := goList(t, root, []string{"GOOS=wasip1", "GOARCH=wasm"}, "-deps", "./guest")
	deps = append(deps, goList(t, root, nil, "-deps", "./internal/buildguest")...)
	for _, p := range deps {
		if p != module && !strings.HasPrefix(p, module+"/") {
			continue
		}
		r := rel(p)
		covered := slices.ContainsFunc(named, func(f string) bool { return strings.HasPrefix(r, f) })
		if !covered {
			t.Errorf("ARCHITECTURE.md, \"When the guest must be rebuilt\": the guest is built from %s, which no folder there covers", r)
		}
	}
}

// The list of packages shared by host and guest names exactly the packages
// of ours that the guest is built from and the host's packages import.
func TestSharedListIsExact(t *testing.T) {
	onList := map[string]bool{}
	for _, line := range section(t, "Shared by host and guest") {
		if m := listed.FindStringSubmatch(line); m != nil {
			onList[m[1]] = true
		}
	}
	guest := map[string]bool{}
	for _, p := range goList(t, root, []string{"GOOS=wasip1", "GOARCH=wasm"}, "-deps", "./guest") {
		if strings.HasPrefix(p, module+"/") {
			guest[rel(p)] = true
		}
	}
	host := goList(t, root, nil, "-deps", "./engine", "./policy/...", "./counters", "./config", "./codemode",
		"./approval", "./mcpserver", "./mcptools", "./cmd/...")
	shared := map[string]bool{}
	for _, p := range host {
		if r := rel(p); strings.HasPrefix(p, module+"/") && guest[r] {
			shared[r] = true
			if !onList[r] {
				t.Errorf("ARCHITECTURE.md, \"Shared by host and guest\": %s is missing", r)
			}
		}
	}
	for r := range onList {
		if !shared[r] {
			t.Errorf("ARCHITECTURE.md, \"Shared by host and guest\": %s is not built into both", r)
		}
	}
}
