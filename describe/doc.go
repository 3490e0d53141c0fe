// Package describe writes what a model needs to know to write a correct
// sandbox script on the first try ("code mode"): the rules of the sandbox
// and its API, as TypeScript declarations of exactly what a script can
// call and as the shell's tool usage lines.
//
//	text := describe.Prompt(tools, describe.Options{Capabilities: caps})
//
// Prompt is the whole text for the model, in Markdown: short rules
// (top-level await and return, what a returned value prints, one object
// argument per tool, Promise.all, files, ToolError), the declarations,
// the shell usage and an example call of a real tool. TypeScript is the
// complete .d.ts, which `tsc --noEmit --strict` accepts, so that a
// script can be type-checked before it runs; Declaration is one tool's
// part of it, for discovery (getToolInfo); ShellUsage one tool's usage
// line; JSON all of it in machine-readable form.
//
// The declarations come from each tool's JSON Schemas: nested objects,
// arrays and tuples, enums as unions of literals, const, required and
// optional fields, nullable values, additionalProperties and
// patternProperties as index signatures, oneOf and anyOf as unions, allOf
// as intersections, $ref and $defs as named types, descriptions, formats,
// bounds, defaults and examples as JSDoc. A tool without an output schema
// returns Promise<unknown>.
//
// With the policy's capabilities ([Options.Capabilities]), each tool's JSDoc
// also says what the policy allows of it, in plain words ("amount <= 1000;
// currency in USD, EUR; at most 10 calls; needs approval"; see Policy),
// and the example call satisfies its constraints.
//
// Above a size budget ([Options.MaxBytes], DefaultMaxBytes by default),
// Prompt lists the tools in a compact form, one line each, and points to
// the sandbox's own discovery: getToolInfo and listTools in JavaScript,
// tool --help and tool --list in the shell.
//
// The package is pure Go and builds for GOOS=wasip1: it does not depend on
// the engine or the policy's OPA, so that the guest can describe its tools
// with the same declarations.
package describe
