cat > sales.csv <<'CSV'
region,product,units,price
north,widget,10,2.50
south,widget,4,2.50
north,gadget,3,10.00
east,widget,7,2.50
south,gadget,8,10.00
north,widget,5,2.50
CSV
tail -n +2 sales.csv | awk -F, '{ rev[$1] += $3 * $4 } END { for (r in rev) printf "%s %.2f\n", r, rev[r] }' | sort -k2 -rn
echo "products: $(tail -n +2 sales.csv | cut -d, -f2 | sort -u | tr '\n' ' ')"
awk -F, 'NR > 1 && $2 == "widget" { n++; u += $3 } END { print n, u }' sales.csv
