mkdir -p out/a/b out/c
echo one > out/a/1.txt
echo two > out/a/b/2.txt
echo three > out/c/3.md
find out -type f | sort
find out -name '*.txt' | wc -l
for f in out/a/*.txt; do echo "$(basename "$f" .txt): $(cat "$f")"; done
cp -r out copy && ls copy
mv copy/c copy/d && ls copy
rm -rf copy out/c
find out | sort
echo "dirname: $(dirname out/a/b/2.txt)"
