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
