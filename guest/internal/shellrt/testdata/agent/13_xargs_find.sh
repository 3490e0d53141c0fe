mkdir -p src/pkg
for n in a b c; do echo "package $n" > src/pkg/$n.go; done
echo "// TODO fix" >> src/pkg/b.go
find src -name '*.go' | sort | xargs grep -l TODO
find src -name '*.go' | sort | xargs -n1 basename
echo "1 2 3 4" | xargs -n2 echo pair
ls src/pkg | xargs -I{} echo "file: {}"
find src -type f -name '*.go' -exec wc -l {} + | sort | tail -1
