const s = "Hello, World"
console.log(s.toUpperCase(), s.length, s.split(", "), s.slice(-5))
console.log(`template ${1 + 2} ${[1, 2].join("-")}`)
console.log("a\tb", 'quote "x"', "it's")
console.log(["it's", 'say "hi"', `both ' and "`])
console.log("padded".padStart(10, "*"), "x".repeat(3), " trim ".trim())
console.log("%s is %d years", "Ada", 36.5, "extra")
console.log("unicode: héllo ✓ 日本", "日本".length)
console.log(encodeURIComponent("a b&c"), decodeURIComponent("%E2%9C%93"))
