# Namerefs: declare -n and local -n, from the bash manual's "Shell
# Parameters" (a variable whose value names another variable).

#### assign through a nameref
x=1
declare -n r=x
r=2
echo "$x $r"

#### nameref reads the target
a=hello
declare -n ref=a
echo "$ref ${ref} ${#ref}"

#### arithmetic assignment through a nameref
n=5
declare -n r=n
((r += 3))
echo $n
let r*=2
echo $n
r=$((r - 1))
echo $n

#### append through a nameref
s=ab
declare -n r=s
r+=cd
echo $s

#### read into a nameref
declare -n r=target
read r <<< "from read"
echo "$target"

#### printf -v through a nameref
declare -n r=out
printf -v r '%05d' 42
echo "$out"

#### for loop variable is a nameref
a=A b=B c=C
declare -n v
for v in a b c; do echo "$v"; done
v=changed
echo "$c"

#### indirect expansion of a nameref names the target
x=val
declare -n r=x
echo "${!r}"

#### test -R
x=1
declare -n r=x
[[ -R r ]] && echo r is ref
[[ -R x ]] || echo x is not
[[ -R nosuch ]] || echo nosuch is not
test -R r && echo test ok

#### unset through a nameref unsets the target
x=1
declare -n r=x
unset r
echo "x=${x-unset}"
declare -p r

#### unset -n removes the reference
x=1
declare -n r=x
unset -n r
echo "x=$x r=${r-unset}"

#### declare -p of a nameref
x=1
declare -n r=x
declare -p r
declare -n q
declare -p q

#### local -n in a function
f() { local -n ref=$1; ref=inside; }
f var
echo "$var"

#### local -n with arrays
push() { local -n arr=$1; arr+=("$2"); }
list=(a)
push list b
push list c
echo "${list[@]} ${#list[@]}"

#### nameref to an array
arr=(one two three)
declare -n r=arr
echo "${r[1]} ${r[@]} ${#r[@]} ${!r[@]}"
r[1]=TWO
echo "${arr[@]}"

#### nameref to an array element
a=(x y z)
declare -n r='a[1]'
echo "$r"
r=Y
echo "${a[@]}"

#### nameref to an associative array
declare -A m=([k]=v)
declare -n r=m
echo "${r[k]}"
r[j]=w
echo "${m[j]}"

#### circular nameref
declare -n a=b
declare -n b=a
a=1
echo "status $?"
echo "${a-unset}"

#### self reference
declare -n r=r
echo "status $?"

#### invalid nameref target
declare -n r='1abc'
echo "status $?"
declare -n r2='a b'
echo "status $?"

#### nameref to positional is invalid
declare -n r=1
echo "status $?"

#### nameref changes target with declare -n again
a=1 b=2
declare -n r=a
echo $r
declare -n r=b
echo $r

#### nameref assigned after creation
declare -n r
r=target
echo "${!r-empty}"
target=42
echo "$r"

#### nameref with declare +n
x=1
declare -n r=x
declare +n r
echo "$r"
declare -p r

#### nameref to an unset variable then set
declare -n r=later
echo "[${r-unset}]"
r=now
echo "$later"

#### nameref inside function refers to global
g=global
f() { local -n r=g; r=changed; }
f
echo $g

#### local -n to a caller's local
outer() { local v=1; inner v; echo "v=$v"; }
inner() { local -n r=$1; r=2; }
outer

#### nameref and ${r@a}
declare -a arr=(1)
declare -n r=arr
echo "${r@a}"

#### declare -n on an array is an error
declare -a arr=(1 2)
declare -n arr
echo "status $?"

#### nameref integer attribute
declare -i n
declare -n r=n
r=3+4
echo $n

#### nameref export
declare -n r=ev
export r=exported
declare -p ev

#### readonly through nameref
x=1
declare -n r=x
readonly r
x=2
echo "status $? x=$x"

#### nameref ${!name} lists
declare -n r=x
x=5
echo "${r}"
for n in ${!r*}; do echo "name $n"; done

#### nameref in arithmetic
x=7
declare -n r=x
echo $((r * 2))
(( r++ ))
echo $x

#### nameref to array element arithmetic
a=(1 2 3)
declare -n r='a[2]'
(( r += 10 ))
echo "${a[2]}"

#### unset nameref to array element
a=(1 2 3)
declare -n r='a[0]'
unset r
declare -p a

#### nameref chain
x=end
declare -n b=x
declare -n a=b
echo $a
a=new
echo $x

#### declare -n with no value then declare -p
declare -n empty
declare -p empty
echo "[${empty}]"

#### nameref with declare -g in function
f() { declare -gn gr=gv; gv=1; }
f
echo "$gr"
declare -p gr

#### nameref and read -a
declare -n r=arr
read -a r <<< "p q r"
echo "${arr[1]} ${#arr[@]}"

#### mapfile through a nameref
declare -n r=lines
mapfile -t r <<< $'l1\nl2'
echo "${lines[1]}"

#### nameref to a positional-like name in function args
swap() { local -n x=$1 y=$2; local t=$x; x=$y; y=$t; }
a=1 b=2
swap a b
echo "$a $b"

#### nameref returns an array from a function
fill() { local -n out=$1; out=(one two three); }
fill result
declare -p result

#### nameref to associative array in function
count() { local -n m=$1; m[$2]=$(( ${m[$2]:-0} + 1 )); }
declare -A counts
count counts x
count counts x
count counts y
echo "${counts[x]} ${counts[y]}"

#### nameref length and substring
s=abcdef
declare -n r=s
echo "${#r} ${r:1:3} ${r^^} ${r/c/C}"

#### nameref with default operators
declare -n r=unsetvar
echo "${r:-dflt} ${r-dflt2}"
: "${r:=assigned}"
echo "$unsetvar"

#### nameref keys of an array
a=([3]=x [7]=y)
declare -n r=a
echo "${!r[@]}"
echo "${#r[@]}"

#### nameref local shadows
x=global
f() { local x=local; local -n r=x; echo "$r"; r=changed; echo "$x"; }
f
echo "$x"

#### nameref declare -n inside loop reassign
for name in p q; do
  declare -n cur=$name
  cur="value of $name"
done
echo "$p / $q"

#### nameref unset target then assign
x=1
declare -n r=x
unset x
r=2
echo "$x"

#### declare -n with integer target
declare -n r=count
count=5
(( r++ ))
r+=1
echo "$count"

#### nameref printed with declare -p after target change
declare -n r=a
declare -p r
r=1
declare -p a r

#### typeset -n
x=7
typeset -n r=x
echo $r

#### nameref to array element with variable index
a=(zero one two)
i=2
declare -n r="a[$i]"
echo "$r"
r=TWO
echo "${a[2]}"

#### nameref to assoc element
declare -A m=([k]=v)
declare -n r='m[k]'
echo "$r"
r=new
echo "${m[k]}"

#### local -n without value then assign
f() { local -n r; r=tgt; tgt=5; echo "$r"; }
f

#### nameref named in unset -v
x=1
declare -n r=x
unset -v r
echo "[${x-unset}]"
declare -p r

#### A transformation through a nameref
declare -n r=x
x=5
echo "${r@A}" "${r@Q}" "${r@a}"

#### local -p lists the function's variables
f() { local -n r=$1; local v=1; local -a arr=(2); local; echo ---; local -p; }
f target
