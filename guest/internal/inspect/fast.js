// fast.js: console.log's formatter for plain data, a cut-down copy of
// inspect.js.
//
// Installing inspect.js costs about 2,750 allocations per runtime (its
// closures and the built-ins it captures), which under WebAssembly made the
// first console.log of an object in an execution cost milliseconds. Most
// objects a script prints are plain data: tool results, JSON, literals. This
// script formats exactly those, with the code of inspect.js (same function
// names, same steps), and gives up on anything else, which inspect.js then
// formats. Installing it creates a dozen closures.
//
// Plain data is: primitives other than symbols; objects whose prototype is
// Object.prototype and arrays whose prototype is Array.prototype, that are
// not proxies, have no symbol keys, no accessors and no own `constructor`,
// arrays without holes or extra properties; nested to any depth (inspect
// prints what lies past depth 2 as [Object] and [Array]), without cycles.
// The prototypes must not carry what would change how inspect.js prints such
// values (Symbol.toStringTag, util.inspect.custom, a replaced constructor).
//
// Errors are taken too, as they are what an uncaught exception prints: an
// Error object (new Error, TypeError, ToolError, a class extending Error)
// whose string `stack`, `name` and `message` are data properties, with no
// `cause` or `errors` (inspect.js prints and trims those specially), whose
// every prototype up to Object.prototype has a plain constructor and no
// symbols, and whose own enumerable properties are plain data.
//
// The checks look at own property descriptors only, which run no script
// code for objects that are not proxies, so giving up has no side effect
// that inspect.js would then repeat: no getter or trap runs twice.
//
// The script evaluates to a factory, called with a `host` object (fast.go's
// newFastHost): kind as in inspect.js, the well-known symbols, and the
// string functions below, which run in Go. The factory returns
// { format, inspect }: format(...args) is the string util.format(...args)
// returns, inspect(value) the string util.inspect(value) returns; either
// returns undefined for what it does not format.
(function createFastFormat(host) {
  'use strict';

  // goja builds a built-in the first time it is touched, and some (Reflect,
  // Symbol, RegExp.prototype) all at once: this script touches few. The
  // well-known symbols come from the host; regular expressions are loops.
  const ObjectPrototype = Object.prototype;
  const ObjectGetPrototypeOf = Object.getPrototypeOf;
  const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
  const ObjectGetOwnPropertySymbols = Object.getOwnPropertySymbols;
  const ArrayPrototype = ObjectGetPrototypeOf([]);
  const FunctionPrototype = ObjectGetPrototypeOf(ObjectGetPrototypeOf);
  const SymbolIterator = host.iterator;
  const SymbolUnscopables = host.unscopables;
  const SymbolSpecies = host.species;
  const hostKind = host.kind;
  // The per-character work runs in Go, where it does not allocate: strEscape
  // and getStringWidth are inspect.js's functions of those names (without
  // colors), propertyName its key formatting in formatProperty.
  const strEscape = host.strEscape;
  const getStringWidth = host.getStringWidth;
  const propertyName = host.propertyName;
  const hostV8StyleStack = host.v8StyleStack;

  // bail is thrown to give up; format catches it.
  const bail = { bail: true };

  // checked records, for the format call under way, which kinds of values
  // were found formattable (pristineObjects, pristineArrays).
  const checked = { objects: false, arrays: false };

  // Options: inspect.js's defaults, which console.log uses.
  const kDepth = 2;
  const kBreakLength = 80;
  const kCompact = 3;
  const kMaxArrayLength = 100;
  const kMaxStringLength = 10000;
  const kMinLineLength = 16;
  // Past this many characters a value goes to inspect.js, which bounds its
  // work on huge outputs (its `budget`).
  const kMaxOutput = 1 << 20;

  const kObjectType = 0;
  const kArrayType = 1;
  const kArrayExtrasType = 2;

  // isDataDescriptor: whether desc describes a data property.
  function isDataDescriptor(desc) {
    return desc !== undefined && desc.get === undefined && desc.set === undefined;
  }

  // hasOnlySymbols reports whether obj's own symbol keys are exactly want.
  function hasOnlySymbols(obj, want) {
    const symbols = ObjectGetOwnPropertySymbols(obj);
    if (symbols.length !== want.length) return false;
    for (let i = 0; i < want.length; i++) {
      if (!symbols.includes(want[i])) return false;
    }
    return true;
  }

  // constructorNamed reports whether proto's constructor is a data
  // property holding a function named name whose prototype is proto and
  // whose instanceof is the ordinary one: inspect.js's getConstructorName
  // then names proto's instances name.
  function constructorNamed(proto, name, symbols) {
    const desc = ObjectGetOwnPropertyDescriptor(proto, 'constructor');
    if (!isDataDescriptor(desc) || typeof desc.value !== 'function') return false;
    const ctor = desc.value;
    const nameDesc = ObjectGetOwnPropertyDescriptor(ctor, 'name');
    const protoDesc = ObjectGetOwnPropertyDescriptor(ctor, 'prototype');
    return isDataDescriptor(nameDesc) && nameDesc.value === name &&
      isDataDescriptor(protoDesc) && protoDesc.value === proto &&
      ObjectGetPrototypeOf(ctor) === FunctionPrototype &&
      hasOnlySymbols(ctor, symbols);
  }

  // pristineObjects and pristineArrays report whether the built-ins still
  // look as inspect.js expects for plain objects and arrays: it prints them
  // differently when the prototypes carry Symbol.toStringTag or
  // util.inspect.custom, or their constructors were replaced. They are
  // checked for every call, as the script can change them any time.
  function pristineObjects() {
    return ObjectGetPrototypeOf(ObjectPrototype) === null &&
      hasOnlySymbols(ObjectPrototype, []) &&
      constructorNamed(ObjectPrototype, 'Object', []);
  }
  function pristineArrays() {
    return ObjectGetPrototypeOf(ArrayPrototype) === ObjectPrototype &&
      hasOnlySymbols(ArrayPrototype, [SymbolIterator, SymbolUnscopables]) &&
      constructorNamed(ArrayPrototype, 'Array', [SymbolSpecies]);
  }

  function splitAfterNewlines(value) {
    const lines = [];
    let start = 0;
    let index;
    while ((index = value.indexOf('\n', start)) !== -1 &&
           index + 1 < value.length) {
      lines[lines.length] = value.slice(start, index + 1);
      start = index + 1;
    }
    lines[lines.length] = value.slice(start);
    return lines;
  }

  function formatPrimitive(value, ctx) {
    if (typeof value === 'string') {
      let trailer = '';
      if (value.length > kMaxStringLength) {
        const remaining = value.length - kMaxStringLength;
        value = value.slice(0, kMaxStringLength);
        trailer = `... ${remaining} more character${remaining > 1 ? 's' : ''}`;
      }
      if (value.length > kMinLineLength &&
          value.length > kBreakLength - ctx.indentationLvl - 4) {
        const lines = splitAfterNewlines(value);
        for (let i = 0; i < lines.length; i++) {
          lines[i] = strEscape(lines[i]);
        }
        return lines.join(` +\n${' '.repeat(ctx.indentationLvl + 2)}`) + trailer;
      }
      return strEscape(value) + trailer;
    }
    if (typeof value === 'number') {
      if (value === 0 && 1 / value < 0) {
        return '-0';
      }
      return `${value}`;
    }
    if (typeof value === 'bigint')
      return `${value}n`;
    if (typeof value === 'boolean')
      return `${value}`;
    if (typeof value === 'undefined')
      return 'undefined';
    throw bail; // a symbol
  }

  // formatValue is inspect.js's formatValue and formatRaw for plain data.
  function formatValue(ctx, value, recurseTimes) {
    if (typeof value !== 'object') {
      if (typeof value === 'function') throw bail;
      return formatPrimitive(value, ctx);
    }
    if (value === null) {
      return 'null';
    }
    const kind = hostKind(value);
    if (kind === 'Error') {
      return formatError(ctx, value, recurseTimes);
    }
    const isArray = kind === 'Array';
    if ((!isArray && kind !== '') ||
        ObjectGetPrototypeOf(value) !== (isArray ? ArrayPrototype : ObjectPrototype)) {
      throw bail;
    }
    if (isArray ? !checked.arrays && !(checked.arrays = pristineArrays()) :
      !checked.objects && !(checked.objects = pristineObjects())) {
      throw bail;
    }
    if (ctx.seen.includes(value)) {
      throw bail; // a cycle: inspect.js prints references
    }
    // The keys. An array holds its indices and length only: Reflect.ownKeys
    // lists indices first, in order, so it has no holes when the last index
    // sits right before "length" (inspect.js's getOwnNonIndexProperties
    // makes the same test). Its printed elements, and the one after them
    // that groupArrayElements reads, must be data properties. An object's
    // own properties must all be data properties, of which the enumerable
    // ones print.
    const ownKeys = ObjectGetOwnPropertyNames(value);
    if (ObjectGetOwnPropertySymbols(value).length !== 0) throw bail;
    const keys = [];
    let length = 0;
    if (isArray) {
      length = value.length;
      if (ownKeys.length !== length + 1 || ownKeys[length] !== 'length' ||
          (length > 0 && ownKeys[length - 1] !== `${length - 1}`)) {
        throw bail;
      }
      const read = length <= kMaxArrayLength ? length : kMaxArrayLength + 1;
      for (let i = 0; i < read; i++) {
        if (!isDataDescriptor(ObjectGetOwnPropertyDescriptor(value, i))) throw bail;
      }
    } else {
      for (let i = 0; i < ownKeys.length; i++) {
        const key = ownKeys[i];
        if (key === 'constructor') throw bail;
        const desc = ObjectGetOwnPropertyDescriptor(value, key);
        if (!isDataDescriptor(desc)) throw bail;
        if (desc.enumerable) {
          keys[keys.length] = key;
        }
      }
    }
    const braces = isArray ? ['[', ']'] : ['{', '}'];
    if (isArray ? length === 0 : keys.length === 0) {
      return `${braces[0]}${braces[1]}`;
    }
    if (recurseTimes > kDepth) {
      return isArray ? '[Array]' : '[Object]';
    }
    recurseTimes += 1;
    ctx.seen[ctx.seen.length] = value;
    ctx.currentDepth = recurseTimes;
    const output = [];
    if (isArray) {
      const len = length < kMaxArrayLength ? length : kMaxArrayLength;
      for (let i = 0; i < len; i++) {
        output[output.length] = formatProperty(ctx, value[i], recurseTimes, i, kArrayType);
      }
      const remaining = length - len;
      if (remaining > 0) {
        output[output.length] = `... ${remaining} more item${remaining > 1 ? 's' : ''}`;
      }
    } else {
      for (let i = 0; i < keys.length; i++) {
        output[output.length] = formatProperty(ctx, value[keys[i]], recurseTimes, keys[i], kObjectType);
      }
    }
    ctx.seen.length--;
    const res = reduceToSingleString(
      ctx, output, '', braces, isArray ? kArrayExtrasType : kObjectType, recurseTimes, value);
    if (res.length > kMaxOutput) throw bail;
    return res;
  }

  // formatProperty is inspect.js's for a data property (v is its value).
  function formatProperty(ctx, v, recurseTimes, key, type) {
    let str;
    if (v !== undefined) {
      ctx.indentationLvl += 2;
      str = formatValue(ctx, v, recurseTimes);
      ctx.indentationLvl -= 2;
    } else {
      str = 'undefined';
    }
    if (type === kArrayType) {
      return str;
    }
    return `${propertyName(key)}: ${str}`;
  }

  // checkErrorReads bails unless obj's own properties that inspect.js
  // reads from an error are plain: no cause or errors; name and message,
  // and stack when withStack, data properties, name and message with
  // primitive values (goja builds an error's stack from them when it is
  // first read, and a toString there would be script code).
  function checkErrorReads(obj, withStack) {
    if (ObjectGetOwnPropertyDescriptor(obj, 'cause') !== undefined ||
        ObjectGetOwnPropertyDescriptor(obj, 'errors') !== undefined) {
      throw bail;
    }
    const name = ObjectGetOwnPropertyDescriptor(obj, 'name');
    const message = ObjectGetOwnPropertyDescriptor(obj, 'message');
    if ((name !== undefined && (!isDataDescriptor(name) || !isPrintable(name.value))) ||
        (message !== undefined && (!isDataDescriptor(message) || !isPrintable(message.value)))) {
      throw bail;
    }
    if (withStack && !isDataDescriptor(ObjectGetOwnPropertyDescriptor(obj, 'stack') || {})) {
      throw bail;
    }
  }

  // plainConstructor reports whether ctor is a function that instanceof
  // and a name read treat as ordinary: own data name and prototype (proto),
  // no symbols, and a chain of such functions up to Function.prototype.
  function plainConstructor(ctor, proto) {
    if (typeof ctor !== 'function' || hostKind(ctor) !== 'Function') return false;
    const protoDesc = ObjectGetOwnPropertyDescriptor(ctor, 'prototype');
    if (!isDataDescriptor(protoDesc) || protoDesc.value !== proto) return false;
    for (let f = ctor, depth = 0; f !== FunctionPrototype; depth++) {
      if (depth === 8 || typeof f !== 'function' || hostKind(f) !== 'Function') return false;
      const nameDesc = ObjectGetOwnPropertyDescriptor(f, 'name');
      if (!isDataDescriptor(nameDesc) || !hasOnlySymbols(f, [])) return false;
      f = ObjectGetPrototypeOf(f);
    }
    return true;
  }

  // errorConstructorName checks err's prototype chain, as inspect.js walks
  // it for the constructor name, Symbol.toStringTag, util.inspect.custom
  // and the error properties, and returns the constructor name: that of
  // the first prototype's constructor with a name. err's own stack is left
  // for the caller to read, once everything it is built from is checked.
  function errorConstructorName(err) {
    if (!checked.objects && !(checked.objects = pristineObjects())) throw bail;
    if (ObjectGetOwnPropertyDescriptor(err, 'constructor') !== undefined ||
        !hasOnlySymbols(err, [])) {
      throw bail;
    }
    checkErrorReads(err, false);
    checkErrorReads(ObjectPrototype, true);
    let name = '';
    let p = ObjectGetPrototypeOf(err);
    for (let depth = 0; p !== ObjectPrototype; depth++) {
      // A chain that ends before Object.prototype, a long one, or a proxy
      // on it (whose traps the checks below would run) is left alone.
      if (p === null || depth === 8) throw bail;
      const kind = hostKind(p);
      if ((kind !== '' && kind !== 'Error') || !hasOnlySymbols(p, [])) throw bail;
      const desc = ObjectGetOwnPropertyDescriptor(p, 'constructor');
      if (!isDataDescriptor(desc) || !plainConstructor(desc.value, p)) throw bail;
      if (name === '') {
        name = desc.value.name;
        if (typeof name !== 'string') throw bail;
      }
      checkErrorReads(p, true);
      p = ObjectGetPrototypeOf(p);
    }
    if (name === '') throw bail;
    return name;
  }

  // improveStack is inspect.js's for a constructor that is not null and no
  // tag.
  function improveStack(stack, constructor, name) {
    const len = name.length;
    if (name.endsWith('Error') && stack.startsWith(name) &&
        (stack.length === len || stack[len] === ':' || stack[len] === '\n')) {
      if (name !== constructor) {
        if (constructor.includes(name)) {
          if (len === 0) {
            stack = `${constructor}: ${stack}`;
          } else {
            stack = `${constructor}${stack.slice(len)}`;
          }
        } else {
          stack = `${constructor} [${name}]${stack.slice(len)}`;
        }
      }
    }
    return stack;
  }

  // isPrintable reports whether String(v) runs no script code.
  function isPrintable(v) {
    return v === null || (typeof v !== 'object' && typeof v !== 'function' && typeof v !== 'symbol');
  }

  // formatError is inspect.js's formatValue, formatRaw and formatError for
  // an error without cause or errors.
  function formatError(ctx, err, recurseTimes) {
    if (ctx.seen.includes(err)) {
      throw bail;
    }
    const constructor = errorConstructorName(err);
    const name = err.name != null ? err.name : 'Error';
    const message = err.message;
    const stackDesc = ObjectGetOwnPropertyDescriptor(err, 'stack');
    if (stackDesc !== undefined && !isDataDescriptor(stackDesc)) throw bail;
    const rawStack = err.stack;
    if (typeof name !== 'string' || typeof rawStack !== 'string' || rawStack === '' ||
        (message !== undefined && typeof message !== 'string')) {
      throw bail;
    }
    // The keys: own enumerable properties, less name, message and stack
    // where the stack shows them (removeDuplicateErrorKeys).
    let stack = hostV8StyleStack(rawStack);
    const ownKeys = ObjectGetOwnPropertyNames(err);
    const keys = [];
    for (let i = 0; i < ownKeys.length; i++) {
      const key = ownKeys[i];
      const desc = ObjectGetOwnPropertyDescriptor(err, key);
      if (!isDataDescriptor(desc)) throw bail;
      if (!desc.enumerable) continue;
      if (key === 'name' || key === 'message' || key === 'stack') {
        if (!isPrintable(desc.value)) throw bail;
        if (stack.includes(String(desc.value))) continue;
      }
      keys[keys.length] = key;
    }
    stack = improveStack(stack, constructor, name);
    // Ignore the error message if it's contained in the stack.
    let pos = (message && stack.indexOf(message)) || -1;
    if (pos !== -1)
      pos += message.length;
    // Wrap the error in brackets in case it has no stack trace.
    const stackStart = stack.indexOf('\n    at', pos);
    if (stackStart === -1) {
      stack = `[${stack}]`;
    } else {
      stack = `${stack.slice(0, stackStart)}\n${stack.slice(stackStart + 1)}`;
    }
    // The message and the stack have to be indented as well!
    if (ctx.indentationLvl !== 0) {
      stack = stack.split('\n').join(`\n${' '.repeat(ctx.indentationLvl)}`);
    }
    if (keys.length === 0) {
      return stack;
    }
    if (recurseTimes > kDepth) {
      return `[${constructor}]`;
    }
    recurseTimes += 1;
    ctx.seen[ctx.seen.length] = err;
    ctx.currentDepth = recurseTimes;
    const output = [];
    for (let i = 0; i < keys.length; i++) {
      output[output.length] = formatProperty(ctx, err[keys[i]], recurseTimes, keys[i], kObjectType);
    }
    ctx.seen.length--;
    const res = reduceToSingleString(ctx, output, stack, ['{', '}'], kObjectType, recurseTimes, err);
    if (res.length > kMaxOutput) throw bail;
    return res;
  }

  // groupArrayElements is inspect.js's, without colors.
  function groupArrayElements(ctx, output, value) {
    let totalLength = 0;
    let maxLength = 0;
    let i = 0;
    let outputLength = output.length;
    if (kMaxArrayLength < output.length) {
      outputLength--;
    }
    const separatorSpace = 2;
    const dataLen = new Array(outputLength);
    for (; i < outputLength; i++) {
      const len = getStringWidth(output[i]);
      dataLen[i] = len;
      totalLength += len + separatorSpace;
      if (maxLength < len)
        maxLength = len;
    }
    const actualMax = maxLength + separatorSpace;
    if (actualMax * 3 + ctx.indentationLvl < kBreakLength &&
        (totalLength / actualMax > 5 || maxLength <= 6)) {
      const approxCharHeights = 2.5;
      const averageBias = Math.sqrt(actualMax - totalLength / output.length);
      const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
      const columns = Math.min(
        Math.round(
          Math.sqrt(
            approxCharHeights * biasedMax * outputLength,
          ) / biasedMax,
        ),
        Math.floor((kBreakLength - ctx.indentationLvl) / actualMax),
        kCompact * 4,
        15,
      );
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
      // inspect.js reads value[i] for i up to output.length - 1, one past
      // the last printed element when the rest is cut: formatValue checked
      // that every index holds a data property.
      let padStart = true;
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
          padStart = false;
          break;
        }
      }
      for (let i = 0; i < outputLength; i += columns) {
        const max = Math.min(i + columns, outputLength);
        let str = '';
        let j = i;
        for (; j < max - 1; j++) {
          const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
          str += padStart ? `${output[j]}, `.padStart(padding, ' ') : `${output[j]}, `.padEnd(padding, ' ');
        }
        if (padStart) {
          const padding = maxLineLength[j - i] +
                          output[j].length -
                          dataLen[j] -
                          separatorSpace;
          str += output[j].padStart(padding, ' ');
        } else {
          str += output[j];
        }
        tmp[tmp.length] = str;
      }
      if (kMaxArrayLength < output.length) {
        tmp[tmp.length] = output[outputLength];
      }
      output = tmp;
    }
    return output;
  }

  function isBelowBreakLength(ctx, output, start, base) {
    let totalLength = output.length + start;
    if (totalLength + output.length > kBreakLength)
      return false;
    for (let i = 0; i < output.length; i++) {
      totalLength += output[i].length;
      if (totalLength > kBreakLength) {
        return false;
      }
    }
    return base === '' || !base.includes('\n');
  }

  // reduceToSingleString is inspect.js's for compact: 3.
  function reduceToSingleString(
    ctx, output, base, braces, extrasType, recurseTimes, value) {
    const entries = output.length;
    if (extrasType === kArrayExtrasType && entries > 6) {
      output = groupArrayElements(ctx, output, value);
    }
    if (ctx.currentDepth - recurseTimes < kCompact &&
        entries === output.length) {
      const start = output.length + ctx.indentationLvl +
                    braces[0].length + base.length + 10;
      if (isBelowBreakLength(ctx, output, start, base)) {
        const joinedOutput = output.join(', ');
        if (!joinedOutput.includes('\n')) {
          return `${base ? `${base} ` : ''}${braces[0]} ${joinedOutput}` +
            ` ${braces[1]}`;
        }
      }
    }
    const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
    return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ` +
      `${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
  }

  function inspect(value) {
    const ctx = { indentationLvl: 0, seen: [], currentDepth: 0 };
    return formatValue(ctx, value, 0);
  }

  return {
    // format is util.format for arguments without format directives; it
    // returns undefined for anything it does not format.
    format(...args) {
      if (args.length > 1 && typeof args[0] === 'string' && args[0].includes('%')) {
        return undefined;
      }
      checked.objects = false;
      checked.arrays = false;
      try {
        let str = '';
        for (let a = 0; a < args.length; a++) {
          const value = args[a];
          if (a > 0) str += ' ';
          str += typeof value !== 'string' ? inspect(value) : value;
        }
        return str;
      } catch (err) {
        if (err === bail) {
          return undefined;
        }
        throw err;
      }
    },
    // inspect is util.inspect(value); it returns undefined for what it
    // does not format.
    inspect(value) {
      checked.objects = false;
      checked.arrays = false;
      try {
        return inspect(value);
      } catch (err) {
        if (err === bail) {
          return undefined;
        }
        throw err;
      }
    },
  };
})
