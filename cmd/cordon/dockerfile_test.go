package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dockerInstruction is one instruction of a Dockerfile: its keyword, in
// upper case, and its arguments, with continuation lines joined.
type dockerInstruction struct {
	cmd, args string
}

// readDockerfile returns the instructions of the repository's Dockerfile
// and the text of its comments.
func readDockerfile(t *testing.T) (ins []dockerInstruction, comments string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var cur strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") {
			comments += trimmed + "\n"
			continue
		}
		if trimmed == "" && cur.Len() == 0 {
			continue
		}
		if s, ok := strings.CutSuffix(trimmed, `\`); ok {
			cur.WriteString(s + " ")
			continue
		}
		cur.WriteString(trimmed)
		cmd, args, _ := strings.Cut(strings.TrimSpace(cur.String()), " ")
		ins = append(ins, dockerInstruction{strings.ToUpper(cmd), strings.TrimSpace(args)})
		cur.Reset()
	}
	if cur.Len() > 0 {
		t.Fatalf("the Dockerfile ends in a continuation line: %q", cur.String())
	}
	return ins, comments
}

// TestDockerfile holds the Dockerfile to the CLI and the module, since no
// test here can run docker: the builder is the Go of go.mod, every build of
// cordon is static (CGO_ENABLED=0) and -trimpath; the runtime image is
// distroless or scratch, runs as a user that is not root, exposes the port
// it serves; the ENTRYPOINT's flags are cordon mcp's (the command parses
// them), as are the flags its comments show; its environment variables are
// ones cordon reads; and .dockerignore leaves out no file the binary is
// built from.
func TestDockerfile(t *testing.T) {
	ins, comments := readDockerfile(t)
	var froms []string
	var entry []string
	var user, expose string
	env := map[string]string{}
	var copies []string
	builds := 0
	for _, in := range ins {
		switch in.cmd {
		case "FROM":
			froms = append(froms, in.args)
		case "RUN":
			for _, inv := range regexp.MustCompile(`[^;&|]*\bgo (?:build|install)\b[^;&|]*`).FindAllString(in.args, -1) {
				inv = regexp.MustCompile(`^\s*(?:(?:then|else|do)\s+)?`).ReplaceAllString(inv, "")
				builds++
				for _, want := range []string{"CGO_ENABLED=0", "-trimpath"} {
					if !strings.Contains(inv, want) {
						t.Errorf("the Dockerfile builds cordon without %s: %q", want, strings.TrimSpace(inv))
					}
				}
				if !strings.Contains(inv, "./cmd/cordon") && !strings.Contains(inv, "github.com/cordonhq/cordon/cmd/cordon@") {
					t.Errorf("the Dockerfile builds something other than cmd/cordon: %q", strings.TrimSpace(inv))
				}
			}
		case "USER":
			user = in.args
		case "EXPOSE":
			expose = in.args
		case "ENV":
			k, v, ok := strings.Cut(in.args, "=")
			if !ok {
				t.Errorf("ENV %s: write it KEY=VALUE", in.args)
			}
			env[k] = v
		case "COPY":
			copies = append(copies, in.args)
		case "ENTRYPOINT":
			if err := json.Unmarshal([]byte(in.args), &entry); err != nil {
				t.Errorf("ENTRYPOINT %s is not the JSON (exec) form: %v", in.args, err)
			}
		}
	}
	if builds == 0 {
		t.Error("the Dockerfile runs no go build or go install")
	}

	// The builder is the Go that go.mod names.
	gomod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	if goVersion == nil {
		t.Fatal("go.mod has no go line")
	}
	if len(froms) < 2 || !strings.HasPrefix(froms[0], "golang:"+string(goVersion[1])+" ") {
		t.Errorf("the first stage is %q, want FROM golang:%s (go.mod's go line)", froms, goVersion[1])
	}
	if last := froms[len(froms)-1]; !strings.HasPrefix(last, "gcr.io/distroless/static") && last != "scratch" {
		t.Errorf("the runtime stage is FROM %s, want distroless/static or scratch", last)
	}

	// Not root.
	uid, _, _ := strings.Cut(user, ":")
	if uid == "" || uid == "0" || uid == "root" {
		t.Errorf("USER %q: the runtime user must not be root", user)
	}

	// The ENTRYPOINT: the binary the final stage copies, cordon mcp on
	// 0.0.0.0 at the port it exposes, with --allow-remote.
	if len(entry) < 2 || entry[1] != "mcp" {
		t.Fatalf("ENTRYPOINT %q: want [BINARY mcp ...]", entry)
	}
	if !slices.ContainsFunc(copies, func(c string) bool { return strings.HasSuffix(c, " "+entry[0]) }) {
		t.Errorf("ENTRYPOINT runs %s, which no COPY puts there (%q)", entry[0], copies)
	}
	i := slices.Index(entry, "--http")
	if i < 0 || i+1 >= len(entry) {
		t.Fatalf("ENTRYPOINT %q has no --http ADDR", entry)
	}
	host, port, err := net.SplitHostPort(entry[i+1])
	if err != nil || host != "0.0.0.0" {
		t.Errorf("ENTRYPOINT --http %s: want 0.0.0.0:PORT (%v)", entry[i+1], err)
	}
	if expose != port && expose != port+"/tcp" {
		t.Errorf("EXPOSE %q, but cordon listens on port %s", expose, port)
	}
	if !slices.Contains(entry, "--allow-remote") {
		t.Errorf("ENTRYPOINT %q lacks --allow-remote, without which cordon refuses 0.0.0.0", entry)
	}

	// cordon parses the ENTRYPOINT's flags: with --help after them it
	// prints mcp's usage; an unknown flag before --help would be exit 2.
	code, help, stderr := cli(t, "", append(entry[1:], "--help")...)
	if code != 0 || !strings.HasPrefix(help, "usage: cordon mcp") {
		t.Fatalf("cordon %q --help: exit %d, stdout %.60q, stderr %q", entry[1:], code, help, stderr)
	}
	if code, _, _ := cli(t, "", append(entry[1:], "--no-such-flag", "--help")...); code != exitUsage {
		t.Errorf("an unknown flag before --help: exit %d, want %d (the check above would prove nothing)", code, exitUsage)
	}
	// The flags the comments show are mcp's too (docker's own aside).
	docker := map[string]bool{"--build-arg": true}
	for _, f := range regexp.MustCompile(`--[a-z][a-z-]*`).FindAllString(comments+strings.Join(entry, " "), -1) {
		if !docker[f] && !regexp.MustCompile(`(?m)^  (?:.*, )?`+regexp.QuoteMeta(f)+`\b`).MatchString(help) {
			t.Errorf("the Dockerfile shows %s, which cordon mcp --help does not list", f)
		}
	}
	for _, name := range []string{tokenEnv, "--token-file"} {
		if !strings.Contains(comments, name) {
			t.Errorf("the Dockerfile's comments do not say how to give the token with %s", name)
		}
	}

	// Its environment is cordon's: the cache directory, owned by USER.
	for k, v := range env {
		switch k {
		case cacheDirEnv:
			if !slices.ContainsFunc(copies, func(c string) bool {
				return strings.Contains(c, "--chown="+user+" ") && strings.HasSuffix(c, " "+v)
			}) {
				t.Errorf("%s=%s, but no COPY --chown=%s makes that directory", k, v, user)
			}
		case tokenEnv:
			t.Errorf("the image sets %s: a token must come from the one who runs it", k)
		default:
			t.Errorf("ENV %s: cordon reads no such variable", k)
		}
	}
	if _, ok := env[cacheDirEnv]; !ok {
		t.Errorf("the image does not set %s: distroless's home may not be where the cache should go", cacheDirEnv)
	}

	checkDockerignore(t)
}

// checkDockerignore checks that .dockerignore leaves out the history and
// none of the files that go build ./cmd/cordon reads: go.mod, go.sum, and
// the Go and embedded files of every package of the module it builds.
func checkDockerignore(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	var plain, anyDepth []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, deep := strings.CutPrefix(line, "**/")
		if strings.ContainsAny(name, "*?[]!\\") || strings.HasPrefix(name, "/") || path.Clean(name) != name {
			t.Errorf(".dockerignore: %q: write a plain path, or **/NAME (this test reads only those)", line)
			continue
		}
		if deep {
			anyDepth = append(anyDepth, name)
		} else {
			plain = append(plain, name)
		}
	}
	ignored := func(rel string) bool {
		for _, p := range plain {
			if rel == p || strings.HasPrefix(rel, p+"/") {
				return true
			}
		}
		for _, n := range anyDepth {
			if strings.Contains("/"+rel+"/", "/"+n+"/") {
				return true
			}
		}
		return false
	}
	if !ignored(".git") {
		t.Error(".dockerignore does not leave out .git, the whole history")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the files cordon is built from")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f",
		`{{if .Module}}{{if eq .Module.Path "github.com/cordonhq/cordon"}}{{range .GoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}{{range .EmbedFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}{{end}}{{end}}`,
		"./cmd/cordon")
	cmd.Dir = root
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, errb.String())
	}
	files := append(strings.Fields(string(out)), filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum"))
	if len(files) < 50 {
		t.Fatalf("go list found only %d files of cordon's: %q", len(files), files)
	}
	for _, f := range files {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		if rel = filepath.ToSlash(rel); ignored(rel) {
			t.Errorf(".dockerignore leaves out %s, which go build ./cmd/cordon reads", rel)
		}
	}
}
