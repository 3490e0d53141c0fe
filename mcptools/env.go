package mcptools

import (
	"runtime"
	"sort"
	"strings"
)

// unixEnv and windowsEnv are the variables of cordon's environment that an
// upstream command gets (DefaultEnv): what programs need to find
// themselves, their files and the user's locale, and nothing that usually
// holds a secret.
var (
	unixEnv    = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "TMPDIR"}
	windowsEnv = []string{"PATH", "PATHEXT", "SystemRoot", "SystemDrive", "windir", "ComSpec", "TEMP", "TMP",
		"USERPROFILE", "USERNAME", "USERDOMAIN", "HOMEDRIVE", "HOMEPATH", "APPDATA", "LOCALAPPDATA", "ProgramData",
		"ProgramFiles", "ProgramFiles(x86)", "ProgramW6432", "CommonProgramFiles", "CommonProgramFiles(x86)",
		"NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE", "OS", "COMPUTERNAME", "LANG", "TZ"}
)

// DefaultEnv returns the names of the variables of cordon's environment
// that an upstream server's command gets when they are set: on Unix PATH,
// HOME, USER, LOGNAME, LANG, LC_ALL, LC_CTYPE, LC_MESSAGES, TZ and TMPDIR;
// on Windows also what Windows programs need (SystemRoot, ComSpec, TEMP,
// USERPROFILE, APPDATA, ...). Any other variable reaches the command only
// when the server's inherit_env names it or its env sets it: cordon's
// environment may hold credentials that are not the server's to see.
func DefaultEnv() []string {
	if runtime.GOOS == "windows" {
		return append([]string(nil), windowsEnv...)
	}
	return append([]string(nil), unixEnv...)
}

// commandEnv returns the environment of s's command, from environ (the
// NAME=VALUE list of cordon's environment): the variables of DefaultEnv
// and s.InheritEnv that environ sets, then s.Env.
func commandEnv(s Upstream, environ []string) []string {
	fold := runtime.GOOS == "windows" // names are case-insensitive there
	same := func(a, b string) bool {
		if fold {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	names := append(DefaultEnv(), s.InheritEnv...)
	var env []string
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		for _, n := range names {
			if same(k, n) {
				env = append(env, kv)
				break
			}
		}
	}
	// Env wins: a variable it sets replaces the inherited one.
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := s.Env[k]
		kept := env[:0]
		for _, kv := range env {
			if name, _, _ := strings.Cut(kv, "="); !same(name, k) {
				kept = append(kept, kv)
			}
		}
		env = append(kept, k+"="+v)
	}
	return env
}
