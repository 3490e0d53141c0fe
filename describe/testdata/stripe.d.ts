// The API of the cordon sandbox: every function a script can call.
/// <reference lib="es2022" />

declare const stripe: {
  charges: {
    /**
     * Create a charge: moves money from a customer's payment method to your account.
     * Amounts are in the currency's smallest unit (cents for USD).
     *
     * Policy (the first rule that fits a call applies):
     * - amount <= 100000; currency in usd, eur; at most 10 calls
     * - needs approval
     */
    create(params: {
      /** Amount intended to be collected, in the smallest currency unit. (integer, >= 50) */
      amount: number;
      /** Three-letter ISO currency code, in lowercase. */
      currency: "usd" | "eur" | "gbp";
      /** The ID of an existing customer. (at most 5000 characters) */
      customer?: string;
      /** at most 40000 characters */
      description?: string;
      /** Whether to capture the charge immediately. (default: true) */
      capture?: boolean;
      /** Set of key-value pairs that you can attach to an object. */
      metadata?: { [key: string]: string };
      payment_method_types?: ("card" | "sepa_debit" | "us_bank_account")[];
      shipping?: {
        name: string;
        address: stripe.Address;
        phone?: string | null;
        /** deprecated */
        tracking_number?: string;
      };
      /** at most 22 characters, pattern: ^[^<>"']*$ */
      statement_descriptor?: string;
    }): Promise<stripe.Charge>;
  };
  customers: {
    /**
     * Returns a list of your customers, most recently created first.
     *
     * Policy: at most 50 calls, shared by all tools matching stripe/customers/*
     */
    list(params?: {
      /**
       * A case-sensitive filter on the list based on the customer's email field. (format: email)
       */
      email?: string;
      /** Only return customers that were created during the given date interval. */
      created?: {
        /** integer */
        gt?: number;
        /** integer */
        gte?: number;
        /** integer */
        lt?: number;
        /** integer */
        lte?: number;
      } | number;
      /** integer, >= 1, <= 100, default: 10 */
      limit?: number;
      /** A cursor for pagination: an object ID. */
      starting_after?: string;
      expand?: string[];
    }): Promise<{
      object: "list";
      data: stripe.Customer[];
      /** True if this list has another page of items after this one. */
      has_more: boolean;
      url: string;
    }>;
    /**
     * Permanently deletes a customer. It cannot be undone.
     *
     * Policy: at most 50 calls, shared by all tools matching stripe/customers/*
     */
    delete(params: { customer: string }): Promise<{ id: string; object: "customer"; deleted: true }>;
  };
  refunds: {
    /**
     * Refund a charge, in whole or in part.
     *
     * Policy: amount <= 5000; (reason == duplicate or reason == requested_by_customer); needs
     * approval
     */
    create(params: {
      /** The identifier of the charge to refund. */
      charge: string;
      /**
       * A positive integer in cents: how much of the charge to refund. Default: all of it.
       * (integer, > 0)
       */
      amount?: number;
      reason?: "duplicate" | "fraudulent" | "requested_by_customer";
      metadata?: { order_id?: string; [key: string]: string | undefined };
    }): Promise<{
      id: string;
      /** integer */
      amount: number;
      status: "pending" | "requires_action" | "succeeded" | "failed" | "canceled" | null;
    }>;
  };
  balance: {
    /** Retrieves the current account balance. */
    retrieve(params?: { [key: string]: unknown }): Promise<unknown>;
  };
  "payment-intents": {
    /**
     * Confirm that your customer intends to pay with the current or provided payment method.
     *
     * Policy: return_url starts with https://shop.example.com/
     */
    confirm(params: {
      intent: string;
      payment_method?: string;
      /** format: uri */
      return_url?: string;
      off_session?: boolean | "one_off" | "recurring";
    }): Promise<{ id: string; status: string }>;
  };
};
declare namespace stripe {
  /** A postal address. */
  interface Address {
    line1: string;
    line2?: string | null;
    city?: string;
    postal_code?: string;
    /** Two-letter country code (ISO 3166-1 alpha-2). */
    country?: string;
  }
  interface Charge {
    /** example: "ch_3MmlLrLkdIwHu7ix0snN0B15" */
    id: string;
    object: "charge";
    /** integer */
    amount: number;
    /** integer */
    amount_refunded: number;
    currency: string;
    status: "succeeded" | "pending" | "failed";
    paid: boolean;
    failure_code: string | null;
    metadata: { [key: string]: string };
    outcome: stripe.ChargeOutcome | null;
    /** integer, format: unix-time */
    created: number;
  }
  interface Customer {
    id: string;
    object: "customer";
    email: string | null;
    /** integer */
    balance: number;
    metadata: { [key: string]: string };
    name?: string | null;
    address?: stripe.Address | null;
    preferred_locales?: string[];
  }
  interface ChargeOutcome {
    type: string;
    network_status?: string | null;
    risk_level?: "normal" | "elevated" | "highest" | "not_assessed" | "unknown";
    /** integer, >= 0, <= 100 */
    risk_score?: number;
  }
}

/**
 * Returns a list of Terminal Reader objects.
 *
 * Also globalThis["stripe-terminal"].readers.list.
 *
 * Policy: denied (no capability allows this tool)
 */
declare function stripe_terminal_readers_list(params?: { location?: string; status?: "offline" | "online" }): Promise<{ id: string; label: string; status: string | null }[]>;

// The same functions under their flat aliases.
declare const stripe_charges_create: typeof stripe.charges.create;
declare const stripe_customers_list: typeof stripe.customers.list;
declare const stripe_customers_delete: typeof stripe.customers.delete;
declare const stripe_refunds_create: typeof stripe.refunds.create;
declare const stripe_balance_retrieve: typeof stripe.balance.retrieve;
declare const stripe_payment_intents_confirm: typeof stripe["payment-intents"]["confirm"];

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
