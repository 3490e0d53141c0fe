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
// The checks look at own property descriptors only, which run no script
// code for objects that are not proxies, so giving up has no side effect
// that inspect.js would then repeat: no getter or trap runs twice.
//
// The script evaluates to a factory, called with the same `host` as
// inspect.js (kind and stringWidth are used). The factory returns
// format(args): the string util.format(...args) returns, or undefined.
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
  const hostStringWidth = host.stringWidth;

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

  // needsEscape is inspect.js's test with strEscapeSequencesRegExp (and
  // with strEscapeSequencesRegExpSingle when singleQuote is not 39).
  function needsEscape(str, singleQuote) {
    for (let i = 0; i < str.length; i++) {
      const c = str.charCodeAt(i);
      if (c < 0x20 || c === 0x5c || (c >= 0x7f && c <= 0x9f) ||
          (c >= 0xd800 && c <= 0xdfff) || (c === 0x27 && singleQuote === 39)) {
        return true;
      }
    }
    return false;
  }

  // isIdentifierKey is inspect.js's test with keyStrRegExp,
  // /^[a-zA-Z_][a-zA-Z_0-9]*$/.
  function isIdentifierKey(key) {
    if (key.length === 0) return false;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 ||
            (i > 0 && c >= 48 && c <= 57))) {
        return false;
      }
    }
    return true;
  }

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

  function addQuotes(str, quotes) {
    if (quotes === -1) {
      return `"${str}"`;
    }
    if (quotes === -2) {
      return `\`${str}\``;
    }
    return `'${str}'`;
  }

  // strEscape is inspect.js's.
  function strEscape(str) {
    let singleQuote = 39;
    if (str.includes("'")) {
      if (!str.includes('"')) {
        singleQuote = -1;
      } else if (!str.includes('`') && !str.includes('${')) {
        singleQuote = -2;
      }
    }
    if (!needsEscape(str, singleQuote))
      return addQuotes(str, singleQuote);
    let result = '';
    let last = 0;
    for (let i = 0; i < str.length; i++) {
      const point = str.charCodeAt(i);
      if (point === singleQuote ||
          point === 92 ||
          point < 32 ||
          (point > 126 && point < 160)) {
        if (last === i) {
          result += meta[point];
        } else {
          result += `${str.slice(last, i)}${meta[point]}`;
        }
        last = i + 1;
      } else if (point >= 0xd800 && point <= 0xdfff) {
        if (point <= 0xdbff && i + 1 < str.length) {
          const point = str.charCodeAt(i + 1);
          if (point >= 0xdc00 && point <= 0xdfff) {
            i++;
            continue;
          }
        }
        result += `${str.slice(last, i)}\\u${point.toString(16)}`;
        last = i + 1;
      }
    }
    if (last !== str.length) {
      result += str.slice(last);
    }
    return addQuotes(result, singleQuote);
  }

  // getStringWidth is inspect.js's without control-character removal,
  // which is how groupArrayElements calls it without colors.
  function getStringWidth(str) {
    let width = 0;
    for (let i = 0; i < str.length; i++) {
      const code = str.charCodeAt(i);
      if (code >= 127) {
        width += hostStringWidth(str.slice(i).normalize('NFC'));
        break;
      }
      width += code >= 32 ? 1 : 0;
    }
    return width;
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
    let name;
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
    if (key === '__proto__') {
      name = "['__proto__']";
    } else if (isIdentifierKey(key)) {
      name = key;
    } else {
      name = strEscape(key);
    }
    return `${name}: ${str}`;
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

  // format is util.format for arguments without format directives; it
  // returns undefined for anything it does not format.
  return function format(...args) {
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
  };
})
