// Package docs holds no code, only tests that keep README.md and the pages
// of docs/ true to the repository: every Go snippet is a region of a file
// that compiles (a program under examples/ or an Example function), every
// other marked snippet is its file's text, every relative link and anchor
// resolves, the index names every page, and the lists that mirror code
// (the policy's input document, the ToolError kinds) match it.
//
// A snippet is marked by an HTML comment on the line before its fenced
// block:
//
//	<!-- snippet: examples/embedding/main.go#sandbox -->
//
// names the lines between "// region sandbox" and "// endregion" in that
// file (for YAML, Rego and shell, "# region NAME" and "# endregion"),
// less the indentation of the region's marker; without "#NAME" it names
// the whole file. Other tests hold the other lists: the shell's commands
// (guest/internal/shellrt), the CLI's flags (cmd/cordon), the config keys
// and the limits (config).
package docs
