# Basic behaviour every other class builds on: echo, status, errors.

#### echo and status
echo hello
false
echo $?

#### command not found
nosuchcommand_xyz
echo "status $?"
