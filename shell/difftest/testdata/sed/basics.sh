# requires: gnu-sed

#### substitute
printf 'abc\nabd\n' | sed 's/b/X/'

#### unknown command
echo a | sed 'k'
echo "status $?"
