echo first > f.txt
echo second >> f.txt
cat f.txt
wc -l < f.txt
{ echo x; echo y; } > g.txt; cat g.txt | tr '\n' ','; echo
echo oops 2> err.txt >&2; cat err.txt | wc -c
ls nope 2> e2.txt; grep -c "No such file" e2.txt
cat <<< "here string"
exec 3> fd3.txt; echo "via fd3" >&3; exec 3>&-; cat fd3.txt
tee t1.txt t2.txt <<< "teed" > /dev/null; cat t1.txt t2.txt
