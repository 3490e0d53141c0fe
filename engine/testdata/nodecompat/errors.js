try { null.prop } catch (e) { console.log(e.name, e instanceof TypeError) }
try { undefinedVar } catch (e) { console.log(e.name + ": " + e.message) }
try { throw new RangeError("bad range") } catch (e) { console.log(String(e)) }
class MyError extends Error { constructor(m) { super(m); this.name = "MyError"; this.code = 42 } }
try { throw new MyError("custom") } catch (e) { console.log(e.name, e.message, e.code, e instanceof Error) }
const e = new Error("with cause", {cause: "root"})
console.log(e.message, e.cause)
function f() { try { return "try" } finally { console.log("finally runs") } }
console.log(f())
