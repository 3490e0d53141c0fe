// The API of the cordon sandbox: every function a script can call.
/// <reference lib="es2022" />

declare const lookup: {
  /** A single-segment tool that is also the namespace of lookup/byId. */
  (params: { q: string }): Promise<unknown>;
  byId(params: {
    /** integer */
    id: number;
  }): Promise<unknown>;
};

/** A single segment that is not an identifier: only its alias search_all reaches it. */
declare function search_all(params?: { [key: string]: unknown }): Promise<unknown>;

/**
 * Its root starts with a digit.
 *
 * Also globalThis["1password"].items.get.
 */
declare function _1password_items_get(params: { item: string; vault?: string }): Promise<unknown>;

declare const ns: {
  /** A keyword as the last segment. */
  import(params?: { [key: string]: unknown }): Promise<unknown>;
  /** A dash in the last segment. */
  "class-of"(params?: { [key: string]: unknown }): Promise<unknown>;
  "v2:beta": {
    /** A colon in a middle segment. */
    run(params?: { [key: string]: unknown }): Promise<unknown>;
  };
};

declare const kv: {
  store: {
    /** Registered with dots. */
    put(params: {
      key: string;
      value: unknown;
      /** > 0 */
      ttl?: number;
    }): Promise<unknown>;
  };
};

declare const tree: {
  /** A recursive schema (a $ref to the root) and defs that refer to each other. */
  walk(params: { name: string; children?: tree.WalkParams[]; owner?: tree.Person }): Promise<{
    /** integer */
    visited: number;
  }>;
};
declare namespace tree {
  interface WalkParams { name: string; children?: tree.WalkParams[]; owner?: tree.Person }
  interface Person { name: string; manager?: tree.Person; team?: tree.Team }
  interface Team { lead?: tree.Person; members?: tree.Person[] }
}

declare const shapes: {
  /**
   * Tuples, pattern properties, boolean schemas, const and mixed enums, quoted keys.
   * A description with *\/ in it and `backticks`.
   */
  draw(params: {
    /** x and y */
    point: [number, number];
    kind: { shape: "circle"; r: 1 };
    legacy_point?: [number, number, ...string[]];
    headers?: {
      /** keys matching ^x- */
      [key: string]: string;
    };
    anything?: unknown;
    nothing?: never;
    mixed?: 1 | "a" | true | null;
    "content-type"?: string;
    "2fa"?: boolean;
    "with space"?: string;
    style?: shapes.Color & shapes.Stroke;
    tag?: shapes.Tag;
    remote?: unknown;
    same_as_name?: shapes.ContentType;
    legacy_nullable?: string | null;
    opt_in?: { [key: string]: unknown };
  }): Promise<unknown>;
};
declare namespace shapes {
  interface Color {
    /** pattern: ^#[0-9a-f]{6}$ */
    fill?: string;
  }
  interface Stroke {
    /** >= 0 */
    width?: number;
  }
  type Tag = "a" | "b";
  type ContentType = string;
}

declare const pair_of: {
  /** Its alias pair_of is also the namespace of pair_of/dice. */
  (params: { die: pair.Die }): Promise<unknown>;
  /** Its root, pair_of, is also the alias of pair/of. */
  dice(params?: { [key: string]: unknown }): Promise<unknown>;
};
declare namespace pair {
  interface Die {
    /** integer */
    sides: 4 | 6 | 8 | 12 | 20;
  }
}

declare const pair: {
  /** Its alias pair_of is also the namespace of pair_of/dice. */
  of(params: { die: pair.Die }): Promise<unknown>;
};

declare const broken: {
  /** Its schema is not JSON. */
  schema(params?: { [key: string]: unknown }): Promise<unknown>;
};

// The same functions under their flat aliases.
declare const lookup_byId: typeof lookup.byId;
declare const ns_import: typeof ns.import;
declare const ns_class_of: typeof ns["class-of"];
declare const ns_v2_beta_run: typeof ns["v2:beta"]["run"];
declare const kv_store_put: typeof kv.store.put;
declare const tree_walk: typeof tree.walk;
declare const shapes_draw: typeof shapes.draw;
declare const pair_of_dice: typeof pair_of.dice;
declare const broken_schema: typeof broken.schema;

// The sandbox's globals.
/** A tool call that was refused or failed: its promise rejects with one. */
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
