// cases.js is the corpus for the Node.js comparison test (inspect_test.go).
//
// The file is a single expression: an array of [name, fn, flags] entries.
// Each fn prints with console.log; gen_golden.js runs it under Node.js to
// produce node.golden, and TestGolden runs it under goja with this package's
// format and compares. `util` is Node's util module (inspect, format) in Node
// and this package's exports under goja. Flags:
//
//   'frames'  the output contains real stack frames, which differ between V8
//             and goja; runs of "at ..." lines are collapsed before comparing.
//
// Errors elsewhere get a fixed `stack` so that their formatting can be
// compared byte for byte.
[
  // ---------------------------------------------------------------------
  // Primitives
  // ---------------------------------------------------------------------
  ['empty-call', () => { console.log(); }],
  ['integers', () => { console.log(0, 1, -1, 42, 2 ** 31, -(2 ** 31), 2 ** 53); }],
  ['floats', () => { console.log(1.5, -0.25, 0.1 + 0.2, 1 / 3, 123.456e5, 5e-7, 1e21, 1.7976931348623157e308); }],
  ['special-numbers', () => { console.log(NaN, Infinity, -Infinity, -0, 0); }],
  ['negative-zero-nested', () => { console.log([-0, 0, -0.0], { z: -0 }); }],
  ['bigints', () => { console.log(1n, -5n, 0n, 123456789012345678901234567890n); }],
  ['booleans-null-undefined', () => { console.log(true, false, null, undefined); }],
  ['symbols', () => { console.log(Symbol(), Symbol('a'), Symbol.iterator, Symbol.for('registered'), Symbol('')); }],
  ['symbol-description-escapes', () => { console.log([Symbol('new\nline'), Symbol("it's")]); }],
  ['top-level-string-raw', () => { console.log('hello world', "it's", 'tab\there'); }],
  ['top-level-multiline-string', () => { console.log('line one\nline two\n  indented'); }],
  ['mixed-args', () => { console.log('count:', 5, 'items', [1, 2], { ok: true }, null); }],
  ['number-then-string-args', () => { console.log(1, '%s', 'x'); }],

  // ---------------------------------------------------------------------
  // Strings inside structures (quoting and escaping)
  // ---------------------------------------------------------------------
  ['string-quotes', () => { console.log(['plain', "it's", 'say "hi"', `both ' and "`, 'all \' " `', 'tmpl ${x} \' "']); }],
  ['string-control-escapes', () => { console.log(['\n', '\t', '\r', '\b', '\f', '\v', '\0', '\x01', '\x1b[31m', '\x7f', '\x85', '\x9f', '\\']); }],
  ['string-unicode', () => { console.log(['héllo wörld', '日本語テキスト', 'emoji 😀👍', 'Ελληνικά', 'עברית', 'combining é']); }],
  ['string-lone-surrogates', () => { console.log(['\ud83d', 'a\ude00b', '\ud83d\ude00', 'x\udbff']); }],
  ['string-escape-with-single-quote-fallback', () => { console.log(["it's\n", "'\t'\\"]); }],
  ['string-long-in-object', () => {
    console.log({ description: 'This is a fairly long description string that goes well past the eighty character break length limit.' });
  }],
  ['string-multiline-in-object', () => {
    console.log({ text: 'first line of a longer text\nsecond line of the text\nthird line, which is the last one' });
  }],
  ['string-multiline-in-array', () => {
    console.log(['short', 'a multi-line string that is long enough\nto be split over several lines\nin the output']);
  }],
  ['string-short-multiline', () => { console.log({ s: 'a\nb\nc' }); }],
  ['string-max-length', () => { console.log(['x'.repeat(10005)]); }],
  ['string-exactly-long', () => { console.log(['abcdefghij'.repeat(8)]); }],
  ['string-nested-long-indent', () => {
    console.log({ level1: { level2: { text: 'nested text that is long enough to be broken up when it is indented deeply' } } });
  }],

  // ---------------------------------------------------------------------
  // util.format directives
  // ---------------------------------------------------------------------
  ['format-s', () => { console.log('%s|%s|%s|%s|%s', 'str', 42, 1n, null, undefined); }],
  ['format-s-objects', () => { console.log('%s -- %s -- %s', { a: 1, b: { c: 2 } }, [1, [2, [3]]], Symbol('sym')); }],
  ['format-s-negative-zero', () => { console.log('%s %s', -0, 1.5); }],
  ['format-s-custom-tostring', () => {
    class Temp { constructor() { this.deg = 21; } toString() { return `${this.deg}°C`; } }
    console.log('%s / %s', new Temp(), { toString() { return 'own toString'; } });
  }],
  ['format-s-error', () => {
    const e = new Error('bad thing');
    e.stack = 'Error: bad thing\n    at fn (file.js:1:1)';
    console.log('%s', e);
  }],
  ['format-s-date', () => { console.log('%s', new Date(Date.UTC(2024, 0, 15, 10, 30))); }],
  ['format-d', () => { console.log('%d %d %d %d %d %d', 42, '42', 42.5, 10n, '', 'abc'); }],
  ['format-d-objects', () => { console.log('%d %d %d', {}, [], Symbol('x')); }],
  ['format-i', () => { console.log('%i %i %i %i', 42.9, '42.9px', -7.5, 99n); }],
  ['format-f', () => { console.log('%f %f %f %f', '3.14abc', 2, 'x', Symbol('y')); }],
  ['format-j', () => { console.log('%j %j %j', { a: [1, 2], b: 'x' }, 'str', undefined); }],
  ['format-j-circular', () => { const o = { name: 'loop' }; o.self = o; console.log('%j', o); }],
  ['format-O', () => { console.log('%O', { a: { b: { c: { d: { e: 1 } } } } }); }],
  ['format-o', () => { console.log('%o', { a: { b: { c: { d: { e: 1 } } } }, list: [1, 2] }); }],
  ['format-o-array', () => { console.log('%o', [1, 'two', [3]]); }],
  ['format-c', () => { console.log('%cStyled%c text', 'color: red', 'font-weight: bold'); }],
  ['format-percent', () => { console.log('100%% done, %s', 'ok', '%%'); }],
  ['format-percent-no-args', () => { console.log('100%% literal'); }],
  ['format-missing-args', () => { console.log('%s and %s and %d', 'one'); }],
  ['format-extra-args', () => { console.log('%s:', 'key', 'value', 3, { x: 1 }); }],
  ['format-unknown-directive', () => { console.log('%x %s %', 'a', 'b'); }],
  ['format-trailing-percent', () => { console.log('50%', 'x'); }],
  ['format-only-directive-string', () => { console.log('%s'); }],
  ['format-util-direct', () => { console.log(util.format('%s=%d', 'n', 7), util.format(1, 2), util.format()); }],

  // ---------------------------------------------------------------------
  // Objects
  // ---------------------------------------------------------------------
  ['object-empty', () => { console.log({}, [{}], { a: {} }); }],
  ['object-simple', () => { console.log({ a: 1, b: 'two', c: true, d: null, e: undefined }); }],
  ['object-nested-depth-limit', () => { console.log({ l1: { l2: { l3: { l4: { l5: 1 } } } } }); }],
  ['object-depth-limit-array', () => { console.log({ l1: { l2: { arr: [1, 2], obj: { x: 1 } } } }); }],
  ['object-depth-limit-class', () => {
    class Foo { constructor() { this.x = 1; } }
    console.log({ a: { b: { c: new Foo(), d: new Map([[1, 2]]), e: new Set([1]) } } });
  }],
  ['object-quoted-keys', () => {
    console.log({ 'a-b': 1, '1a': 2, '': 3, 'with space': 4, valid_id: 5, $dollar: 6, 'ключ': 7, "it's": 8 });
  }],
  ['object-numeric-keys', () => { console.log({ 2: 'b', 1: 'a', z: 'z', 10: 'ten' }); }],
  ['object-proto-key', () => { console.log(JSON.parse('{"__proto__": {"x": 1}, "y": 2}')); }],
  ['object-wrapping-many-keys', () => {
    console.log({ alpha: 1, beta: 2, gamma: 3, delta: 4, epsilon: 5, zeta: 6, eta: 7, theta: 8, iota: 9, kappa: 10, lambda: 11 });
  }],
  ['object-just-below-break', () => { console.log({ aaaaaaaaaa: 1111111111, bbbbbbbbbb: 2222222222, cccccccc: 3333 }); }],
  ['object-just-above-break', () => { console.log({ aaaaaaaaaa: 1111111111, bbbbbbbbbb: 2222222222, cccccccccccc: 33333333 }); }],
  ['object-compact-3-levels', () => { console.log({ a: { b: { c: {} } }, x: [1, 2, 3], y: { z: [{ w: 1 }] } }); }],
  ['object-compact-mixed-depth', () => {
    console.log({ first: [1, 2, 3], second: { inner: [1, 2, 3], more: { deep: true } }, third: 'value' });
  }],
  ['object-27-keys', () => {
    const o = {};
    for (let i = 0; i < 27; i++) o[String.fromCharCode(97 + (i % 26)) + i] = i;
    console.log(o);
  }],
  ['object-getters-setters', () => {
    console.log({ get a() { return 1; }, set b(v) {}, get c() { return 1; }, set c(v) {}, d: 4 });
  }],
  ['object-symbol-keys', () => { console.log({ [Symbol('a')]: 1, [Symbol.iterator]: 2, normal: 3, [Symbol()]: 4 }); }],
  ['object-non-enumerable-hidden', () => {
    const o = { visible: 1 };
    Object.defineProperty(o, 'hidden', { value: 2, enumerable: false });
    Object.defineProperty(o, Symbol('hiddenSym'), { value: 3, enumerable: false });
    console.log(o);
  }],
  ['object-null-prototype', () => {
    const o = Object.create(null);
    o.a = 1;
    o.nested = Object.create(null);
    console.log(o, Object.create(null));
  }],
  ['object-null-prototype-chain', () => { console.log(Object.create(Object.create(null))); }],
  ['object-anonymous-class-instance', () => { const C = (() => class {})(); console.log(new C()); }],
  ['object-tostringtag-own', () => { console.log({ [Symbol.toStringTag]: 'Custom', a: 1 }); }],
  ['object-tostringtag-class', () => {
    class Tagged { get [Symbol.toStringTag]() { return 'TagName'; } }
    const t = new Tagged();
    t.v = 1;
    console.log(t, new Tagged());
  }],
  ['object-custom-inspect', () => {
    class Money {
      constructor(v) { this.v = v; }
      [Symbol.for('nodejs.util.inspect.custom')]() { return `Money<${this.v}>`; }
    }
    console.log(new Money(5), { price: new Money(10) });
  }],
  ['object-custom-inspect-object-result', () => {
    const o = { [Symbol.for('nodejs.util.inspect.custom')](depth, options) { return { replaced: true, depth }; } };
    console.log(o, [o]);
  }],
  ['object-custom-inspect-uses-inspect', () => {
    const o = {
      inner: [1, 2, 3],
      [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
        return `Wrapper(${inspect(this.inner, options)})`;
      },
    };
    console.log({ wrapped: o });
  }],
  ['object-custom-inspect-multiline', () => {
    const o = { [Symbol.for('nodejs.util.inspect.custom')]() { return 'line1\nline2'; } };
    console.log({ a: { b: o } });
  }],
  ['object-circular', () => { const o = { name: 'root' }; o.self = o; console.log(o); }],
  ['object-circular-nested', () => {
    const a = { name: 'a' };
    const b = { name: 'b', a };
    a.b = b;
    a.list = [a, b];
    console.log(a);
  }],
  ['object-circular-two-refs', () => {
    const x = { id: 'x' };
    const y = { id: 'y' };
    x.y = y;
    y.self = y;
    y.x = x;
    console.log([x, y]);
  }],
  ['object-same-ref-twice', () => { const shared = { s: 1 }; console.log({ a: shared, b: shared }); }],
  ['object-class-instances', () => {
    class Point { constructor(x, y) { this.x = x; this.y = y; } }
    class Point3D extends Point { constructor(x, y, z) { super(x, y); this.z = z; } }
    console.log(new Point(1, 2), new Point3D(1, 2, 3), [new Point(0, 0)]);
  }],
  ['object-class-empty-instance', () => { class Empty {} console.log(new Empty(), { e: new Empty() }); }],
  ['object-constructor-function-instance', () => {
    function Legacy(n) { this.n = n; }
    Legacy.prototype.method = function() {};
    console.log(new Legacy(3));
  }],
  ['object-with-functions', () => {
    console.log({ method() {}, arrow: () => {}, named: function named() {}, asyncM: async () => {} });
  }],
  ['object-frozen', () => { console.log(Object.freeze({ a: 1, b: [1] })); }],
  ['object-json-parse', () => {
    console.log(JSON.parse('{"users":[{"id":1,"tags":["a","b"]},{"id":2,"tags":[]}],"total":2,"next":null}'));
  }],

  // ---------------------------------------------------------------------
  // Arrays
  // ---------------------------------------------------------------------
  ['array-empty', () => { console.log([], [[]], [[], []]); }],
  ['array-small', () => { console.log([1, 2, 3], ['a', 'b'], [true, null, undefined]); }],
  ['array-six-items', () => { console.log([1, 2, 3, 4, 5, 6]); }],
  ['array-seven-items', () => { console.log([1, 2, 3, 4, 5, 6, 7]); }],
  ['array-numbers-grouped', () => { console.log(Array.from({ length: 30 }, (_, i) => i * 7)); }],
  ['array-numbers-padstart-negative', () => { console.log([1, -22, 333, -4444, 5, 66, -777, 8888, 9, -10]); }],
  ['array-floats', () => { console.log([0.5, 1.25, -3.125, 100.001, 7, 8.5, 9.75, 10, 11.1, 12.12]); }],
  ['array-strings-grouped', () => {
    console.log(['apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape', 'honeydew', 'kiwi', 'lemon', 'mango', 'nectarine']);
  }],
  ['array-mixed-grouped', () => { console.log([1, 'two', 3, 'four', 5, 'six', 7, 'eight']); }],
  ['array-over-100', () => { console.log(Array.from({ length: 120 }, (_, i) => i)); }],
  ['array-101', () => { console.log(Array.from({ length: 101 }, () => 0)); }],
  ['array-strings-over-100', () => { console.log(Array.from({ length: 105 }, (_, i) => `item${i}`)); }],
  ['array-holes', () => { console.log([1, , 3], [, , 1, , ], new Array(5), [ , 'a']); }],
  ['array-holes-many', () => { const a = [1]; a[50] = 2; a[120] = 3; console.log(a); }],
  ['array-extra-props', () => { const a = [1, 2, 3]; a.extra = 'x'; a[Symbol('s')] = 1; console.log(a); }],
  ['array-only-extra-props', () => { const a = []; a.foo = 'bar'; console.log(a); }],
  ['array-nested', () => { console.log([[1, [2, [3, [4, [5]]]]]]); }],
  ['array-of-arrays-table', () => {
    console.log([['id', 'name', 'score'], [1, 'alice', 93.5], [2, 'bob', 87], [3, 'carol', 78.25]]);
  }],
  ['array-long-entries', () => {
    console.log(['a fairly long string entry number one', 'a fairly long string entry number two', 'short', 'another long string for the array']);
  }],
  ['array-unicode-grouped', () => {
    console.log(['日本', '中文字', '한국어', 'emoji😀', 'ascii', 'ñandú', 'über', '東京都', 'ok']);
  }],
  ['array-subclass', () => { class MyArray extends Array {} const m = MyArray.from([1, 2, 3]); console.log(m, new MyArray()); }],
  ['array-bigints-grouped', () => { console.log([1n, 22n, 333n, 4444n, 55555n, 6n, 77n, 888n]); }],
  ['array-of-objects-wrapping', () => {
    console.log([{ a: 1, b: 2 }, { a: 3, b: 4 }, { a: 5, b: 6 }, { a: 7, b: 8 }, { a: 9, b: 10 }, { a: 11, b: 12 }, { a: 13, b: 14 }]);
  }],
  ['array-in-object-grouped', () => { console.log({ data: Array.from({ length: 26 }, (_, i) => i * i) }); }],

  // ---------------------------------------------------------------------
  // Typed arrays and buffers
  // ---------------------------------------------------------------------
  ['typed-uint8', () => { console.log(new Uint8Array([1, 2, 3])); }],
  ['typed-various', () => {
    console.log(new Int16Array([-1, 2]), new Float64Array([1.5, -0]), new Uint8ClampedArray(2), new Float32Array([0.5]));
  }],
  ['typed-bigint', () => { console.log(new BigInt64Array([1n, -2n]), new BigUint64Array(1)); }],
  ['typed-empty', () => { console.log(new Int32Array(0)); }],
  ['typed-large', () => { console.log(new Uint16Array(130).map((_, i) => i * 3)); }],
  ['typed-extra-prop', () => { const t = new Uint8Array(2); t.tag = 'x'; console.log(t); }],
  ['arraybuffer', () => { console.log(new ArrayBuffer(4), new Uint8Array([1, 2, 255]).buffer); }],
  ['arraybuffer-large', () => { console.log(new Uint8Array(120).map((_, i) => i).buffer); }],
  ['arraybuffer-nested', () => { console.log({ buf: new ArrayBuffer(3) }); }],
  ['dataview', () => { console.log(new DataView(new ArrayBuffer(2))); }],

  // ---------------------------------------------------------------------
  // Map, Set, WeakMap, WeakSet
  // ---------------------------------------------------------------------
  ['map-simple', () => { console.log(new Map([['a', 1], ['b', 2]])); }],
  ['map-empty', () => { console.log(new Map(), new Set()); }],
  ['map-object-keys', () => { console.log(new Map([[{ id: 1 }, 'one'], [[1, 2], { v: true }], [null, undefined]])); }],
  ['map-nested', () => { console.log(new Map([['outer', new Map([['inner', new Map([['deep', 1]])]])]])); }],
  ['map-large', () => { console.log(new Map(Array.from({ length: 105 }, (_, i) => [i, `v${i}`]))); }],
  ['map-wrapping', () => {
    console.log(new Map([['first-key', 'first value'], ['second-key', 'second value'], ['third-key', 'third value']]));
  }],
  ['map-with-props', () => { const m = new Map([[1, 2]]); m.extra = true; console.log(m); }],
  ['map-subclass', () => { class Registry extends Map {} console.log(new Registry([['k', 'v']])); }],
  ['set-simple', () => { console.log(new Set([1, 'two', { three: 3 }, [4]])); }],
  ['set-large', () => { console.log(new Set(Array.from({ length: 110 }, (_, i) => i))); }],
  ['set-nested-in-object', () => { console.log({ tags: new Set(['a', 'b']), ids: new Set([1, 2, 3]) }); }],
  ['set-many-numbers', () => { console.log(new Set(Array.from({ length: 30 }, (_, i) => i))); }],
  ['weak-collections', () => { console.log(new WeakMap(), new WeakSet(), { wm: new WeakMap([[{}, 1]]) }); }],
  ['map-iterator', () => { console.log(new Map([['a', 1]]).entries()); }],
  ['set-iterator', () => { console.log(new Set([1]).values()); }],
  ['array-iterator', () => { console.log([1, 2][Symbol.iterator]()); }],
  ['generator-object', () => { function* gen() { yield 1; } console.log(gen()); }],

  // ---------------------------------------------------------------------
  // Functions and classes
  // ---------------------------------------------------------------------
  ['function-named', () => { function myFunc() {} console.log(myFunc); }],
  ['function-anonymous', () => { console.log(function() {}, () => {}, [() => {}]); }],
  ['function-arrow-named', () => { const arrow = (a, b) => a + b; console.log(arrow); }],
  ['function-class', () => { class A {} class B extends A {} console.log(A, B); }],
  ['function-class-anonymous', () => { console.log(class {}, [class {}]); }],
  ['function-class-extends-builtin', () => { class MyErr extends Error {} class MyMap extends Map {} console.log(MyErr, MyMap); }],
  ['function-class-static-props', () => { class Config { static defaults = { a: 1 }; static version = 2; } console.log(Config); }],
  ['function-async', () => { async function load() {} const asyncArrow = async () => {}; console.log(load, asyncArrow); }],
  ['function-generator', () => { function* gen() {} console.log(gen); }],
  ['function-bound', () => { function orig() {} console.log(orig.bind(null)); }],
  ['function-with-props', () => { function handler() {} handler.route = '/api'; handler.methods = ['GET']; console.log(handler); }],
  ['function-methods', () => { const o = { m() {}, get g() { return 1; } }; console.log(o.m, [o.m]); }],
  ['function-null-prototype', () => { function f() {} Object.setPrototypeOf(f, null); console.log(f); }],
  ['function-builtin', () => { console.log(Math.max, Array.prototype.push, Object); }],
  ['function-renamed', () => { const f = function() {}; Object.defineProperty(f, 'name', { value: 'renamed' }); console.log(f); }],

  // ---------------------------------------------------------------------
  // Dates and regular expressions
  // ---------------------------------------------------------------------
  ['date-valid', () => { console.log(new Date(Date.UTC(2024, 2, 5, 14, 7, 9, 123))); }],
  ['date-epoch-and-nested', () => { console.log({ created: new Date(0), list: [new Date(86400000)] }); }],
  ['date-invalid', () => { console.log(new Date(NaN), [new Date('garbage')]); }],
  ['date-with-props', () => { const d = new Date(0); d.label = 'epoch'; console.log(d); }],
  ['date-subclass', () => { class MyDate extends Date {} console.log(new MyDate(0)); }],
  ['regexp-simple', () => { console.log(/ab+c/, /x/gi, new RegExp('a/b'), /[\]\\]/u); }],
  ['regexp-in-object', () => { console.log({ pattern: /^\d{3}-\d{4}$/, flags: /y/gimsuy }); }],
  ['regexp-with-props', () => { const r = /abc/; r.note = 'x'; console.log(r); }],

  // ---------------------------------------------------------------------
  // Errors (with fixed stacks unless flagged 'frames')
  // ---------------------------------------------------------------------
  ['error-fixed-stack', () => {
    const e = new Error('boom');
    e.stack = 'Error: boom\n    at doWork (/app/agent.js:10:11)\n    at main (/app/agent.js:20:3)';
    console.log(e);
  }],
  ['error-fixed-stack-nested', () => {
    const e = new Error('nested');
    e.stack = 'Error: nested\n    at inner (/app/a.js:1:1)';
    console.log({ error: e, list: [e] });
  }],
  ['error-extra-props', () => {
    const e = new Error('request failed');
    e.stack = 'Error: request failed\n    at fetch (/app/http.js:5:9)';
    e.status = 404;
    e.details = { url: '/x', retry: false };
    console.log(e);
  }],
  ['error-types', () => {
    const errs = [new TypeError('t'), new RangeError('r'), new SyntaxError('s'), new ReferenceError('ref')];
    for (const e of errs) e.stack = `${e.name}: ${e.message}\n    at f (x.js:1:1)`;
    console.log(errs);
  }],
  ['error-no-stack', () => {
    const e = new Error('stackless');
    e.stack = undefined;
    const t = new TypeError('also stackless');
    t.stack = '';
    console.log(e, [t]);
  }],
  ['error-stack-without-frames', () => { const e = new Error('msg'); e.stack = 'Error: msg'; console.log(e, { e }); }],
  ['error-custom-class', () => {
    class ValidationError extends Error {
      constructor(m) { super(m); this.name = 'ValidationError'; this.field = 'email'; }
    }
    const e = new ValidationError('invalid email');
    e.stack = 'ValidationError: invalid email\n    at validate (/app/v.js:3:9)';
    console.log(e);
  }],
  ['error-class-name-mismatch', () => {
    class HttpError extends Error {}
    const e = new HttpError('not found');
    e.stack = 'Error: not found\n    at get (/app/h.js:1:1)';
    console.log(e);
  }],
  ['error-name-changed', () => {
    const e = new Error('renamed');
    e.stack = 'Error: renamed\n    at x (/a.js:1:1)';
    e.name = 'CustomName';
    console.log(e);
  }],
  ['error-cause', () => {
    const cause = new Error('root cause');
    cause.stack = 'Error: root cause\n    at db (/app/db.js:1:1)';
    const e = new Error('wrapper', { cause });
    e.stack = 'Error: wrapper\n    at svc (/app/svc.js:2:2)';
    console.log(e);
  }],
  ['error-cause-primitive', () => {
    const e = new Error('with cause', { cause: 'just a string' });
    e.stack = 'Error: with cause\n    at f (/a.js:1:1)';
    console.log(e);
  }],
  ['error-aggregate', () => {
    const a = new Error('first');
    a.stack = 'Error: first\n    at a (/a.js:1:1)';
    const e = new AggregateError([a, 'second'], 'many failed');
    e.stack = 'AggregateError: many failed\n    at run (/r.js:1:1)';
    console.log(e);
  }],
  ['error-empty-message', () => { const e = new Error(); e.stack = 'Error\n    at f (/a.js:1:1)'; console.log(e); }],
  ['error-message-multiline', () => {
    const e = new Error('line one\nline two');
    e.stack = 'Error: line one\nline two\n    at f (/a.js:1:1)';
    console.log({ e });
  }],
  ['error-null-prototype', () => {
    const e = new Error('np');
    e.stack = 'Error: np\n    at f (/a.js:1:1)';
    Object.setPrototypeOf(e, null);
    console.log(e);
  }],
  ['error-message-log', () => { const e = new Error('disk full'); console.log('Error:', e.message, '| name:', e.name); }],
  ['error-real-stack', () => { console.log(new Error('real frames')); }, 'frames'],
  ['error-real-stack-nested', () => { console.log({ err: new RangeError('out of range'), ok: false }); }, 'frames'],
  ['error-real-stack-extra-props', () => { const e = new Error('with props'); e.code = 'E_CODE'; console.log(e); }, 'frames'],
  ['error-real-stack-in-array', () => { console.log([new TypeError('first'), new Error('second')]); }, 'frames'],
  ['error-real-thrown-caught', () => {
    function failingStep() { throw new Error('step failed'); }
    try { failingStep(); } catch (e) { console.log('caught:', e); }
  }, 'frames'],

  // ---------------------------------------------------------------------
  // Boxed primitives
  // ---------------------------------------------------------------------
  ['boxed-primitives', () => {
    console.log(new Number(3), new String('str'), new Boolean(false), Object(Symbol('boxed')), Object(10n));
  }],
  ['boxed-negative-zero', () => { console.log(new Number(-0), [new Number(1.5)]); }],
  ['boxed-string-with-props', () => { const s = new String('ab'); s.extra = 1; console.log(s); }],
  ['boxed-string-quotes', () => { console.log(new String("it's")); }],

  // ---------------------------------------------------------------------
  // Promises
  // ---------------------------------------------------------------------
  ['promise-fulfilled', () => { console.log(Promise.resolve(42), Promise.resolve({ a: [1, 2] })); }],
  ['promise-pending', () => { console.log(new Promise(() => {})); }],
  ['promise-rejected', () => {
    const p = Promise.reject(42);
    p.catch(() => {});
    console.log(p);
  }],
  ['promise-rejected-error', () => {
    const e = new Error('async failure');
    e.stack = 'Error: async failure\n    at job (/app/job.js:7:7)';
    const p = Promise.reject(e);
    p.catch(() => {});
    console.log(p, { p });
  }],
  ['promise-async-function-result', () => { console.log((async () => 'done')()); }],
  ['promise-with-props', () => { const p = Promise.resolve(1); p.tag = 'x'; console.log(p); }],
  ['promise-nested-in-object', () => { console.log({ result: Promise.resolve(undefined), pending: new Promise(() => {}) }); }],

  // ---------------------------------------------------------------------
  // Proxies
  // ---------------------------------------------------------------------
  ['proxy-object', () => { console.log(new Proxy({ a: 1, b: 2 }, {})); }],
  ['proxy-traps-not-triggered', () => {
    const p = new Proxy({ real: true }, { get() { return 'trapped'; }, ownKeys() { return ['fake']; } });
    console.log(p);
  }],
  ['proxy-array', () => { console.log(new Proxy([1, 2, 3], {})); }],
  ['proxy-function', () => { console.log(new Proxy(function target() {}, {})); }],
  ['proxy-revoked', () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); console.log(proxy); }],
  ['proxy-show-proxy', () => { console.log(util.inspect(new Proxy({ a: 1 }, {}), { showProxy: true })); }],

  // ---------------------------------------------------------------------
  // util.inspect options
  // ---------------------------------------------------------------------
  ['opt-depth-0', () => { console.log(util.inspect({ a: { b: 1 }, c: [1] }, { depth: 0 })); }],
  ['opt-depth-infinity', () => { console.log(util.inspect({ a: { b: { c: { d: { e: { f: 1 } } } } } }, { depth: Infinity })); }],
  ['opt-depth-null', () => { console.log(util.inspect({ a: { b: { c: { d: [1] } } } }, { depth: null })); }],
  ['opt-compact-false', () => { console.log(util.inspect({ a: 1, b: [1, 2], c: { d: 'x' } }, { compact: false })); }],
  ['opt-compact-true', () => {
    console.log(util.inspect({ a: 1, b: [1, 2], c: { d: 'x', e: 'a long string value to force a break in compact mode ok' } }, { compact: true }));
  }],
  ['opt-compact-1', () => { console.log(util.inspect({ a: { b: { c: 1 } }, d: [1, 2, 3, 4, 5, 6, 7, 8] }, { compact: 1 })); }],
  ['opt-break-length-infinity', () => {
    console.log(util.inspect({ alpha: 'aaaaaaaaaa', beta: 'bbbbbbbbbb', gamma: 'cccccccccc', delta: 'dddddddddd', eps: 1 }, { breakLength: Infinity }));
  }],
  ['opt-break-length-small', () => { console.log(util.inspect({ a: 1, b: 2, c: [1, 2] }, { breakLength: 10 })); }],
  ['opt-sorted', () => { console.log(util.inspect({ c: 1, a: 2, b: { z: 1, y: 2 } }, { sorted: true })); }],
  ['opt-max-array-length', () => { console.log(util.inspect([1, 2, 3, 4, 5], { maxArrayLength: 2 }), util.inspect(new Set([1, 2, 3]), { maxArrayLength: 1 })); }],
  ['opt-max-array-length-zero', () => { console.log(util.inspect([1, 2], { maxArrayLength: 0 })); }],
  ['opt-max-string-length', () => { console.log(util.inspect('abcdefghij', { maxStringLength: 4 }), util.inspect(['xyz'], { maxStringLength: 1 })); }],
  ['opt-getters', () => {
    const o = { get a() { return 1; }, get b() { return { nested: true }; }, get c() { throw new Error('nope'); }, get n() { return null; } };
    console.log(util.inspect(o, { getters: true }));
  }],
  ['opt-show-hidden-array', () => { console.log(util.inspect([1, 2], { showHidden: true })); }],
  ['opt-show-hidden-object', () => {
    const o = { v: 1 };
    Object.defineProperty(o, 'hidden', { value: 'h', enumerable: false });
    console.log(util.inspect(o, { showHidden: true }));
  }],
  ['opt-numeric-separator', () => { console.log(util.inspect([1234567, 1234.5678, -98765432n, 0.0001], { numericSeparator: true })); }],
  ['opt-colors', () => {
    console.log(util.inspect({ n: 1, s: 'str', b: true, u: undefined, nl: null, sym: Symbol('s'), d: new Date(0), r: /x/ }, { colors: true }));
  }],
  ['opt-colors-array-grouping', () => { console.log(util.inspect(Array.from({ length: 10 }, (_, i) => i * 11), { colors: true })); }],
  ['opt-custom-inspect-false', () => {
    const o = { x: 1, [Symbol.for('nodejs.util.inspect.custom')]() { return 'custom'; } };
    console.log(util.inspect(o, { customInspect: false }));
  }],
  ['opt-legacy-arguments', () => { console.log(util.inspect({ a: { b: { c: { d: 1 } } } }, false, 0)); }],
  ['inspect-top-level-string', () => { console.log(util.inspect('quoted'), util.inspect("it's"), util.inspect(5)); }],

  // ---------------------------------------------------------------------
  // Miscellaneous built-ins
  // ---------------------------------------------------------------------
  ['arguments-object', () => { (function() { console.log(arguments); })(1, 'two'); }],
  ['math-json-objects', () => { console.log(Math, JSON); }],
  ['global-object', () => { console.log(globalThis); }],
  ['object-prototype', () => { console.log(Object.prototype, Array.prototype); }],
  ['class-prototype', () => { class K { method() {} } console.log(K.prototype); }],

  // ---------------------------------------------------------------------
  // Realistic agent output
  // ---------------------------------------------------------------------
  ['agent-api-records', () => {
    const users = [
      { id: 1, name: 'Alice Johnson', email: 'alice@example.com', roles: ['admin', 'editor'], active: true },
      { id: 2, name: 'Bob Smith', email: 'bob@example.com', roles: ['viewer'], active: false },
      { id: 3, name: 'Carol White', email: 'carol@example.com', roles: [], active: true },
    ];
    console.log(users);
  }],
  ['agent-api-response', () => {
    console.log({
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': 'abc-123', 'cache-control': 'no-cache' },
      data: {
        items: [{ id: 'p1', title: 'First post', stats: { views: 1200, likes: 45 } }, { id: 'p2', title: 'Second', stats: { views: 30, likes: 1 } }],
        pagination: { page: 1, perPage: 2, total: 57 },
      },
    });
  }],
  ['agent-many-records', () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, sku: `SKU-${1000 + i}`, qty: (i * 7) % 5, price: 9.99 + i }));
    console.log(rows);
  }],
  ['agent-nested-config', () => {
    console.log({
      server: { host: '0.0.0.0', port: 8080, tls: { enabled: true, cert: '/etc/ssl/cert.pem', key: '/etc/ssl/key.pem' } },
      database: { url: 'postgres://user@localhost:5432/app', pool: { min: 2, max: 10, idleTimeoutMs: 30000 } },
      features: { search: true, beta: ['new-ui', 'fast-path'], limits: { rps: 100, burst: 20 } },
      logLevel: 'info',
    });
  }],
  ['agent-long-number-array', () => { console.log(Array.from({ length: 150 }, (_, i) => (((i * 7919) % 2001) - 1000) / 10)); }],
  ['agent-long-string-array', () => {
    const words = 'the quick brown fox jumps over the lazy dog while seven sleepy cats watch from a sunny windowsill nearby'.split(' ');
    console.log(words.concat(words));
  }],
  ['agent-prices', () => { console.log([19.99, 5, 120.5, 0.99, 1000, 45.25, 3.5, 18, 72.1, 250]); }],
  ['agent-strings-with-quotes', () => {
    console.log({ query: `SELECT * FROM users WHERE name = 'O''Brien'`, html: '<a href="/x">link</a>', msg: "Don't stop" });
  }],
  ['agent-log-lines', () => {
    console.log('Processing', 3, 'files...');
    console.log(`Found ${2} matches in`, ['a.txt', 'b.txt']);
    console.log('Done in %dms', 123.4);
    console.log('Result: %o', { ok: true });
  }],
  ['agent-object-entries', () => { console.log(Object.entries({ a: 1, b: 'x', c: [1, 2] })); }],
  ['agent-object-keys-values', () => { const o = { name: 'n', size: 3, tags: ['x'] }; console.log(Object.keys(o), Object.values(o)); }],
  ['agent-null-fields', () => { console.log({ id: 7, deletedAt: null, parent: undefined, meta: {}, tags: [] }); }],
  ['agent-grouped-by', () => {
    console.log({ fruit: ['apple', 'banana'], vegetable: ['carrot'], grain: ['rice', 'wheat', 'oats', 'barley', 'rye', 'millet', 'corn'] });
  }],
  ['agent-stats', () => { console.log({ count: 1024, mean: 52.31234, median: 50, stddev: 12.0001, min: -3, max: 999.5, p99: 120.75 }); }],
  ['agent-matrix', () => { console.log([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[1.5, 2.25, 3], [4, 5, 6.75]]); }],
  ['agent-deep-tree', () => {
    console.log({ name: 'root', children: [{ name: 'child1', children: [{ name: 'grandchild', children: [{ name: 'leaf' }] }] }, { name: 'child2', children: [] }] });
  }],
  ['agent-map-counts', () => { console.log(new Map([['error', 3], ['warning', 12], ['info', 250]])); }],
  ['agent-json-stringify-output', () => { console.log(JSON.stringify({ a: 1, b: [1, 2] }), JSON.stringify({ a: 1 }, null, 2)); }],
  ['agent-wide-record', () => {
    console.log({ id: 'a1b2c3d4', createdAt: '2024-05-01T12:00:00Z', updatedAt: '2024-05-02T08:30:00Z', owner: 'team-platform', region: 'eu-west-1', status: 'active' });
  }],
  ['agent-date-records', () => { console.log([{ at: new Date(Date.UTC(2024, 0, 1)), event: 'start' }, { at: new Date(Date.UTC(2024, 0, 2)), event: 'end' }]); }],
  ['agent-unicode-record', () => { console.log({ city: 'Zürich', greeting: 'こんにちは', emoji: '🎉 done', note: 'naïve café' }); }],
  ['agent-sparse-results', () => { const r = []; r[2] = 'c'; r[5] = 'f'; console.log(r); }],
  ['agent-boolean-flags', () => {
    console.log({ isAdmin: false, isVerified: true, hasTwoFactor: false, acceptedTerms: true, newsletter: false, beta: true, legacy: false });
  }],
  ['agent-object-120-keys', () => {
    const o = {};
    for (let i = 0; i < 120; i++) o[`field_${i}`] = i % 3 === 0 ? `v${i}` : i;
    console.log(o);
  }],
  ['agent-matrix-10x10', () => { console.log({ grid: Array.from({ length: 10 }, (_, r) => Array.from({ length: 10 }, (_, c) => r * c)) }); }],
  ['agent-crlf-text', () => { console.log({ body: 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\nHello world!' }); }],
  ['agent-emoji-status-list', () => { console.log(['✅ done', '❌ failed', '⏳ pending', '🚀 deployed', '🔥 hot', '✨ new', '📦 packed', '🐛 bug']); }],
  ['agent-combining-marks-grouped', () => { console.log(['cafe\u0301', 'nai\u0308ve', 'plain', 'x', 'y', 'z', 'w\u200bz']); }],
  ['agent-cjk-table', () => { console.log([['名前', '年齢'], ['山田', 30], ['佐藤', 25], ['鈴木', 41], ['高橋', 19], ['田中', 33], ['伊藤', 28]]); }],
  ['agent-thousand-records', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: i, ok: i % 2 === 0 }));
    console.log(rows);
  }],

  // ---------------------------------------------------------------------
  // Engine edge cases (places where goja and V8 could disagree)
  // ---------------------------------------------------------------------
  ['edge-number-formatting', () => {
    // Powers of ten are literals: V8 computes 10 ** -4 inexactly.
    const scale = [1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4];
    console.log(Array.from({ length: 40 }, (_, i) => ((i * 2654435761) % 1000003) / 997 * scale[i % 9]));
  }],
  ['edge-number-extremes', () => {
    console.log([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.EPSILON, Number.MIN_VALUE, 1e-6, 1e-7, 123e-20, 1.0000000000000002, 2 ** 64, 1e100]);
  }],
  ['edge-integer-like-keys', () => { console.log({ b: 1, 4294967295: 'big', 4294967294: 'max-index', '-1': 'neg', 1: 'one', '01': 'lead' }); }],
  ['edge-date-extreme-years', () => { console.log([new Date(Date.UTC(10000, 0, 1)), new Date(Date.UTC(-1, 0, 1)), new Date(-62198755200000)]); }],
  ['edge-function-name-inference', () => {
    const o = { 'a-b': () => {}, [Symbol('sym')]() {}, get acc() { return 1; } };
    const key = Object.getOwnPropertySymbols(o)[0];
    console.log(o['a-b'], o[key], Object.getOwnPropertyDescriptor(o, 'acc').get);
  }],
  ['edge-class-expressions', () => {
    const Named = class {};
    const Inner = class InnerName {};
    class WithComment /* comment { */ {}
    class N extends null {}
    console.log(Named, Inner, WithComment, N);
  }],
  ['edge-class-static-name', () => { class A { static name = 'Renamed'; } console.log(A); }],
  ['edge-large-sparse-array', () => { console.log(new Array(1000000), [1, 2, , , , , , , , 10]); }],
  ['edge-array-non-index-numeric-props', () => { const a = [1]; a['-1'] = 'neg'; a['1.5'] = 'frac'; a[4294967295] = 'big'; console.log(a); }],
  ['edge-circular-map-set', () => {
    const m = new Map();
    m.set('self', m);
    const s = new Set();
    s.add(s);
    console.log(m, s);
  }],
  ['edge-circular-array', () => { const a = [1]; a.push(a); console.log(a); }],
  ['edge-constructor-own-prop', () => { console.log({ constructor: 'not a function', x: 1 }); }],
  ['edge-proxy-class-instance', () => { class Foo { constructor() { this.v = 1; } } console.log(new Proxy(new Foo(), {})); }],
  ['edge-json-stringify-unicode', () => { console.log('%j', { s: 'a\ud800b', e: 'é😀', n: -0, u: undefined, f() {}, d: new Date(0) }); }],
  ['edge-string-line-separators', () => { console.log(['a\u2028b', 'c\u2029d', 'zero\u200bwidth']); }],
  ['edge-boolean-object-props', () => { const b = new Boolean(true); b.why = 'because'; console.log(b); }],
  ['edge-symbol-map-keys', () => { console.log(new Map([[Symbol('k'), Symbol.for('v')]])); }],
  ['edge-nan-in-number-array', () => { console.log([NaN, 1, -Infinity, 2, Infinity, 3, -0]); }],
  ['edge-object-with-array-like', () => { console.log({ length: 2, 0: 'a', 1: 'b' }); }],
  ['edge-deep-array-breaking', () => {
    console.log({ a: { b: { list: ['one string', 'two strings', 'three strings', 'four strings', 'five strings', 'six', 'seven'] } } });
  }],
  ['edge-array-of-long-numbers', () => { console.log(Array.from({ length: 20 }, (_, i) => 1234567.891 * (i + 1))); }],
  ['edge-getter-on-class-prototype', () => {
    class User { constructor() { this.first = 'Ada'; } get full() { return 'Ada L'; } }
    console.log(new User());
  }],
  ['edge-private-fields', () => {
    class Secret { #hidden = 1; visible = 2; static #s = 3; }
    console.log(new Secret());
  }],
  ['edge-class-fields-arrow', () => { class H { onClick = () => {}; n = 1; } console.log(new H()); }],
  ['edge-format-o-class', () => {
    class P { constructor() { this.x = 1; } get y() { return 2; } }
    console.log('%o', new P());
  }],
  ['edge-format-o-function', () => { console.log('%o', function f(a) {}); }],
  ['edge-format-o-nested-depth', () => { console.log('%o', [[[[[['deep']]]]]]); }],
  ['edge-format-s-nested-object', () => { console.log('%s', { a: { b: { c: 1 } }, arr: [1, 2, 3] }); }],
  ['edge-format-s-class-instance', () => { class Thing { constructor() { this.id = 1; } } console.log('%s', new Thing()); }],
  ['edge-format-s-null-proto', () => { const o = Object.create(null); o.k = 'v'; console.log('%s', o); }],
  ['edge-regexp-slash-in-class', () => { console.log(new RegExp('[/]x/'), new RegExp('\n'), /a\/b/); }],
  ['edge-negative-index-key-sorting', () => { console.log({ 10: 'a', 9: 'b', 100: 'c', x: 'd' }); }],
  ['edge-weird-key-escapes', () => { console.log({ 'new\nline': 1, 'tab\tkey': 2, 'quote\'s': 3, 'back\\slash': 4 }); }],
  ['edge-non-enumerable-symbol-key-showhidden', () => {
    const o = {};
    Object.defineProperty(o, 'hid\nden', { value: 1, enumerable: false });
    console.log(util.inspect(o, { showHidden: true }));
  }],
  ['edge-async-arrow-and-method', () => { const o = { async am() {}, *gm() {} }; console.log(async (x) => x, o.am, o.gm); }],
  ['edge-async-class-methods', () => {
    class Svc { async run() {} static async create() {} async ['computed']() {} }
    const s = new Svc();
    console.log(s.run, Svc.create, s.computed, { async() {} }.async, { async () {} }.async);
  }],
  ['edge-bound-class', () => { class K {} console.log(K.bind(null)); }],
  ['edge-error-in-map', () => {
    const e = new Error('in map');
    e.stack = 'Error: in map\n    at f (/a.js:1:1)';
    console.log(new Map([['err', e]]));
  }],
  ['edge-error-subclass-tag', () => {
    class E2 extends TypeError {}
    const e = new E2('sub');
    e.stack = 'TypeError: sub\n    at f (/a.js:1:1)';
    console.log(e);
  }],
  ['edge-error-name-not-error-suffix', () => {
    const e = new Error('oops');
    e.name = 'Oops';
    e.stack = 'Oops: oops\n    at f (/a.js:1:1)';
    console.log(e);
  }],
  ['edge-object-assign-order', () => { const o = Object.assign({}, { z: 1 }, { a: 2 }, { z: 3 }); delete o.a; o.a = 4; console.log(o); }],
  ['edge-typed-array-subarray', () => { const buf = new Uint8Array([1, 2, 3, 4]); console.log(buf.subarray(1, 3), new Uint8Array(buf.buffer, 2)); }],
  ['edge-string-object-long', () => { console.log(new String('a long boxed string that is definitely longer than the break length of eighty chars')); }],

  // ---------------------------------------------------------------------
  // Random structures: nested objects, arrays, maps and sets of mixed
  // primitives and awkward strings, from a seeded xorshift generator that
  // only uses 32-bit integer arithmetic (so both engines build the same
  // values).
  // ---------------------------------------------------------------------
  ...(() => {
    function makeRng(seed) {
      let s = seed >>> 0 || 1;
      return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
    }
    function randomValue(rng, depth) {
      const r = rng() % 100;
      const pick = (arr) => arr[rng() % arr.length];
      const str = () => {
        const chars = ['a', 'b', 'Z', ' ', "'", '"', '`', '\n', '\t', 'é', '日', '😀', '\\', '$', '{', '-', '_', '0', '\x01', '\u200b'];
        const n = rng() % (rng() % 4 === 0 ? 60 : 12);
        let s = '';
        for (let i = 0; i < n; i++) s += pick(chars);
        return s;
      };
      if (depth > 4 || r < 35) {
        switch (rng() % 10) {
          case 0: return (rng() % 2000000) / 1000 - 1000;
          case 1: return rng() % 1000;
          case 2: return str();
          case 3: return pick([true, false, null, undefined, -0, NaN, Infinity]);
          case 4: return BigInt(rng() % 100000) * (rng() % 2 ? 1n : -1n);
          case 5: return str();
          case 6: return pick(['id', 'name', 'value', 'ok', 'error', 'status']);
          case 7: return new Date(Date.UTC(2000 + rng() % 30, rng() % 12, 1 + rng() % 28));
          case 8: return (rng() % 100000) * 1.5;
          default: return rng() % 10;
        }
      }
      if (r < 60) {
        const n = rng() % (rng() % 5 === 0 ? 30 : 8);
        const a = [];
        for (let i = 0; i < n; i++) a.push(randomValue(rng, depth + 1));
        if (rng() % 10 === 0) a.extra = str();
        return a;
      }
      if (r < 88) {
        const n = rng() % (rng() % 5 === 0 ? 20 : 6);
        const o = {};
        for (let i = 0; i < n; i++) {
          const key = rng() % 4 === 0 ? str() : pick(['id', 'name', 'data', 'items', 'value', 'count', 'nested', 'x', 'y', 'longPropertyName', 'created_at']) + (rng() % 3);
          o[key] = randomValue(rng, depth + 1);
        }
        return o;
      }
      if (r < 94) {
        const m = new Map();
        const n = rng() % 5;
        for (let i = 0; i < n; i++) m.set(randomValue(rng, depth + 2), randomValue(rng, depth + 1));
        return m;
      }
      const s = new Set();
      const n = rng() % 6;
      for (let i = 0; i < n; i++) s.add(randomValue(rng, depth + 1));
      return s;
    }
    const seeds = [2, 9, 15, 17, 23, 31, 41, 44, 45, 46, 49, 54, 56, 62, 63, 67];
    return seeds.map((seed) => [
      `random-structure-${seed}`,
      () => { console.log(randomValue(makeRng(seed * 2654435761), 0)); },
    ]);
  })(),
]
