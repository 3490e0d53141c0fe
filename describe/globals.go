package describe

// globals declares what a script sees besides the tools, as
// guest/internal/jsrt defines it: ToolError, listTools, getToolInfo, shell,
// fs, console, the timers, atob and btoa, and the Fetch API (fetch, Headers,
// Request, Response, URL, URLSearchParams). console and the timers are
// declared so that they merge with the DOM's and Node's declarations when a
// program has those too.
const globals = `/** A tool call that was refused or failed: its promise rejects with one. */
declare class ToolError extends Error {
  constructor(message: string, method: string, kind: string, reasons: string[]);
  name: "ToolError";
  /** The tool's registered name, as in "weather/current". */
  method: string;
  /**
   * "denied": the policy refused the call; "invalid": the params do not match the
   * tool's schema; "failed": the tool itself failed; "unknown_tool"; "too_large":
   * params or result over the size limit; "tool_calls": too many calls in this run;
   * "invalid_result": the tool's result could not be read (nested too deeply).
   */
  kind: "denied" | "invalid" | "failed" | "unknown_tool" | "too_large" | "tool_calls" | "invalid_result";
  /** Why, in plain words: "amount <= 1000 does not hold (amount is 5000)". */
  reasons: string[];
}

/** What listTools and getToolInfo say about a tool. */
interface ToolInfo {
  /** The registered name, as in "weather/current". */
  name: string;
  description: string;
  /** The flat alias, as in "weather_current". */
  alias: string;
  /** The JSON Schema of the params, when the tool has one. */
  inputSchema?: object;
  /** The JSON Schema of the result, when the tool has one. */
  outputSchema?: object;
  /** getToolInfo only: the tool's TypeScript declaration, as in the description. */
  declaration?: string;
  /** getToolInfo only: the shell usage line, as in "tool NAME --flag <type>". */
  usage?: string;
}
/** The tools, sorted by name; with a prefix, those whose name (in any form) starts with it. */
declare function listTools(prefix?: string): ToolInfo[];
/** One tool, by its name, dotted path or alias; null when there is none. */
declare function getToolInfo(name: string): ToolInfo | null;

/** What shell() returns: a String object whose value is the command's standard output, with the whole result as properties. */
interface ShellResult extends String {
  /** The standard output, also the string's value. */
  stdout: string;
  /** The standard error. */
  stderr: string;
  /** The exit status: 0 for success. */
  exitCode: number;
}
/**
 * Runs a command line in the sandbox's bash-like shell (grep, sed, awk, jq, sort,
 * tool NAME --param value, ...), on the same files and through the same policy, and
 * returns when it has finished: the result reads as its output (shell("ls").trim()),
 * and awaiting it gives the same value (const {stdout, exitCode} = await shell("ls")).
 */
declare function shell(command: string): ShellResult;

type SandboxEncoding = "utf8" | "utf-8" | "latin1" | "binary";
type SandboxData = string | Uint8Array | ArrayBuffer;
interface SandboxStats {
  size: number;
  mode: number;
  mtimeMs: number;
  mtime: Date;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}
interface SandboxDirent {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}
/**
 * The sandbox's files: Node's fs/promises, plus the *Sync twins of Node's fs.
 * Relative paths resolve against /workspace. Errors have Node's code ("ENOENT").
 */
interface SandboxFS {
  /** A string (UTF-8 unless told otherwise); bytes when the encoding is null or "buffer". */
  readFile(path: string, options?: SandboxEncoding | { encoding?: SandboxEncoding }): Promise<string>;
  readFile(path: string, options: null | "buffer" | { encoding: null | "buffer" }): Promise<Uint8Array>;
  writeFile(path: string, data: SandboxData, options?: SandboxEncoding | { encoding?: SandboxEncoding }): Promise<void>;
  appendFile(path: string, data: SandboxData, options?: SandboxEncoding | { encoding?: SandboxEncoding }): Promise<void>;
  readdir(path: string): Promise<string[]>;
  readdir(path: string, options: { withFileTypes: true }): Promise<SandboxDirent[]>;
  /** With recursive, the first directory it created. */
  mkdir(path: string, options?: { recursive?: boolean }): Promise<string | undefined>;
  stat(path: string): Promise<SandboxStats>;
  lstat(path: string): Promise<SandboxStats>;
  unlink(path: string): Promise<void>;
  rmdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  access(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  readFileSync(path: string, options?: SandboxEncoding | { encoding?: SandboxEncoding }): string;
  readFileSync(path: string, options: null | "buffer" | { encoding: null | "buffer" }): Uint8Array;
  writeFileSync(path: string, data: SandboxData, options?: SandboxEncoding | { encoding?: SandboxEncoding }): void;
  appendFileSync(path: string, data: SandboxData, options?: SandboxEncoding | { encoding?: SandboxEncoding }): void;
  readdirSync(path: string): string[];
  readdirSync(path: string, options: { withFileTypes: true }): SandboxDirent[];
  mkdirSync(path: string, options?: { recursive?: boolean }): string | undefined;
  statSync(path: string): SandboxStats;
  lstatSync(path: string): SandboxStats;
  unlinkSync(path: string): void;
  rmdirSync(path: string, options?: { recursive?: boolean }): void;
  rmSync(path: string, options?: { recursive?: boolean; force?: boolean }): void;
  renameSync(from: string, to: string): void;
  copyFileSync(from: string, to: string): void;
  accessSync(path: string): void;
  existsSync(path: string): boolean;
  /** The same object. */
  promises: SandboxFS;
}
declare const fs: SandboxFS;

/** log, info and debug write to stdout; error, warn and trace to stderr (formatted as Node does). */
interface Console {
  log(...data: any[]): void;
  info(...data: any[]): void;
  debug(...data: any[]): void;
  error(...data: any[]): void;
  warn(...data: any[]): void;
  trace(...data: any[]): void;
  dir(item?: any, options?: any): void;
  assert(condition?: boolean, ...data: any[]): void;
}
declare var console: Console;
declare function setTimeout(callback: (...args: any[]) => void, ms?: number, ...args: any[]): number;
declare function setInterval(callback: (...args: any[]) => void, ms?: number, ...args: any[]): number;
declare function setImmediate(callback: (...args: any[]) => void, ...args: any[]): number;
declare function clearTimeout(id?: number): void;
declare function clearInterval(id?: number): void;
declare function queueMicrotask(callback: () => void): void;
declare function atob(data: string): string;
declare function btoa(data: string): string;

/** What fetch and Request take: the body is a string, bytes or URLSearchParams (no Blob, FormData or stream). */
interface SandboxRequestInit {
  /** "GET" unless told; a GET or HEAD request has no body. */
  method?: string;
  headers?: [string, string][] | Record<string, string> | Headers;
  body?: string | ArrayBuffer | Uint8Array | URLSearchParams | null;
  /** "follow" (the default), "manual" (a 3xx is the response) or "error". */
  redirect?: "follow" | "manual" | "error";
}
/** HTTP headers: names are case-insensitive; get joins a name's values with ", "; iteration is by lower-cased name, sorted. */
interface Headers {
  append(name: string, value: string): void;
  set(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  getSetCookie(): string[];
  has(name: string): boolean;
  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: any): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
// @ts-ignore: the DOM's declaration, when a program has it, is the same class.
declare var Headers: { prototype: Headers; new (init?: [string, string][] | Record<string, string> | Headers): Headers };
/** A response: its body is read once, by text(), json() or arrayBuffer() (there is no body stream). */
interface Response {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  /** The URL after the redirects followed. */
  readonly url: string;
  readonly redirected: boolean;
  readonly bodyUsed: boolean;
  text(): Promise<string>;
  json(): Promise<any>;
  /** Also bytes(), a Uint8Array. */
  arrayBuffer(): Promise<ArrayBuffer>;
  clone(): Response;
}
// @ts-ignore: the DOM's declaration, when a program has it, is the same class.
declare var Response: { prototype: Response; new (body?: string | ArrayBuffer | Uint8Array | URLSearchParams | null, init?: { status?: number; statusText?: string; headers?: [string, string][] | Record<string, string> | Headers }): Response; json(data: any, init?: { status?: number; statusText?: string; headers?: [string, string][] | Record<string, string> | Headers }): Response };
interface Request {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  text(): Promise<string>;
  json(): Promise<any>;
  arrayBuffer(): Promise<ArrayBuffer>;
  clone(): Request;
}
// @ts-ignore: the DOM's declaration, when a program has it, is the same class.
declare var Request: { prototype: Request; new (input: string | URL | Request, init?: SandboxRequestInit): Request };
/** A parsed URL (read-only, except through searchParams). new URL throws a TypeError for a URL it cannot parse. */
interface URL {
  href: string;
  readonly origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  readonly searchParams: URLSearchParams;
  hash: string;
  toString(): string;
  toJSON(): string;
}
// @ts-ignore: the DOM's declaration, when a program has it, is the same class.
declare var URL: { prototype: URL; new (url: string | URL, base?: string | URL): URL; canParse(url: string | URL, base?: string | URL): boolean };
interface URLSearchParams {
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  forEach(callback: (value: string, name: string, params: URLSearchParams) => void, thisArg?: any): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
  toString(): string;
}
// @ts-ignore: the DOM's declaration, when a program has it, is the same class.
declare var URLSearchParams: { prototype: URLSearchParams; new (init?: string[][] | Record<string, string> | string | URLSearchParams): URLSearchParams };
/**
 * An HTTP request through the host, which applies the policy. A request the policy
 * refuses, or that fails, rejects with a TypeError whose message says why ("fetch
 * failed: tool http/fetch denied: ..."), with kind and reasons as a ToolError's. When
 * the host enabled no network access, every call rejects saying so. An HTTP error
 * status resolves: check response.ok.
 */
declare function fetch(input: string | URL | Request, init?: SandboxRequestInit): Promise<Response>;
`

// Globals returns the TypeScript declarations of what a script sees
// besides the tools: ToolError, listTools, getToolInfo, shell, fs, console,
// the timers, atob and btoa, and the Fetch API (fetch, Headers, Request,
// Response, URL, URLSearchParams).
func Globals() string { return globals }

// The rules a model needs to write a correct script on the first try, per
// language. The discovery rules are the compact form's pointer to what the
// sandbox itself can tell.
const (
	rulesIntro = `Write one script; the sandbox runs it. It reaches the outside world only through the tools below, and a policy checks every call. There is no direct network access and nothing of the host's: fetch and curl, when the host enables them, are such tool calls too.
`
	rulesJS = `- Top-level ` + "`await`" + ` and ` + "`return`" + ` work. The returned value is the script's output: a string prints as it is, any other value as JSON, undefined prints nothing. console.log prints too.
- A tool takes one object argument (leaving it out means {}) and returns a Promise. CALL
- Calls that do not depend on each other go together: ` + "`await Promise.all([a({...}), b({...})])`" + ` runs them at once.
- A refused or failed call rejects with a ToolError: err.kind is "denied" (the policy refused it), "invalid" (the params do not match the schema), "failed" (the tool failed), ...; err.reasons says why in plain words. Catch it to try another way.
- fs is Node's fs/promises (plus readFileSync and the other *Sync twins). The working directory /workspace keeps its files for the next script in this session; /tmp is writable too. ` + "`shell(\"cmd\")`" + ` runs a shell command line on the same files and returns its output as a string-like object with {stdout, stderr, exitCode} (await works too).
- There is no require, import or process. fetch works when the host enables network access; otherwise it rejects saying so.
`
	rulesSh = `- The shell is bash-like, with grep, sed, awk, jq, sort, head, wc and more.
- ` + "`tool NAME --param value ...`" + ` calls a tool and prints its result as JSON, ready for jq. Flags are typed by the tool's schema: numbers, booleans (--flag alone is true), arrays as a,b or JSON, objects as JSON. ` + "`--json '{...}'`" + ` gives all params at once.
- A denied or failed call prints the reasons on stderr and exits 1; a missing required flag or an unknown tool exits 2.
- ` + "`tool --list [PREFIX]`" + ` lists the tools and ` + "`tool --help NAME`" + ` shows a tool's flags.
- The working directory /workspace keeps its files for the next script in this session.
`
	discoveryJS = `Only the names are listed here, to keep this short. Before calling a tool, read its params: getToolInfo("name") returns its TypeScript declaration (declaration), description, inputSchema and outputSchema; listTools(prefix) lists tools by prefix.`
	discoverySh = `Only the names are listed here, to keep this short. Before calling a tool, read its flags with ` + "`tool --help NAME`" + `; ` + "`tool --list PREFIX`" + ` lists tools by prefix.`
)
