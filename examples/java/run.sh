#!/bin/sh
# Compiles the suite into a temporary directory (nothing is written into the repository) and
# runs it. Run it under the emulator:
#   node bin/svc.js emulator exec --clock manual -- sh examples/java/run.sh   (from this repository)
#   npx svc emulator exec --clock manual -- sh examples/java/run.sh        (a project with svc-toolkit)
set -eu
src="$(dirname "$0")/src"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
javac --release 17 -Xlint:all -Werror -d "$out" $(find "$src" -name '*.java')
java -cp "$out" svcexample.RunTests
