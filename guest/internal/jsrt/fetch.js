(function (native) {
  "use strict";
  // The Fetch API of the sandbox (fetch.go runs this once per execution, on
  // first use of one of its globals). native holds the Go side: send (the
  // call to the host's fetch tool), the UTF-8 and base64 conversions and
  // parseURL. Nothing here decides anything about security: the host parses
  // the URL and applies the policy.
  const S = Symbol("state");
  const INTERNAL = {};
  const METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"];

  function typeError(msg) { return new TypeError(msg); }

  function normalizeMethod(m) {
    const s = String(m);
    const u = s.toUpperCase();
    return METHODS.includes(u) ? u : s;
  }

  class Headers {
    constructor(init) {
      Object.defineProperty(this, S, { value: [] });
      if (init === undefined || init === null) return;
      if (init instanceof Headers) {
        for (const [n, v] of init[S]) this[S].push([n, v]);
        return;
      }
      if (typeof init !== "object" && typeof init !== "function") {
        throw typeError("Headers: the init must be an object, an array of [name, value] pairs or a Headers, got " + typeof init);
      }
      if (typeof init[Symbol.iterator] === "function") {
        for (const pair of init) {
          if (pair === null || typeof pair !== "object" || typeof pair[Symbol.iterator] !== "function") {
            throw typeError("Headers: each header must be a [name, value] pair");
          }
          const p = Array.from(pair);
          if (p.length !== 2) throw typeError("Headers: each header must be a [name, value] pair, got " + p.length + " items");
          this.append(p[0], p[1]);
        }
        return;
      }
      for (const k of Object.keys(init)) this.append(k, init[k]);
    }
    append(name, value) { this[S].push([String(name), String(value)]); }
    set(name, value) {
      const n = String(name), l = n.toLowerCase(), v = String(value);
      const list = this[S];
      const i = list.findIndex(e => e[0].toLowerCase() === l);
      if (i < 0) { list.push([n, v]); return; }
      list[i] = [list[i][0], v];
      for (let j = list.length - 1; j > i; j--) if (list[j][0].toLowerCase() === l) list.splice(j, 1);
    }
    delete(name) {
      const l = String(name).toLowerCase(), list = this[S];
      for (let j = list.length - 1; j >= 0; j--) if (list[j][0].toLowerCase() === l) list.splice(j, 1);
    }
    get(name) {
      const l = String(name).toLowerCase();
      const vs = this[S].filter(e => e[0].toLowerCase() === l).map(e => e[1]);
      return vs.length ? vs.join(", ") : null;
    }
    getSetCookie() {
      return this[S].filter(e => e[0].toLowerCase() === "set-cookie").map(e => e[1]);
    }
    has(name) {
      const l = String(name).toLowerCase();
      return this[S].some(e => e[0].toLowerCase() === l);
    }
    // The entries as the Fetch standard iterates them: names lower-cased and
    // sorted, the values of one name joined.
    *entries() {
      const names = [...new Set(this[S].map(e => e[0].toLowerCase()))].sort();
      for (const n of names) yield [n, this.get(n)];
    }
    *keys() { for (const [n] of this.entries()) yield n; }
    *values() { for (const [, v] of this.entries()) yield v; }
    forEach(fn, thisArg) {
      if (typeof fn !== "function") throw typeError("Headers.forEach: the callback is not a function");
      for (const [n, v] of this.entries()) fn.call(thisArg, v, n, this);
    }
    [Symbol.iterator]() { return this.entries(); }
    get [Symbol.toStringTag]() { return "Headers"; }
  }

  // bodyOf converts a script's body to a string or an ArrayBuffer (copied),
  // with the Content-Type it implies, or throws a TypeError.
  function bodyOf(body, who) {
    if (body === undefined || body === null) return { value: null, type: null };
    if (typeof body === "string") return { value: body, type: "text/plain;charset=UTF-8" };
    if (body instanceof URLSearchParams) return { value: body.toString(), type: "application/x-www-form-urlencoded;charset=UTF-8" };
    const bytes = native.bytesOf(body);
    if (bytes !== null) return { value: bytes, type: null };
    let what = typeof body;
    if (what === "object") what = (body.constructor && body.constructor.name) || "object";
    throw typeError(who + ": the body must be a string, an ArrayBuffer, a Uint8Array or URLSearchParams, got " + what +
      " (Blob, FormData and streams are not supported in this sandbox; JSON goes as JSON.stringify(value))");
  }

  function unusable(who) {
    return typeError(who + ": the body has already been read");
  }

  // Body reading shared by Request and Response: state.body is null, a
  // string or an ArrayBuffer.
  const bodyMethods = {
    text() {
      try { return Promise.resolve(take(this, "text")).then(b => typeof b === "string" ? b : native.utf8Decode(b)); }
      catch (e) { return Promise.reject(e); }
    },
    json() { return this.text().then(t => JSON.parse(t)); },
    arrayBuffer() {
      try { return Promise.resolve(take(this, "arrayBuffer")).then(b => typeof b === "string" ? native.utf8Encode(b) : b); }
      catch (e) { return Promise.reject(e); }
    },
    bytes() { return this.arrayBuffer().then(b => new Uint8Array(b)); },
    blob() { return Promise.reject(typeError("blob() is not supported in this sandbox: use text(), json(), arrayBuffer() or bytes()")); },
    formData() { return Promise.reject(typeError("formData() is not supported in this sandbox: use text(), json(), arrayBuffer() or bytes()")); },
  };
  function take(obj, who) {
    const st = obj[S];
    if (!st) throw typeError(who + ": called on an object that is not a Request or Response");
    if (st.used) throw unusable(who);
    st.used = true;
    const b = st.body;
    if (b === null) return "";
    return typeof b === "string" ? b : b.slice(0);
  }
  function bodyProps(proto) {
    for (const k of Object.keys(bodyMethods)) {
      Object.defineProperty(proto, k, { value: bodyMethods[k], writable: true, configurable: true, enumerable: false });
    }
    Object.defineProperty(proto, "bodyUsed", { get() { return !!this[S].used; }, configurable: true });
    Object.defineProperty(proto, "body", {
      get() { throw typeError("body streams are not supported in this sandbox: use text(), json(), arrayBuffer() or bytes()"); },
      configurable: true,
    });
  }

  class Response {
    constructor(body, init) {
      if (body === INTERNAL) {
        // From fetch: init is the host's answer, as fetch.go builds it.
        const r = init;
        Object.defineProperty(this, S, {
          value: {
            status: r.status, statusText: r.statusText, url: r.url, redirected: r.redirected,
            headers: new Headers(r.headers), body: r.body, used: false, type: "basic",
          },
        });
        return;
      }
      const b = bodyOf(body, "Response");
      init = init === undefined || init === null ? {} : init;
      const status = init.status === undefined ? 200 : Number(init.status);
      if (!Number.isInteger(status) || status < 200 || status > 599) {
        throw new RangeError("Response: the status must be an integer from 200 to 599, got " + init.status);
      }
      const headers = new Headers(init.headers);
      if (b.type !== null && !headers.has("content-type")) headers.set("content-type", b.type);
      Object.defineProperty(this, S, {
        value: {
          status, statusText: init.statusText === undefined ? "" : String(init.statusText), url: "", redirected: false,
          headers, body: b.value, used: false, type: "default",
        },
      });
    }
    get ok() { const s = this[S].status; return s >= 200 && s <= 299; }
    get status() { return this[S].status; }
    get statusText() { return this[S].statusText; }
    get headers() { return this[S].headers; }
    get url() { return this[S].url; }
    get redirected() { return this[S].redirected; }
    get type() { return this[S].type; }
    clone() {
      const st = this[S];
      if (st.used) throw unusable("Response.clone");
      const c = Object.create(Response.prototype);
      Object.defineProperty(c, S, { value: Object.assign({}, st, { headers: new Headers(st.headers) }) });
      return c;
    }
    static json(data, init) {
      const text = JSON.stringify(data);
      if (text === undefined) throw typeError("Response.json: the data cannot be converted to JSON");
      init = init === undefined || init === null ? {} : init;
      const headers = new Headers(init.headers);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      return new Response(text, Object.assign({}, init, { headers }));
    }
    static error() { return new Response(INTERNAL, { status: 0, statusText: "", url: "", redirected: false, headers: [], body: null }); }
    get [Symbol.toStringTag]() { return "Response"; }
  }
  bodyProps(Response.prototype);

  const REDIRECTS = ["follow", "manual", "error"];

  // requestState reads what fetch and the Request constructor take: input
  // (a URL string, a URL or a Request) and init.
  function requestState(input, init, who) {
    let st;
    if (input instanceof Request) {
      const from = input[S];
      if (from.used) throw unusable(who);
      st = { url: from.url, method: from.method, headers: new Headers(from.headers), body: from.body, redirect: from.redirect, used: false };
    } else {
      st = { url: String(input), method: "GET", headers: new Headers(), body: null, redirect: "follow", used: false };
    }
    if (init !== undefined && init !== null) {
      if (typeof init !== "object") throw typeError(who + ": the init must be an object, got " + typeof init);
      if (init.method !== undefined) st.method = normalizeMethod(init.method);
      if (init.headers !== undefined) st.headers = new Headers(init.headers);
      if (init.body !== undefined) {
        const b = bodyOf(init.body, who);
        st.body = b.value;
        if (b.type !== null && !st.headers.has("content-type")) st.headers.append("Content-Type", b.type);
      }
      if (init.redirect !== undefined) {
        st.redirect = String(init.redirect);
        if (!REDIRECTS.includes(st.redirect)) {
          throw typeError(who + ": redirect must be \"follow\", \"manual\" or \"error\", got " + JSON.stringify(st.redirect));
        }
      }
      if (init.signal !== undefined && init.signal !== null) {
        throw typeError(who + ": signal (AbortController) is not supported in this sandbox; the host limits a request's time");
      }
    }
    if ((st.method === "GET" || st.method === "HEAD") && st.body !== null) {
      throw typeError(who + ": a " + st.method + " request cannot have a body");
    }
    return st;
  }

  class Request {
    constructor(input, init) {
      if (input === undefined) throw typeError("Request: the URL is missing");
      Object.defineProperty(this, S, { value: requestState(input, init, "Request") });
    }
    get url() { return this[S].url; }
    get method() { return this[S].method; }
    get headers() { return this[S].headers; }
    get redirect() { return this[S].redirect; }
    clone() {
      const st = this[S];
      if (st.used) throw unusable("Request.clone");
      const c = Object.create(Request.prototype);
      Object.defineProperty(c, S, { value: Object.assign({}, st, { headers: new Headers(st.headers) }) });
      return c;
    }
    get [Symbol.toStringTag]() { return "Request"; }
  }
  bodyProps(Request.prototype);

  class URLSearchParams {
    constructor(init) {
      Object.defineProperty(this, S, { value: { list: [], url: null } });
      if (init === undefined || init === null) return;
      if (typeof init === "string") {
        this[S].list = parseQuery(init.startsWith("?") ? init.slice(1) : init);
        return;
      }
      if (init instanceof URLSearchParams) { this[S].list = init[S].list.map(e => [e[0], e[1]]); return; }
      if (typeof init === "object") {
        if (typeof init[Symbol.iterator] === "function") {
          for (const pair of init) {
            const p = Array.from(pair);
            if (p.length !== 2) throw typeError("URLSearchParams: each item must be a [name, value] pair");
            this[S].list.push([String(p[0]), String(p[1])]);
          }
        } else {
          for (const k of Object.keys(init)) this[S].list.push([k, String(init[k])]);
        }
        return;
      }
      this[S].list = parseQuery(String(init));
    }
    get size() { return this[S].list.length; }
    append(n, v) { this[S].list.push([String(n), String(v)]); this._changed(); }
    delete(n) { n = String(n); this[S].list = this[S].list.filter(e => e[0] !== n); this._changed(); }
    get(n) { n = String(n); const e = this[S].list.find(e => e[0] === n); return e ? e[1] : null; }
    getAll(n) { n = String(n); return this[S].list.filter(e => e[0] === n).map(e => e[1]); }
    has(n) { n = String(n); return this[S].list.some(e => e[0] === n); }
    set(n, v) {
      n = String(n); v = String(v);
      const list = this[S].list, i = list.findIndex(e => e[0] === n);
      if (i < 0) list.push([n, v]);
      else { list[i] = [n, v]; this[S].list = list.filter((e, j) => j <= i || e[0] !== n); }
      this._changed();
    }
    sort() { this[S].list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); this._changed(); }
    *entries() { for (const e of this[S].list) yield [e[0], e[1]]; }
    *keys() { for (const e of this[S].list) yield e[0]; }
    *values() { for (const e of this[S].list) yield e[1]; }
    forEach(fn, thisArg) { for (const [n, v] of this.entries()) fn.call(thisArg, v, n, this); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this[S].list.map(e => formEncode(e[0]) + "=" + formEncode(e[1])).join("&"); }
    _changed() { const u = this[S].url; if (u) { const q = this.toString(); u[S].search = q ? "?" + q : ""; } }
    get [Symbol.toStringTag]() { return "URLSearchParams"; }
  }
  Object.defineProperty(URLSearchParams.prototype, "_changed", { enumerable: false });

  function formDecode(s) {
    s = s.replace(/\+/g, " ");
    try { return decodeURIComponent(s); } catch (e) { return s; }
  }
  function formEncode(s) {
    return encodeURIComponent(s).replace(/%20/g, "+").replace(/[!'()~]/g, c => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  }
  function parseQuery(q) {
    const out = [];
    for (const part of q.split("&")) {
      if (part === "") continue;
      const i = part.indexOf("=");
      out.push(i < 0 ? [formDecode(part), ""] : [formDecode(part.slice(0, i)), formDecode(part.slice(i + 1))]);
    }
    return out;
  }

  // URL is read-only but for searchParams, whose changes show in search
  // and href. It parses with Go's net/url (native.parseURL), for the
  // script's convenience only.
  class URL {
    constructor(url, base) {
      const p = native.parseURL(String(url), base === undefined ? undefined : String(base));
      const st = Object.assign({}, p);
      Object.defineProperty(this, S, { value: st });
      st.params = new URLSearchParams(st.search);
      st.params[S].url = this;
    }
    get href() {
      const s = this[S];
      const auth = s.username || s.password ? s.username + (s.password ? ":" + s.password : "") + "@" : "";
      return s.protocol + (s.slashes ? "//" : "") + auth + s.host + s.pathname + s.search + s.hash;
    }
    get origin() { const s = this[S]; return s.slashes ? s.protocol + "//" + s.host : "null"; }
    get protocol() { return this[S].protocol; }
    get username() { return this[S].username; }
    get password() { return this[S].password; }
    get host() { return this[S].host; }
    get hostname() { return this[S].hostname; }
    get port() { return this[S].port; }
    get pathname() { return this[S].pathname; }
    get search() { return this[S].search; }
    get searchParams() { return this[S].params; }
    get hash() { return this[S].hash; }
    toString() { return this.href; }
    toJSON() { return this.href; }
    static canParse(url, base) { try { new URL(url, base); return true; } catch (e) { return false; } }
    get [Symbol.toStringTag]() { return "URL"; }
  }

  function fetchError(err) {
    const e = typeError("fetch failed: " + (err && err.message !== undefined ? err.message : String(err)));
    if (err && typeof err === "object") {
      e.cause = err;
      if (err.kind !== undefined) e.kind = err.kind;
      if (err.reasons !== undefined) e.reasons = err.reasons;
    }
    return e;
  }

  function fetch(input, init) {
    try {
      if (native.tool === null) {
        throw typeError("fetch: network access is not enabled in this sandbox (the host has configured no HTTP egress)");
      }
      if (input === undefined) throw typeError("fetch: the URL is missing");
      const st = requestState(input, init, "fetch");
      const flat = [];
      for (const [n, v] of st.headers[S]) flat.push(n, v);
      return native.send(st.url, st.method, flat, st.body, st.redirect).then(
        r => new Response(INTERNAL, r),
        err => { throw fetchError(err); });
    } catch (e) {
      return Promise.reject(e);
    }
  }

  return { fetch, Headers, Request, Response, URL, URLSearchParams };
})
