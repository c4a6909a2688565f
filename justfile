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

run name seed="0":
    cargo run -p cli -- run scenarios/{{name}}.jsonc --seed {{seed}}

replay name schedule:
    cargo run -p cli -- replay scenarios/{{name}}.jsonc --schedule '{{schedule}}'

bench name runs="20000":
    cargo run --release -p cli -- bench scenarios/{{name}}.jsonc --runs {{runs}}
