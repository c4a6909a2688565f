# Developer shortcuts; every recipe is a plain cargo command (see README.md).

check: fmt lint test

fmt:
    cargo fmt --all --check

lint:
    cargo clippy --workspace --all-targets -- -D warnings

test:
    cargo test --workspace

snap:
    cargo insta test --workspace --review

main:
    cargo run --release -p cli -- check scenarios/

# The independence relation the reduced search relies on, checked at every choice point.
audit:
    cargo run --release -p cli -- audit $(find scenarios fixtures/bench/three-executions.jsonc -name '*.jsonc' | sort)

run name seed="0":
    cargo run -p cli -- run scenarios/{{name}}.jsonc --seed {{seed}}

replay name schedule:
    cargo run -p cli -- replay scenarios/{{name}}.jsonc --schedule '{{schedule}}'

bench name runs="20000":
    cargo run --release -p cli -- bench scenarios/{{name}}.jsonc --runs {{runs}}

# Exploration throughput, memory per state and reduction on the benchmark fixtures.
bench-explore naive="2000000":
    cargo run --release -p cli -- bench-explore --naive-max-states {{naive}} fixtures/bench/*.jsonc

# `explore --jobs 1` against `--jobs 2` (wall and CPU time, interleaved; issue 30): the bench
# fixtures, the n-calls family and the Promela race race-N4-U1 (tools/bench-jobs.py says how).
bench-jobs reps="3" *only:
    cargo build --release -p cli
    python3 tools/bench-jobs.py --reps {{reps}} {{only}}

# Instructions one search executes on its own thread (for comparing builds; needs valgrind):
# with the witnesses the search met, since the fewest-choice passes run on a thread of their
# own. The progress display's thread is counted apart: after 5 s it runs Knuth's estimate, whose
# share depends on timing (0.6 % of race-N3-U1's total from one run to the next; the search's
# thread varies by 0.02 %). Valgrind's messages are printed when it fails.
bench-instructions fixture="three-executions":
    cargo build --release -p cli
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file=target/callgrind.out target/release/webmcp-sim explore --witnesses-as-found --split-depth 0 fixtures/bench/{{fixture}}.jsonc > /dev/null 2> target/callgrind.err || (cat target/callgrind.err; exit 1)
    grep -h '^summary' target/callgrind.out-01

# The tests that need headless Chromium and the Mermaid parser (`cargo test` reports them as ignored).
external:
    npm ci --prefix tools/mermaid-check --no-audit --no-fund
    cargo test -p cli -- --ignored
