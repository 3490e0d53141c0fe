# Indexed and associative arrays, from the bash manual's "Arrays" and
# "Parameter Expansion" (${parameter@operator}), and declare -p output.

#### compound assignment with indices
a=([3]=c [1]=a b)
declare -p a
echo "${#a[@]} ${!a[@]}"

#### mixed indices continue after the last
a=(x [5]=y z [2]=w v)
declare -p a

#### negative index in compound assignment
a=(1 2 3)
a[-1]=last
declare -p a
echo "${a[-2]}"

#### negative index out of range
a=(1 2)
a[-5]=x
echo "status $?"
echo "${a[-5]}"
echo "status $?"

#### append to array
a=(1)
a+=(2 3)
a+=([10]=ten)
a+=(eleven)
declare -p a

#### append to element
a=(x y)
a[1]+=z
a[5]+=new
declare -p a

#### sparse array
a=()
a[10]=ten
a[2]=two
a[100]=hundred
echo "${#a[@]}"
echo "${!a[@]}"
echo "${a[@]}"

#### sparse slice
a=([1]=a [5]=b [6]=c [9]=d)
echo "${a[@]:2}"
echo "${a[@]:5:2}"
echo "${a[@]:1:2}"
echo "${a[@]: -2}"

#### array slice
a=(a b c d e)
echo "${a[@]:1:2}"
echo "${a[*]:3}"
echo "${a[@]:0:1}"

#### assoc keys with spaces and quotes
declare -A m
m["a b"]=1
m['x"y']=2
m[']']=3
k='c d'
m[$k]=4
echo "${m["a b"]} ${m['x"y']} ${m[']']} ${m[$k]} ${m["c d"]}"
declare -p m

#### assoc compound assignment
declare -A m=([one]=1 [two]=2 ["three 3"]=3)
echo "${m[one]} ${m["three 3"]} ${#m[@]}"

#### assoc key order
declare -A m
for k in apple banana cherry date elderberry fig grape; do m[$k]=${#k}; done
echo "${!m[@]}"
echo "${m[@]}"

#### assoc key order with numbers
declare -A m=([1]=a [2]=b [10]=c [20]=d [x]=e)
echo "${!m[@]}"
declare -p m

#### unset whole array with at
a=(1 2 3)
unset 'a[@]'
declare -p a
echo "${#a[@]}"

#### unset element
a=(1 2 3 4)
unset 'a[1]'
declare -p a
unset 'a[-1]'
declare -p a

#### unset negative index
a=(1 2 3)
unset a[-1]
echo "${a[@]}"
unset 'a[-9]'
echo "status $?"

#### unset assoc element
declare -A m=([a]=1 [b]=2 ["c d"]=3)
unset 'm[a]'
unset 'm[c d]'
declare -p m
unset 'm[@]'
declare -p m

#### scalar as array
s=hello
echo "${s[0]} ${s[@]} ${#s[@]} [${s[1]}]"
echo "[${s[""]}]"

#### index zero of scalar assign
s=hello
s[1]=world
declare -p s

#### length of elements
a=(one three)
echo "${#a[1]} ${#a[@]} ${#a}"

#### at and star transformations
a=(x 'y z')
declare -a b=(1)
declare -A m=([k]=v)
declare -i i=3
declare -r r=1
echo "${a@a} ${b@a} ${m@a} ${i@a} ${r@a}"
s=plain
echo "[${s@a}]"

#### A transformation
s='it'\''s'
echo "${s@A}"
a=(1 'two 2')
echo "${a@A}"
declare -A m=([k]=v)
echo "${m@A}"
declare -i n=5
echo "${n@A}"

#### K and k transformations
a=(1 'two 2')
echo "${a[@]@K}"
echo "${a[@]@k}"
declare -A m=([x]=1)
echo "${m[@]@K}"
s=abc
echo "${s@K}"

#### Q transformation
s="a'b c"
echo "${s@Q}"
a=(x 'y z' "")
echo "${a[@]@Q}"
t=$'tab\there'
echo "${t@Q}"

#### E transformation
s='a\tb\n'
echo "${s@E}"
printf '%s|' "${s@E}"; echo

#### P transformation simple
s='plain \\ text'
echo "${s@P}"

#### case transformations
s='hello World'
echo "${s@U} ${s@u} ${s@L}"
a=(ab cd)
echo "${a[@]@U}"
echo "${a[@]@u}"

#### declare -p of arrays
a=()
declare -p a
b=('' 'x y' 'q"uote' 'd$ollar')
declare -p b
declare -A c=()
declare -p c

#### declare -a on existing scalar
s=val
declare -a s
declare -p s

#### declare -A on existing indexed array is an error
a=(1 2)
declare -A a
echo "status $?"
declare -p a

#### declare -a on assoc is an error
declare -A m
declare -a m
echo "status $?"

#### assignment to assoc without index
declare -A m
m=v
declare -p m

#### assoc with compound list of pairs
declare -A m=(k1 v1 k2 v2)
echo "${m[k1]} ${m[k2]}"

#### unbound array element under set -u
(
set -u
a=(1)
echo "${a[5]-default}"
echo "${a[5]}"
echo notreached
)
echo "status $?"

#### bad array subscript
a=(1 2)
echo "${a[-3]}"
echo "status $?"

#### arithmetic in index
a=(0 1 2 3 4)
i=2
echo "${a[i+1]} ${a[$i*2]} ${a[i]}"
a[i*2]=x
echo "${a[4]}"

#### assoc index is not arithmetic
declare -A m
i=5
m[i+1]=a
echo "${!m[@]}"

#### array in arithmetic
a=(5 10)
echo $(( a + a[1] ))

#### empty assoc key is an error
declare -A m
m[""]=x
echo "status $?"

#### copy array
a=(1 '2 3' 4)
b=("${a[@]}")
echo "${#b[@]} ${b[1]}"

#### array elements with glob characters
a=('*' '?')
echo "${a[@]}"
echo "${a[*]}"

#### keys of indexed array
a=([4]=a [2]=b [7]=c)
for k in "${!a[@]}"; do echo "$k=${a[$k]}"; done

#### pattern operators on arrays
a=(apple banana cherry)
echo "${a[@]#?}"
echo "${a[@]%a*}"
echo "${a[@]/a/A}"
echo "${a[@]//a/}"

#### readonly array
declare -ra r=(1 2)
r[0]=5
echo "status $?"
echo "${r[@]}"

#### declare -p with integer array
declare -ai n=(1+1 2*3)
declare -p n

#### local array in function
f() { local -a x=(1 2); x+=(3); echo "${x[@]}"; }
f
echo "[${x[@]}]"

#### assoc length and element length
declare -A m=([a]=xyz [b]=q)
echo "${#m[@]} ${#m[a]}"

#### declare -A conversion of scalar
s=val
declare -A s
declare -p s

#### assoc with at transformations
declare -A m=([k]='v w')
echo "${m[@]@Q}"
echo "${m[k]@Q}"

#### assoc iteration order with many keys
declare -A m
for k in red green blue cyan magenta yellow black white orange purple; do m[$k]=1; done
echo "${!m[@]}"
for k in "${!m[@]}"; do printf '%s ' "$k"; done; echo

#### assoc order after unset and reinsert
declare -A m=([a]=1 [b]=2 [c]=3 [d]=4)
unset 'm[b]'
m[b]=5
m[e]=6
echo "${!m[@]}"
echo "${m[@]}"

#### assoc keys with numbers and symbols order
declare -A m
for k in 100 200 key-1 key_2 'a.b' 'x/y' 'UPPER' 'MiXed'; do m[$k]=v; done
echo "${!m[@]}"

#### assoc declare -p with special keys
declare -A m
m[a=b]=1
m['$x']=2
m[tab$'\t']=3
m[é]=4
declare -p m

#### assoc values with at K
declare -A m=([one]=1 [two]='2 2')
echo "${m[@]@K}"
printf '[%s]' "${m[@]@k}"; echo

#### indexed array A transformation of elements
a=(x y)
echo "${a[0]@A}" "${a[@]@A}"

#### printf with array elements
a=(1 2 3)
printf '<%s>' "${a[@]}"; echo
printf '%s,' "${a[*]}"; echo

#### array append with +=
a=()
for i in 1 2 3; do a+=("item $i"); done
printf '[%s]' "${a[@]}"; echo
echo "${#a[@]} ${#a[2]}"

#### string append to array element zero
a=(x y)
a+=z
declare -p a

#### array assignment from command substitution
a=($(printf '%s\n' one 'two three'))
echo "${#a[@]}"
IFS=$'\n' b=($(printf '%s\n' one 'two three'))
echo "${#b[@]} ${b[1]}"

#### unset middle then append
a=(0 1 2 3)
unset 'a[1]' 'a[3]'
a+=(new)
declare -p a

#### negative index read
a=(1 2 3)
echo "${a[-1]} ${a[-3]} ${a[@]: -1}"
a=([5]=x [9]=y)
echo "${a[-1]} [${a[-2]}]"

#### element count of empty and unset
a=()
echo "${#a[@]} [${a[@]}] [${a[*]}]"
unset b
echo "${#b[@]}"

#### array in double bracket and test
a=(x y)
[[ ${a[1]} == y ]] && echo yes
[[ -v a[1] ]] && echo set1
[[ -v a[5] ]] || echo unset5
declare -A m=([k]=v)
[[ -v m[k] ]] && echo mk
[[ -v m[z] ]] || echo nomz

#### array of arrays via declare -p eval
a=(1 '2 3')
s=$(declare -p a)
unset a
eval "$s"
echo "${a[1]}"

#### read -a into existing array
a=(old old old old)
read -ra a <<< 'x y'
declare -p a

#### mapfile into array
mapfile -t lines <<< $'a\nb\n\nc'
declare -p lines
echo "${#lines[@]}"

#### assoc assignment with += compound
declare -A m=([a]=1)
m+=([b]=2 [a]=3)
echo "${m[a]} ${m[b]} ${#m[@]}"

#### declare -a with compound and attributes
declare -a -i n=(1 2+3)
n+=(4*2)
echo "${n[@]}"
declare -p n

#### declare -l and -u arrays
declare -l low=(ABC DeF)
declare -u up=(abc)
echo "${low[@]} ${up[@]}"

#### array of words with glob chars kept
a=('*.txt' '[ab]')
for x in "${a[@]}"; do echo "$x"; done

#### unset whole array
a=(1 2)
unset a
echo "[${a[@]}] ${#a[@]}"
declare -p a

#### arrays in arithmetic for
a=(3 1 2)
sum=0
for ((i = 0; i < ${#a[@]}; i++)); do (( sum += a[i] )); done
echo $sum

#### sparse index arithmetic
a=()
a[2**3]=x
a[010]=octal
echo "${!a[@]}"

#### assoc with numeric-looking keys
declare -A m
m[01]=a
m[1]=b
echo "${m[01]} ${m[1]} ${#m[@]}"

#### index list of assoc quoted
declare -A m=(["a b"]=1 [c]=2)
for k in "${!m[@]}"; do echo "<$k>"; done

#### assoc keys sharing a bucket list most recent first
declare -A m
m[k8]=1; m[k116]=2
echo "${!m[@]}"
declare -A n=([k116]=1 [k8]=2)
n[k8]=3
echo "${!n[@]}"
unset 'n[k116]'
n[k116]=4
echo "${!n[@]}"
declare -p n

#### declare with a quoted compound value
declare -a b="(1 '2 3')"
declare -p b
declare -A m="([k]=v [j]=w)"
echo "${m[k]} ${m[j]}"
declare -a q=("(x)")
declare -p q
f() { local -a x="(a b)"; declare -p x; }
f

#### declare -p of attributes and control characters
declare -ra ra=(1)
declare -Ar rm=([k]=v)
declare -ax ex=(1)
declare -p ra rm ex
x=$'a\x01b'
y=$'tab\there'
declare -p x y
declare -A m=(['a"b']=1 ['$k']=2 [' ']=3 ['#h']=4 ['~t']=5 ['a~']=6 ['a=~']=7)
declare -p m

#### assoc subscripts are text with their spaces
declare -A m
m["i + 1"]=x
echo "${m[i + 1]}"
m[a+b]=y
x=1
m[$x + 2]=w
echo "${m[$x + 2]}"
for k in "${!m[@]}"; do echo "<$k>"; done

#### assoc order after the table grows
declare -A m
for ((i = 0; i < 2100; i++)); do m[k$i]=$i; done
printf '%s\n' "${!m[@]}" | head -4
printf '%s\n' "${!m[@]}" | tail -3
echo "${#m[@]}"

#### unquoted assoc subscripts with blanks
declare -A m
m["a b"]=1
echo "${m[a b]}"
m[c d]=2
echo "${m["c d"]}" ${#m[@]}
a=(1 2 3)
echo "${a[1 + 1]}"

#### declared arrays without values
declare -a arr1
readonly -a arr2
declare -A d1
readonly -A d2
declare -ra arr3
declare -p arr1 arr2 d1 d2 arr3
echo "${arr2@a}" "${arr1@a}" "${#arr1[@]}"
readonly -a ro=(1 2)
declare -p ro
