// inspect.js: a port of Node.js v20's util.inspect and util.format
// (lib/internal/util/inspect.js, Node v20.20) to the goja JavaScript engine.
//
// The script evaluates to a single factory function and defines nothing else:
// all helpers are local to the factory, so running the script leaks no
// globals. The Go side (inspect.go) calls the factory once per goja runtime
// with a `host` object whose methods give access to engine internals that
// plain JavaScript cannot observe (Node gets the same information from V8
// through internalBinding('util') and internal/util/types):
//
//   host.kind(value)          Internal class of an object: 'Proxy', 'Promise',
//                             'Map', 'Set', 'ArrayBuffer', 'TypedArray',
//                             'Array', 'Function', 'Error', 'RegExp', 'Date',
//                             'Arguments', 'Number', 'String', 'Boolean',
//                             'Symbol', 'BigInt' (the last five for boxed
//                             primitives), or '' for anything else.
//   host.proxyDetails(proxy)  [target, handler], or null once revoked.
//   host.promiseState(p)      ['pending'], ['fulfilled', value] or
//                             ['rejected', reason].
//   host.stringWidth(str)     Terminal column width of a (NFC) string, from
//                             the same East Asian Width / emoji tables that
//                             Node's ICU-backed getStringWidth uses.
//   host.isBuiltInObject(name)  Whether name is a global of a fresh runtime
//                             that looks like a built-in constructor.
//
// The factory returns { inspect, format, formatWithOptions }.
//
// Function names, their order and their comments follow Node's file so that
// the two can be compared side by side; deviations are marked "goja:".
(function createInspect(host) {
  'use strict';

  // ---------------------------------------------------------------------
  // Primordials. Node captures the built-ins it uses before user code runs
  // so that monkey-patching them later does not change how values print.
  // The factory runs before any user code, so we do the same.
  // ---------------------------------------------------------------------

  const FunctionPrototype = Function.prototype;
  const uncurryThis = FunctionPrototype.bind.bind(FunctionPrototype.call);

  // goja: a runtime is created per execution, and goja builds each built-in
  // function object the first time it is accessed, so capturing and binding
  // all of them up front would cost about a millisecond per runtime (far
  // more under WebAssembly). Built-ins used for every value are captured
  // here; the ones that only matter for particular kinds of values (dates,
  // typed arrays, errors, ...) go through lazyUncurryThis, which looks them
  // up and binds them on first use. They take at most two arguments, and
  // passing `undefined` for an omitted one means the same to each of them.
  function lazyUncurryThis(constructorName, key) {
    let fn;
    return (self, a, b) => {
      if (fn === undefined) {
        fn = uncurryThis(lazyPrototype(constructorName)[key]);
      }
      return fn(self, a, b);
    };
  }
  // lazyUncurryThisGetter is lazyUncurryThis for an accessor's getter.
  function lazyUncurryThisGetter(constructorName, key) {
    let fn;
    return (self) => {
      if (fn === undefined) {
        fn = uncurryThis(
          ObjectGetOwnPropertyDescriptor(lazyPrototype(constructorName), key).get);
      }
      return fn(self);
    };
  }
  function lazyPrototype(constructorName) {
    if (constructorName === 'TypedArray') {
      return ObjectGetPrototypeOf(globalObject.Uint8Array).prototype;
    }
    return globalObject[constructorName].prototype;
  }

  const ReflectApply = Reflect.apply;
  const ReflectOwnKeys = Reflect.ownKeys;

  const ArrayIsArray = Array.isArray;
  const ArrayPrototypeFilter = lazyUncurryThis('Array', 'filter');
  const ArrayPrototypeForEach = lazyUncurryThis('Array', 'forEach');
  const ArrayPrototypeIncludes = uncurryThis(Array.prototype.includes);
  const ArrayPrototypeIndexOf = lazyUncurryThis('Array', 'indexOf');
  const ArrayPrototypeJoin = uncurryThis(Array.prototype.join);
  const ArrayPrototypeMap = lazyUncurryThis('Array', 'map');
  const ArrayPrototypePop = lazyUncurryThis('Array', 'pop');
  const ArrayPrototypePushRaw = Array.prototype.push;
  const ArrayPrototypePush = uncurryThis(ArrayPrototypePushRaw);
  const ArrayPrototypePushApply = (arr, items) => ReflectApply(ArrayPrototypePushRaw, arr, items);
  const ArrayPrototypeSlice = lazyUncurryThis('Array', 'slice');
  const ArrayPrototypeSpliceRaw = Array.prototype.splice;
  const ArrayPrototypeSplice = uncurryThis(ArrayPrototypeSpliceRaw);
  const ArrayPrototypeSort = lazyUncurryThis('Array', 'sort');
  const ArrayPrototypeUnshift = uncurryThis(Array.prototype.unshift);
  const BigIntPrototypeValueOf = lazyUncurryThis('BigInt', 'valueOf');
  const BooleanPrototypeValueOf = lazyUncurryThis('Boolean', 'valueOf');
  const DataViewPrototypeGetByteLength = lazyUncurryThisGetter('DataView', 'byteLength');
  const DatePrototypeGetTime = lazyUncurryThis('Date', 'getTime');
  const DatePrototypeGetUTCFullYear = lazyUncurryThis('Date', 'getUTCFullYear');
  const DatePrototypeToISOString = lazyUncurryThis('Date', 'toISOString');
  const DatePrototypeToString = lazyUncurryThis('Date', 'toString');
  const ErrorPrototypeToString = lazyUncurryThis('Error', 'toString');
  const FunctionPrototypeBind = uncurryThis(FunctionPrototype.bind);
  const FunctionPrototypeCall = uncurryThis(FunctionPrototype.call);
  const FunctionPrototypeSymbolHasInstance =
    uncurryThis(FunctionPrototype[Symbol.hasInstance]);
  const FunctionPrototypeToString = lazyUncurryThis('Function', 'toString');
  const JSONStringify = JSON.stringify;
  const MapPrototypeGet = lazyUncurryThis('Map', 'get');
  const MapPrototypeGetSize = lazyUncurryThisGetter('Map', 'size');
  const MapPrototypeEntries = lazyUncurryThis('Map', 'entries');
  const MapPrototypeSet = lazyUncurryThis('Map', 'set');
  const MathAbs = Math.abs;
  const MathFloor = Math.floor;
  const MathMax = Math.max;
  const MathMin = Math.min;
  const MathRound = Math.round;
  const MathSqrt = Math.sqrt;
  const MathTrunc = Math.trunc;
  const NumberIsFinite = Number.isFinite;
  const NumberIsNaN = Number.isNaN;
  const NumberParseFloat = Number.parseFloat;
  const NumberParseInt = Number.parseInt;
  const NumberPrototypeToString = lazyUncurryThis('Number', 'toString');
  const NumberPrototypeValueOf = lazyUncurryThis('Number', 'valueOf');
  const ObjectAssign = Object.assign;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
  const ObjectGetOwnPropertySymbols = Object.getOwnPropertySymbols;
  const ObjectGetPrototypeOf = Object.getPrototypeOf;
  const ObjectIs = Object.is;
  const ObjectKeys = Object.keys;
  const ObjectPrototype = Object.prototype;
  const ObjectPrototypeHasOwnProperty = uncurryThis(ObjectPrototype.hasOwnProperty);
  const ObjectPrototypePropertyIsEnumerable =
    uncurryThis(ObjectPrototype.propertyIsEnumerable);
  const ObjectSeal = Object.seal;
  const ObjectSetPrototypeOf = Object.setPrototypeOf;
  const RegExpPrototypeExec = lazyUncurryThis('RegExp', 'exec');
  // goja: `RegExp.prototype.test` does not build a match array, which makes
  // it several times cheaper than `exec`. Node writes
  // `RegExpPrototypeExec(re, s) !== null`; this file uses
  // `RegExpPrototypeTest(re, s)` wherever only that boolean is needed.
  const RegExpPrototypeTest = uncurryThis(RegExp.prototype.test);
  const RegExpPrototypeSymbolReplace = lazyUncurryThis('RegExp', Symbol.replace);
  const RegExpPrototypeToString = lazyUncurryThis('RegExp', 'toString');
  const SetPrototypeAdd = lazyUncurryThis('Set', 'add');
  const SetPrototypeGetSize = lazyUncurryThisGetter('Set', 'size');
  const SetPrototypeHas = lazyUncurryThis('Set', 'has');
  const SetPrototypeValues = lazyUncurryThis('Set', 'values');
  const StringPrototypeCharCodeAt = uncurryThis(String.prototype.charCodeAt);
  const StringPrototypeEndsWith = lazyUncurryThis('String', 'endsWith');
  const StringPrototypeIncludes = uncurryThis(String.prototype.includes);
  const StringPrototypeIndexOf = lazyUncurryThis('String', 'indexOf');
  const StringPrototypeNormalize = lazyUncurryThis('String', 'normalize');
  const StringPrototypePadEnd = lazyUncurryThis('String', 'padEnd');
  const StringPrototypePadStart = lazyUncurryThis('String', 'padStart');
  const StringPrototypeRepeat = uncurryThis(String.prototype.repeat);
  const StringPrototypeReplaceAll = lazyUncurryThis('String', 'replaceAll');
  const StringPrototypeSlice = uncurryThis(String.prototype.slice);
  const StringPrototypeSplit = lazyUncurryThis('String', 'split');
  const StringPrototypeStartsWith = lazyUncurryThis('String', 'startsWith');
  const StringPrototypeToLowerCase = lazyUncurryThis('String', 'toLowerCase');
  const StringPrototypeValueOf = lazyUncurryThis('String', 'valueOf');
  const SymbolPrototypeToString = lazyUncurryThis('Symbol', 'toString');
  const SymbolPrototypeValueOf = lazyUncurryThis('Symbol', 'valueOf');
  const SymbolIterator = Symbol.iterator;
  const SymbolToPrimitive = Symbol.toPrimitive;
  const SymbolToStringTag = Symbol.toStringTag;
  const TypedArrayPrototypeGetLength = lazyUncurryThisGetter('TypedArray', 'length');
  const TypedArrayPrototypeGetSymbolToStringTag =
    lazyUncurryThisGetter('TypedArray', SymbolToStringTag);
  const WeakMapPrototypeHas = lazyUncurryThis('WeakMap', 'has');
  const WeakSetPrototypeHas = lazyUncurryThis('WeakSet', 'has');
  // goja: Error, Map and Set are looked up when first needed: goja builds a
  // constructor and its prototype on first access, and few values need them.
  const lazyGlobal = (name) => {
    let value;
    return () => (value === undefined ? (value = globalObject[name]) : value);
  };
  const ErrorConstructor = lazyGlobal('Error');
  const MapConstructor = lazyGlobal('Map');
  const SetConstructor = lazyGlobal('Set');
  const globalObject = globalThis;

  // ---------------------------------------------------------------------
  // Type checks (Node: internal/util/types and internalBinding('util')).
  // ---------------------------------------------------------------------

  const hostKind = host.kind;
  const hostProxyDetails = host.proxyDetails;
  const hostPromiseState = host.promiseState;
  const hostStringWidth = host.stringWidth;

  // goja: WeakMap, WeakSet and DataView objects look like plain objects from
  // Go, so they are recognised with a brand check (a built-in method that
  // throws for any other receiver). To keep plain objects fast the check only
  // runs when the inherited Symbol.toStringTag suggests the type.
  function brandCheck(fn, value, arg) {
    try {
      fn(value, arg);
      return true;
    } catch {
      return false;
    }
  }
  const isWeakMap = (value, rawTag) =>
    rawTag === 'WeakMap' && brandCheck(WeakMapPrototypeHas, value, {});
  const isWeakSet = (value, rawTag) =>
    rawTag === 'WeakSet' && brandCheck(WeakSetPrototypeHas, value, {});
  const isDataView = (value, rawTag) =>
    rawTag === 'DataView' && brandCheck(DataViewPrototypeGetByteLength, value);

  // The prototypes of async and generator functions. goja: there is no
  // engine hook for the function kind, so the prototype identifies it.
  let AsyncFunctionPrototype;
  let GeneratorFunctionPrototype;
  function isAsyncFunction(fn) {
    if (AsyncFunctionPrototype === undefined) {
      AsyncFunctionPrototype = ObjectGetPrototypeOf(async function() {});
    }
    return ObjectGetPrototypeOf(fn) === AsyncFunctionPrototype;
  }
  function isGeneratorFunction(fn) {
    if (GeneratorFunctionPrototype === undefined) {
      GeneratorFunctionPrototype = ObjectGetPrototypeOf(function*() {});
    }
    return ObjectGetPrototypeOf(fn) === GeneratorFunctionPrototype;
  }
  // goja gives async methods (`{ async m() {} }`) Function.prototype instead
  // of AsyncFunction.prototype as their prototype. Recognise them by their
  // source text, "async name(...) {...}"; a method *named* async reads
  // "async(...) {...}" or "async (...) {...}".
  const asyncMethodRegExp = /^async\s+[^\s(]/;
  function isGojaAsyncMethod(fn, stringified) {
    return ObjectGetPrototypeOf(fn) === FunctionPrototype &&
      RegExpPrototypeTest(asyncMethodRegExp, stringified);
  }

  // Node: internalBinding('util').getConstructorName, which asks V8 for the
  // name of the function that created the object. goja: derived from the
  // object's internal class.
  function internalGetConstructorName(value) {
    const kind = hostKind(value);
    switch (kind) {
      case '':
      case 'Proxy':
        return typeof value === 'function' ? 'Function' : 'Object';
      case 'TypedArray':
        return TypedArrayPrototypeGetSymbolToStringTag(value);
      default:
        return kind;
    }
  }

  // Node: internal/util isError.
  function isError(value, kind) {
    return kind === 'Error' || isInstanceof(value, ErrorConstructor());
  }

  // Node: internalBinding('util').getOwnNonIndexProperties. Returns the
  // string keys that are not array indices followed by the symbol keys.
  function getOwnNonIndexProperties(value, onlyEnumerable) {
    const keys = ReflectOwnKeys(value);
    const result = [];
    // Index keys come first, in ascending order. When the array has no
    // holes they are exactly keys[0 .. length-1] and can be skipped at once.
    let i = 0;
    const length = value.length;
    if (length > 0 && length <= keys.length && keys[length - 1] === `${length - 1}`) {
      i = length;
    }
    for (; i < keys.length; i++) {
      const key = keys[i];
      if (typeof key === 'string' && isArrayIndex(key)) {
        continue;
      }
      if (onlyEnumerable && !ObjectPrototypePropertyIsEnumerable(value, key)) {
        continue;
      }
      ArrayPrototypePush(result, key);
    }
    return result;
  }

  function isArrayIndex(key) {
    const length = key.length;
    if (length === 0 || length > 10) {
      return false;
    }
    const first = StringPrototypeCharCodeAt(key, 0);
    if (first < 48 || first > 57 || (first === 48 && length > 1)) {
      return false;
    }
    for (let i = 1; i < length; i++) {
      const code = StringPrototypeCharCodeAt(key, i);
      if (code < 48 || code > 57) {
        return false;
      }
    }
    return +key < 4294967295;
  }

  // Node: internal/util join, a loop of `str +=` that V8 turns into cheap
  // string ropes. goja copies on every concatenation, which is quadratic for
  // large outputs, so use the built-in join (the entries are always strings).
  function join(output, separator) {
    return ArrayPrototypeJoin(output, separator);
  }

  // goja: V8 prints frames as "    at fn (file:line:col)" while goja prints
  // "\tat fn (file:line:col(pc))" and ends the stack with a newline. Rewrite
  // goja stacks into V8's shape so that the rest of formatError (which looks
  // for "\n    at") works as in Node.
  const gojaFramePosRegExp = /(:\d+:\d+)\(\d+\)/;
  function v8StyleStack(stack) {
    if (!StringPrototypeIncludes(stack, '\n\tat ')) {
      return stack;
    }
    const lines = StringPrototypeSplit(stack, '\n');
    let out = '';
    let end = lines.length;
    while (end > 1 && lines[end - 1] === '') {
      end--;
    }
    for (let i = 0; i < end; i++) {
      let line = lines[i];
      if (StringPrototypeStartsWith(line, '\tat ')) {
        line = `    at ${RegExpPrototypeSymbolReplace(
          gojaFramePosRegExp, StringPrototypeSlice(line, 4), '$1')}`;
      }
      out += i === 0 ? line : `\n${line}`;
    }
    return out;
  }

  // goja: RegExp.prototype.source escapes '/' as '\u002f' where V8 writes
  // '\/', or leaves it alone inside a character class. Undo that so regular
  // expressions print as in Node. (A pattern that itself spells '\u002f' is
  // printed with '\/' too; goja does not keep the difference.)
  function regExpToString(regexp) {
    const str = RegExpPrototypeToString(regexp);
    if (!StringPrototypeIncludes(str, '\\u002f')) {
      return str;
    }
    let out = '';
    let inClass = false;
    for (let i = 0; i < str.length; i++) {
      const c = str[i];
      if (c === '\\') {
        if (StringPrototypeSlice(str, i, i + 6) === '\\u002f') {
          out += inClass ? '/' : '\\/';
          i += 5;
        } else {
          out += StringPrototypeSlice(str, i, i + 2);
          i++;
        }
        continue;
      }
      if (c === '[') {
        inClass = true;
      } else if (c === ']') {
        inClass = false;
      }
      out += c;
    }
    return out;
  }

  // goja: Date.prototype.toISOString writes years outside 0..9999 as
  // "+10000" / "-0001"; the specification (and V8) use a sign and six digits.
  function dateToISOString(date) {
    const iso = DatePrototypeToISOString(date);
    const year = DatePrototypeGetUTCFullYear(date);
    if (year >= 0 && year <= 9999) {
      return iso;
    }
    const sign = year < 0 ? '-' : '+';
    return `${sign}${StringPrototypePadStart(`${MathAbs(year)}`, 6, '0')}` +
      StringPrototypeSlice(iso, StringPrototypeIndexOf(iso, '-', 1));
  }

  const customInspectSymbol = Symbol.for('nodejs.util.inspect.custom');

  // Node: builtInObjects, the global names matching /^[A-Z][a-zA-Z0-9]+$/
  // when the module loads. goja: host.isBuiltInObject(name) tests a name
  // against that set, taken once per process from a fresh runtime, so
  // globals that user code adds never count.
  const isBuiltInObject = host.isBuiltInObject;

  // These options must stay in sync with `getUserOptions`. So if any option will
  // be added or removed, `getUserOptions` must also be updated accordingly.
  const inspectDefaultOptions = ObjectSeal({
    showHidden: false,
    depth: 2,
    colors: false,
    customInspect: true,
    showProxy: false,
    maxArrayLength: 100,
    maxStringLength: 10000,
    breakLength: 80,
    compact: 3,
    sorted: false,
    getters: false,
    numericSeparator: false,
  });

  const kObjectType = 0;
  const kArrayType = 1;
  const kArrayExtrasType = 2;

  // goja: Node's escape regular expressions use lookbehind/lookahead to find
  // lone surrogates, which goja's regexp engine does not evaluate correctly.
  // This cheaper test matches every string that may need escaping (including
  // strings with valid surrogate pairs); those then take the exact
  // character-by-character path of strEscape.
  /* eslint-disable no-control-regex */
  const strEscapeSequencesRegExp = /[\x00-\x1f\x27\x5c\x7f-\x9f\ud800-\udfff]/;
  const strEscapeSequencesRegExpSingle = /[\x00-\x1f\x5c\x7f-\x9f\ud800-\udfff]/;
  /* eslint-enable no-control-regex */

  const keyStrRegExp = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
  const numberRegExp = /^(0|[1-9][0-9]*)$/;

  const classRegExp = /^(\s+[^(]*?)\s*{/;
  // eslint-disable-next-line node-core/no-unescaped-regexp-dot
  const stripCommentsRegExp = /(\/\/.*?\n)|(\/\*(.|\n)*?\*\/)/g;

  const kMinLineLength = 16;

  // Escaped control characters (plus the single quote and the backslash). Use
  // empty strings to fill up unused entries.
  const meta = [
    '\\x00', '\\x01', '\\x02', '\\x03', '\\x04', '\\x05', '\\x06', '\\x07', // x07
    '\\b', '\\t', '\\n', '\\x0B', '\\f', '\\r', '\\x0E', '\\x0F',           // x0F
    '\\x10', '\\x11', '\\x12', '\\x13', '\\x14', '\\x15', '\\x16', '\\x17', // x17
    '\\x18', '\\x19', '\\x1A', '\\x1B', '\\x1C', '\\x1D', '\\x1E', '\\x1F', // x1F
    '', '', '', '', '', '', '', "\\'", '', '', '', '', '', '', '', '',      // x2F
    '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '',         // x3F
    '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '',         // x4F
    '', '', '', '', '', '', '', '', '', '', '', '', '\\\\', '', '', '',     // x5F
    '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '',         // x6F
    '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '\\x7F',    // x7F
    '\\x80', '\\x81', '\\x82', '\\x83', '\\x84', '\\x85', '\\x86', '\\x87', // x87
    '\\x88', '\\x89', '\\x8A', '\\x8B', '\\x8C', '\\x8D', '\\x8E', '\\x8F', // x8F
    '\\x90', '\\x91', '\\x92', '\\x93', '\\x94', '\\x95', '\\x96', '\\x97', // x97
    '\\x98', '\\x99', '\\x9A', '\\x9B', '\\x9C', '\\x9D', '\\x9E', '\\x9F', // x9F
  ];

  // Regex used for ansi escape code splitting
  // Ref: https://github.com/chalk/ansi-regex/blob/f338e1814144efb950276aac84135ff86b72dc8e/index.js
  // License: MIT by Sindre Sorhus <sindresorhus@gmail.com>
  // Matches all ansi escape code sequences in a string
  // goja: compiled on first use (only colored output needs it).
  let ansi;
  function getAnsiRegExp() {
    if (ansi === undefined) {
      ansi = new RegExp(
        '[\\u001B\\u009B][[\\]()#;?]*' +
        '(?:(?:(?:(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]+)*' +
        '|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]*)*)?' +
        '(?:\\u0007|\\u001B\\u005C|\\u009C))' +
        '|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?' +
        '[\\dA-PR-TZcf-nq-uy=><~]))', 'g',
      );
    }
    return ansi;
  }

  function getUserOptions(ctx, isCrossContext) {
    const ret = {
      stylize: ctx.stylize,
      showHidden: ctx.showHidden,
      depth: ctx.depth,
      colors: ctx.colors,
      customInspect: ctx.customInspect,
      showProxy: ctx.showProxy,
      maxArrayLength: ctx.maxArrayLength,
      maxStringLength: ctx.maxStringLength,
      breakLength: ctx.breakLength,
      compact: ctx.compact,
      sorted: ctx.sorted,
      getters: ctx.getters,
      numericSeparator: ctx.numericSeparator,
      ...ctx.userOptions,
    };

    // Typically, the target value will be an instance of `Object`. If that is
    // *not* the case, the object may come from another vm.Context, and we want
    // to avoid passing it objects from this Context in that case, so we remove
    // the prototype from the returned object itself + the `stylize()` function,
    // and remove all other non-primitives, including non-primitive user options.
    if (isCrossContext) {
      ObjectSetPrototypeOf(ret, null);
      for (const key of ObjectKeys(ret)) {
        if ((typeof ret[key] === 'object' || typeof ret[key] === 'function') &&
            ret[key] !== null) {
          delete ret[key];
        }
      }
      ret.stylize = ObjectSetPrototypeOf((value, flavour) => {
        let stylized;
        try {
          stylized = `${ctx.stylize(value, flavour)}`;
        } catch {
          // Continue regardless of error.
        }

        if (typeof stylized !== 'string') return value;
        // `stylized` is a string as it should be, which is safe to pass along.
        return stylized;
      }, null);
    }

    return ret;
  }

  /**
   * Echos the value of any input. Tries to print the value out
   * in the best way possible given the different types.
   * @param {any} value The value to print out.
   * @param {object} opts Optional options object that alters the output.
   */
  /* Legacy: value, showHidden, depth, colors */
  // goja: Node reads the legacy `depth` and `colors` arguments through
  // `arguments`; materialising `arguments` is costly in goja, so they are
  // declared parameters here (inspect.length is reset to Node's 2 below).
  // Passing `undefined` and omitting an argument behave the same either way.
  function inspect(value, opts, legacyDepth, legacyColors) {
    // Default options
    // goja: Node copies every default option into `ctx`. Creating an object
    // with many properties is expensive in goja, so the defaults are
    // inherited from inspectDefaultOptions instead; options given by the
    // caller become own properties as before. Nothing enumerates `ctx`
    // except the `{ ...ctx }` copy in getConstructorName, whose result is
    // passed to inspect() again, where missing options fall back to the
    // same defaults.
    const ctx = {
      __proto__: inspectDefaultOptions,
      budget: {},
      indentationLvl: 0,
      seen: [],
      currentDepth: 0,
      stylize: stylizeNoColor,
    };
    if (opts !== undefined || legacyDepth !== undefined || legacyColors !== undefined) {
      // Legacy...
      if (legacyDepth !== undefined) {
        ctx.depth = legacyDepth;
      }
      if (legacyColors !== undefined) {
        ctx.colors = legacyColors;
      }
      // Set user-specified options
      if (typeof opts === 'boolean') {
        ctx.showHidden = opts;
      } else if (opts) {
        const optKeys = ObjectKeys(opts);
        for (let i = 0; i < optKeys.length; ++i) {
          const key = optKeys[i];
          // TODO(BridgeAR): Find a solution what to do about stylize. Either make
          // this function public or add a new API with a similar or better
          // functionality.
          if (
            ObjectPrototypeHasOwnProperty(inspectDefaultOptions, key) ||
            key === 'stylize') {
            ctx[key] = opts[key];
          } else if (ctx.userOptions === undefined) {
            // This is required to pass through the actual user input.
            ctx.userOptions = opts;
          }
        }
      }
    }
    if (ctx.colors) ctx.stylize = stylizeWithColor;
    if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
    if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
    return formatValue(ctx, value, 0);
  }
  ObjectDefineProperty(inspect, 'length', { __proto__: null, value: 2 });
  inspect.custom = customInspectSymbol;

  ObjectDefineProperty(inspect, 'defaultOptions', {
    __proto__: null,
    get() {
      return inspectDefaultOptions;
    },
    set(options) {
      if (options === null || typeof options !== 'object') {
        throw new TypeError('The "options" argument must be of type object.');
      }
      return ObjectAssign(inspectDefaultOptions, options);
    },
  });

  // Set Graphics Rendition https://en.wikipedia.org/wiki/ANSI_escape_code#graphics
  // Each color consists of an array with the color code as first entry and the
  // reset code as second entry.
  // goja: the table is built the first time a value is printed in color,
  // not each time the script is installed: its twelve alias accessors were
  // a tenth of installing it, and console output is never colored.
  let colorsDefined = false;
  function defineColors() {
    colorsDefined = true;
    const defaultFG = 39;
    const defaultBG = 49;
    inspect.colors = {
      __proto__: null,
      reset: [0, 0],
      bold: [1, 22],
      dim: [2, 22], // Alias: faint
      italic: [3, 23],
      underline: [4, 24],
      blink: [5, 25],
      // Swap foreground and background colors
      inverse: [7, 27], // Alias: swapcolors, swapColors
      hidden: [8, 28], // Alias: conceal
      strikethrough: [9, 29], // Alias: strikeThrough, crossedout, crossedOut
      doubleunderline: [21, 24], // Alias: doubleUnderline
      black: [30, defaultFG],
      red: [31, defaultFG],
      green: [32, defaultFG],
      yellow: [33, defaultFG],
      blue: [34, defaultFG],
      magenta: [35, defaultFG],
      cyan: [36, defaultFG],
      white: [37, defaultFG],
      bgBlack: [40, defaultBG],
      bgRed: [41, defaultBG],
      bgGreen: [42, defaultBG],
      bgYellow: [43, defaultBG],
      bgBlue: [44, defaultBG],
      bgMagenta: [45, defaultBG],
      bgCyan: [46, defaultBG],
      bgWhite: [47, defaultBG],
      framed: [51, 54],
      overlined: [53, 55],
      gray: [90, defaultFG], // Alias: grey, blackBright
      redBright: [91, defaultFG],
      greenBright: [92, defaultFG],
      yellowBright: [93, defaultFG],
      blueBright: [94, defaultFG],
      magentaBright: [95, defaultFG],
      cyanBright: [96, defaultFG],
      whiteBright: [97, defaultFG],
      bgGray: [100, defaultBG], // Alias: bgGrey, bgBlackBright
      bgRedBright: [101, defaultBG],
      bgGreenBright: [102, defaultBG],
      bgYellowBright: [103, defaultBG],
      bgBlueBright: [104, defaultBG],
      bgMagentaBright: [105, defaultBG],
      bgCyanBright: [106, defaultBG],
      bgWhiteBright: [107, defaultBG],
    };

    function defineColorAlias(target, alias) {
      ObjectDefineProperty(inspect.colors, alias, {
        __proto__: null,
        get() {
          return this[target];
        },
        set(value) {
          this[target] = value;
        },
        configurable: true,
        enumerable: false,
      });
    }

    defineColorAlias('gray', 'grey');
    defineColorAlias('gray', 'blackBright');
    defineColorAlias('bgGray', 'bgGrey');
    defineColorAlias('bgGray', 'bgBlackBright');
    defineColorAlias('dim', 'faint');
    defineColorAlias('strikethrough', 'crossedout');
    defineColorAlias('strikethrough', 'strikeThrough');
    defineColorAlias('strikethrough', 'crossedOut');
    defineColorAlias('hidden', 'conceal');
    defineColorAlias('inverse', 'swapColors');
    defineColorAlias('inverse', 'swapcolors');
    defineColorAlias('doubleunderline', 'doubleUnderline');
  }

  // TODO(BridgeAR): Add function style support for more complex styles.
  // Don't use 'blue' not visible on cmd.exe
  inspect.styles = ObjectAssign({ __proto__: null }, {
    special: 'cyan',
    number: 'yellow',
    bigint: 'yellow',
    boolean: 'yellow',
    undefined: 'grey',
    null: 'bold',
    string: 'green',
    symbol: 'green',
    date: 'magenta',
    // "name": intentionally not styling
    // TODO(BridgeAR): Highlight regular expressions properly.
    regexp: 'red',
    module: 'underline',
  });

  function addQuotes(str, quotes) {
    if (quotes === -1) {
      return `"${str}"`;
    }
    if (quotes === -2) {
      return `\`${str}\``;
    }
    return `'${str}'`;
  }

  // Escape control characters, single quotes and the backslash.
  // This is similar to JSON stringify escaping.
  function strEscape(str) {
    let escapeTest = strEscapeSequencesRegExp;
    let singleQuote = 39;

    // Check for double quotes. If not present, do not escape single quotes and
    // instead wrap the text in double quotes. If double quotes exist, check for
    // backticks. If they do not exist, use those as fallback instead of the
    // double quotes.
    if (StringPrototypeIncludes(str, "'")) {
      // This invalidates the charCode and therefore can not be matched for
      // anymore.
      if (!StringPrototypeIncludes(str, '"')) {
        singleQuote = -1;
      } else if (!StringPrototypeIncludes(str, '`') &&
                 !StringPrototypeIncludes(str, '${')) {
        singleQuote = -2;
      }
      if (singleQuote !== 39) {
        escapeTest = strEscapeSequencesRegExpSingle;
      }
    }

    // goja: Node tests with a regular expression first and, for strings over
    // 100 characters, escapes with a regexp replace; both give the same
    // result as the loop below, which is the only path taken here.
    if (!RegExpPrototypeTest(escapeTest, str))
      return addQuotes(str, singleQuote);

    let result = '';
    let last = 0;
    for (let i = 0; i < str.length; i++) {
      const point = StringPrototypeCharCodeAt(str, i);
      if (point === singleQuote ||
          point === 92 ||
          point < 32 ||
          (point > 126 && point < 160)) {
        if (last === i) {
          result += meta[point];
        } else {
          result += `${StringPrototypeSlice(str, last, i)}${meta[point]}`;
        }
        last = i + 1;
      } else if (point >= 0xd800 && point <= 0xdfff) {
        if (point <= 0xdbff && i + 1 < str.length) {
          const point = StringPrototypeCharCodeAt(str, i + 1);
          if (point >= 0xdc00 && point <= 0xdfff) {
            i++;
            continue;
          }
        }
        result += `${StringPrototypeSlice(str, last, i)}\\u${NumberPrototypeToString(point, 16)}`;
        last = i + 1;
      }
    }

    if (last !== str.length) {
      result += StringPrototypeSlice(str, last);
    }
    return addQuotes(result, singleQuote);
  }

  // Node: RegExpPrototypeSymbolReplace(strEscapeSequencesReplacer, str,
  // escapeFn), used for symbol descriptions and non-enumerable keys: escape
  // control characters, the single quote, the backslash and lone surrogates
  // without adding quotes.
  function escapeAll(str) {
    if (!RegExpPrototypeTest(strEscapeSequencesRegExp, str)) {
      return str;
    }
    let result = '';
    for (let i = 0; i < str.length; i++) {
      const point = StringPrototypeCharCodeAt(str, i);
      if (point === 39 || point === 92 || point < 32 ||
          (point > 126 && point < 160)) {
        result += meta[point];
      } else if (point >= 0xd800 && point <= 0xdfff) {
        if (point <= 0xdbff && i + 1 < str.length) {
          const next = StringPrototypeCharCodeAt(str, i + 1);
          if (next >= 0xdc00 && next <= 0xdfff) {
            result += StringPrototypeSlice(str, i, i + 2);
            i++;
            continue;
          }
        }
        result += `\\u${NumberPrototypeToString(point, 16)}`;
      } else {
        result += str[i];
      }
    }
    return result;
  }

  function stylizeWithColor(str, styleType) {
    if (!colorsDefined) {
      defineColors();
    }
    const style = inspect.styles[styleType];
    if (style !== undefined) {
      const color = inspect.colors[style];
      if (color !== undefined)
        return `\u001b[${color[0]}m${str}\u001b[${color[1]}m`;
    }
    return str;
  }

  function stylizeNoColor(str) {
    return str;
  }

  // Return a new empty array to push in the results of the default formatter.
  function getEmptyFormatArray() {
    return [];
  }

  function isInstanceof(object, proto) {
    try {
      return object instanceof proto;
    } catch {
      return false;
    }
  }

  // Special-case for some builtin prototypes in case their `constructor` property has been tampered.
  // goja: Node keeps these two entries in a SafeMap; identity checks do the
  // same without a Map lookup per prototype.
  const wellKnownObjectPrototype = { name: 'Object', constructor: Object };
  const wellKnownFunctionPrototype = { name: 'Function', constructor: Function };
  function getWellKnownPrototype(obj) {
    if (obj === ObjectPrototype) return wellKnownObjectPrototype;
    if (obj === FunctionPrototype) return wellKnownFunctionPrototype;
    return undefined;
  }

  function getConstructorName(obj, ctx, recurseTimes, protoProps) {
    let firstProto;
    const tmp = obj;
    while (obj) {
      const wellKnownPrototypeNameAndConstructor = getWellKnownPrototype(obj);
      if (wellKnownPrototypeNameAndConstructor != null) {
        const { name, constructor } = wellKnownPrototypeNameAndConstructor;
        if (FunctionPrototypeSymbolHasInstance(constructor, tmp)) {
          if (protoProps !== undefined && firstProto !== obj) {
            addPrototypeProperties(
              ctx, tmp, firstProto || tmp, recurseTimes, protoProps);
          }
          return name;
        }
      }
      const descriptor = ObjectGetOwnPropertyDescriptor(obj, 'constructor');
      if (descriptor !== undefined &&
          typeof descriptor.value === 'function' &&
          descriptor.value.name !== '' &&
          isInstanceof(tmp, descriptor.value)) {
        if (protoProps !== undefined &&
           (firstProto !== obj ||
           !isBuiltInObject(descriptor.value.name))) {
          addPrototypeProperties(
            ctx, tmp, firstProto || tmp, recurseTimes, protoProps);
        }
        return String(descriptor.value.name);
      }

      obj = ObjectGetPrototypeOf(obj);
      if (firstProto === undefined) {
        firstProto = obj;
      }
    }

    if (firstProto === null) {
      return null;
    }

    const res = internalGetConstructorName(tmp);

    if (recurseTimes > ctx.depth && ctx.depth !== null) {
      return `${res} <Complex prototype>`;
    }

    const protoConstr = getConstructorName(
      firstProto, ctx, recurseTimes + 1, protoProps);

    if (protoConstr === null) {
      return `${res} <${inspect(firstProto, {
        ...ctx,
        customInspect: false,
        depth: -1,
      })}>`;
    }

    return `${res} <${protoConstr}>`;
  }

  // This function has the side effect of adding prototype properties to the
  // `output` argument (which is an array). This is intended to highlight user
  // defined prototype properties.
  function addPrototypeProperties(ctx, main, obj, recurseTimes, output) {
    let depth = 0;
    let keys;
    let keySet;
    do {
      if (depth !== 0 || main === obj) {
        obj = ObjectGetPrototypeOf(obj);
        // Stop as soon as a null prototype is encountered.
        if (obj === null) {
          return;
        }
        // Stop as soon as a built-in object type is detected.
        const descriptor = ObjectGetOwnPropertyDescriptor(obj, 'constructor');
        if (descriptor !== undefined &&
            typeof descriptor.value === 'function' &&
            isBuiltInObject(descriptor.value.name)) {
          return;
        }
      }

      if (depth === 0) {
        keySet = new (SetConstructor())();
      } else {
        ArrayPrototypeForEach(keys, (key) => SetPrototypeAdd(keySet, key));
      }
      // Get all own property names and symbols.
      keys = ReflectOwnKeys(obj);
      ArrayPrototypePush(ctx.seen, main);
      for (const key of keys) {
        // Ignore the `constructor` property and keys that exist on layers above.
        if (key === 'constructor' ||
            ObjectPrototypeHasOwnProperty(main, key) ||
            (depth !== 0 && SetPrototypeHas(keySet, key))) {
          continue;
        }
        const desc = ObjectGetOwnPropertyDescriptor(obj, key);
        if (typeof desc.value === 'function') {
          continue;
        }
        const value = formatProperty(
          ctx, obj, recurseTimes, key, kObjectType, desc, main);
        if (ctx.colors) {
          // Faint!
          ArrayPrototypePush(output, `\u001b[2m${value}\u001b[22m`);
        } else {
          ArrayPrototypePush(output, value);
        }
      }
      ArrayPrototypePop(ctx.seen);
    // Limit the inspection to up to three prototype layers. Using `recurseTimes`
    // is not a good choice here, because it's as if the properties are declared
    // on the current object from the users perspective.
    } while (++depth !== 3);
  }

  function getPrefix(constructor, tag, fallback, size) {
    // goja: default parameter values make every call slower, so `size = ''`
    // is spelled out.
    if (size === undefined) size = '';
    if (constructor === null) {
      if (tag !== '' && fallback !== tag) {
        return `[${fallback}${size}: null prototype] [${tag}] `;
      }
      return `[${fallback}${size}: null prototype] `;
    }

    if (tag !== '' && constructor !== tag) {
      return `${constructor}${size} [${tag}] `;
    }
    return `${constructor}${size} `;
  }

  // Look up the keys of the object.
  function getKeys(value, showHidden) {
    let keys;
    const symbols = ObjectGetOwnPropertySymbols(value);
    if (showHidden) {
      keys = ObjectGetOwnPropertyNames(value);
      if (symbols.length !== 0)
        ArrayPrototypePushApply(keys, symbols);
    } else {
      keys = ObjectKeys(value);
      if (symbols.length !== 0) {
        const filter = (key) => ObjectPrototypePropertyIsEnumerable(value, key);
        ArrayPrototypePushApply(keys, ArrayPrototypeFilter(symbols, filter));
      }
    }
    return keys;
  }

  function getCtxStyle(value, constructor, tag) {
    let fallback = '';
    if (constructor === null) {
      fallback = internalGetConstructorName(value);
      if (fallback === tag) {
        fallback = 'Object';
      }
    }
    return getPrefix(constructor, tag, fallback);
  }

  function formatProxy(ctx, proxy, recurseTimes) {
    if (recurseTimes > ctx.depth && ctx.depth !== null) {
      return ctx.stylize('Proxy [Array]', 'special');
    }
    recurseTimes += 1;
    ctx.indentationLvl += 2;
    const res = [
      formatValue(ctx, proxy[0], recurseTimes),
      formatValue(ctx, proxy[1], recurseTimes),
    ];
    ctx.indentationLvl -= 2;
    return reduceToSingleString(
      ctx, res, '', ['Proxy [', ']'], kArrayExtrasType, recurseTimes);
  }

  // Note: using `formatValue` directly requires the indentation level to be
  // corrected by setting `ctx.indentationLvL += diff` and then to decrease the
  // value afterwards again.
  function formatValue(ctx, value, recurseTimes, typedArray) {
    // Primitive types cannot have properties.
    if (typeof value !== 'object' &&
        typeof value !== 'function') {
      return formatPrimitive(ctx.stylize, value, ctx);
    }
    if (value === null) {
      return ctx.stylize('null', 'null');
    }

    // Memorize the context for custom inspection on proxies.
    const context = value;
    // Always check for proxies to prevent side effects and to prevent triggering
    // any proxy handlers.
    // goja: Node's getProxyDetails is host.kind plus host.proxyDetails.
    let kind = hostKind(value);
    let proxy;
    if (kind === 'Proxy') {
      proxy = hostProxyDetails(value);
      if (proxy === null || proxy[0] === null) {
        return ctx.stylize('<Revoked Proxy>', 'special');
      }
      if (ctx.showProxy) {
        return formatProxy(ctx, proxy, recurseTimes);
      }
      value = proxy[0];
      kind = hostKind(value);
    }

    // Provide a hook for user-specified inspect functions.
    // Check that value is an object with an inspect function on it.
    if (ctx.customInspect) {
      const maybeCustom = value[customInspectSymbol];
      if (typeof maybeCustom === 'function' &&
          // Filter out the util module, its inspect function is special.
          maybeCustom !== inspect &&
          // Also filter out any prototype objects using the circular check.
          !(value.constructor && value.constructor.prototype === value)) {
        // This makes sure the recurseTimes are reported as before while using
        // a counter internally.
        const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
        const isCrossContext =
          proxy !== undefined || !(context instanceof Object);
        const ret = FunctionPrototypeCall(
          maybeCustom,
          context,
          depth,
          getUserOptions(ctx, isCrossContext),
          inspect,
        );
        // If the custom inspection method returned `this`, don't go into
        // infinite recursion.
        if (ret !== context) {
          if (typeof ret !== 'string') {
            return formatValue(ctx, ret, recurseTimes);
          }
          return StringPrototypeReplaceAll(ret, '\n', `\n${StringPrototypeRepeat(' ', ctx.indentationLvl)}`);
        }
      }
    }

    // Using an array here is actually better for the average case than using
    // a Set. `seen` will only check for the depth and will never grow too large.
    if (ArrayPrototypeIncludes(ctx.seen, value)) {
      let index = 1;
      if (ctx.circular === undefined) {
        ctx.circular = new (MapConstructor())();
        MapPrototypeSet(ctx.circular, value, index);
      } else {
        index = MapPrototypeGet(ctx.circular, value);
        if (index === undefined) {
          index = MapPrototypeGetSize(ctx.circular) + 1;
          MapPrototypeSet(ctx.circular, value, index);
        }
      }
      return ctx.stylize(`[Circular *${index}]`, 'special');
    }

    return formatRaw(ctx, value, recurseTimes, typedArray, kind);
  }

  // goja: `kind` is host.kind(value), computed once by formatValue and used
  // in place of Node's isSet/isMap/isDate/... checks.
  function formatRaw(ctx, value, recurseTimes, typedArray, kind) {
    let keys;
    let protoProps;
    if (ctx.showHidden && (recurseTimes <= ctx.depth || ctx.depth === null)) {
      protoProps = [];
    }

    const constructor = getConstructorName(value, ctx, recurseTimes, protoProps);
    // Reset the variable to check for this later on.
    if (protoProps !== undefined && protoProps.length === 0) {
      protoProps = undefined;
    }

    let tag = value[SymbolToStringTag];
    // goja: the unfiltered tag drives the WeakMap/WeakSet/DataView checks.
    const rawTag = tag;
    // Only list the tag in case it's non-enumerable / not an own property.
    // Otherwise we'd print this twice.
    if (typeof tag !== 'string' ||
        (tag !== '' &&
        (ctx.showHidden ?
          ObjectPrototypeHasOwnProperty :
          ObjectPrototypePropertyIsEnumerable)(
          value, SymbolToStringTag,
        ))) {
      tag = '';
    }
    let base = '';
    let formatter = getEmptyFormatArray;
    let braces;
    let noIterator = true;
    let i = 0;
    const onlyEnumerable = !ctx.showHidden;

    let extrasType = kObjectType;

    // Iterators and the rest are split to reduce checks.
    // We have to check all values in case the constructor is set to null.
    // Otherwise it would not possible to identify all types properly.
    if (SymbolIterator in value || constructor === null) {
      noIterator = false;
      if (ArrayIsArray(value)) {
        // Only set the constructor for non ordinary ("Array [...]") arrays.
        const prefix = (constructor !== 'Array' || tag !== '') ?
          getPrefix(constructor, tag, 'Array', `(${value.length})`) :
          '';
        keys = getOwnNonIndexProperties(value, onlyEnumerable);
        braces = [`${prefix}[`, ']'];
        if (value.length === 0 && keys.length === 0 && protoProps === undefined)
          return `${braces[0]}]`;
        extrasType = kArrayExtrasType;
        formatter = formatArray;
      } else if (kind === 'Set') {
        const size = SetPrototypeGetSize(value);
        const prefix = getPrefix(constructor, tag, 'Set', `(${size})`);
        keys = getKeys(value, ctx.showHidden);
        formatter = constructor !== null ?
          FunctionPrototypeBind(formatSet, null, value) :
          FunctionPrototypeBind(formatSet, null, SetPrototypeValues(value));
        if (size === 0 && keys.length === 0 && protoProps === undefined)
          return `${prefix}{}`;
        braces = [`${prefix}{`, '}'];
      } else if (kind === 'Map') {
        const size = MapPrototypeGetSize(value);
        const prefix = getPrefix(constructor, tag, 'Map', `(${size})`);
        keys = getKeys(value, ctx.showHidden);
        formatter = constructor !== null ?
          FunctionPrototypeBind(formatMap, null, value) :
          FunctionPrototypeBind(formatMap, null, MapPrototypeEntries(value));
        if (size === 0 && keys.length === 0 && protoProps === undefined)
          return `${prefix}{}`;
        braces = [`${prefix}{`, '}'];
      } else if (kind === 'TypedArray') {
        keys = getOwnNonIndexProperties(value, onlyEnumerable);
        let bound = value;
        let fallback = '';
        if (constructor === null) {
          fallback = TypedArrayPrototypeGetSymbolToStringTag(value);
          // Reconstruct the array information.
          bound = new globalObject[fallback](value);
        }
        const size = TypedArrayPrototypeGetLength(value);
        const prefix = getPrefix(constructor, tag, fallback, `(${size})`);
        braces = [`${prefix}[`, ']'];
        if (value.length === 0 && keys.length === 0 && !ctx.showHidden)
          return `${braces[0]}]`;
        // Special handle the value. The original value is required below. The
        // bound function is required to reconstruct missing information.
        formatter = FunctionPrototypeBind(formatTypedArray, null, bound, size);
        extrasType = kArrayExtrasType;
      } else {
        // goja: Map and Set iterators cannot be previewed without consuming
        // them (Node uses V8's previewEntries), so they are printed like any
        // other iterator object: `Object [Map Iterator] {}`.
        noIterator = true;
      }
    }
    if (noIterator) {
      keys = getKeys(value, ctx.showHidden);
      braces = ['{', '}'];
      if (typeof value === 'function') {
        base = getFunctionBase(value, constructor, tag);
        if (keys.length === 0 && protoProps === undefined)
          return ctx.stylize(base, 'special');
      } else if (constructor === 'Object') {
        if (kind === 'Arguments') {
          braces[0] = '[Arguments] {';
        } else if (tag !== '') {
          braces[0] = `${getPrefix(constructor, tag, 'Object')}{`;
        }
        if (keys.length === 0 && protoProps === undefined) {
          return `${braces[0]}}`;
        }
      } else if (kind === 'RegExp') {
        // Make RegExps say that they are RegExps
        base = regExpToString(
          constructor !== null ? value : new RegExp(value),
        );
        const prefix = getPrefix(constructor, tag, 'RegExp');
        if (prefix !== 'RegExp ')
          base = `${prefix}${base}`;
        if ((keys.length === 0 && protoProps === undefined) ||
            (recurseTimes > ctx.depth && ctx.depth !== null)) {
          return ctx.stylize(base, 'regexp');
        }
      } else if (kind === 'Date') {
        // Make dates with properties first say the date
        base = NumberIsNaN(DatePrototypeGetTime(value)) ?
          DatePrototypeToString(value) :
          dateToISOString(value);
        const prefix = getPrefix(constructor, tag, 'Date');
        if (prefix !== 'Date ')
          base = `${prefix}${base}`;
        if (keys.length === 0 && protoProps === undefined) {
          return ctx.stylize(base, 'date');
        }
      } else if (isError(value, kind)) {
        base = formatError(value, constructor, tag, ctx, keys);
        if (keys.length === 0 && protoProps === undefined)
          return base;
      } else if (kind === 'ArrayBuffer') {
        // Fast path for ArrayBuffer and SharedArrayBuffer.
        // Can't do the same for DataView because it has a non-primitive
        // .buffer property that we need to recurse for.
        const arrayType = 'ArrayBuffer';
        const prefix = getPrefix(constructor, tag, arrayType);
        if (typedArray === undefined) {
          formatter = formatArrayBuffer;
        } else if (keys.length === 0 && protoProps === undefined) {
          return prefix +
                `{ byteLength: ${formatNumber(ctx.stylize, value.byteLength, false)} }`;
        }
        braces[0] = `${prefix}{`;
        ArrayPrototypeUnshift(keys, 'byteLength');
      } else if (isDataView(value, rawTag)) {
        braces[0] = `${getPrefix(constructor, tag, 'DataView')}{`;
        // .buffer goes last, it's not a primitive like the others.
        ArrayPrototypeUnshift(keys, 'byteLength', 'byteOffset', 'buffer');
      } else if (kind === 'Promise') {
        braces[0] = `${getPrefix(constructor, tag, 'Promise')}{`;
        formatter = formatPromise;
      } else if (isWeakSet(value, rawTag)) {
        braces[0] = `${getPrefix(constructor, tag, 'WeakSet')}{`;
        formatter = formatWeakCollection;
      } else if (isWeakMap(value, rawTag)) {
        braces[0] = `${getPrefix(constructor, tag, 'WeakMap')}{`;
        formatter = formatWeakCollection;
      } else if (kind === 'Number' || kind === 'String' || kind === 'Boolean' ||
                 kind === 'BigInt' || kind === 'Symbol') {
        base = getBoxedBase(value, ctx, keys, constructor, tag, kind);
        if (keys.length === 0 && protoProps === undefined) {
          return base;
        }
      } else {
        if (keys.length === 0 && protoProps === undefined) {
          return `${getCtxStyle(value, constructor, tag)}{}`;
        }
        braces[0] = `${getCtxStyle(value, constructor, tag)}{`;
      }
    }

    if (recurseTimes > ctx.depth && ctx.depth !== null) {
      let constructorName = StringPrototypeSlice(getCtxStyle(value, constructor, tag), 0, -1);
      if (constructor !== null)
        constructorName = `[${constructorName}]`;
      return ctx.stylize(constructorName, 'special');
    }
    recurseTimes += 1;

    // goja: own arrays are appended to by index; a bound push costs more.
    ctx.seen[ctx.seen.length] = value;
    ctx.currentDepth = recurseTimes;
    // goja: Node catches V8's stack overflow RangeError here and prints
    // "[Object: Inspection interrupted prematurely...]". goja reports stack
    // overflows as uncatchable errors, so there is nothing to catch.
    const output = formatter(ctx, value, recurseTimes);
    for (i = 0; i < keys.length; i++) {
      output[output.length] =
        formatProperty(ctx, value, recurseTimes, keys[i], extrasType);
    }
    if (protoProps !== undefined) {
      ArrayPrototypePushApply(output, protoProps);
    }
    if (ctx.circular !== undefined) {
      const index = MapPrototypeGet(ctx.circular, value);
      if (index !== undefined) {
        const reference = ctx.stylize(`<ref *${index}>`, 'special');
        // Add reference always to the very beginning of the output.
        if (ctx.compact !== true) {
          base = base === '' ? reference : `${reference} ${base}`;
        } else {
          braces[0] = `${reference} ${braces[0]}`;
        }
      }
    }
    ctx.seen.length--;

    if (ctx.sorted) {
      const comparator = ctx.sorted === true ? undefined : ctx.sorted;
      if (extrasType === kObjectType) {
        ArrayPrototypeSort(output, comparator);
      } else if (keys.length > 1) {
        const sorted = ArrayPrototypeSort(ArrayPrototypeSlice(output, output.length - keys.length), comparator);
        ArrayPrototypeUnshift(sorted, output, output.length - keys.length, keys.length);
        ReflectApply(ArrayPrototypeSpliceRaw, null, sorted);
      }
    }

    const res = reduceToSingleString(
      ctx, output, base, braces, extrasType, recurseTimes, value);
    const budget = ctx.budget[ctx.indentationLvl] || 0;
    const newLength = budget + res.length;
    ctx.budget[ctx.indentationLvl] = newLength;
    // If any indentationLvl exceeds this limit, limit further inspecting to the
    // minimum. Otherwise the recursive algorithm might continue inspecting the
    // object even though the maximum string size (~2 ** 28 on 32 bit systems and
    // ~2 ** 30 on 64 bit systems) exceeded. The actual output is not limited at
    // exactly 2 ** 27 but a bit higher. This depends on the object shape.
    // This limit also makes sure that huge objects don't block the event loop
    // significantly.
    if (newLength > 2 ** 27) {
      ctx.depth = -1;
    }
    return res;
  }

  function getBoxedBase(value, ctx, keys, constructor, tag, kind) {
    let fn;
    let type;
    if (kind === 'Number') {
      fn = NumberPrototypeValueOf;
      type = 'Number';
    } else if (kind === 'String') {
      fn = StringPrototypeValueOf;
      type = 'String';
      // For boxed Strings, we have to remove the 0-n indexed entries,
      // since they just noisy up the output and are redundant
      // Make boxed primitive Strings look like such
      ArrayPrototypeSplice(keys, 0, value.length);
    } else if (kind === 'Boolean') {
      fn = BooleanPrototypeValueOf;
      type = 'Boolean';
    } else if (kind === 'BigInt') {
      fn = BigIntPrototypeValueOf;
      type = 'BigInt';
    } else {
      fn = SymbolPrototypeValueOf;
      type = 'Symbol';
    }
    let base = `[${type}`;
    if (type !== constructor) {
      if (constructor === null) {
        base += ' (null prototype)';
      } else {
        base += ` (${constructor})`;
      }
    }
    base += `: ${formatPrimitive(stylizeNoColor, fn(value), ctx)}]`;
    if (tag !== '' && tag !== constructor) {
      base += ` [${tag}]`;
    }
    if (keys.length !== 0 || ctx.stylize === stylizeNoColor)
      return base;
    return ctx.stylize(base, StringPrototypeToLowerCase(type));
  }

  function getClassBase(value, constructor, tag) {
    const hasName = ObjectPrototypeHasOwnProperty(value, 'name');
    const name = (hasName && value.name) || '(anonymous)';
    let base = `class ${name}`;
    if (constructor !== 'Function' && constructor !== null) {
      base += ` [${constructor}]`;
    }
    if (tag !== '' && constructor !== tag) {
      base += ` [${tag}]`;
    }
    if (constructor !== null) {
      const superName = ObjectGetPrototypeOf(value).name;
      if (superName) {
        base += ` extends ${superName}`;
      }
    } else {
      base += ' extends [null prototype]';
    }
    return `[${base}]`;
  }

  function getFunctionBase(value, constructor, tag) {
    const stringified = FunctionPrototypeToString(value);
    if (StringPrototypeStartsWith(stringified, 'class') && stringified[stringified.length - 1] === '}') {
      const slice = StringPrototypeSlice(stringified, 5, -1);
      const bracketIndex = StringPrototypeIndexOf(slice, '{');
      if (bracketIndex !== -1 &&
          (!StringPrototypeIncludes(StringPrototypeSlice(slice, 0, bracketIndex), '(') ||
          // Slow path to guarantee that it's indeed a class.
          RegExpPrototypeTest(classRegExp, RegExpPrototypeSymbolReplace(stripCommentsRegExp, slice, '')))
      ) {
        return getClassBase(value, constructor, tag);
      }
    }
    let type = 'Function';
    if (isGeneratorFunction(value)) {
      type = `Generator${type}`;
    }
    if (isAsyncFunction(value)) {
      type = `Async${type}`;
    } else if (isGojaAsyncMethod(value, stringified)) {
      // goja: see isGojaAsyncMethod. V8 would have found AsyncFunction as
      // the constructor.
      type = `Async${type}`;
      if (constructor === 'Function') {
        constructor = type;
      }
    }
    let base = `[${type}`;
    if (constructor === null) {
      base += ' (null prototype)';
    }
    if (value.name === '') {
      base += ' (anonymous)';
    } else {
      base += `: ${value.name}`;
    }
    base += ']';
    if (constructor !== type && constructor !== null) {
      base += ` ${constructor}`;
    }
    if (tag !== '' && constructor !== tag) {
      base += ` [${tag}]`;
    }
    return base;
  }

  function identicalSequenceRange(a, b) {
    for (let i = 0; i < a.length - 3; i++) {
      // Find the first entry of b that matches the current entry of a.
      const pos = ArrayPrototypeIndexOf(b, a[i]);
      if (pos !== -1) {
        const rest = b.length - pos;
        if (rest > 3) {
          let len = 1;
          const maxLen = MathMin(a.length - i, rest);
          // Count the number of consecutive entries.
          while (maxLen > len && a[i + len] === b[pos + len]) {
            len++;
          }
          if (len > 3) {
            return { len, offset: i };
          }
        }
      }
    }

    return { len: 0, offset: 0 };
  }

  function getStackString(error) {
    // goja: stacks are converted to V8's frame format, see v8StyleStack.
    return error.stack ? v8StyleStack(String(error.stack)) : ErrorPrototypeToString(error);
  }

  function getStackFrames(ctx, err, stack) {
    const frames = StringPrototypeSplit(stack, '\n');

    let cause;
    try {
      ({ cause } = err);
    } catch {
      // If 'cause' is a getter that throws, ignore it.
    }

    // Remove stack frames identical to frames in cause.
    if (cause != null && isError(cause, hostKind(cause))) {
      const causeStack = getStackString(cause);
      const causeStackStart = StringPrototypeIndexOf(causeStack, '\n    at');
      if (causeStackStart !== -1) {
        const causeFrames = StringPrototypeSplit(StringPrototypeSlice(causeStack, causeStackStart + 1), '\n');
        const { len, offset } = identicalSequenceRange(frames, causeFrames);
        if (len > 0) {
          const skipped = len - 2;
          const msg = `    ... ${skipped} lines matching cause stack trace ...`;
          ArrayPrototypeSplice(frames, offset + 1, skipped, ctx.stylize(msg, 'undefined'));
        }
      }
    }
    return frames;
  }

  function improveStack(stack, constructor, name, tag) {
    // A stack trace may contain arbitrary data. Only manipulate the output
    // for "regular errors" (errors that "look normal") for now.
    let len = name.length;

    if (constructor === null ||
        (StringPrototypeEndsWith(name, 'Error') &&
        StringPrototypeStartsWith(stack, name) &&
        (stack.length === len || stack[len] === ':' || stack[len] === '\n'))) {
      let fallback = 'Error';
      if (constructor === null) {
        const start = RegExpPrototypeExec(/^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n {4}at)/, stack) ||
        RegExpPrototypeExec(/^([a-z_A-Z0-9-]*Error)$/, stack);
        fallback = (start && start[1]) || '';
        len = fallback.length;
        fallback = fallback || 'Error';
      }
      const prefix = StringPrototypeSlice(getPrefix(constructor, tag, fallback), 0, -1);
      if (name !== prefix) {
        if (StringPrototypeIncludes(prefix, name)) {
          if (len === 0) {
            stack = `${prefix}: ${stack}`;
          } else {
            stack = `${prefix}${StringPrototypeSlice(stack, len)}`;
          }
        } else {
          stack = `${prefix} [${name}]${StringPrototypeSlice(stack, len)}`;
        }
      }
    }
    return stack;
  }

  function removeDuplicateErrorKeys(ctx, keys, err, stack) {
    if (!ctx.showHidden && keys.length !== 0) {
      for (const name of ['name', 'message', 'stack']) {
        const index = ArrayPrototypeIndexOf(keys, name);
        // Only hide the property in case it's part of the original stack
        if (index !== -1 && StringPrototypeIncludes(stack, err[name])) {
          ArrayPrototypeSplice(keys, index, 1);
        }
      }
    }
  }

  function formatError(err, constructor, tag, ctx, keys) {
    const name = err.name != null ? String(err.name) : 'Error';
    let stack = getStackString(err);

    removeDuplicateErrorKeys(ctx, keys, err, stack);

    if ('cause' in err &&
        (keys.length === 0 || !ArrayPrototypeIncludes(keys, 'cause'))) {
      ArrayPrototypePush(keys, 'cause');
    }

    // Print errors aggregated into AggregateError
    if (ArrayIsArray(err.errors) &&
        (keys.length === 0 || !ArrayPrototypeIncludes(keys, 'errors'))) {
      ArrayPrototypePush(keys, 'errors');
    }

    stack = improveStack(stack, constructor, name, tag);

    // Ignore the error message if it's contained in the stack.
    let pos = (err.message && StringPrototypeIndexOf(stack, err.message)) || -1;
    if (pos !== -1)
      pos += err.message.length;
    // Wrap the error in brackets in case it has no stack trace.
    const stackStart = StringPrototypeIndexOf(stack, '\n    at', pos);
    if (stackStart === -1) {
      stack = `[${stack}]`;
    } else {
      let newStack = StringPrototypeSlice(stack, 0, stackStart);
      const stackFramePart = StringPrototypeSlice(stack, stackStart + 1);
      const lines = getStackFrames(ctx, err, stackFramePart);
      if (ctx.colors) {
        // goja: Node additionally greys out frames of its own core modules
        // and underlines node_modules / the working directory. There are no
        // such frames here, so the frames are printed as they are.
        for (const line of lines) {
          newStack += `\n${line}`;
        }
      } else {
        newStack += `\n${join(lines, '\n')}`;
      }
      stack = newStack;
    }
    // The message and the stack have to be indented as well!
    if (ctx.indentationLvl !== 0) {
      const indentation = StringPrototypeRepeat(' ', ctx.indentationLvl);
      stack = StringPrototypeReplaceAll(stack, '\n', `\n${indentation}`);
    }
    return stack;
  }

  function groupArrayElements(ctx, output, value) {
    let totalLength = 0;
    let maxLength = 0;
    let i = 0;
    let outputLength = output.length;
    if (ctx.maxArrayLength < output.length) {
      // This makes sure the "... n more items" part is not taken into account.
      outputLength--;
    }
    const separatorSpace = 2; // Add 1 for the space and 1 for the separator.
    const dataLen = new Array(outputLength);
    // Calculate the total length of all output entries and the individual max
    // entries length of all output entries. We have to remove colors first,
    // otherwise the length would not be calculated properly.
    for (; i < outputLength; i++) {
      const len = getStringWidth(output[i], ctx.colors);
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len)
        maxLength = len;
    }
    // Add two to `maxLength` as we add a single whitespace character plus a comma
    // in-between two entries.
    const actualMax = maxLength + separatorSpace;
    // Check if at least three entries fit next to each other and prevent grouping
    // of arrays that contains entries of very different length (i.e., if a single
    // entry is longer than 1/5 of all other entries combined). Otherwise the
    // space in-between small entries would be enormous.
    if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
        (totalLength / actualMax > 5 || maxLength <= 6)) {

      const approxCharHeights = 2.5;
      const averageBias = MathSqrt(actualMax - totalLength / output.length);
      const biasedMax = MathMax(actualMax - 3 - averageBias, 1);
      // Dynamically check how many columns seem possible.
      const columns = MathMin(
        // Ideally a square should be drawn. We expect a character to be about 2.5
        // times as high as wide. This is the area formula to calculate a square
        // which contains n rectangles of size `actualMax * approxCharHeights`.
        // Divide that by `actualMax` to receive the correct number of columns.
        // The added bias increases the columns for short entries.
        MathRound(
          MathSqrt(
            approxCharHeights * biasedMax * outputLength,
          ) / biasedMax,
        ),
        // Do not exceed the breakLength.
        MathFloor((ctx.breakLength - ctx.indentationLvl) / actualMax),
        // Limit array grouping for small `compact` modes as the user requested
        // minimal grouping.
        ctx.compact * 4,
        // Limit the columns to a maximum of fifteen.
        15,
      );
      // Return with the original output if no grouping should happen.
      if (columns <= 1) {
        return output;
      }
      const tmp = [];
      const maxLineLength = [];
      for (let i = 0; i < columns; i++) {
        let lineMaxLength = 0;
        for (let j = i; j < output.length; j += columns) {
          if (dataLen[j] > lineMaxLength)
            lineMaxLength = dataLen[j];
        }
        lineMaxLength += separatorSpace;
        maxLineLength[i] = lineMaxLength;
      }
      let order = StringPrototypePadStart;
      if (value !== undefined) {
        for (let i = 0; i < output.length; i++) {
          if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
            order = StringPrototypePadEnd;
            break;
          }
        }
      }
      // Each iteration creates a single line of grouped entries.
      for (let i = 0; i < outputLength; i += columns) {
        // The last lines may contain less entries than columns.
        const max = MathMin(i + columns, outputLength);
        let str = '';
        let j = i;
        for (; j < max - 1; j++) {
          // Calculate extra color padding in case it's active. This has to be
          // done line by line as some lines might contain more colors than
          // others.
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
          str += order(`${output[j]}, `, padding, ' ');
        }
        if (order === StringPrototypePadStart) {
          const padding = maxLineLength[j - i] +
                          output[j].length -
                          dataLen[j] -
                          separatorSpace;
          str += StringPrototypePadStart(output[j], padding, ' ');
        } else {
          str += output[j];
        }
        ArrayPrototypePush(tmp, str);
      }
      if (ctx.maxArrayLength < output.length) {
        ArrayPrototypePush(tmp, output[outputLength]);
      }
      output = tmp;
    }
    return output;
  }

  function addNumericSeparator(integerString) {
    let result = '';
    let i = integerString.length;
    const start = integerString[0] === '-' ? 1 : 0;
    for (; i >= start + 4; i -= 3) {
      result = `_${StringPrototypeSlice(integerString, i - 3, i)}${result}`;
    }
    return i === integerString.length ?
      integerString :
      `${StringPrototypeSlice(integerString, 0, i)}${result}`;
  }

  function addNumericSeparatorEnd(integerString) {
    let result = '';
    let i = 0;
    for (; i < integerString.length - 3; i += 3) {
      result += `${StringPrototypeSlice(integerString, i, i + 3)}_`;
    }
    return i === 0 ?
      integerString :
      `${result}${StringPrototypeSlice(integerString, i)}`;
  }

  const remainingText = (remaining) => `... ${remaining} more item${remaining > 1 ? 's' : ''}`;

  function formatNumber(fn, number, numericSeparator) {
    if (!numericSeparator) {
      // Format -0 as '-0'. Checking `number === -0` won't distinguish 0 from -0.
      if (ObjectIs(number, -0)) {
        return fn('-0', 'number');
      }
      return fn(`${number}`, 'number');
    }

    const numberString = String(number);
    const integer = MathTrunc(number);

    if (integer === number) {
      if (!NumberIsFinite(number) || StringPrototypeIncludes(numberString, 'e')) {
        return fn(numberString, 'number');
      }
      return fn(addNumericSeparator(numberString), 'number');
    }
    if (NumberIsNaN(number)) {
      return fn(numberString, 'number');
    }

    const decimalIndex = StringPrototypeIndexOf(numberString, '.');
    const integerPart = StringPrototypeSlice(numberString, 0, decimalIndex);
    const fractionalPart = StringPrototypeSlice(numberString, decimalIndex + 1);

    return fn(`${
      addNumericSeparator(integerPart)
    }.${
      addNumericSeparatorEnd(fractionalPart)
    }`, 'number');
  }

  function formatBigInt(fn, bigint, numericSeparator) {
    const string = String(bigint);
    if (!numericSeparator) {
      return fn(`${string}n`, 'bigint');
    }
    return fn(`${addNumericSeparator(string)}n`, 'bigint');
  }

  // Node: RegExpPrototypeSymbolSplit(/(?<=\n)/, value): split after every
  // line break, keeping the line breaks.
  function splitAfterNewlines(value) {
    const lines = [];
    let start = 0;
    let index;
    while ((index = StringPrototypeIndexOf(value, '\n', start)) !== -1 &&
           index + 1 < value.length) {
      ArrayPrototypePush(lines, StringPrototypeSlice(value, start, index + 1));
      start = index + 1;
    }
    ArrayPrototypePush(lines, StringPrototypeSlice(value, start));
    return lines;
  }

  function formatPrimitive(fn, value, ctx) {
    if (typeof value === 'string') {
      let trailer = '';
      if (value.length > ctx.maxStringLength) {
        const remaining = value.length - ctx.maxStringLength;
        value = StringPrototypeSlice(value, 0, ctx.maxStringLength);
        trailer = `... ${remaining} more character${remaining > 1 ? 's' : ''}`;
      }
      if (ctx.compact !== true &&
          // We do not support handling unicode characters width with
          // the readline getStringWidth function as there are
          // performance implications.
          value.length > kMinLineLength &&
          value.length > ctx.breakLength - ctx.indentationLvl - 4) {
        return join(
          ArrayPrototypeMap(
            splitAfterNewlines(value),
            (line) => fn(strEscape(line), 'string'),
          ),
          ` +\n${StringPrototypeRepeat(' ', ctx.indentationLvl + 2)}`,
        ) + trailer;
      }
      return fn(strEscape(value), 'string') + trailer;
    }
    if (typeof value === 'number')
      return formatNumber(fn, value, ctx.numericSeparator);
    if (typeof value === 'bigint')
      return formatBigInt(fn, value, ctx.numericSeparator);
    if (typeof value === 'boolean')
      return fn(`${value}`, 'boolean');
    if (typeof value === 'undefined')
      return fn('undefined', 'undefined');
    // es6 symbol primitive
    return fn(SymbolPrototypeToString(value), 'symbol');
  }

  // The array is sparse and/or has extra keys
  function formatSpecialArray(ctx, value, recurseTimes, maxLength, output, i) {
    const keys = ObjectKeys(value);
    let index = i;
    for (; i < keys.length && output.length < maxLength; i++) {
      const key = keys[i];
      const tmp = +key;
      // Arrays can only have up to 2^32 - 1 entries
      if (tmp > 2 ** 32 - 2) {
        break;
      }
      if (`${index}` !== key) {
        if (!RegExpPrototypeTest(numberRegExp, key)) {
          break;
        }
        const emptyItems = tmp - index;
        const ending = emptyItems > 1 ? 's' : '';
        const message = `<${emptyItems} empty item${ending}>`;
        ArrayPrototypePush(output, ctx.stylize(message, 'undefined'));
        index = tmp;
        if (output.length === maxLength) {
          break;
        }
      }
      ArrayPrototypePush(output, formatProperty(ctx, value, recurseTimes, key, kArrayType));
      index++;
    }
    const remaining = value.length - index;
    if (output.length !== maxLength) {
      if (remaining > 0) {
        const ending = remaining > 1 ? 's' : '';
        const message = `<${remaining} empty item${ending}>`;
        ArrayPrototypePush(output, ctx.stylize(message, 'undefined'));
      }
    } else if (remaining > 0) {
      ArrayPrototypePush(output, remainingText(remaining));
    }
    return output;
  }

  // Two lower-case hex digits for a byte.
  function hexByte(byte) {
    return byte < 16 ? `0${NumberPrototypeToString(byte, 16)}` : NumberPrototypeToString(byte, 16);
  }

  function formatArrayBuffer(ctx, value) {
    let buffer;
    try {
      buffer = new Uint8Array(value);
    } catch {
      return [ctx.stylize('(detached)', 'special')];
    }
    // Node: the hex dump of Buffer.prototype.hexSlice with a space after
    // every byte, trimmed.
    const end = MathMin(ctx.maxArrayLength, buffer.length);
    let str = '';
    for (let i = 0; i < end; i++) {
      str += i === 0 ? hexByte(buffer[i]) : ` ${hexByte(buffer[i])}`;
    }
    const remaining = buffer.length - ctx.maxArrayLength;
    if (remaining > 0)
      str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
    return [`${ctx.stylize('[Uint8Contents]', 'special')}: <${str}>`];
  }

  function formatArray(ctx, value, recurseTimes) {
    const valLen = value.length;
    const len = MathMin(MathMax(0, ctx.maxArrayLength), valLen);

    const remaining = valLen - len;
    const output = [];
    for (let i = 0; i < len; i++) {
      // goja: Node tests ObjectPrototypeHasOwnProperty(value, i) and then
      // formatProperty looks the descriptor up; one lookup serves both here.
      const desc = ObjectGetOwnPropertyDescriptor(value, i);
      // Special handle sparse arrays.
      if (desc === undefined) {
        return formatSpecialArray(ctx, value, recurseTimes, len, output, i);
      }
      output[output.length] = formatProperty(ctx, value, recurseTimes, i, kArrayType, desc);
    }
    if (remaining > 0) {
      ArrayPrototypePush(output, remainingText(remaining));
    }
    return output;
  }

  function formatTypedArray(value, length, ctx, ignored, recurseTimes) {
    const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const remaining = value.length - maxLength;
    const output = new Array(maxLength);
    const elementFormatter = value.length > 0 && typeof value[0] === 'number' ?
      formatNumber :
      formatBigInt;
    for (let i = 0; i < maxLength; ++i) {
      output[i] = elementFormatter(ctx.stylize, value[i], ctx.numericSeparator);
    }
    if (remaining > 0) {
      output[maxLength] = remainingText(remaining);
    }
    if (ctx.showHidden) {
      // .buffer goes last, it's not a primitive like the others.
      // All besides `BYTES_PER_ELEMENT` are actually getters.
      ctx.indentationLvl += 2;
      for (const key of [
        'BYTES_PER_ELEMENT',
        'length',
        'byteLength',
        'byteOffset',
        'buffer',
      ]) {
        const str = formatValue(ctx, value[key], recurseTimes, true);
        ArrayPrototypePush(output, `[${key}]: ${str}`);
      }
      ctx.indentationLvl -= 2;
    }
    return output;
  }

  function formatSet(value, ctx, ignored, recurseTimes) {
    const length = value.size;
    const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const remaining = length - maxLength;
    const output = [];
    ctx.indentationLvl += 2;
    let i = 0;
    for (const v of value) {
      if (i >= maxLength) break;
      ArrayPrototypePush(output, formatValue(ctx, v, recurseTimes));
      i++;
    }
    if (remaining > 0) {
      ArrayPrototypePush(output, remainingText(remaining));
    }
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatMap(value, ctx, ignored, recurseTimes) {
    const length = value.size;
    const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
    const remaining = length - maxLength;
    const output = [];
    ctx.indentationLvl += 2;
    let i = 0;
    for (const { 0: k, 1: v } of value) {
      if (i >= maxLength) break;
      ArrayPrototypePush(
        output,
        `${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`,
      );
      i++;
    }
    if (remaining > 0) {
      ArrayPrototypePush(output, remainingText(remaining));
    }
    ctx.indentationLvl -= 2;
    return output;
  }

  // goja: Node's formatSetIterInner / formatMapIterInner / formatWeakSet /
  // formatWeakMap / formatIterator need V8's previewEntries, which has no
  // goja equivalent. WeakMap and WeakSet are therefore always printed with
  // `<items unknown>`, even with showHidden.
  function formatWeakCollection(ctx) {
    return [ctx.stylize('<items unknown>', 'special')];
  }

  function formatPromise(ctx, value, recurseTimes) {
    let output;
    const { 0: state, 1: result } = hostPromiseState(value);
    if (state === 'pending') {
      output = [ctx.stylize('<pending>', 'special')];
    } else {
      ctx.indentationLvl += 2;
      const str = formatValue(ctx, result, recurseTimes);
      ctx.indentationLvl -= 2;
      output = [
        state === 'rejected' ?
          `${ctx.stylize('<rejected>', 'special')} ${str}` :
          str,
      ];
    }
    return output;
  }

  function formatProperty(ctx, value, recurseTimes, key, type, desc,
                          original) {
    // goja: `original = value` as a default parameter slows every call down.
    if (original === undefined) original = value;
    let name, str;
    let extra = ' ';
    desc = desc || ObjectGetOwnPropertyDescriptor(value, key) ||
      { value: value[key], enumerable: true };
    if (desc.value !== undefined) {
      const diff = (ctx.compact !== true || type !== kObjectType) ? 2 : 3;
      ctx.indentationLvl += diff;
      str = formatValue(ctx, desc.value, recurseTimes);
      if (diff === 3 && ctx.breakLength < getStringWidth(str, ctx.colors)) {
        extra = `\n${StringPrototypeRepeat(' ', ctx.indentationLvl)}`;
      }
      ctx.indentationLvl -= diff;
    } else if (desc.get !== undefined) {
      const label = desc.set !== undefined ? 'Getter/Setter' : 'Getter';
      const s = ctx.stylize;
      const sp = 'special';
      if (ctx.getters && (ctx.getters === true ||
            (ctx.getters === 'get' && desc.set === undefined) ||
            (ctx.getters === 'set' && desc.set !== undefined))) {
        try {
          const tmp = FunctionPrototypeCall(desc.get, original);
          ctx.indentationLvl += 2;
          if (tmp === null) {
            str = `${s(`[${label}:`, sp)} ${s('null', 'null')}${s(']', sp)}`;
          } else if (typeof tmp === 'object') {
            str = `${s(`[${label}]`, sp)} ${formatValue(ctx, tmp, recurseTimes)}`;
          } else {
            const primitive = formatPrimitive(s, tmp, ctx);
            str = `${s(`[${label}:`, sp)} ${primitive}${s(']', sp)}`;
          }
          ctx.indentationLvl -= 2;
        } catch (err) {
          const message = `<Inspection threw (${err.message})>`;
          str = `${s(`[${label}:`, sp)} ${message}${s(']', sp)}`;
        }
      } else {
        str = ctx.stylize(`[${label}]`, sp);
      }
    } else if (desc.set !== undefined) {
      str = ctx.stylize('[Setter]', 'special');
    } else {
      str = ctx.stylize('undefined', 'undefined');
    }
    if (type === kArrayType) {
      return str;
    }
    if (typeof key === 'symbol') {
      const tmp = escapeAll(SymbolPrototypeToString(key));
      name = `[${ctx.stylize(tmp, 'symbol')}]`;
    } else if (key === '__proto__') {
      name = "['__proto__']";
    } else if (desc.enumerable === false) {
      const tmp = escapeAll(key);
      name = `[${tmp}]`;
    } else if (RegExpPrototypeTest(keyStrRegExp, key)) {
      name = ctx.stylize(key, 'name');
    } else {
      name = ctx.stylize(strEscape(key), 'string');
    }
    return `${name}:${extra}${str}`;
  }

  function isBelowBreakLength(ctx, output, start, base) {
    // Each entry is separated by at least a comma. Thus, we start with a total
    // length of at least `output.length`. In addition, some cases have a
    // whitespace in-between each other that is added to the total as well.
    // TODO(BridgeAR): Add unicode support. Use the readline getStringWidth
    // function. Check the performance overhead and make it an opt-in in case it's
    // significant.
    let totalLength = output.length + start;
    // goja: the options are read once; see the note on `ctx` in inspect().
    const { breakLength, colors } = ctx;
    if (totalLength + output.length > breakLength)
      return false;
    for (let i = 0; i < output.length; i++) {
      if (colors) {
        totalLength += removeColors(output[i]).length;
      } else {
        totalLength += output[i].length;
      }
      if (totalLength > breakLength) {
        return false;
      }
    }
    // Do not line up properties on the same line if `base` contains line breaks.
    return base === '' || !StringPrototypeIncludes(base, '\n');
  }

  function reduceToSingleString(
    ctx, output, base, braces, extrasType, recurseTimes, value) {
    if (ctx.compact !== true) {
      if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
        // Memorize the original output length. In case the output is grouped,
        // prevent lining up the entries on a single line.
        const entries = output.length;
        // Group array elements together if the array contains at least six
        // separate entries.
        if (extrasType === kArrayExtrasType && entries > 6) {
          output = groupArrayElements(ctx, output, value);
        }
        // `ctx.currentDepth` is set to the most inner depth of the currently
        // inspected object part while `recurseTimes` is the actual current depth
        // that is inspected.
        //
        // Example:
        //
        // const a = { first: [ 1, 2, 3 ], second: { inner: [ 1, 2, 3 ] } }
        //
        // The deepest depth of `a` is 2 (a.second.inner) and `a.first` has a max
        // depth of 1.
        //
        // Consolidate all entries of the local most inner depth up to
        // `ctx.compact`, as long as the properties are smaller than
        // `ctx.breakLength`.
        if (ctx.currentDepth - recurseTimes < ctx.compact &&
            entries === output.length) {
          // Line up all entries on a single line in case the entries do not
          // exceed `breakLength`. Add 10 as constant to start next to all other
          // factors that may reduce `breakLength`.
          const start = output.length + ctx.indentationLvl +
                        braces[0].length + base.length + 10;
          if (isBelowBreakLength(ctx, output, start, base)) {
            const joinedOutput = join(output, ', ');
            if (!StringPrototypeIncludes(joinedOutput, '\n')) {
              return `${base ? `${base} ` : ''}${braces[0]} ${joinedOutput}` +
                ` ${braces[1]}`;
            }
          }
        }
      }
      // Line up each entry on an individual line.
      const indentation = `\n${StringPrototypeRepeat(' ', ctx.indentationLvl)}`;
      return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ` +
        `${join(output, `,${indentation}  `)}${indentation}${braces[1]}`;
    }
    // Line up all entries on a single line in case the entries do not exceed
    // `breakLength`.
    if (isBelowBreakLength(ctx, output, 0, base)) {
      return `${braces[0]}${base ? ` ${base}` : ''} ${join(output, ', ')} ` +
        braces[1];
    }
    const indentation = StringPrototypeRepeat(' ', ctx.indentationLvl);
    // If the opening "brace" is too large, like in the case of "Set {",
    // we need to force the first item to be on the next line or the
    // items will not line up correctly.
    const ln = base === '' && braces[0].length === 1 ?
      ' ' : `${base ? ` ${base}` : ''}\n${indentation}  `;
    // Line up each entry on an individual line.
    return `${braces[0]}${ln}${join(output, `,\n${indentation}  `)} ${braces[1]}`;
  }

  function hasBuiltInToString(value) {
    // Prevent triggering proxy traps.
    if (hostKind(value) === 'Proxy') {
      const proxyTarget = hostProxyDetails(value);
      if (proxyTarget === null) {
        return true;
      }
      value = proxyTarget[0];
    }

    let hasOwnToString = ObjectPrototypeHasOwnProperty;
    let hasOwnToPrimitive = ObjectPrototypeHasOwnProperty;

    // Count objects without `toString` and `Symbol.toPrimitive` function as built-in.
    if (typeof value.toString !== 'function') {
      if (typeof value[SymbolToPrimitive] !== 'function') {
        return true;
      } else if (ObjectPrototypeHasOwnProperty(value, SymbolToPrimitive)) {
        return false;
      }
      hasOwnToString = returnFalse;
    } else if (ObjectPrototypeHasOwnProperty(value, 'toString')) {
      return false;
    } else if (typeof value[SymbolToPrimitive] !== 'function') {
      hasOwnToPrimitive = returnFalse;
    } else if (ObjectPrototypeHasOwnProperty(value, SymbolToPrimitive)) {
      return false;
    }

    // Find the object that has the `toString` property or `Symbol.toPrimitive` property
    // as own property in the prototype chain.
    let pointer = value;
    do {
      pointer = ObjectGetPrototypeOf(pointer);
    } while (!hasOwnToString(pointer, 'toString') &&
      !hasOwnToPrimitive(pointer, SymbolToPrimitive));

    // Check closer if the object is a built-in.
    const descriptor = ObjectGetOwnPropertyDescriptor(pointer, 'constructor');
    return descriptor !== undefined &&
      typeof descriptor.value === 'function' &&
      isBuiltInObject(descriptor.value.name);
  }

  function returnFalse() {
    return false;
  }

  const firstErrorLine = (error) => StringPrototypeSplit(error.message, '\n', 1)[0];
  let CIRCULAR_ERROR_MESSAGE;
  function tryStringify(arg) {
    try {
      return JSONStringify(arg);
    } catch (err) {
      // Populate the circular error message lazily
      if (!CIRCULAR_ERROR_MESSAGE) {
        try {
          const a = {};
          a.a = a;
          JSONStringify(a);
        } catch (circularError) {
          CIRCULAR_ERROR_MESSAGE = firstErrorLine(circularError);
        }
      }
      if (err.name === 'TypeError' &&
          firstErrorLine(err) === CIRCULAR_ERROR_MESSAGE) {
        return '[Circular]';
      }
      throw err;
    }
  }

  function format(...args) {
    return formatWithOptionsInternal(undefined, args);
  }

  function formatWithOptions(inspectOptions, ...args) {
    if (inspectOptions === null || typeof inspectOptions !== 'object') {
      throw new TypeError('The "inspectOptions" argument must be of type object.');
    }
    return formatWithOptionsInternal(inspectOptions, args);
  }

  function formatNumberNoColor(number, options) {
    return formatNumber(
      stylizeNoColor,
      number,
      options?.numericSeparator ?? inspectDefaultOptions.numericSeparator,
    );
  }

  function formatBigIntNoColor(bigint, options) {
    return formatBigInt(
      stylizeNoColor,
      bigint,
      options?.numericSeparator ?? inspectDefaultOptions.numericSeparator,
    );
  }

  function formatWithOptionsInternal(inspectOptions, args) {
    const first = args[0];
    let a = 0;
    let str = '';
    let join = '';

    if (typeof first === 'string') {
      if (args.length === 1) {
        return first;
      }
      let tempStr;
      let lastPos = 0;

      for (let i = 0; i < first.length - 1; i++) {
        if (StringPrototypeCharCodeAt(first, i) === 37) { // '%'
          const nextChar = StringPrototypeCharCodeAt(first, ++i);
          if (a + 1 !== args.length) {
            switch (nextChar) {
              case 115: { // 's'
                const tempArg = args[++a];
                if (typeof tempArg === 'number') {
                  tempStr = formatNumberNoColor(tempArg, inspectOptions);
                } else if (typeof tempArg === 'bigint') {
                  tempStr = formatBigIntNoColor(tempArg, inspectOptions);
                } else if (typeof tempArg !== 'object' ||
                           tempArg === null ||
                           !hasBuiltInToString(tempArg)) {
                  tempStr = String(tempArg);
                } else {
                  tempStr = inspect(tempArg, {
                    ...inspectOptions,
                    compact: 3,
                    colors: false,
                    depth: 0,
                  });
                }
                break;
              }
              case 106: // 'j'
                tempStr = tryStringify(args[++a]);
                break;
              case 100: { // 'd'
                const tempNum = args[++a];
                if (typeof tempNum === 'bigint') {
                  tempStr = formatBigIntNoColor(tempNum, inspectOptions);
                } else if (typeof tempNum === 'symbol') {
                  tempStr = 'NaN';
                } else {
                  tempStr = formatNumberNoColor(Number(tempNum), inspectOptions);
                }
                break;
              }
              case 79: // 'O'
                tempStr = inspect(args[++a], inspectOptions);
                break;
              case 111: // 'o'
                tempStr = inspect(args[++a], {
                  ...inspectOptions,
                  showHidden: true,
                  showProxy: true,
                  depth: 4,
                });
                break;
              case 105: { // 'i'
                const tempInteger = args[++a];
                if (typeof tempInteger === 'bigint') {
                  tempStr = formatBigIntNoColor(tempInteger, inspectOptions);
                } else if (typeof tempInteger === 'symbol') {
                  tempStr = 'NaN';
                } else {
                  tempStr = formatNumberNoColor(
                    NumberParseInt(tempInteger), inspectOptions);
                }
                break;
              }
              case 102: { // 'f'
                const tempFloat = args[++a];
                if (typeof tempFloat === 'symbol') {
                  tempStr = 'NaN';
                } else {
                  tempStr = formatNumberNoColor(
                    NumberParseFloat(tempFloat), inspectOptions);
                }
                break;
              }
              case 99: // 'c'
                a += 1;
                tempStr = '';
                break;
              case 37: // '%'
                str += StringPrototypeSlice(first, lastPos, i);
                lastPos = i + 1;
                continue;
              default: // Any other character is not a correct placeholder
                continue;
            }
            if (lastPos !== i - 1) {
              str += StringPrototypeSlice(first, lastPos, i - 1);
            }
            str += tempStr;
            lastPos = i + 1;
          } else if (nextChar === 37) {
            str += StringPrototypeSlice(first, lastPos, i);
            lastPos = i + 1;
          }
        }
      }
      if (lastPos !== 0) {
        a++;
        join = ' ';
        if (lastPos < first.length) {
          str += StringPrototypeSlice(first, lastPos);
        }
      }
    }

    while (a < args.length) {
      const value = args[a];
      str += join;
      str += typeof value !== 'string' ? inspect(value, inspectOptions) : value;
      join = ' ';
      a++;
    }
    return str;
  }

  // Node (built with ICU): getStringWidth counts ASCII characters in
  // JavaScript and hands the rest of the string, NFC-normalised, to ICU.
  // goja: host.stringWidth implements the ICU part from generated tables.
  function getStringWidth(str, removeControlChars) {
    let width = 0;
    if (removeControlChars === undefined) removeControlChars = true;

    if (removeControlChars) {
      str = stripVTControlCharacters(str);
    }
    for (let i = 0; i < str.length; i++) {
      // Try to avoid calling into C++ by first handling the ASCII portion of
      // the string. If it is fully ASCII, we skip the C++ part.
      const code = StringPrototypeCharCodeAt(str, i);
      if (code >= 127) {
        width += hostStringWidth(StringPrototypeNormalize(StringPrototypeSlice(str, i), 'NFC'));
        break;
      }
      width += code >= 32 ? 1 : 0;
    }
    return width;
  }

  /**
   * Remove all VT control characters. Use to estimate displayed string width.
   */
  function stripVTControlCharacters(str) {
    return RegExpPrototypeSymbolReplace(getAnsiRegExp(), str, '');
  }

  // Node: internal/util removeColors.
  const colorRegExp = /\u001b\[\d\d?m/g;
  function removeColors(str) {
    return RegExpPrototypeSymbolReplace(colorRegExp, str, '');
  }

  return { inspect, format, formatWithOptions };
})
