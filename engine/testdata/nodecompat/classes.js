class Animal {
  constructor(name) { this.name = name }
  speak() { return `${this.name} makes a sound` }
}
class Dog extends Animal {
  #secret = 1
  speak() { return `${this.name} barks` }
  get upper() { return this.name.toUpperCase() }
  static create(n) { return new Dog(n) }
}
const d = Dog.create("Rex")
console.log(d.speak(), d.upper, d instanceof Animal)
console.log(d)
console.log(new Animal("Cat"))
console.log(Object.keys(d), typeof Dog)
class Empty {}
console.log(new Empty())
