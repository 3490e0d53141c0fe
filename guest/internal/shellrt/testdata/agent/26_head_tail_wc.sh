seq 1 100 > n.txt
head -3 n.txt | tr '\n' ' '; echo
tail -n 2 n.txt | tr '\n' ' '; echo
head -c 5 n.txt | tr "\n" ,; echo
tail -c 4 n.txt
sed -n '50p' n.txt
head -n -97 n.txt | wc -l
seq 5 > m.txt
wc -l n.txt m.txt
wc -c < m.txt
head -n 1 n.txt m.txt
