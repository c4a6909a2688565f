#!/bin/bash
# Clean builds of each engine's binary alone, each into its own empty target dir under target/, timed.
cd "$(dirname "$0")"
run() {
  name=$1; shift
  dir=target/clean-$name
  rm -rf "$dir"
  echo "== $name: $* (uptime before: $(uptime))"
  CARGO_TARGET_DIR=$dir /usr/bin/time -f "$name wall %e s, user %U s, sys %S s, cpu %P, maxrss %M KB" cargo "$@" 2>&1 | grep -E "Finished|wall|error" 
  echo "   uptime after: $(uptime)"
}
run qjs-release build --release --features quickjs --bin bench-quickjs
run qjs-debug build --features quickjs --bin bench-quickjs
run boa-release build --release --features boa --bin bench-boa
run boa-debug build --features boa --bin bench-boa
run boalean-release build --release --features boa-lean --bin bench-boa
run boalean-debug build --features boa-lean --bin bench-boa
ls -l target/clean-*/release/bench-* target/clean-*/debug/bench-* 
echo ALLDONE
