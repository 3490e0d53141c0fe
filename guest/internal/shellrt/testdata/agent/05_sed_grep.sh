cat > app.log <<'LOG'
2026-11-20 10:00:01 INFO start server port=8080
2026-11-20 10:00:02 WARN slow request path=/api/users ms=1200
2026-11-20 10:00:03 ERROR db timeout path=/api/orders
2026-11-20 10:00:04 INFO request path=/api/users ms=30
2026-11-20 10:00:05 ERROR db timeout path=/api/users
LOG
grep -c ERROR app.log
grep -E 'WARN|ERROR' app.log | sed -E 's/^[0-9-]+ [0-9:]+ //' 
grep -o 'path=[^ ]*' app.log | sort | uniq -c | sort -rn
sed -n '2,3p' app.log | cut -d' ' -f3
sed 's/ms=\([0-9]*\)/\1 ms/' app.log | grep ' ms' 
grep -v INFO app.log | wc -l
sed -i 's/ERROR/E/g' app.log && grep -c '^2026.* E ' app.log
