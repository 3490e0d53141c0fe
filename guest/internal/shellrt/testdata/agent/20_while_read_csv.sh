cat > people.csv <<'CSV'
name,city,age
Ann,Paris,31
Bob,Oslo,25
Cy,Paris,44
CSV
while IFS=, read -r name city age; do
  [ "$name" = name ] && continue
  echo "$name lives in $city ($age)"
done < people.csv
tail -n +2 people.csv | while IFS=, read -r n c a; do echo "$c"; done | sort | uniq -c
oldIFS=$IFS; IFS=,; set -- a,b,c; echo "$# $2"; IFS=$oldIFS
